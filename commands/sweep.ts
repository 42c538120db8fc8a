/**
 * `rgraph sweep [--json] [--limit N] [--lease SECONDS] [--auto | --background]`:
 * fetches pending Touches from GitHub into memory. A progress bar on a
 * terminal (stderr), else one summary line; `--json` prints the summary as
 * JSON.
 *
 * `--auto` is an automatic Sweep (what the background scheduler runs): off
 * with `[sweep] auto = false`, one at a time per machine, leaving the agent
 * the last tenth of GitHub's hourly budget, logged to `sweep.log`.
 * `--background` is what a harness runs when a session ends: it reads and
 * ignores the hook payload, starts an automatic Sweep in a process of its
 * own, prints nothing and exits 0 at once.
 *
 * @module
 */

// What `--background` needs is imported here; the config parser and the GitHub client
// load only for a Sweep in this process, so a harness's session end returns at once.
import { parseCommand, positiveInt } from "../lib/cli.ts";
import { configPath, defaultDataDir } from "../lib/config/paths/mod.ts";
import { firstLine, UsageError, UserError } from "../lib/errors.ts";
import { invocation } from "../lib/invocation.ts";
import {
  appendSweepLog,
  runSweep,
  startAutomaticSweep,
  summaryLine,
  type SweepProgress,
} from "../lib/sweep/mod.ts";
import { neutralizeLine, terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "sweep",
  summary: "Fetch pending Touches from GitHub into memory",
  usage: "rgraph sweep [--json] [--limit N] [--lease SECONDS] [--auto | --background]",
  options: {
    json: { type: "boolean", help: "print the summary as JSON" },
    limit: { type: "string", arg: "N", help: "settle at most N Touches this run" },
    lease: {
      type: "string",
      arg: "SECONDS",
      help:
        "how long a killed Sweep's Touches wait before another takes them (default and most: 30)",
    },
    auto: {
      type: "boolean",
      help: "an automatic Sweep: skipped when another runs, keeps 10% of the budget, logged",
    },
    background: {
      type: "boolean",
      help: "start an automatic Sweep in its own process and return at once (session end)",
    },
  },
  examples: [
    { does: "fetch what is pending now (Sweeps also run by themselves)", run: "rgraph sweep" },
    { does: "at most 20 Touches, the summary as JSON", run: "rgraph sweep --limit 20 --json" },
  ],
} as const;

/** How long the session-end command waits for the harness's payload before it goes on. */
const PAYLOAD_WAIT_MS = 300;

function bar(p: SweepProgress): string {
  const width = 24;
  const done = p.touches ? Math.round((p.settled / p.touches) * width) : 0;
  const budget = p.budget_remaining === null ? "" : ` · budget ${p.budget_remaining}`;
  return `\r[${"#".repeat(done)}${".".repeat(width - done)}] ${p.settled}/${p.touches} touches · ` +
    `${p.resources} resources · ${p.requests} requests${budget}\x1b[K`;
}

/**
 * Reads the payload a harness writes on stdin and drops it: some harnesses
 * do not close stdin, so this waits a moment at most.
 */
async function drainPayload(): Promise<void> {
  if (Deno.stdin.isTerminal()) return;
  const reader = Deno.stdin.readable.getReader();
  const waited = new Promise<"late">((r) => setTimeout(() => r("late"), PAYLOAD_WAIT_MS));
  for (;;) {
    const next = await Promise.race([reader.read(), waited]);
    if (next === "late" || next.done) return;
  }
}

/** `--background`: never fails the harness, never prints. */
async function background(): Promise<number> {
  try {
    await drainPayload();
  } catch {
    // No payload to read is no reason to skip the Sweep.
  }
  try {
    const rgraph = invocation({
      execPath: Deno.execPath(),
      mainUrl: new URL("../main.ts", import.meta.url).href,
    });
    startAutomaticSweep(rgraph.argv, configPath()).unref();
  } catch (e) {
    try {
      appendSweepLog(
        defaultDataDir(),
        `${new Date().toISOString()} session end: could not start a Sweep: ${firstLine(e)}`,
      );
    } catch {
      // Nowhere to log: staying silent is the rule for what a harness runs.
    }
  }
  return 0;
}

/** Runs `rgraph sweep`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  if (parsed.values.background) return await background();
  if (parsed.positionals.length) {
    throw new UsageError(`rgraph sweep: unexpected argument '${parsed.positionals[0]}'`);
  }
  const limit = positiveInt("sweep", "limit", parsed.values.limit);
  const lease = positiveInt("sweep", "lease", parsed.values.lease) ?? 30;
  const { loadConfig } = await import("../lib/config/mod.ts");
  const config = loadConfig();
  const tty = Deno.stderr.isTerminal() && !parsed.values.auto;
  const encoder = new TextEncoder();
  let result;
  try {
    result = await runSweep(config, {
      trigger: parsed.values.auto ? "auto" : "manual",
      limit,
      leaseMs: lease * 1000,
      onProgress: tty ? (p) => Deno.stderr.writeSync(encoder.encode(bar(p))) : undefined,
    });
  } catch (e) {
    const { AuthError } = await import("../lib/github/mod.ts");
    if (e instanceof AuthError) throw new UserError(e.message);
    throw e;
  } finally {
    if (tty) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
  }
  if (result.status === "off") {
    console.log(`automatic Sweeps are off ([sweep] auto = false in ${config.file})`);
    return 0;
  }
  if (result.status === "busy") {
    const pid = result.holder?.pid ? ` (pid ${result.holder.pid})` : "";
    console.log(`another Sweep is running on this machine${pid}: it takes these Touches`);
    return 0;
  }
  const summary = result.summary;
  console.log(parsed.values.json ? terminalJson(summary) : summaryLine(summary));
  for (const error of parsed.values.json ? [] : summary.errors) {
    console.error(`rgraph sweep: ${neutralizeLine(error)}`);
  }
  return 0;
}
