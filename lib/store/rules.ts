/**
 * Decisions both stores make the same way, whatever their query language:
 * what a forget selects, a Touch query's filters, what a settlement writes,
 * how a lease reads back, how counted Touches sum up, which members a range
 * asks for, when a Listing counts as complete, which Listings are their
 * asker's own. Pure: no I/O.
 *
 * @example
 * ```ts
 * import { settlementFields } from "./rules.ts";
 * settlementFields({ status: "resolved", target: "github:acme/rocket#2" }).target;
 * ```
 * @module
 */

import {
  type ForgetQuery,
  type LeaseHeld,
  requireUser,
  type Settlement,
  type TouchQuery,
  type UserStats,
} from "./contract.ts";
import type { CacheOutcome, Listing, UnresolvedReason } from "../types.ts";

/** What a settlement writes on its Touch; a field it does not set is null. */
export function settlementFields(s: Settlement): {
  target: string | null;
  reason: string | null;
  detail: string | null;
  failure: string | null;
} {
  return {
    target: s.status === "resolved" ? s.target : null,
    reason: s.status === "unresolved" ? s.reason : null,
    detail: s.status === "unresolved" ? s.detail ?? null : null,
    failure: s.status === "pending" ? s.failure ?? null : null,
  };
}

/** A free-text parameter in a canonical Listing key: `?q=…` or `&q=…`. */
const FREE_TEXT = /[?&]q=/;

/**
 * Whether a Listing is its asker's own, as a Touch is: one asked with free
 * text (a list's `q=` search, `--search`, `gh search`). Its key holds the
 * person's own words, so a shared store never holds it (only the asker's
 * machine does, and a teammate asking the same words fetches their own);
 * its members, public Resources, are shared as any.
 *
 * @example
 * ```ts
 * isOwnListing("github:lumendb/lumen/issues?q=codename-falcon&state=all"); // true
 * isOwnListing("github:lumendb/lumen/issues?label=bug&state=open"); // false
 * ```
 */
export function isOwnListing(key: string): boolean {
  return FREE_TEXT.test(key);
}

/** A lease as a store's row names it (`address`, `owner`, `until`). */
export function leaseHeld(row: Record<string, unknown>): LeaseHeld {
  return { address: String(row.address), owner: String(row.owner), until: Number(row.until) };
}

/** The positions a member range covers, `from` inclusive, `to` exclusive; every member without one. */
export function memberRange(range?: { offset: number; limit: number }): {
  from: number;
  to: number;
} {
  const from = Math.max(0, range?.offset ?? 0);
  return { from, to: range ? from + Math.max(0, range.limit) : Number.MAX_SAFE_INTEGER };
}

/**
 * Whether a Listing written with `stored` members is complete: a member that
 * could not be stored makes it partial, so it must not pass for complete.
 */
export function listingComplete(listing: Listing, stored: number): boolean {
  return listing.fully_expanded && stored >= listing.member_count;
}

/** A Touch query's filters as statement parameters: `null` matches any. */
export function touchFilters(query: TouchQuery): {
  session: string | null;
  since: string | null;
  status: string | null;
} {
  return {
    session: query.session_id ?? null,
    since: query.since ?? null,
    status: query.status ?? null,
  };
}

/**
 * A forget's query parameters (`null` = any) for `userId`, after refusing an
 * empty id and a query that selects nothing in particular: forgetting
 * everything must be asked for as `all`, never reached by leaving every
 * filter out.
 */
export function forgetParams(userId: string, query: ForgetQuery): {
  user: string;
  session: string | null;
  since: string | null;
  before: string | null;
  address: string | null;
} {
  requireUser(userId);
  if (query.all === true) {
    return { user: userId, session: null, since: null, before: null, address: null };
  }
  const filters = {
    session: query.session_id ?? null,
    since: query.since ?? null,
    before: query.before ?? null,
    address: query.address ?? null,
  };
  if (Object.values(filters).every((v) => v === null)) {
    throw new Error("forget: a query with no filter must say `all: true`");
  }
  return { user: userId, ...filters };
}

/**
 * One row of a store's count of a user's Touches, grouped by status, outcome
 * and reason, as the store's query returns it: `status`, `outcome`,
 * `reason`, `n` (how many) and `oldest` (when its oldest was recorded).
 */
export type TouchGroup = Record<string, unknown>;

/**
 * A user's stats from their Touches counted by status, outcome and reason:
 * the same sums whichever store counted them. The oldest pending Touch is
 * the oldest of every pending group.
 */
export function tallyTouches(groups: TouchGroup[], requestsAvoided: number): UserStats {
  const stats: UserStats = {
    cache_reads: { hit: 0, subsumed: 0, miss: 0 },
    requests_avoided: requestsAvoided,
    pending: 0,
    oldest_pending: null,
    resolved: 0,
    unresolved: {},
  };
  for (const g of groups) {
    const n = g.n as number;
    if (g.status === "served" && g.outcome !== null) {
      stats.cache_reads[g.outcome as CacheOutcome] += n;
    } else if (g.status === "pending") {
      stats.pending += n;
      const oldest = g.oldest as string;
      if (stats.oldest_pending === null || oldest < stats.oldest_pending) {
        stats.oldest_pending = oldest;
      }
    } else if (g.status === "resolved") stats.resolved += n;
    else if (g.status === "unresolved" && g.reason !== null) {
      const reason = g.reason as UnresolvedReason;
      stats.unresolved[reason] = (stats.unresolved[reason] ?? 0) + n;
    }
  }
  return stats;
}
