/**
 * The embedded store's Listings: writing one with its members in order (a
 * member that could not be stored leaves it partial), finding them, and
 * reading members by position. The Listing's own row is `listing_row.ts`'s,
 * shared with the local index.
 *
 * @example
 * ```ts
 * import { listingMembers } from "./listings.ts";
 * const first = listingMembers(db, "github:acme/rocket/issues?state=open", { offset: 0, limit: 30 });
 * ```
 * @module
 */

import { listingComplete, memberRange } from "../rules.ts";
import type { Listing, ListingKind, ListingMember } from "../../types.ts";
import { writeListingRow } from "./listing_row.ts";
import { resolve } from "./resources.ts";
import type { Connection, Row } from "./connection.ts";

/** A stored JSON list of names; the empty list (most rows) skips the parser. */
function parseList(json: string): string[] {
  return json === "[]" ? [] : JSON.parse(json);
}

/** Replaces the Listing and its members (addresses or aliases of stored Resources), in one transaction. */
export function putListing(db: Connection, listing: Listing, members: string[]): void {
  db.write(() => {
    db.run("DELETE FROM listing_members WHERE listing_key = ?", listing.key);
    const seen = new Set<number>();
    for (const address of members) {
      const id = resolve(db, address);
      if (id === null || seen.has(id)) continue;
      db.run(
        "INSERT INTO listing_members (listing_key, position, resource_id) VALUES (?, ?, ?)",
        listing.key,
        seen.size,
        id,
      );
      seen.add(id);
    }
    writeListingRow(
      (q, ...p) => db.run(q, ...p),
      listing,
      seen.size,
      listingComplete(listing, seen.size),
    );
  });
}

/** A stored Listing row as a Listing. */
export function listingFromRow(r: Row): Listing {
  return {
    key: r.key as string,
    owner: r.owner as string,
    repo: r.repo as string,
    listing: r.listing as ListingKind,
    filters: JSON.parse(r.filters as string),
    limit: r.asked_limit as number | null,
    total_count: r.total_count as number,
    member_count: r.member_count as number,
    fully_expanded: r.fully_expanded === 1,
    fetched_at: r.fetched_at as string,
  };
}

/** The Listing stored under `key`, or null. */
export function getListing(db: Connection, key: string): Listing | null {
  const row = db.get("SELECT * FROM listings WHERE key = ?", key);
  return row ? listingFromRow(row) : null;
}

/** Every stored Listing of one kind on a repository, by key. */
export function findListings(
  db: Connection,
  owner: string,
  repo: string,
  kind: ListingKind,
): Listing[] {
  return db.all(
    "SELECT * FROM listings WHERE owner = ? AND repo = ? AND listing = ? ORDER BY key",
    owner.toLowerCase(),
    repo.toLowerCase(),
    kind,
  ).map(listingFromRow);
}

/** The Listing's members in `range` (every one without), by position. */
export function listingMembers(
  db: Connection,
  key: string,
  range?: { offset: number; limit: number },
): ListingMember[] {
  const { from, to } = memberRange(range);
  // Rows as arrays: a 10,000-member listing is read whole for subsumption.
  const rows = db.tuples(
    `SELECT m.position, r.address, r.number, r.kind, r.title, r.state, r.author, r.labels,
       r.assignees, r.milestone, r.updated_at, r.comment_count
     FROM listing_members m JOIN resources r ON r.id = m.resource_id
     WHERE m.listing_key = ? AND m.position >= ? AND m.position < ?
     ORDER BY m.position`,
    key,
    from,
    to,
  );
  return rows.map((r) => ({
    position: r[0] as number,
    address: r[1] as string,
    number: r[2] as number,
    kind: r[3] as ListingMember["kind"],
    title: r[4] as string,
    state: r[5] as ListingMember["state"],
    author: r[6] as string | null,
    labels: parseList(r[7] as string),
    assignees: parseList(r[8] as string),
    milestone: r[9] as string | null,
    updated_at: r[10] as string,
    comment_count: r[11] as number,
  }));
}
