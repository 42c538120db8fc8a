/**
 * Writing a Listing's own row, shared by the store (after its members) and
 * the graph store's local index (mirroring the server's Listings), so the
 * two never disagree on its columns.
 *
 * @example
 * ```ts
 * import { writeListingRow } from "./listing_row.ts";
 * writeListingRow((sql, ...p) => db.prepare(sql).run(...p), listing, listing.member_count, true);
 * ```
 * @module
 */

import type { SQLInputValue } from "node:sqlite";
import type { Listing } from "../../types.ts";

/** Runs one write statement with positional parameters. */
export type RunSql = (sql: string, ...params: SQLInputValue[]) => unknown;

/** Puts `l`'s row, holding `memberCount` members, complete (`fullyExpanded`) or not. */
export function writeListingRow(
  run: RunSql,
  l: Listing,
  memberCount: number,
  fullyExpanded: boolean,
): void {
  run(
    `INSERT OR REPLACE INTO listings (key, owner, repo, listing, filters, asked_limit,
       total_count, member_count, fully_expanded, fetched_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    l.key,
    l.owner.toLowerCase(),
    l.repo.toLowerCase(),
    l.listing,
    JSON.stringify(l.filters),
    l.limit,
    l.total_count,
    memberCount,
    fullyExpanded ? 1 : 0,
    l.fetched_at,
  );
}
