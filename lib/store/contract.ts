/**
 * The store contract: what every store (the embedded SQLite store and the
 * shared graph store) answers. One contract suite (`tests/store_contract.ts`)
 * runs the same scenarios against each implementation.
 *
 * Resources and Listings are shared by everyone who uses the store. Touches
 * are private: every read of Touches is scoped to one user id, and an empty
 * user id is refused ({@link IdentityRequiredError}).
 *
 * @module
 */

import { UserError } from "../errors.ts";
import type {
  EdgeKind,
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  ResourceKind,
  Touch,
  TouchStatus,
  UnresolvedReason,
} from "../types.ts";

/** Thrown by Touch reads when no identity is configured (fail closed). */
export class IdentityRequiredError extends Error {
  constructor() {
    super("no identity configured: set [identity] user_id in the config file");
    this.name = "IdentityRequiredError";
  }
}

/**
 * Fails closed: throws {@link IdentityRequiredError} unless `userId` names someone.
 * Every store calls it before a Touch write or read.
 *
 * @example
 * ```ts
 * requireUser(config.identity.user_id ?? ""); // throws when unset
 * ```
 */
export function requireUser(userId: string): void {
  if (typeof userId !== "string" || userId.trim() === "") throw new IdentityRequiredError();
}

/**
 * Thrown when a shared store cannot be reached. A {@link UserError}: commands
 * print it as one line (exit 1); Touches wait in the local outbox meanwhile.
 */
export class StoreUnavailableError extends UserError {
  constructor(what: string, cause?: unknown) {
    super(`the shared store is unreachable (${what})`);
    this.name = "StoreUnavailableError";
    this.cause = cause;
  }
}

/**
 * Thrown when a shared store answers but rgraph will not use it: a server
 * older than rgraph supports, or a schema it cannot set up. A
 * {@link UserError} (one line, exit 1) carrying what to do about it.
 */
export class UnsupportedStoreError extends UserError {
  constructor(what: string, readonly fix: string, cause?: unknown) {
    super(`the shared store cannot be used (${what})`);
    this.name = "UnsupportedStoreError";
    this.cause = cause;
  }
}

/** How a Sweep settles a leased Touch. */
export type Settlement =
  | { status: "resolved"; target: string }
  /** `detail`: GitHub's message, for `unavailable`. */
  | { status: "unresolved"; reason: UnresolvedReason; detail?: string }
  /**
   * Give the Touch back (rate limited before its turn, a transient failure);
   * with `failure`, GitHub failed on it alone: one more consecutive failure
   * is counted and `failure` kept as its detail.
   */
  | { status: "pending"; failure?: string };

/** A pending Touch another Sweep holds (see {@link Store.leasedByOthers}). */
export interface LeaseHeld {
  address: string;
  owner: string;
  /** Epoch milliseconds when the lease ends. */
  until: number;
}

/** What the store keeps about a Resource without loading its comments. */
export interface ResourceHead {
  node_id: string;
  kind: ResourceKind;
  address: string;
  title: string | null;
  fetched_at: string;
  updated_at: string;
  etag: string | null;
}

/**
 * The head of a stored Resource: what a staleness check or the hook's Nudge
 * reads of it (a repository's head carries no title: its name is its address).
 *
 * @example
 * ```ts
 * headOf(repository).title; // null
 * ```
 */
export function headOf(r: Resource): ResourceHead {
  return {
    node_id: r.node_id,
    kind: r.kind,
    address: r.address,
    title: r.kind === "repository" ? null : r.title,
    fetched_at: r.fetched_at,
    updated_at: r.updated_at,
    etag: r.etag ?? null,
  };
}

/**
 * What a machine's local index keeps of a Resource stored in the shared graph
 * store: its head and the old addresses it answers to, all the hook's Nudge
 * reads (a few hundred bytes; never a body or a comment).
 */
export interface IndexHead extends ResourceHead {
  aliases: string[];
}

