/**
 * `rgraph sweep [--json] [--limit N]`: fetches pending Touches from GitHub
 * into memory. A progress bar on a terminal (stderr), else one summary line;
 * `--json` prints the summary as JSON.
 *
 * @module
 */

import { parseCommand, positiveInt } from "../lib/cli.ts";
import { loadConfig } from "../lib/config.ts";
import { UserError } from "../lib/errors.ts";
import { AuthError, openSource } from "../lib/github/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { sweep, type SweepProgress, type SweepSummary } from "../lib/sweep/mod.ts";

const SPEC = {
  name: "sweep",
  summary: "Fetch pending Touches from GitHub into memory",
  usage: "rgraph sweep [--json] [--limit N] [--lease SECONDS]",
  options: {
    json: { type: "boolean", help: "print the summary as JSON" },
    limit: { type: "string", arg: "N", help: "settle at most N Touches this run" },
    lease: {
      type: "string",
      arg: "SECONDS",
      help: "how long a killed Sweep's Touches wait before another takes them (default 120)",
    },
  },
} as const;

/** The one-line summary. */
function summaryLine(s: SweepSummary): string {
  const reasons = Object.entries(s.unresolved).map(([r, n]) => `${r} ${n}`).join(", ");
  const unresolved = Object.values(s.unresolved).reduce((a, b) => a + (b ?? 0), 0);
  const budget = s.budget.remaining === null ? "" : `; budget ${s.budget.remaining} left`;
  const parts = [
    `swept ${s.touches} touch${s.touches === 1 ? "" : "es"}: ${s.resolved} resolved`,
    `${unresolved} unresolved${reasons ? ` (${reasons})` : ""}`,
    `${s.pending} left pending${s.rate_limited ? " (rate limited)" : ""}`,
  ];
  return `${parts.join(", ")}; ${s.resources_written} resources written; ` +
    `${s.requests} GitHub requests (about ${s.requests_saved} saved)${budget}`;
}

function bar(p: SweepProgress): string {
  const width = 24;
  const done = p.touches ? Math.round((p.settled / p.touches) * width) : 0;
  const budget = p.budget_remaining === null ? "" : ` · budget ${p.budget_remaining}`;
  return `\r[${"#".repeat(done)}${".".repeat(width - done)}] ${p.settled}/${p.touches} touches · ` +
    `${p.resources} resources · ${p.requests} requests${budget}\x1b[K`;
}

/** Runs `rgraph sweep`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  if (parsed.positionals.length) {
    throw new UserError(`rgraph sweep: unexpected argument '${parsed.positionals[0]}'`, 2);
  }
  const limit = positiveInt("sweep", "limit", parsed.values.limit);
  const lease = positiveInt("sweep", "lease", parsed.values.lease) ?? 120;
  const config = loadConfig();
  const store = await openStore(config);
  const tty = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  let summary: SweepSummary;
  try {
    summary = await sweep(store, () => openSource(config.github), {
      limit,
      leaseMs: lease * 1000,
      onProgress: tty ? (p) => Deno.stderr.writeSync(encoder.encode(bar(p))) : undefined,
    });
  } catch (e) {
    if (e instanceof AuthError) throw new UserError(e.message);
    throw e;
  } finally {
    if (tty) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
    await store.close();
  }
  console.log(parsed.values.json ? JSON.stringify(summary) : summaryLine(summary));
  for (const error of parsed.values.json ? [] : summary.errors) {
    console.error(`rgraph sweep: ${error}`);
  }
  return 0;
}
