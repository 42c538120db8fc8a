/**
 * `rgraph stats [--json] [--since DATE]`: what memory saved the asking user
 * (see `lib/user_data/stats.ts`). Refuses without an identity: Touches are
 * private and counted per user.
 *
 * @module
 */

import { DATE_FORMS, dateFlag, parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { formatStats, statsReport } from "../lib/user_data/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "stats",
  summary: "What memory saved you: Cache Reads, GitHub requests avoided, Touches, store size",
  usage: "rgraph stats [--json] [--since DATE]",
  options: {
    json: { type: "boolean", help: "print JSON" },
    since: {
      type: "string",
      arg: "DATE",
      help: "count only Touches recorded since DATE",
    },
  },
  more: [`DATE is ${DATE_FORMS}.`],
  examples: [
    { does: "what memory saved you, all told", run: "rgraph stats" },
    { does: "the last week only", run: "rgraph stats --since 1w" },
    { does: "as JSON", run: "rgraph stats --json" },
  ],
} as const;

/** Runs `rgraph stats ARGS`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  const since = parsed.values.since === undefined
    ? null
    : dateFlag("stats", "since", parsed.values.since);
  const config = loadConfig();
  const userId = requireUserId(config);
  const store = await openStore(config, { sync: "outbox" });
  try {
    const report = statsReport(
      userId,
      since,
      await store.userStats(userId, since ?? undefined),
      await store.memoryStats(),
    );
    console.log(parsed.values.json ? terminalJson(report, 2) : formatStats(report));
  } finally {
    await store.close();
  }
  return 0;
}
