/**
 * `rgraph install <harness>`: wires rgraph's hooks and MCP server into one
 * harness's configuration (see `lib/install/`). `rgraph uninstall` shares this
 * module's flags and report.
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { UsageError } from "../lib/errors.ts";
import {
  applyPlan,
  HARNESS_IDS,
  type HarnessId,
  makePlan,
  type Plan,
  planDiff,
  relative,
} from "../lib/install/mod.ts";

function spec(action: Plan["action"]) {
  return {
    name: action,
    summary: action === "install"
      ? "Wire rgraph's hooks and MCP server into a harness's configuration (merging, idempotent)"
      : "Remove exactly what 'rgraph install' added to a harness's configuration",
    usage: `rgraph ${action} <${
      HARNESS_IDS.join("|")
    }> [--scope project|user] [--dir PATH] [--dry-run] [--command CMD]`,
    positionals: "<harness>",
    options: {
      scope: {
        type: "string",
        arg: "SCOPE",
        help:
          "project (the directory; the default) or user (your home: every project; what 'deno task setup' uses)",
      },
      dir: {
        type: "string",
        arg: "PATH",
        help: "the project directory (default: the current directory)",
      },
      "dry-run": {
        type: "boolean",
        help: "print the diff of every file it would change; change nothing",
      },
      command: {
        type: "string",
        arg: "CMD",
        help: action === "install"
          ? "the command harnesses run for rgraph (default: this rgraph, by absolute path)"
          : "the command given to 'rgraph install --command', to find hooks it does not recognise",
      },
    },
    examples: action === "install"
      ? [
        {
          does: "Claude Code, for every project of yours",
          run: "rgraph install claude-code --scope user",
        },
        {
          does: "Codex, in this project only (then trust its hooks in /hooks)",
          run: "rgraph install codex",
        },
        {
          does: "show what it would change, and change nothing",
          run: "rgraph install cursor --scope user --dry-run",
        },
      ] as const
      : [
        {
          does: "take rgraph out of Claude Code for your user",
          run: "rgraph uninstall claude-code --scope user",
        },
        { does: "take rgraph out of this project's Codex config", run: "rgraph uninstall codex" },
      ] as const,
  } as const;
}

function isHarness(name: string): name is HarnessId {
  return (HARNESS_IDS as readonly string[]).includes(name);
}

/**
 * Runs `rgraph install|uninstall ARGS`; returns the exit code. Shared with
 * `uninstall.ts`: the two take the same flags and report alike.
 */
export async function setupMain(action: Plan["action"], args: string[]): Promise<number> {
  const s = spec(action);
  const parsed = parseCommand(s, args);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const valid = HARNESS_IDS.join(", ");
  if (positionals.length !== 1) {
    throw new UsageError(`rgraph ${action}: name one harness (${valid})`);
  }
  const harness = positionals[0];
  if (!isHarness(harness)) {
    throw new UsageError(`rgraph ${action}: unknown harness '${harness}' (valid: ${valid})`);
  }
  const scope = values.scope ?? "project";
  if (scope !== "project" && scope !== "user") {
    throw new UsageError(`rgraph ${action}: --scope takes project or user`);
  }
  const command = values.command;
  if (command !== undefined && command.trim() === "") {
    throw new UsageError(`rgraph ${action}: --command is empty`);
  }
  const plan = makePlan(action, harness, { scope, dir: values.dir, command });
  if (values["dry-run"]) {
    if (plan.changes.length === 0) console.log(`${harness}: nothing to change`);
    else console.log(planDiff(plan).replace(/\n$/, ""));
    return 0;
  }
  const built = await applyPlan(plan);
  report(plan, built);
  return 0;
}

function report(plan: Plan, built: string[]): void {
  const done = plan.action === "install" ? "installed" : "uninstalled";
  if (plan.changes.length === 0) {
    console.log(
      plan.action === "install"
        ? `${plan.harness}: already installed, nothing to change`
        : `${plan.harness}: nothing of rgraph's to remove`,
    );
  } else {
    for (const c of plan.changes) {
      const verb = c.before === null ? "created" : c.after === null ? "removed" : "updated";
      console.log(`${verb} ${relative(plan.root, c.path)} (${[...new Set(c.what)].join(", ")})`);
    }
    console.log(`${plan.harness}: ${done} (${plan.scope} scope)`);
  }
  for (const n of [...built, ...plan.notes]) console.log(`note: ${n}`);
}

/** Runs `rgraph install ARGS`. */
export function main(args: string[]): Promise<number> {
  return setupMain("install", args);
}
