/**
 * `rgraph doctor [--json] [--online] [--dir PATH] [--command CMD]`: checks the
 * setup, one line per check with a fix for each failure; exits 1 when any
 * check fails. It runs only the hook and server commands it can prove are
 * rgraph's own (see `lib/install/own.ts`).
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { formatChecks, runChecks } from "../lib/doctor/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "doctor",
  summary:
    "Check the setup: config, identity, store, GitHub token, and each harness's hooks and MCP server",
  usage: "rgraph doctor [--json] [--online] [--dir PATH] [--command CMD]",
  options: {
    json: { type: "boolean", help: "print a JSON array of {check, ok, warning?, detail, fix}" },
    online: { type: "boolean", help: "also ask GitHub whether the token is valid" },
    dir: {
      type: "string",
      arg: "PATH",
      help: "the project whose harness configs are checked (default: the current directory)",
    },
    command: {
      type: "string",
      arg: "CMD",
      help:
        "the --command given to 'rgraph install', so doctor can tell its entries are rgraph's (it runs no other)",
    },
  },
  examples: [
    { does: "check everything, with a fix for each failure", run: "rgraph doctor" },
    { does: "also ask GitHub whether the token works", run: "rgraph doctor --online" },
    { does: "check the harness configs of another project", run: "rgraph doctor --dir ~/src/app" },
  ],
} as const;

/** Runs `rgraph doctor ARGS`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  const dir = parsed.values.dir ?? Deno.cwd();
  const checks = await runChecks({
    dir,
    online: parsed.values.online ?? false,
    command: parsed.values.command,
  });
  if (parsed.values.json) console.log(terminalJson(checks, 2));
  else {
    const fancy = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
    console.log(formatChecks(checks, fancy));
  }
  return checks.every((c) => c.ok) ? 0 : 1;
}