/** A reference edge between two stored Resources, by their current addresses. */
export interface Edge {
  kind: EdgeKind;
  from: string;
  to: string;
}

/** Filters for reading a user's own Touches. */
export interface TouchQuery {
  session_id?: string;
  /** ISO 8601: only Touches recorded at or after this time. */
  since?: string;
  status?: TouchStatus;
}

/**
 * Which of one user's Touches `rgraph forget` removes: every one (`all`), or
 * those that match every filter given. `address` is a canonical key and
 * matches a Touch's address or what the Sweep resolved it to (`target`).
 * Times are ISO 8601: `since` inclusive, `before` exclusive.
 */
export type ForgetQuery =
  | { all: true }
  | { all?: false; session_id?: string; since?: string; before?: string; address?: string };

/** What a forget found in each place a Touch can be. */
export interface ForgetCounts {
  /** Every Touch forgotten (or that would be), once each, oldest first. */
  touches: Touch[];
  /** How many were in the embedded store: with a graph store, its outbox, sent or not. */
  local: number;
  /** How many were in the shared graph store; `null` without one. */
  shared: number | null;
}

/** Counts `rgraph stats` reports for one user. */
export interface UserStats {
  cache_reads: { hit: number; subsumed: number; miss: number };
  /** GitHub requests the hits would have cost (estimated per answer). */
  requests_avoided: number;
  pending: number;
  /** When the oldest pending Touch was recorded (null: none is pending). */
  oldest_pending: string | null;
  resolved: number;
  unresolved: Partial<Record<UnresolvedReason, number>>;
}

/** Counts over the shared memory. */
export interface MemoryStats {
  resources: Record<ResourceKind, number>;
  comments: number;
  listings: number;
  /** Bytes on disk, or null when the store cannot tell. */
  size_bytes: number | null;
}

/** One thing in memory as `rgraph view` lists it: a Resource, or a Listing. */
export interface MemoryEntry {
  /** The Resource's current Address, or the Listing's key. */
  address: string;
  kind: ResourceKind | "listing";
  /** An item's title; null for repositories and Listings. */
  title: string | null;
  /** An item's state (`open`, `closed`, `merged`); null for repositories and Listings. */
  state: string | null;
  fetched_at: string;
  /** GitHub's `updated_at`; null for Listings, which have none. */
  updated_at: string | null;
}

/**
 * Which of memory to list: everything, or what has `text` in its Address or
 * title (case-insensitive); newest fetch first, `limit` from `offset`.
 */
export interface MemoryQuery {
  text?: string;
  offset?: number;
  limit: number;
}

/** One page of {@link MemoryQuery}'s answer, with how many match in all. */
export interface MemoryPage {
  entries: MemoryEntry[];
  total: number;
}

