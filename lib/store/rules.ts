/**
 * Decisions both stores make the same way, whatever their query language:
 * what a settlement writes, how a lease reads back, which members a range
 * asks for, when a Listing counts as complete. Pure: no I/O.
 *
 * @example
 * ```ts
 * import { settlementFields } from "./rules.ts";
 * settlementFields({ status: "resolved", target: "github:acme/rocket#2" }).target;
 * ```
 * @module
 */

import type { LeaseHeld, Settlement } from "./contract.ts";
import type { Listing } from "../types.ts";

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
