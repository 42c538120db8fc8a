/**
 * The shared graph store: Resources, Listings and Touches in Memgraph or Neo4j
 * over Bolt (`neo4j-driver`), in the Context Graph family's model (see
 * `model.ts`). Resources and Listings are shared by the team; Touches
 * carry their user id and every read of them filters by it.
 *
 * The class only wires each concern's module to one {@link Connection}:
 * Touches (`touches.ts`), the Sweep's leases (`leases.ts`), forgetting
 * (`forget.ts`), Resources (`resources.ts`), Listings (`listings.ts`),
 * counts (`counts.ts`), memory search (`memory_search.ts`), and what a
 * local index syncs by (`change_feed.ts`). Every transaction is run again
 * from the start on a conflict (`retry.ts`); the hooks' outbox is drained
 * by `outbox.ts`.
 *
 * The server may hold nodes other writers of the family stored: they are
 * read through `decode.ts` (what cannot be read is absent, and reported
 * through `onSkip`), and written beside with `SET +=` (see `model.ts`).
 *
 * @example
 * ```ts
 * import { connectGraph } from "./connect.ts";
 * const store = await connectGraph({ url: "bolt://127.0.0.1:7687", user: null, password: null, database: null });
 * await store.getResource("github:memgraph/memgraph#123");
 * await store.close();
 * ```
 * @module
 */

