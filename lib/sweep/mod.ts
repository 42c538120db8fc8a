/**
 * The Sweep: the middle stage of rgraph's loop. It leases pending Touches
 * oldest first, fetches what they name from GitHub once (deduplicated,
 * batched per repository, the repository itself brought along), stores it,
 * and settles every Touch: `resolved` with its target, `unresolved` with a
 * reason, or given back `pending` (a transient failure: the next Sweep takes
 * it up). Work the hour's budget has no room for is `rate_limited`, which a
 * later Sweep retries; an item GitHub failed on alone in 3 consecutive
 * Sweeps is `unavailable`. One failing group never stops the others, and a
 * batch GitHub fails as a whole is split until its good items resolve.
 *
 * What costs a request:
 * - a new item, repository or Listing: fetched at full depth;
 * - a FETCHED Touch recorded after what is stored was fetched (the agent
 *   really re-fetched it): a cheap revalidation (`updatedAt` probe /
 *   `If-None-Match`, `since` for a Listing), refetching only what changed;
 * - a Touch recorded before that fetch (a Listing's member read after the
 *   Listing, in the same Sweep or an earlier one), or a PROMPTED Touch of
 *   something stored: nothing.
 *
 * `run.ts` runs it; `items.ts`, `listings.ts` and `repositories.ts` sweep
 * each kind of Address; `budget.ts` spends GitHub's hourly budget; `cost.ts`
 * estimates what the ordinary way would have cost.
 *
 * Around a run: `runner.ts` is a Sweep as `rgraph sweep` runs it (the
 * machine's lock, `lock.ts`; its record and log, `record.ts`); automatic
 * Sweeps start in the background (`background.ts`: the scheduler `serve-mcp`
 * runs, and the detached process the session-end command starts);
 * `status.ts` is `rgraph status`.
 *
 * @example
 * ```ts
 * import { sweep } from "./mod.ts";
 * const summary = await sweep(store, () => openSource(config.github), { limit: 100 });
 * summary.resolved; // Touches settled resolved in this run
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import type { Source } from "../github/mod.ts";
import type { Store } from "../store/mod.ts";
import type { SourceFactory } from "./run.ts";
import type { SweepRequest, SweepResult } from "./runner.ts";
import type { SweepOptions, SweepSummary } from "./summary.ts";

export type { SourceFactory } from "./run.ts";
export {
  summaryLine,
  type SweepOptions,
  type SweepProgress,
  type SweepSummary,
} from "./summary.ts";
export type { SweepRequest, SweepResult } from "./runner.ts";
export { type BackgroundSweeps, startAutomaticSweep, startBackgroundSweeps } from "./background.ts";
export { type LockHolder, sweepLockHolder, type SweepTrigger } from "./lock.ts";
export {
  appendSweepLog,
  type LastSweep,
  readSweepRecord,
  scrubSweepRecord,
  type SweepOutcome,
  type SweepRecord,
} from "./record.ts";
export { formatStatus, readStatus, statusOf, type StatusReport } from "./status.ts";

// The run (and the GitHub client behind it) loads only when a Sweep runs, so what starts
// one in the background (`serve-mcp`, the session-end command) stays light.

/** Runs one Sweep over the store's pending Touches (see `run.ts`). */
export async function sweep(
  store: Store,
  source: Source | SourceFactory,
  options: SweepOptions = {},
): Promise<SweepSummary> {
  const run = await import("./run.ts");
  return await run.sweep(store, source, options);
}

/** Runs one Sweep as `rgraph sweep` does: lock, record, log (see `runner.ts`). */
export async function runSweep(config: Config, request: SweepRequest): Promise<SweepResult> {
  const runner = await import("./runner.ts");
  return await runner.runSweep(config, request);
}
