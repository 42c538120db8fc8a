/**
 * Writing a fetched Listing: its counts, whether it is fully expanded, and
 * its members in GitHub's order.
 *
 * @example
 * ```ts
 * import { putListing } from "./listing_put.ts";
 * await putListing(run, address, 100, 12, memberKeys, fetchedAt);
 * ```
 * @module
 */

import type { Listing, ListingAddress } from "../types.ts";
import type { SweepContext } from "./context.ts";

/** Stores the Listing `a` with `members` (item keys, in order) out of `total` matching. */
export async function putListing(
  run: SweepContext,
  a: ListingAddress,
  limit: number,
  total: number,
  members: string[],
  fetchedAt: string,
): Promise<void> {
  const listing: Listing = {
    key: a.key,
    owner: a.owner,
    repo: a.repo,
    listing: a.listing,
    filters: a.filters,
    limit,
    total_count: Math.max(total, members.length),
    member_count: members.length,
    fully_expanded: members.length >= total,
    fetched_at: fetchedAt,
  };
  await run.store.putListing(listing, members);
  run.summary.listings_written++;
}