import type { Driver } from "neo4j-driver";
import type {
  Edge,
  ForgetQuery,
  IndexHead,
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
import type { SqliteStore } from "../sqlite/mod.ts";
import type {
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  Touch,
} from "../../types.ts";
import { printableUrl } from "../bolt_url.ts";
import type { Skip } from "./decode.ts";
import type { ChangeCounter, ChangeCursor, ChangePage } from "./changes.ts";
import { MINIMUM_VERSION, type ServerIdentity } from "./server.ts";
import { type SchemaState, schemaState } from "./schema.ts";
import {
  type BoltCounts,
  Connection,
  type GraphTarget,
  type Params,
  plain,
  type Props,
} from "./connection.ts";
import * as touches from "./touches.ts";
import { Leases } from "./leases.ts";
import { forgetTouches } from "./forget.ts";
import * as resources from "./resources.ts";
import * as listings from "./listings.ts";
import { memoryStats, userStats } from "./counts.ts";
import { searchMemory } from "./memory_search.ts";
import * as feed from "./change_feed.ts";

export type { BoltCounts, GraphTarget } from "./connection.ts";

/** Options beyond the connection. */
export interface GraphOptions {
  /**
   * Whose pending Touches `leasePending` may lease (the person running the
   * Sweep): others' Touches stay private. `null` leases none (fail closed:
   * a Sweep without an identity refuses before it opens a store anyway).
   */
  leaseUser?: string | null;
  /**
   * Told once per process about each node that could not be read (another
   * writer's, incomplete or of another type), which is then treated as absent.
   */
  onSkip?: Skip;
}

/** What `rgraph doctor` shows of the server. */
export interface ServerReport {
  server: ServerIdentity;
  /** The oldest version of this kind of server rgraph runs on. */
  minimum: string;
  schema: SchemaState;
}

/** The shared graph store. */
export class GraphStore implements Store {
  readonly kind = "graph" as const;
  readonly server: ServerIdentity;
  /** The login the server says this connection is (`SHOW CURRENT USER`); null when it has none to tell. */
  readonly login: string | null;
  readonly #c: Connection;
  readonly #leases: Leases;

  constructor(
    driver: Driver,
    target: GraphTarget,
    server: ServerIdentity,
    options: GraphOptions,
    login: string | null = null,
  ) {
    this.#c = new Connection(driver, target, options.onSkip ?? null);
    this.#leases = new Leases(this.#c, options.leaseUser ?? null);
    this.server = server;
    this.login = login;
  }

  /** The server this store talks to, fit to print: its URL without credentials, and database. */
  get where(): string {
    const db = this.#c.target.database;
    return `${printableUrl(this.#c.target.url)}${db ? ` (database ${db})` : ""}`;
  }

  /**
   * Keeps `local` (the hooks' local index) in step with what this store
   * writes, and closes it with the store.
   */
  attachLocalIndex(local: SqliteStore): void {
    this.#c.mirror = local;
  }

  /** The hooks' local index (and outbox) this store keeps in step, if one is attached. */
  get localIndex(): SqliteStore | null {
    return this.#c.mirror;
  }

  /** Bolt work issued since the store opened (or since the last reset). */
  boltCounts(reset = false): BoltCounts {
    return this.#c.boltCounts(reset);
  }

  /** The server, the oldest version rgraph runs on, and the schema record as it is now. */
  async serverReport(): Promise<ServerReport> {
    const schema = await schemaState((q) => this.#c.read(q), this.server);
    return { server: this.server, minimum: MINIMUM_VERSION[this.server.kind], schema };
  }

  // --- Touches -------------------------------------------------------------------

  recordTouches(list: NewTouch[]): Promise<number> {
    return touches.importTouches(this.#c, list);
  }

  /**
   * Records Touches keeping whatever they already carry (status, reason,
   * settlement): the outbox drain and `migrate` move settled ones too. A
   * Touch already stored for its user and dedup key is skipped. Returns how
   * many were new.
   */
  importTouches(list: (NewTouch & Partial<Touch>)[]): Promise<number> {
    return touches.importTouches(this.#c, list);
  }

  listTouches(userId: string, query: TouchQuery = {}): Promise<Touch[]> {
    return touches.listTouches(this.#c, userId, query);
  }

  touchPages(userId: string, query: TouchQuery = {}, pageSize = 1000): AsyncGenerator<Touch[]> {
    return touches.touchPages(this.#c, userId, query, pageSize);
  }

  forgetTouches(
    userId: string,
    query: ForgetQuery,
    options: { dryRun?: boolean } = {},
  ): Promise<Touch[]> {
    return forgetTouches(this.#c, userId, query, options);
  }

  // --- Leases (the Sweep's queue) ------------------------------------------------

  leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    return this.#leases.leasePending(owner, limit, leaseMs, retrySettledBefore);
  }

  leasedByOthers(owner: string): Promise<LeaseHeld[]> {
    return this.#leases.leasedByOthers(owner);
  }

  settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    return this.#leases.settleTouch(id, owner, settlement);
  }

  // --- Resources -----------------------------------------------------------------

  putResources(writes: ResourceWrite[]): Promise<void> {
    return resources.putResources(this.#c, writes);
  }

  getResource(address: string): Promise<Resource | null> {
    return resources.getResource(this.#c, address);
  }

  /** Many Resources by address or alias in one query; missing ones are left out. */
  getResources(addresses: string[]): Promise<Map<string, Resource>> {
    return resources.getResources(this.#c, addresses);
  }

  getHeads(addresses: string[]): Promise<Map<string, ResourceHead>> {
    return resources.getHeads(this.#c, addresses);
  }

  touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void> {
    return resources.touchFetchedAt(this.#c, addresses, fetchedAt);
  }

  edges(address: string): Promise<Edge[]> {
    return resources.edges(this.#c, address);
  }

  // --- Listings ------------------------------------------------------------------

  putListing(listing: Listing, members: string[]): Promise<void> {
    return listings.putListing(this.#c, listing, members);
  }

  getListing(key: string): Promise<Listing | null> {
    return listings.getListing(this.#c, key);
  }

  findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]> {
    return listings.findListings(this.#c, owner, repo, kind);
  }

  listingMembers(
    key: string,
    range?: { offset: number; limit: number },
  ): Promise<ListingMember[]> {
    return listings.listingMembers(this.#c, key, range);
  }

  // --- Counts and memory search --------------------------------------------------

  userStats(userId: string, since?: string): Promise<UserStats> {
    return userStats(this.#c, userId, since);
  }

  memoryStats(): Promise<MemoryStats> {
    return memoryStats(this.#c);
  }

  searchMemory(query: MemoryQuery): Promise<MemoryPage> {
    return searchMemory(this.#c, query);
  }

  // --- Changes (the change mark, and what a local index syncs by) -----------------

  changeMark(userId: string): Promise<string> {
    return feed.changeMark(this.#c, userId);
  }

  /** The change counter and the server's epoch; `null` before anything was set up. */
  changeCounter(): Promise<ChangeCounter | null> {
    return feed.changeCounter(this.#c);
  }

  /** Up to `limit` heads changed after `cursor`, oldest change first (see `change_feed.ts`). */
  changedHeads(cursor: ChangeCursor, limit: number): Promise<ChangePage<IndexHead>> {
    return feed.changedHeads(this.#c, cursor, limit);
  }

  /** The heads of the `limit` most recently fetched Resources, stamped or not, without aliases. */
  newestHeads(limit: number): Promise<IndexHead[]> {
    return feed.newestHeads(this.#c, limit);
  }

  /** Up to `limit` Listings changed after `cursor` (by key), as {@link changedHeads}. */
  changedListings(cursor: ChangeCursor, limit: number, all = false): Promise<ChangePage<Listing>> {
    return feed.changedListings(this.#c, cursor, limit, all);
  }

  /** The old addresses of every Resource that has any, by node id. */
  allAliases(): Promise<Map<string, string[]>> {
    return feed.allAliases(this.#c);
  }

  /**
   * Runs one read-only Cypher statement and returns its rows (whole numbers as
   * numbers, nodes as their properties plus `labels`). For tests and
   * diagnostics that look at the graph as another component would.
   */
  async cypher(query: string, params: Params = {}): Promise<Props[]> {
    const rows = await this.#c.read(query, params);
    return rows.map((r) => {
      const out: Props = {};
      for (const [k, v] of Object.entries(r)) out[k] = plain(v);
      return out;
    });
  }

  async close(): Promise<void> {
    await this.#c.mirror?.close();
    await this.#c.driver.close();
  }
}
