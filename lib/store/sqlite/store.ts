/**
 * The embedded store: one SQLite file through Deno's built-in `node:sqlite`
 * (`connection.ts`), the class only wiring each concern's module to that one
 * connection: Touches (`touches.ts`), the Sweep's leases (`leases.ts`),
 * forgetting (`forget.ts`), Resources (`resources.ts`), Listings
 * (`listings.ts`), counts (`counts.ts`), memory search
 * (`memory_search.ts`), the outbox and export (`outbox.ts`), and the local
 * index a graph store syncs (`local_index.ts`).
 *
 * @example
 * ```ts
 * import { openEmbeddedStore } from "./store.ts";
 * const store = openEmbeddedStore("/home/me/.local/share/rgraph/rgraph.db");
 * await store.listTouches("alice");
 * await store.close();
 * ```
 * @module
 */

import type {
  Edge,
  ForgetQuery,
  LeaseHeld,
  MemoryPage,
  MemoryQuery,
  MemoryStats,
  ResourceHead,
  ResourceWrite,
  Settlement,
  Store,
  TouchQuery,
  UserStats,
} from "../contract.ts";
import type {
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  Touch,
} from "../../types.ts";
import { Connection, type OpenOptions } from "./connection.ts";
import * as touches from "./touches.ts";
import * as leases from "./leases.ts";
import { forgetTouches } from "./forget.ts";
import * as resources from "./resources.ts";
import * as listings from "./listings.ts";
import { memoryStats, userStats } from "./counts.ts";
import { searchMemory } from "./memory_search.ts";
import * as outbox from "./outbox.ts";
import { type IndexMark, indexMark, type IndexUpdate, putIndex } from "./local_index.ts";

export type { OpenOptions } from "./connection.ts";
export type { SweepSignal } from "./leases.ts";

