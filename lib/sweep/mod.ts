/**
 * The Sweep: the middle stage of rgraph's loop. It leases pending Touches
 * oldest first, fetches what they name from GitHub once (deduplicated,
 * batched per repository), stores it, and settles every Touch: `resolved`
 * with its target, `unresolved` with a reason, or given back `pending` (the
 * budget ran out, or a transient failure: the next Sweep takes it up). Only
 * work that can never fit a token's whole hourly budget is settled
 * `rate_limited`, and only an item GitHub failed on alone in 3 consecutive
 * Sweeps `unavailable`. One failing group never stops the others, and a
 * batch GitHub fails as a whole is split until its good items resolve.
 *
 * What costs a request:
 * - a new item, repository or Listing: fetched at full depth;
 * - a FETCHED Touch (the agent really re-fetched) of something stored: a
 *   cheap revalidation (`updatedAt` probe / `If-None-Match`, `since` for a
 *   Listing), refetching only what changed;
 * - a PROMPTED Touch of something stored: nothing.
 *
 * `run.ts` runs it; `items.ts`, `listings.ts` and `repositories.ts` sweep
 * each kind of Address; `budget.ts` spends GitHub's hourly budget; `cost.ts`
 * estimates what the ordinary way would have cost.
 *
 * @example
 * ```ts
 * import { sweep } from "./mod.ts";
 * const summary = await sweep(store, () => openSource(config.github), { limit: 100 });
 * summary.resolved; // Touches settled resolved in this run
 * ```
 * @module
 */

export { type SourceFactory, sweep } from "./run.ts";
export { type SweepOptions, type SweepProgress, type SweepSummary } from "./summary.ts";
