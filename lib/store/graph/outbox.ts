/**
 * Hooks stay network-free with a shared graph store: `rgraph hook` records
 * Touches only in the local embedded database (the outbox) and answers the
 * Nudge from that database's heads and Listings (the local index). The
 * commands that may use the network move the outbox into the graph store,
 * and those that read what is stored bring the local index up to date
 * (`index_sync.ts`); while the graph server is down, Touches simply wait in
 * the outbox.
 *
 * @example
 * ```ts
 * import { syncStores } from "./outbox.ts";
 * const report = await syncStores(local, graph); // { drained: 3, heads: 12, listings: 1, read: 13 }
 * ```
 * @module
 */

import type { SqliteStore } from "../sqlite/mod.ts";
import type { GraphStore } from "./store.ts";
import { type IndexReport, refreshLocalIndex } from "./index_sync.ts";
import { isOwnListing } from "../rules.ts";

/** Touches moved per graph transaction. */
const DRAIN_BATCH = 500;

/** What one sync moved: Touches from the outbox into the graph store, and the index's refresh. */
export interface SyncReport extends IndexReport {
  drained: number;
}

/**
 * Moves every Touch the graph store has not received from the local outbox
 * into it, oldest first. Idempotent: a Touch is marked sent only after the
 * graph store committed it, and the graph store skips one it already has, so
 * a crash in between re-sends harmlessly. One process of the machine drains
 * at a time (the others wait their turn). Throws `StoreUnavailableError`
 * (leaving the rest waiting) when the graph server cannot be reached.
 * Returns how many Touches were moved.
 */
export function drainOutbox(local: SqliteStore, graph: GraphStore): Promise<number> {
  // One process at a time: a second waits, then finds what the first sent marked sent.
  return local.drainingAlone(async () => {
    let moved = 0;
    for (;;) {
      const batch = await local.unexportedTouches(DRAIN_BATCH);
      if (batch.length === 0) return moved;
      await graph.importTouches(batch);
      await local.markExported(batch.map((t) => t.id), new Date().toISOString());
      moved += batch.length;
    }
  });
}

/**
 * The sync a command that may use the network runs when `[store] url` is
 * set: drain the outbox, then (unless `index` is false: the command reads
 * nothing the index holds) refresh the local index. Throws
 * `StoreUnavailableError` when the graph server is down; nothing is lost then.
 */
export async function syncStores(
  local: SqliteStore,
  graph: GraphStore,
  index = true,
): Promise<SyncReport> {
  const drained = await drainOutbox(local, graph);
  const copied = index ? await refreshLocalIndex(graph, local) : { heads: 0, listings: 0, read: 0 };
  return { drained, ...copied };
}

/** What `rgraph migrate` copied. */
export interface MigrateCounts {
  resources: number;
  listings: number;
  /** The user's Touches copied, and how many of them the graph store did not have yet. */
  touches: number;
  new_touches: number;
}

/**
 * Copies an embedded store's Resources (with their aliases), Listings and
 * one user's Touches into the graph store. Idempotent: Resources and
 * Listings are upserted, and a Touch the graph store has is skipped. The
 * copied Touches are marked sent, so the outbox does not send them again.
 */
export async function copyToGraph(
  local: SqliteStore,
  graph: GraphStore,
  userId: string,
): Promise<MigrateCounts> {
  const counts: MigrateCounts = { resources: 0, listings: 0, touches: 0, new_touches: 0 };
  for (const writes of local.exportResources()) {
    await graph.putResources(writes);
    counts.resources += writes.length;
  }
  for (const { listing, members } of local.exportListings()) {
    // A free-text Listing holds its asker's words: it stays on this machine.
    if (isOwnListing(listing.key)) continue;
    await graph.putListing(listing, members);
    counts.listings++;
  }
  const touches = await local.listTouches(userId);
  for (let i = 0; i < touches.length; i += DRAIN_BATCH) {
    const batch = touches.slice(i, i + DRAIN_BATCH);
    counts.new_touches += await graph.importTouches(batch);
    await local.markExported(batch.map((t) => t.id), new Date().toISOString());
  }
  counts.touches = touches.length;
  return counts;
}
