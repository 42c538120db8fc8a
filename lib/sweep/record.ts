/**
 * What the machine remembers of its Sweeps, for `rgraph status`, `rgraph
 * doctor` and the background scheduler: the last Sweep and how it ended,
 * the last error, GitHub's budget as last seen, and when an automatic Sweep
 * may retry what the last one left. Kept in `<data dir>/sweep-status.json`
 * (local to this machine, never a token); automatic Sweeps also append one
 * line each to `<data dir>/sweep.log`.
 *
 * Building the next record and the log line is pure; reading and writing
 * the files is at the bottom.
 *
 * @example
 * ```ts
 * import { nextRecord, readSweepRecord, writeSweepRecord } from "./record.ts";
 * const record = nextRecord(readSweepRecord(dir), { trigger: "auto", startedAt, endedAt, summary });
 * writeSweepRecord(dir, record);
 * ```
 * @module
 */

import type { SweepTrigger } from "./lock.ts";
import { summaryLine, type SweepSummary } from "./summary.ts";
import { neutralizeLine } from "../untrusted.ts";
import { redact } from "../errors.ts";
import { privateDataDir } from "../config/paths/mod.ts";
import { appendPrivateFile, writePrivateFile } from "../host/mod.ts";

/** How a Sweep ended. */
export type SweepOutcome =
  /** Every Touch it took was settled. */
  | "done"
  /** GitHub's budget (or all but its reserve) ran out: what it could not fetch is `rate_limited`. */
  | "rate_limited"
  /** Some Touches were given back pending after errors (transient failures, say). */
  | "incomplete"
  /** It stopped on an error (a refused token, the shared store unreachable). */
  | "failed";

/** The last Sweep. */
export interface LastSweep {
  trigger: SweepTrigger;
  started_at: string;
  ended_at: string;
  outcome: SweepOutcome;
  touches: number;
  resolved: number;
  unresolved: SweepSummary["unresolved"];
  pending: number;
  requests: number;
  resources_written: number;
  /** Why it failed, or the first error it met. */
  error: string | null;
}

/** GitHub's budget as the last Sweep that asked saw it. */
export interface BudgetSeen {
  source: "graphql" | "rest";
  /** The budget most of its work spent (`core` without a token, GraphQL points with one). */
  remaining: number | null;
  limit: number | null;
  reset_at: string | null;
  /** Every budget it heard of, by resource (absent in records of older versions). */
  budgets?: SweepSummary["budgets"];
  seen_at: string;
}

/** Everything remembered. */
export interface SweepRecord {
  /** The last Sweep that did something (or failed); one that found nothing to do is not kept. */
  last: LastSweep | null;
  /**
   * When the latest Sweep of any kind began, including one that found
   * nothing: a Touch recorded before then has been seen by a Sweep.
   */
  checked_at: string | null;
  /** The last error any Sweep met; kept until a later one meets another. */
  last_error: { at: string; message: string } | null;
  budget: BudgetSeen | null;
  /** Not before then does an automatic Sweep retry what the last one left (null: nothing left). */
  retry_at: string | null;
  /** Automatic Sweeps in a row that failed or left Touches after errors (the retry backs off). */
  failures: number;
}

/** A record with nothing in it yet. */
export const EMPTY_RECORD: SweepRecord = {
  last: null,
  checked_at: null,
  last_error: null,
  budget: null,
  retry_at: null,
  failures: 0,
};

/** One Sweep, as it ended: with its summary, or the error that stopped it. */
export interface SweepRun {
  trigger: SweepTrigger;
  startedAt: Date;
  endedAt: Date;
  summary?: SweepSummary;
  error?: string;
}

/** First retry one minute after a failure, doubling, at most every half hour. */
const RETRY_MS = 60_000;
const RETRY_MAX_MS = 30 * 60_000;
/** After a rate limit, retry a little after GitHub's reset, not on the second. */
const RESET_MARGIN_MS = 5_000;

/** How `run` ended. */
export function outcomeOf(run: SweepRun): SweepOutcome {
  const s = run.summary;
  if (!s) return "failed";
  if (s.rate_limited) return "rate_limited";
  return s.pending > 0 || s.errors.length > 0 ? "incomplete" : "done";
}

/** Whether `run` found nothing to do: no Touch, no request, no error. */
function idle(run: SweepRun): boolean {
  const s = run.summary;
  return s !== undefined && s.touches === 0 && s.requests === 0 && s.errors.length === 0;
}

