/**
 * Hooks stay network-free with a shared graph store: `rgraph hook` records
 * Touches only in the local embedded database (the outbox) and answers the
 * Nudge from that database's Resources and Listings (the local index). The
 * commands that may use the network move the outbox into the graph store and
 * bring the local index up to date; while the graph server is down, Touches
 * simply wait in the outbox.
 *
 * @example
 * ```ts
 * import { syncStores } from "./outbox.ts";
 * const report = await syncStores(local, graph); // { drained: 3, resources: 12, listings: 1 }
 * ```
 * @module
 */

import type { SqliteStore } from "../sqlite/mod.ts";
import type { GraphStore } from "./store.ts";

/** Touches moved per graph transaction. */
const DRAIN_BATCH = 500;
/** Resources copied per local write. */
const COPY_BATCH = 100;

/** What one sync moved. */
export interface SyncReport {
  /** Touches moved from the outbox into the graph store. */
  drained: number;
  /** Resources copied into the local index (new or changed). */
  resources: number;
  /** Listings copied into the local index (new or changed). */
  listings: number;
}

/**
 * Moves every Touch the graph store has not received from the local outbox
 * into it, oldest first. Idempotent: a Touch is marked sent only after the
 * graph store committed it, and the graph store skips one it already has, so
 * a crash in between re-sends harmlessly. Throws `StoreUnavailableError`
 * (leaving the rest waiting) when the graph server cannot be reached.
 * Returns how many Touches were moved.
 */
export async function drainOutbox(local: SqliteStore, graph: GraphStore): Promise<number> {
  let moved = 0;
  for (;;) {
    const batch = await local.unexportedTouches(DRAIN_BATCH);
    if (batch.length === 0) return moved;
    await graph.importTouches(batch);
    await local.markExported(batch.map((t) => t.id), new Date().toISOString());
    moved += batch.length;
  }
}

/**
 * Brings the local index up to date with the graph store: Resources the
 * local database lacks or holds in an older version (by fetch and GitHub
 * update time), and Listings likewise, are copied whole, so the hook's Nudge
 * (and a look-up while the server is down) sees what the team stored.
 */
async function refreshLocalIndex(
  graph: GraphStore,
  local: SqliteStore,
): Promise<{ resources: number; listings: number }> {
  const heads = await graph.allHeads();
  const mine = await local.getHeads(heads.map((h) => h.address));
  const stale = heads.filter((h) => {
    const m = mine.get(h.address);
    return m === undefined || m.address !== h.address || m.fetched_at !== h.fetched_at ||
      m.updated_at !== h.updated_at;
  });
  let resources = 0;
  for (let i = 0; i < stale.length; i += COPY_BATCH) {
    const got = await graph.getResources(stale.slice(i, i + COPY_BATCH).map((h) => h.address));
    const writes = [...got.values()].map((resource) => ({ resource }));
    await local.putResources(writes);
    resources += writes.length;
  }
  let listings = 0;
  for (const listing of await graph.allListings()) {
    const have = await local.getListing(listing.key);
    if (
      have !== null && have.fetched_at === listing.fetched_at &&
      have.member_count === listing.member_count && have.total_count === listing.total_count
    ) continue;
    const members = await graph.listingMembers(listing.key);
    await local.putListing(listing, members.map((m) => m.address));
    listings++;
  }
  return { resources, listings };
}

/**
 * The sync a command that may use the network runs when `[store] url` is
 * set: drain the outbox, then refresh the local index. Throws
 * `StoreUnavailableError` when the graph server is down; nothing is lost then.
 */
export async function syncStores(local: SqliteStore, graph: GraphStore): Promise<SyncReport> {
  const drained = await drainOutbox(local, graph);
  const copied = await refreshLocalIndex(graph, local);
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
