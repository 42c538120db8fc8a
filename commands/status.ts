/**
 * `rgraph status [--json]`: whether memory fills itself and how it is doing
 * (see `lib/sweep/status.ts`). Refuses without an identity: the Touches it
 * counts are private, counted per user.
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { formatStatus, readStatus } from "../lib/sweep/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "status",
  summary:
    "What waits for a Sweep, the last Sweep and how it ended, the last error, GitHub's budget, " +
    "and whether automatic Sweeps are on",
  usage: "rgraph status [--json]",
  options: {
    json: { type: "boolean", help: "print JSON" },
  },
  examples: [
    { does: "is memory filling itself?", run: "rgraph status" },
    {
      does: "the same, with the budgets and the local index, as JSON",
      run: "rgraph status --json",
    },
  ],
} as const;

/** Runs `rgraph status ARGS`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  if (parsed.positionals.length) {
    throw new UsageError(`rgraph status: unexpected argument '${parsed.positionals[0]}'`);
  }
  const config = loadConfig();
  const report = await readStatus(config, requireUserId(config));
  console.log(
    parsed.values.json ? terminalJson(report, 2) : formatStatus(report, new Date()),
  );
  return 0;
}