/** The embedded SQLite store. Its methods run synchronously inside, so each write is atomic in-process too. */
export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  readonly path: string;
  readonly #db: Connection;

  constructor(path: string, options: OpenOptions = {}) {
    this.path = path;
    this.#db = new Connection(path, options);
  }

  // --- Touches -------------------------------------------------------------

  recordTouches(list: NewTouch[]): Promise<number> {
    return this.#db.op(() => touches.recordTouches(this.#db, list));
  }

  listTouches(userId: string, query: TouchQuery = {}): Promise<Touch[]> {
    return this.#db.op(() => touches.listTouches(this.#db, userId, query));
  }

  touchPages(userId: string, query: TouchQuery = {}, pageSize = 1000): AsyncGenerator<Touch[]> {
    return touches.touchPages(this.#db, userId, query, pageSize);
  }

  forgetTouches(
    userId: string,
    query: ForgetQuery,
    options: { dryRun?: boolean } = {},
  ): Promise<Touch[]> {
    return forgetTouches(this.#db, userId, query, options);
  }

  // --- Leases (the Sweep's queue) ------------------------------------------

  leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    return this.#db.op(() =>
      leases.leasePending(this.#db, owner, limit, leaseMs, retrySettledBefore)
    );
  }

  leasedByOthers(owner: string): Promise<LeaseHeld[]> {
    return this.#db.op(() => leases.leasedByOthers(this.#db, owner));
  }

  settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    return this.#db.op(() => leases.settleTouch(this.#db, id, owner, settlement));
  }

  /** What the background scheduler polls (see `leases.ts`). */
  sweepSignal(since: string | null): leases.SweepSignal {
    return this.#db.guard(() => leases.sweepSignal(this.#db, since));
  }

  // --- Resources -----------------------------------------------------------

  putResources(writes: ResourceWrite[]): Promise<void> {
    return this.#db.op(() => resources.putResources(this.#db, writes));
  }

  getResource(address: string): Promise<Resource | null> {
    return this.#db.op(() => resources.getResource(this.#db, address));
  }

  getHeads(addresses: string[]): Promise<Map<string, ResourceHead>> {
    return this.#db.op(() => resources.getHeads(this.#db, addresses));
  }

  touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void> {
    return this.#db.op(() => resources.touchFetchedAt(this.#db, addresses, fetchedAt));
  }

  edges(address: string): Promise<Edge[]> {
    return this.#db.op(() => resources.edges(this.#db, address));
  }

  // --- Listings ------------------------------------------------------------

  putListing(listing: Listing, members: string[]): Promise<void> {
    return this.#db.op(() => listings.putListing(this.#db, listing, members));
  }

  getListing(key: string): Promise<Listing | null> {
    return this.#db.op(() => listings.getListing(this.#db, key));
  }

  findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]> {
    return this.#db.op(() => listings.findListings(this.#db, owner, repo, kind));
  }

  listingMembers(
    key: string,
    range?: { offset: number; limit: number },
  ): Promise<ListingMember[]> {
    return this.#db.op(() => listings.listingMembers(this.#db, key, range));
  }

  // --- Counts and memory search --------------------------------------------

  userStats(userId: string, since?: string): Promise<UserStats> {
    return this.#db.op(() => userStats(this.#db, userId, since));
  }

  memoryStats(): Promise<MemoryStats> {
    return this.#db.op(() => memoryStats(this.#db));
  }

  searchMemory(query: MemoryQuery): Promise<MemoryPage> {
    return this.#db.op(() => searchMemory(this.#db, query));
  }

  /**
   * The count of commits other connections made to the file since this one
   * opened (see `Connection.dataVersion`); a viewer writes nothing.
   */
  changeMark(_userId: string): Promise<string> {
    return this.#db.op(() => String(this.#db.dataVersion()));
  }

  // --- Outbox and export (to a graph store) --------------------------------

  /**
   * Every stored Resource with the aliases it answers to, `batch` at a time,
   * in storage order; memory stays bounded whatever the store's size.
   *
   * @example
   * ```ts
   * for (const writes of local.exportResources()) await graph.putResources(writes);
   * ```
   */
  exportResources(batch = 200): Generator<ResourceWrite[]> {
    return outbox.exportResources(this.#db, batch);
  }

  /** Every stored Listing with its member addresses in order (what `putListing` takes). */
  exportListings(): Generator<{ listing: Listing; members: string[] }> {
    return outbox.exportListings(this.#db);
  }

  /**
   * The outbox: Touches (of every user on this machine) not yet copied to the
   * shared store, oldest first. A hook with a graph store configured still
   * records here only; the drain copies them and calls {@link markExported}.
   */
  unexportedTouches(limit: number): Promise<Touch[]> {
    return this.#db.op(() => outbox.unexportedTouches(this.#db, limit));
  }

  /** Marks Touches as copied to the shared store, so the outbox never sends them twice. */
  markExported(ids: string[], at: string): Promise<void> {
    return this.#db.op(() => outbox.markExported(this.#db, ids, at));
  }

  // --- The local index (a graph store's sync) -------------------------------

  /** Where the local index stands with its graph server (see `local_index.ts`); `null` before the first sync. */
  indexMark(): Promise<IndexMark | null> {
    return this.#db.op(() => indexMark(this.#db));
  }

  /** Writes one step of a sync into the local index with its cursor, atomically. */
  putIndex(update: IndexUpdate): Promise<void> {
    return this.#db.op(() => putIndex(this.#db, update));
  }

  /** Fails as a hook's write would on this file, and changes nothing (see `Connection.probeWrite`). */
  probeWrite(): Promise<void> {
    return this.#db.op(() => this.#db.probeWrite());
  }

  close(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }
}

/**
 * Opens (creating if needed) the embedded store at `path`. Cheap when the
 * schema is current: one pragma read, no statement prepared in advance.
 */
export function openEmbeddedStore(path: string, options: OpenOptions = {}): SqliteStore {
  return new SqliteStore(path, options);
}