/** Orders memory entries as {@link Store.searchMemory} lists them: newest fetch first, then by address. */
export function newestFetchFirst(a: MemoryEntry, b: MemoryEntry): number {
  if (a.fetched_at !== b.fetched_at) return a.fetched_at < b.fetched_at ? 1 : -1;
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** Something that can be written as one unit: a Resource with its comments and edges. */
export interface ResourceWrite {
  resource: Resource;
  /**
   * Other keys this Resource was asked for under (a renamed repository's old
   * name, a transferred issue's old home): lookups of them find it too.
   */
  aliases?: string[];
}

/** The store contract. All methods may be called concurrently from one process. */
export interface Store {
  /** `"sqlite"` or `"graph"`. */
  readonly kind: "sqlite" | "graph";

  // --- Touches (private) -------------------------------------------------

  /**
   * Records Touches; a Touch whose `dedup_key` is already stored for that user
   * is skipped. Returns how many were new.
   */
  recordTouches(touches: NewTouch[]): Promise<number>;

  /** The user's own Touches, oldest first. Throws {@link IdentityRequiredError} on an empty id. */
  listTouches(userId: string, query?: TouchQuery): Promise<Touch[]>;

  /**
   * The user's own Touches newest first, at most `pageSize` a page (default
   * 1000), each page read when asked for: memory and each read stay bounded
   * however many there are. Throws {@link IdentityRequiredError} on an
   * empty id.
   *
   * @example
   * ```ts
   * for await (const page of store.touchPages("alice", { since: "2026-05-01" })) show(page);
   * ```
   */
  touchPages(userId: string, query?: TouchQuery, pageSize?: number): AsyncGenerator<Touch[]>;

  /**
   * Leases up to `limit` pending FETCHED/PROMPTED Touches (never Cache Reads),
   * oldest first, skipping ones leased by someone else whose lease has not
   * expired. Two concurrent Sweeps never lease the same Touch. With
   * `retrySettledBefore`, a Touch settled unresolved `rate_limited` before
   * that time is leased too (a later Sweep retries it; one that settled it
   * does not take it up again), and comes back pending.
   */
  leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]>;

  /**
   * The pending Touches another Sweep's live lease holds (any owner but
   * `owner`, lease not expired): each one's Address, holder and when its
   * lease ends. A Sweep leaves a repository another is working on to it,
   * so two Sweeps at once do not fetch one repository's work twice.
   */
  leasedByOthers(owner: string): Promise<LeaseHeld[]>;

  /** Settles a leased Touch; only the lease holder may settle it. */
  settleTouch(id: string, owner: string, settlement: Settlement): Promise<void>;

  /**
   * Deletes the user's own Touches that `query` selects and returns them,
   * oldest first; with `dryRun`, only returns them. Never another user's
   * Touches, never a Resource or Listing; a second call finds nothing.
   * Throws {@link IdentityRequiredError} on an empty id.
   */
  forgetTouches(userId: string, query: ForgetQuery, options?: { dryRun?: boolean }): Promise<
    Touch[]
  >;

  // --- Resources (shared) ------------------------------------------------

  /**
   * Writes Resources, each atomically with its comments and edges: upsert on
   * `node_id` (a new address moves it; old addresses stay as aliases),
   * REFERENCES/CLOSES edges drawn to stored Resources, and edges from stored
   * Resources waiting for this one drawn now.
   */
  putResources(writes: ResourceWrite[]): Promise<void>;

  /** A Resource with its comments, by current address or alias; `null` if not stored. */
  getResource(address: string): Promise<Resource | null>;

  /** Heads of stored Resources by address or alias (one query for many). */
  getHeads(addresses: string[]): Promise<Map<string, ResourceHead>>;

  /** Marks stored Resources as re-validated now without changing content. */
  touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void>;

  /** The reference edges touching a Resource (either direction). */
  edges(address: string): Promise<Edge[]>;

  // --- Listings (shared) -------------------------------------------------

  /**
   * Stores a Listing and replaces its members with `members` (item addresses
   * of stored Resources, in order).
   */
  putListing(listing: Listing, members: string[]): Promise<void>;

  /** A Listing by key; `null` if not stored. */
  getListing(key: string): Promise<Listing | null>;

  /** All stored Listings of one repository and kind (candidates for subsumption). */
  findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]>;

  /** Members of a Listing in order; all of them when `range` is omitted. */
  listingMembers(key: string, range?: { offset: number; limit: number }): Promise<ListingMember[]>;

  // --- Reports -----------------------------------------------------------

  userStats(userId: string, since?: string): Promise<UserStats>;
  memoryStats(): Promise<MemoryStats>;

  /** Resources and Listings matching `query`, for people browsing memory (`rgraph view`). */
  searchMemory(query: MemoryQuery): Promise<MemoryPage>;

  /**
   * A short text that changes whenever another connection or process may
   * have changed what `userId` sees (their Touches, any Resource or
   * Listing), and is cheap enough to ask every second: `rgraph view` polls
   * it instead of re-reading everything. It may change without a visible
   * change; it never stays the same across another writer's change.
   */
  changeMark(userId: string): Promise<string>;

  close(): Promise<void>;
}
