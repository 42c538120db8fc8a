/**
 * What a Sweep is asked to do and what it reports: its options, the progress
 * snapshots a progress bar reads, and the summary `rgraph sweep` prints.
 *
 * @example
 * ```ts
 * import { newSummary } from "./summary.ts";
 * const s = newSummary();
 * s.resolved; // 0
 * ```
 * @module
 */

import type { RateResource } from "../github/mod.ts";
import type { UnresolvedReason } from "../types.ts";

/** How a Sweep runs. */
export interface SweepOptions {
  /** At most this many Touches this run (default: all pending). */
  limit?: number;
  /** The lease owner id (default: a fresh one that sorts by when the run first leases). */
  owner?: string;
  /**
   * How long leased Touches stay ours if this process dies (default and at
   * most 30 s: a live run renews them).
   */
  leaseMs?: number;
  /** Groups worked on at once (default 4; requests are bounded again inside the source). */
  concurrency?: number;
  /** Called as work progresses (for a progress bar). */
  onProgress?: (progress: SweepProgress) => void;
  /**
   * The fraction of GitHub's hourly budget this Sweep leaves unspent (an
   * automatic Sweep leaves 0.1 to the agent); none by default. The source
   * should be opened with the same reserve, which stops any request past it.
   */
  reserve?: number;
}

/** A snapshot of a running Sweep. */
export interface SweepProgress {
  touches: number;
  settled: number;
  resources: number;
  requests: number;
  budget_remaining: number | null;
}

/** One of GitHub's budgets as a Sweep last saw it. */
export interface BudgetReport {
  remaining: number | null;
  limit: number | null;
  reset_at: string | null;
}

/** What a Sweep did. */
export interface SweepSummary {
  touches: number;
  resolved: number;
  unresolved: Partial<Record<UnresolvedReason, number>>;
  /** Given back pending for the next Sweep (transient failure, a refused token). */
  pending: number;
  resources_written: number;
  listings_written: number;
  /** GitHub requests sent. */
  requests: number;
  /**
   * Requests avoided, estimated: what fetching each settled Touch the
   * ordinary way would have cost (`cost.ts`: an item with every page of
   * comments, a repository with its README, a Listing's pages and each
   * member's comments), minus what this Sweep sent. Duplicates, PROMPTED Touches of stored things,
   * unchanged revalidations and batching all count.
   */
  requests_saved: number;
  /** `graphql`, `rest`, or `none` when no request was needed. */
  source: "graphql" | "rest" | "none";
  /** The budget most of the work spent (`core` without a token, `graphql` with one). */
  budget: BudgetReport;
  /**
   * Every budget GitHub reported, by resource: REST `core` and `search`
   * (`X-RateLimit-Resource`), GraphQL points (`rateLimit`).
   */
  budgets: Partial<Record<RateResource, BudgetReport>>;
  /**
   * When what this run left `rate_limited` is worth retrying: once every
   * budget it lacked has reset (null: nothing left so, or a reset unknown).
   */
  retry_at: string | null;
  /**
   * Why groups were given back (transient failures, unexpected errors, work
   * bigger than the anonymous hour's budget) or settled `rate_limited` (work
   * bigger than the token's whole hour), token-free.
   */
  errors: string[];
  /**
   * What could not be read to its end this run, by Address: an item whose
   * thread, changed files or review comments GitHub failed on part-way, a
   * Listing with a member GitHub failed on, a repository or README GitHub
   * did not answer for. None of it was stored as if complete (an earlier
   * complete version stays); its Touches wait for a later Sweep.
   */
  incomplete: string[];
  /**
   * GitHub's budget ran out this run (or only its reserve was left): what it
   * could not fetch is unresolved `rate_limited`, and a later Sweep retries it.
   */
  rate_limited: boolean;
  /** Wall time of the run. */
  elapsed_ms: number;
}

/** The summary of a Sweep that has done nothing yet. */
export function newSummary(): SweepSummary {
  return {
    touches: 0,
    resolved: 0,
    unresolved: {},
    pending: 0,
    resources_written: 0,
    listings_written: 0,
    requests: 0,
    requests_saved: 0,
    source: "none",
    budget: { remaining: null, limit: null, reset_at: null },
    budgets: {},
    retry_at: null,
    errors: [],
    incomplete: [],
    rate_limited: false,
    elapsed_ms: 0,
  };
}

/** The one-line summary `rgraph sweep` prints, and an automatic Sweep logs. */
export function summaryLine(s: SweepSummary): string {
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
