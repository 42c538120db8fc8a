/**
 * What `rgraph stats` shows: the asking user's Cache Reads by outcome, the
 * GitHub requests they avoided, their pending and unresolved Touches, and the
 * shared memory's size. Pure: built from the store's `userStats` and
 * `memoryStats`, rendered as a short table or as JSON.
 *
 * @example
 * ```ts
 * import { formatStats, statsReport } from "./stats.ts";
 * const report = statsReport("alice", null, {
 *   cache_reads: { hit: 2, subsumed: 1, miss: 1 }, requests_avoided: 7, pending: 0, resolved: 3, unresolved: {},
 * }, { resources: { repository: 1, issue: 2, pull_request: 0 }, comments: 5, listings: 1, size_bytes: 8192 });
 * formatStats(report).split("\n")[1]; // "Cache Reads                    4  (hit 2, subsumed 1, miss 1)"
 * ```
 * @module
 */

import type { MemoryStats, UserStats } from "../store/mod.ts";
import { neutralizeLine } from "../untrusted.ts";
import { formatSize } from "../host/mod.ts";

/** The report, as `rgraph stats --json` prints it. */
export interface StatsReport {
  user_id: string;
  since: string | null;
  cache_reads: { hit: number; subsumed: number; miss: number; total: number };
  requests_avoided: number;
  touches: { pending: number; resolved: number; unresolved: UserStats["unresolved"] };
  memory: {
    resources: MemoryStats["resources"] & { total: number };
    comments: number;
    listings: number;
    size_bytes: number | null;
  };
}

/** Combines the store's counts into one report. */
export function statsReport(
  userId: string,
  since: string | null,
  user: UserStats,
  memory: MemoryStats,
): StatsReport {
  const reads = user.cache_reads;
  const r = memory.resources;
  return {
    user_id: userId,
    since,
    cache_reads: { ...reads, total: reads.hit + reads.subsumed + reads.miss },
    // An estimate summed from fractions of a request (a page of a Listing): a whole number is
    // what it can honestly claim, and every output (text, JSON, the view) shows this one.
    requests_avoided: Math.round(user.requests_avoided),
    touches: { pending: user.pending, resolved: user.resolved, unresolved: user.unresolved },
    memory: {
      resources: { ...r, total: r.repository + r.issue + r.pull_request },
      comments: memory.comments,
      listings: memory.listings,
      size_bytes: memory.size_bytes,
    },
  };
}

function parts(entries: [string, number][]): string {
  const shown = entries.filter(([, n]) => n > 0);
  return shown.length ? `  (${shown.map(([k, n]) => `${neutralizeLine(k)} ${n}`).join(", ")})` : "";
}

/** The report as a short table: label, count, breakdown. */
export function formatStats(r: StatsReport): string {
  const reads = r.cache_reads, res = r.memory.resources;
  const unresolved = Object.entries(r.touches.unresolved) as [string, number][];
  const rows: [string, number | string, string][] = [
    [
      "Cache Reads",
      reads.total,
      parts([["hit", reads.hit], ["subsumed", reads.subsumed], ["miss", reads.miss]]),
    ],
    ["GitHub requests avoided", r.requests_avoided, ""],
    [
      "Resources stored",
      res.total,
      parts([["repositories", res.repository], ["issues", res.issue], [
        "pull requests",
        res.pull_request,
      ]]),
    ],
    ["Comments stored", r.memory.comments, ""],
    ["Listings stored", r.memory.listings, ""],
    ["Pending Touches", r.touches.pending, ""],
    ["Resolved Touches", r.touches.resolved, ""],
    ["Unresolved Touches", unresolved.reduce((a, [, n]) => a + n, 0), parts(unresolved)],
    ["Store size", formatSize(r.memory.size_bytes), ""],
  ];
  const head = `rgraph stats for ${neutralizeLine(r.user_id)}${r.since ? ` since ${r.since}` : ""}`;
  return [head, ...rows.map(([k, v, d]) => `${k.padEnd(24)} ${String(v).padStart(7)}${d}`)].join(
    "\n",
  );
}
