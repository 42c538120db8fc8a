/**
 * The GitHub source the Sweep fetches from: one interface, two
 * implementations (GraphQL with a token, anonymous REST without), chosen by
 * `openSource`.
 *
 * @example
 * ```ts
 * import { openSource } from "./source.ts";
 * const source = await openSource(config.github);
 * const found = await source.items("denoland", "deno", [1]);
 * found.get(1)?.status; // "ok" | "not_found" | "not_public"
 * ```
 * @module
 */

import type { ItemResource, ListingAddress, RepositoryResource } from "../types.ts";
import { type Budget, type RateResource, TransientError } from "./http.ts";

export type { Budget, RateResource } from "./http.ts";

/** What fetching one thing gave. */
export type Fetched<T> =
  | { status: "ok"; value: T }
  | { status: "not_found" }
  | { status: "not_public" }
  /**
   * GitHub failed on this one thing (asked alone, or with an error attached
   * to it alone): retried by a later Sweep. `counts` when GitHub answered
   * with the error, as opposed to the network failing on the way.
   */
  | { status: "failed"; message: string; counts: boolean };

/** A transient failure of a request for one thing alone, as what fetching it gave; else null. */
export function failedFetch(e: unknown): Fetched<never> | null {
  if (!(e instanceof TransientError)) return null;
  return { status: "failed", message: e.message, counts: e.answered };
}

/**
 * Runs the fetch of one thing alone: a transient failure of GitHub's on it
 * (after retries) is what fetching it gave, not a throw its neighbours share.
 *
 * @example
 * ```ts
 * const r = await alone(() => fetchIssue(7)); // { status: "failed", … } on a 502
 * ```
 */
export async function alone<T>(fetch: () => Promise<T>): Promise<T | Fetched<never>> {
  try {
    return await fetch();
  } catch (e) {
    const failed = failedFetch(e);
    if (failed) return failed;
    throw e;
  }
}

/** What revalidating one stored thing gave. */
export type Revalidated<T> = Fetched<T> | { status: "unchanged" };

/** What the store remembers of an item, for a conditional request. */
export interface StoredHead {
  number: number;
  updated_at: string;
  etag: string | null;
}

/** A changed item as a `since` revalidation reports it (no body, no comments). */
export interface ChangedHead {
  number: number;
  kind: "issue" | "pull_request";
  updated_at: string;
  state: "open" | "closed" | "merged";
  author: string | null;
  labels: string[];
  assignees: string[];
  milestone: string | null;
}

/** One page of a Listing's members, at full depth. */
export interface ListingPage {
  items: ItemResource[];
  /**
   * Each item's place in GitHub's order (0-based), parallel to `items`: a
   * page may yield members out of order (the GraphQL source holds back those
   * whose threads need more pages), so the Listing is ordered by these.
   */
  positions: number[];
  /** How many items GitHub says match the Listing. */
  totalCount: number;
}

/**
 * A Listing member as a page of the list shows it, before its thread is
 * read: enough to tell whether memory already holds it as it is now, and
 * what reading it whole would cost.
 */
export interface ListedMember {
  /** Its place in GitHub's order (0-based). */
  position: number;
  /** Its item Address key, where it lives now. */
  address: string;
  updated_at: string;
  /**
   * Requests still needed to read it whole: its comment pages (none when it
   * has no comments: the list showed all of it), and a pull request's own
   * detail, files and review comments.
   */
  requests: number;
  /** Reads it whole (throws a {@link TransientError} naming it when GitHub fails on it). */
  complete(): Promise<ItemResource>;
}

/** One page of a Listing's members as the list shows them (one request). */
export interface ListedPage {
  members: ListedMember[];
  /** How many items GitHub says match the Listing. */
  totalCount: number;
}

/**
 * Asks a fetch of items or of a Listing to bring their repository's own
 * Resource along, where that fits in the same request (GraphQL). A source
 * that cannot (REST) never calls it; the Sweep then fetches the repository
 * itself.
 */
export interface RepositoryAlong {
  /** The repository as it came along; `null` when there is none to store (missing, not public). */
  found(repository: RepositoryResource | null): void;
}

/** A Listing (or its repository) cannot be fetched. */
export class UnavailableError extends Error {
  constructor(readonly reason: "not_found" | "not_public") {
    super(reason);
    this.name = "UnavailableError";
  }
}

/** Where the Sweep gets canonical content. */
export interface Source {
  readonly mode: "graphql" | "rest";
  /** Requests sent so far. */
  requests(): number;
  /** The budget most work spends (`core` without a token, `graphql` with one). */
  readonly main: RateResource;
  /** Each budget as last reported (`null` fields: not reported yet). */
  budget(resource?: RateResource): Budget;
  /** The budgets this source has heard of. */
  budgets(): Partial<Record<RateResource, Budget>>;
  /** Makes {@link budget} known (when no response has told it yet) before large work. */
  learnBudget(): Promise<void>;
  /**
   * Whether work costing about `estimate` (requests for REST, points for
   * GraphQL) fits a whole hour's budget, so that some run can ever do it
   * (`true` while the budget is unknown).
   */
  affordable(estimate: number, resource?: RateResource): boolean;
  /** Items of one repository by number, at full depth (and the repository, if `along` asks). */
  items(
    owner: string,
    repo: string,
    numbers: number[],
    along?: RepositoryAlong,
  ): Promise<Map<number, Fetched<ItemResource>>>;
  /** Stored items re-checked cheaply; only changed ones are fetched again. */
  revalidateItems(
    owner: string,
    repo: string,
    stored: StoredHead[],
  ): Promise<Map<number, Revalidated<ItemResource>>>;
  /** A repository with its README; `stored` makes it a revalidation. */
  repository(
    owner: string,
    repo: string,
    stored: { updated_at: string; etag: string | null } | null,
  ): Promise<Revalidated<RepositoryResource>>;
  /**
   * Pages of a Listing's members at full depth, newest-updated first, at most
   * `limit` members in all (and the repository, if `along` asks). Throws
   * {@link UnavailableError}.
   */
  listingPages(
    address: ListingAddress,
    limit: number,
    along?: RepositoryAlong,
  ): AsyncGenerator<ListingPage>;
  /**
   * A Listing's members page by page as the list shows them, each page one
   * request asked only when the next one is pulled, each member read whole
   * only when asked: so the Sweep can spend a budget too small for the whole
   * Listing on whole members, and resume later without reading again what
   * memory holds (REST only; GraphQL pages come at full depth). At most
   * `limit` members. Throws {@link UnavailableError}.
   */
  listedPages?(address: ListingAddress, limit: number): AsyncGenerator<ListedPage>;
  /**
   * Items of the Listing's repository updated since `since` (heads only) and
   * the Listing's current total (`null`: the source cannot count); `null` when the Listing cannot be revalidated
   * this way (free-text search: it is refetched). Throws {@link UnavailableError}.
   */
  listingChanges(
    address: ListingAddress,
    since: string,
  ): Promise<{ totalCount: number | null; changed: ChangedHead[] } | null>;
}
