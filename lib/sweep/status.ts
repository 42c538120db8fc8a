/**
 * `rgraph status`: whether memory fills itself, and how it is doing — what
 * of yours waits for a Sweep, the Sweep running now, the last one and how it
 * ended, the last error, GitHub's budget as last seen, whether automatic
 * Sweeps are on, and whether capture is paused. Gathered from the store (your own Touches only), the
 * machine's record of its Sweeps and its lock; formatted purely.
 *
 * @example
 * ```ts
 * import { formatStatus, readStatus } from "./status.ts";
 * console.log(formatStatus(await readStatus(config, "alice"), new Date()));
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import { pauseLine, type PauseState, pauseState } from "../capture/mod.ts";
import { localIndexSync, openStore, type UserStats } from "../store/mod.ts";
import { ago } from "../time.ts";
import { clipLine } from "../untrusted.ts";
import { type LockHolder, sweepLockHolder } from "./lock.ts";
import type { RateResource } from "../github/mod.ts";
import { type BudgetSeen, type LastSweep, readSweepRecord } from "./record.ts";
import type { BudgetReport } from "./summary.ts";

/** What `rgraph status --json` prints. */
export interface StatusReport {
  auto: { on: boolean; debounce_seconds: number; config: string };
  /** Your Touches waiting for a Sweep. */
  pending: { count: number; oldest: string | null };
  /** Your Touches a Sweep left `rate_limited`: a later Sweep retries them. */
  rate_limited: number;
  /** The Sweep running on this machine now, if any. */
  running: LockHolder | null;
  last_sweep: LastSweep | null;
  last_error: { at: string; message: string } | null;
  budget: BudgetSeen | null;
  /** Not before then does an automatic Sweep retry what the last one left. */
  retry_at: string | null;
  /** Whether hooks record (`rgraph pause` stops them). */
  capture: PauseState;
  /**
   * With a graph store: when this machine's local index (what the hook's
   * Nudge reads) was last synced, and how many changes that sync read.
   */
  local_index: { server: string; at: string; read: number } | null;
}

/** Reads the status for `userId`. Throws when the store cannot be opened. */
export async function readStatus(config: Config, userId: string): Promise<StatusReport> {
  const store = await openStore(config, { sync: "outbox" });
  try {
    return statusOf(config, await store.userStats(userId), await localIndexSync(config));
  } finally {
    await store.close();
  }
}

/**
 * The status from `stats` (the user's counts, from a store already open)
 * and the machine's record of its Sweeps (and, with a graph store, its local
 * index's last sync): what `rgraph view` shows beside `rgraph status`, from
 * one store handle.
 *
 * @example
 * ```ts
 * const report = statusOf(config, await store.userStats("alice"));
 * report.pending.count; // as `rgraph status` counts it
 * ```
 */
export function statusOf(
  config: Config,
  stats: UserStats,
  index: StatusReport["local_index"] = null,
): StatusReport {
  const record = readSweepRecord(config.data_dir);
  return {
    auto: {
      on: config.sweep.auto,
      debounce_seconds: config.sweep.debounce_ms / 1000,
      config: config.file,
    },
    pending: { count: stats.pending, oldest: stats.oldest_pending },
    rate_limited: stats.unresolved.rate_limited ?? 0,
    running: sweepLockHolder(config.data_dir),
    last_sweep: record.last,
    last_error: record.last_error,
    budget: record.budget,
    retry_at: record.retry_at,
    capture: pauseState(config.data_dir),
    local_index: index,
  };
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "es"}`;
}

/** A time as a person reads it: to the second, UTC. */
function clock(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, "Z");
}

function lastLine(l: LastSweep, now: Date): string {
  const who = l.trigger === "auto" ? "automatic" : "by hand";
  const seconds = ((Date.parse(l.ended_at) - Date.parse(l.started_at)) / 1000).toFixed(1);
  const unresolved = Object.entries(l.unresolved).map(([r, n]) => `${r} ${n}`).join(", ");
  const counts = l.outcome === "failed"
    ? `: ${clipLine(l.error ?? "failed", 500)}`
    : `: ${plural(l.touches, "touch")}, ${l.resolved} resolved, ${
      unresolved ? `unresolved ${unresolved}` : "0 unresolved"
    }, ${l.pending} pending; ${l.requests} GitHub requests`;
  return `last Sweep: ${ago(l.ended_at, now)} (${who}), ${l.outcome} in ${seconds} s${counts}`;
}

/** What a budget counts, and how often it refills. */
const UNITS: Record<RateResource, { unit: string; per: string }> = {
  core: { unit: "REST requests", per: "an hour" },
  search: { unit: "REST searches", per: "a minute" },
  graphql: { unit: "GraphQL points", per: "an hour" },
};

/** One line per budget the last Sweep that asked GitHub heard of (`core`, `search`, `graphql`). */
function budgetLines(b: BudgetSeen, now: Date): string[] {
  const main: RateResource = b.source === "graphql" ? "graphql" : "core";
  const seen = Object.entries(b.budgets ?? {}) as [RateResource, BudgetReport][];
  const all = seen.length ? seen : [[main, b] as [RateResource, BudgetReport]];
  return all.map(([resource, r]) => {
    const { unit, per } = UNITS[resource];
    if (r.reset_at !== null && Date.parse(r.reset_at) <= now.getTime()) {
      return `GitHub budget ${resource}: reset since the last Sweep (${
        r.limit ?? "?"
      } ${unit} ${per})`;
    }
    const reset = r.reset_at === null ? "" : `, resets ${clock(r.reset_at)}`;
    return `GitHub budget ${resource}: ${r.remaining ?? "?"} of ${r.limit ?? "?"} ${unit} left` +
      `${reset} (as of ${ago(b.seen_at, now)})`;
  });
}

/** The report as lines a person reads. */
export function formatStatus(r: StatusReport, now: Date): string {
  const lines = [
    r.auto.on
      ? `automatic Sweeps: on (${r.auto.debounce_seconds} s after the last new Touch while a ` +
        `session's MCP server runs, and when a session ends)`
      : `automatic Sweeps: off ([sweep] auto = false in ${r.auto.config}); ` +
        "run 'rgraph sweep' to fetch what is pending",
    r.pending.count === 0
      ? "pending: none"
      : `pending: ${plural(r.pending.count, "touch")}${
        r.pending.oldest ? `, the oldest recorded ${ago(r.pending.oldest, now)}` : ""
      }`,
  ];
  if (r.rate_limited > 0) {
    const when = r.retry_at ? ` after ${clock(r.retry_at)}` : " by the next Sweep";
    lines.push(`rate_limited: ${plural(r.rate_limited, "touch")}, retried${when}`);
  }
  if (r.running) {
    const who = r.running.trigger === "manual" ? "by hand" : "automatic";
    const since = r.running.started_at ? `, started ${ago(r.running.started_at, now)}` : "";
    lines.push(`running: a Sweep (${who}${r.running.pid ? `, pid ${r.running.pid}` : ""}${since})`);
  }
  lines.push(r.last_sweep ? lastLine(r.last_sweep, now) : "last Sweep: none yet");
  lines.push(
    r.last_error
      ? `last error: ${ago(r.last_error.at, now)}: ${clipLine(r.last_error.message, 500)}`
      : "last error: none",
  );
  lines.push(
    ...(r.budget ? budgetLines(r.budget, now) : ["GitHub budget: not known yet (no Sweep asked)"]),
  );
  const paused = pauseLine(r.capture);
  if (paused !== null) lines.push(paused);
  return lines.join("\n");
}