/** The record after `run`, from the one before it. */
export function nextRecord(before: SweepRecord, run: SweepRun): SweepRecord {
  const checked = run.startedAt.toISOString();
  if (idle(run)) return { ...before, checked_at: checked };
  const s = run.summary;
  const outcome = outcomeOf(run);
  const error = run.error ?? s?.errors[0] ?? null;
  const ended = run.endedAt.toISOString();
  const failures = outcome === "failed" || outcome === "incomplete" ? before.failures + 1 : 0;
  let retry: number | null = null;
  if (outcome === "rate_limited") {
    // The reset of the budgets it lacked (a search's minute), else the main budget's.
    const at = s?.retry_at ?? s?.budget.reset_at;
    const reset = at ? Date.parse(at) : NaN;
    retry = (Number.isFinite(reset) ? reset : run.endedAt.getTime() + 3_600_000) +
      RESET_MARGIN_MS;
  } else if (failures > 0) {
    retry = run.endedAt.getTime() + Math.min(RETRY_MAX_MS, RETRY_MS * 2 ** (failures - 1));
  }
  return {
    last: {
      trigger: run.trigger,
      started_at: run.startedAt.toISOString(),
      ended_at: ended,
      outcome,
      touches: s?.touches ?? 0,
      resolved: s?.resolved ?? 0,
      unresolved: s?.unresolved ?? {},
      pending: s?.pending ?? 0,
      requests: s?.requests ?? 0,
      resources_written: s?.resources_written ?? 0,
      error,
    },
    checked_at: checked,
    last_error: error === null ? before.last_error : { at: ended, message: error },
    // A Sweep GitHub never answered (unreachable, say) learnt no budget: the last one seen stands.
    budget: s && s.source !== "none" &&
        (s.budget.remaining !== null || s.budget.limit !== null ||
          Object.keys(s.budgets ?? {}).length > 0)
      ? {
        source: s.source,
        remaining: s.budget.remaining,
        limit: s.budget.limit,
        reset_at: s.budget.reset_at,
        budgets: s.budgets,
        seen_at: ended,
      }
      : before.budget,
    retry_at: retry === null ? null : new Date(retry).toISOString(),
    failures,
  };
}

/** Whether an automatic run is worth a line in the log (one that found nothing to do is not). */
export function worthLogging(run: SweepRun): boolean {
  return !idle(run);
}

/** The log's line for `run`. */
export function logLine(run: SweepRun): string {
  const what = run.summary ? summaryLine(run.summary) : run.error ?? "failed";
  const seconds = ((run.endedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1);
  return `${run.endedAt.toISOString()} ${run.trigger} ${outcomeOf(run)} in ${seconds} s: ${
    what.split("\n")[0]
  }`;
}

// --- Files ----------------------------------------------------------------------

function recordPath(dataDir: string): string {
  return `${dataDir}/sweep-status.json`;
}

/** The record, or an empty one when there is none (or it cannot be read). */
export function readSweepRecord(dataDir: string): SweepRecord {
  try {
    const r = JSON.parse(Deno.readTextFileSync(recordPath(dataDir))) as Partial<SweepRecord>;
    return { ...EMPTY_RECORD, ...r };
  } catch {
    return EMPTY_RECORD;
  }
}

/** Replaces the record in one rename, so a reader sees the old one or the new one. */
export function writeSweepRecord(dataDir: string, record: SweepRecord): void {
  privateDataDir(dataDir);
  // `status --json` and doctor show the last error as it is kept: kept without a secret it quotes.
  const kept = record.last_error === null ? record : {
    ...record,
    last_error: { ...record.last_error, message: redact(record.last_error.message) },
  };
  writePrivateFile(recordPath(dataDir), JSON.stringify(kept, null, 2) + "\n");
}

/**
 * Drops the error texts of the record that `names` selects (an error may
 * name an Address, and `rgraph forget` takes such mentions back) and
 * returns how many; with `dryRun` only counts them.
 */
export function scrubSweepRecord(
  dataDir: string,
  names: (text: string) => boolean,
  dryRun: boolean,
): number {
  const record = readSweepRecord(dataDir);
  const lastError = record.last_error !== null && names(record.last_error.message);
  const lastRun = record.last?.error != null && names(record.last.error);
  const gone = Number(lastError) + Number(lastRun);
  if (gone === 0 || dryRun) return gone;
  writeSweepRecord(dataDir, {
    ...record,
    last_error: lastError ? null : record.last_error,
    last: lastRun && record.last ? { ...record.last, error: null } : record.last,
  });
  return gone;
}

/** Appends one line to `<data dir>/sweep.log`. */
export function appendSweepLog(dataDir: string, line: string): void {
  privateDataDir(dataDir);
  // A log is read in a terminal: its line (errors quoting GitHub or a store) follows the one rule.
  appendPrivateFile(`${dataDir}/sweep.log`, `${neutralizeLine(line.split("\n")[0])}\n`);
}
