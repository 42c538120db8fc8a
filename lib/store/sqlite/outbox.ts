/**
 * What leaves the embedded store for a shared graph store: the hooks' outbox
 * (Touches of every user on this machine not yet copied, marked once sent)
 * and, for `migrate`, every stored Resource and Listing.
 *
 * @example
 * ```ts
 * import { markExported, unexportedTouches } from "./outbox.ts";
 * const batch = unexportedTouches(db, 500);
 * markExported(db, batch.map((t) => t.id), new Date().toISOString());
 * ```
 * @module
 */

import type { ResourceWrite } from "../contract.ts";
import type { Listing, Touch } from "../../types.ts";
import { touchFromRow } from "./touches.ts";
import { resourceFrom } from "./resources.ts";
import { listingFromRow } from "./listings.ts";
import type { Connection } from "./connection.ts";

/** Touches not yet copied to the shared store, oldest first. */
export function unexportedTouches(db: Connection, limit: number): Touch[] {
  return db.all(
    `SELECT * FROM touches WHERE exported_at IS NULL ORDER BY recorded_at, rowid LIMIT ?`,
    limit,
  ).map(touchFromRow);
}

/** Marks Touches as copied to the shared store, so the outbox never sends them twice. */
export function markExported(db: Connection, ids: string[], at: string): void {
  if (ids.length === 0) return;
  db.run(
    `UPDATE touches SET exported_at = ?
     WHERE exported_at IS NULL AND id IN (SELECT value FROM json_each(?))`,
    at,
    JSON.stringify(ids),
  );
}

/**
 * Every stored Resource with the aliases it answers to, `batch` at a time,
 * in storage order; memory stays bounded whatever the store's size.
 */
export function* exportResources(db: Connection, batch: number): Generator<ResourceWrite[]> {
  let after = 0;
  for (;;) {
    const writes = db.guard(() => {
      const rows = db.all(
        `SELECT r.id, r.address, r.fetched_at, r.updated_at, r.etag, d.data
         FROM resources r JOIN resource_data d ON d.id = r.id
         WHERE r.id > ? ORDER BY r.id LIMIT ?`,
        after,
        batch,
      );
      if (rows.length) after = rows[rows.length - 1].id as number;
      return rows.map((row) => {
        const aliases = db.all(
          "SELECT key FROM aliases WHERE resource_id = ? ORDER BY key",
          row.id,
        ).map((a) => a.key as string);
        const write: ResourceWrite = { resource: resourceFrom(db, row) };
        if (aliases.length) write.aliases = aliases;
        return write;
      });
    });
    if (writes.length === 0) return;
    yield writes;
  }
}

/** Every stored Listing with its member addresses in order (what `putListing` takes). */
export function* exportListings(
  db: Connection,
): Generator<{ listing: Listing; members: string[] }> {
  for (const row of db.guard(() => db.all("SELECT * FROM listings ORDER BY key"))) {
    const listing = listingFromRow(row);
    const members = db.guard(() =>
      db.all(
        `SELECT r.address FROM listing_members m JOIN resources r ON r.id = m.resource_id
         WHERE m.listing_key = ? ORDER BY m.position`,
        listing.key,
      )
    ).map((m) => m.address as string);
    yield { listing, members };
  }
}
