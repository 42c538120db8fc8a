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

/** Counts `rgraph stats` reports for one user. */
export interface UserStats {
  cache_reads: { hit: number; subsumed: number; miss: number };
  /** GitHub requests the hits would have cost (estimated per answer). */
  requests_avoided: number;
  pending: number;
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
   * Leases up to `limit` pending FETCHED/PROMPTED Touches (never Cache Reads),
   * oldest first, skipping ones leased by someone else whose lease has not
   * expired. Two concurrent Sweeps never lease the same Touch.
   */
  leasePending(owner: string, limit: number, leaseMs: number): Promise<Touch[]>;

  /** Settles a leased Touch; only the lease holder may settle it. */
  settleTouch(id: string, owner: string, settlement: Settlement): Promise<void>;

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

  close(): Promise<void>;
}
