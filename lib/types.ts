/**
 * The domain vocabulary of rgraph, as union types. Every word here is defined
 * in CONTEXT.md; code, tests and docs use them with one meaning each.
 *
 * @module
 */

/** The platforms an Address can name. Only GitHub today; webpages and PDFs can follow. */
export type Platform = "github";

/** What kind of thing a Resource is. Issues and pull requests share one number sequence. */
export type ResourceKind = "repository" | "issue" | "pull_request";

/** Which connection a Listing pages through. */
export type ListingKind = "issues" | "pulls";

/** A Listing's `state` filter. `merged` exists for pulls only. */
export type ListingState = "open" | "closed" | "all" | "merged";

/**
 * The harnesses rgraph hooks into, one adapter each in `lib/capture/harness/`.
 * A list, not only a type: the config file's `[capture] exclude_harnesses` is
 * checked against it.
 */
export const HARNESS_NAMES = [
  "claude-code",
  "codex",
  "copilot",
  "cursor",
  "opencode",
  "gemini",
  "grok",
] as const;

/** One of {@link HARNESS_NAMES}. */
export type HarnessName = typeof HARNESS_NAMES[number];

/** How a Touch arrived: the agent fetched it, or a person pasted it into a prompt. */
export type Provenance = "FETCHED" | "PROMPTED";

/**
 * Lifecycle of a Touch.
 * - `pending`: captured, waiting for a Sweep;
 * - `resolved`: the Sweep stored what it names;
 * - `unresolved`: the Sweep could not, for a {@link UnresolvedReason};
 * - `served`: a Cache Read, answered from memory; the Sweep ignores it.
 */
export type TouchStatus = "pending" | "resolved" | "unresolved" | "served";

/**
 * Why a Sweep left a Touch unresolved. A transient failure is retried, and
 * recorded only as `unavailable` once GitHub has failed on the item alone in
 * {@link UNAVAILABLE_AFTER} consecutive Sweeps.
 */
export type UnresolvedReason =
  | "not_found"
  | "not_public"
  | "rate_limited"
  | "unparseable"
  | "unavailable";

/** Consecutive Sweeps in which GitHub fails on an item alone before its Touch is `unavailable`. */
export const UNAVAILABLE_AFTER = 3;

/** What a Cache Read found in memory. */
export type CacheOutcome = "hit" | "subsumed" | "miss";

/** The filters of a Listing, normalised (see `lib/address/key.ts` for the key form). */
export interface ListingFilters {
  state: ListingState;
  /** Lowercased, deduplicated, sorted. */
  labels: string[];
  author?: string;
  assignee?: string;
  milestone?: string;
  /** Free text, whitespace collapsed. */
  q?: string;
}

/** An Address of a repository: `github:OWNER/REPO`. */
export interface RepositoryAddress {
  platform: Platform;
  kind: "repository";
  key: string;
  owner: string;
  repo: string;
}

/** An Address of an issue or pull request: `github:OWNER/REPO#N`. */
export interface ItemAddress {
  platform: Platform;
  kind: "item";
  key: string;
  owner: string;
  repo: string;
  number: number;
}

/** An Address of a Listing: `github:OWNER/REPO/issues?state=open`. `limit` is not part of the key. */
export interface ListingAddress {
  platform: Platform;
  kind: "listing";
  key: string;
  owner: string;
  repo: string;
  listing: ListingKind;
  filters: ListingFilters;
  /** How many members were asked for; `null` means every page (e.g. `--paginate`). */
  limit: number | null;
}

/** A canonical, platform-qualified name of something that can be remembered. */
export type Address = RepositoryAddress | ItemAddress | ListingAddress;

/** The kind of an Address. */
export type AddressKind = Address["kind"];

/** What a Touch names: an Address of some kind, or (a search of memory, a Cache Read) a query. */
export type TouchKind = AddressKind | "search";

/** A Touch as the hook (or a Cache Read) records it, before the store gives it an id. */
export interface NewTouch {
  user_id: string;
  session_id: string | null;
  provenance: Provenance;
  address: string;
  kind: TouchKind;
  limit: number | null;
  tool_name: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  harness: string | null;
  /** ISO 8601 UTC. */
  recorded_at: string;
  /**
   * Idempotency key: re-delivery of the same event yields the same value, so
   * the store records it once. Built by `touchDedupKey`.
   */
  dedup_key: string;
  status: TouchStatus;
  /** Only for Cache Reads. */
  outcome?: CacheOutcome | null;
  /** What the Touch is linked to (a Resource address or Listing key), when known. */
  target?: string | null;
}

/** A stored Touch. */
export interface Touch extends NewTouch {
  id: string;
  reason: UnresolvedReason | null;
  /** GitHub's last message about it: why a Sweep failed on it, or why it is `unavailable`. */
  detail: string | null;
  /** Consecutive Sweeps in which GitHub failed on it (see {@link UNAVAILABLE_AFTER}). */
  failures: number;
  outcome: CacheOutcome | null;
  target: string | null;
  /** When the Sweep (or Cache Read) settled it. */
  settled_at: string | null;
}

/** One comment on an issue or pull request, or a review comment on a pull request. */
export interface Comment {
  node_id: string;
  author: string | null;
  created_at: string;
  updated_at?: string | null;
  body: string;
  /** Review comments only: the file the comment is on. */
  path?: string | null;
}

/** Fields shared by every stored Resource. */
interface ResourceBase {
  /** GitHub's global node id: the Resource's identity. */
  node_id: string;
  /** Current canonical Address key (mutable: renames and transfers move it). */
  address: string;
  owner: string;
  repo: string;
  url: string;
  /** When rgraph fetched it (ISO 8601 UTC). */
  fetched_at: string;
  /** GitHub's `updated_at` (ISO 8601 UTC). */
  updated_at: string;
  /** Opaque validator for conditional requests (REST ETag), when the source gave one. */
  etag?: string | null;
}

/** A stored repository. */
export interface RepositoryResource extends ResourceBase {
  kind: "repository";
  description: string | null;
  readme: string | null;
  readme_path: string | null;
  stars: number;
  pushed_at: string | null;
}

/** Fields shared by issues and pull requests. */
interface ItemBase extends ResourceBase {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed" | "merged";
  author: string | null;
  labels: string[];
  assignees: string[];
  milestone: string | null;
  created_at: string;
  closed_at: string | null;
  comment_count: number;
  comments: Comment[];
  /**
   * URLs of the issues/pull requests that mention this one (the sources of
   * the cross-reference events on its timeline), so each is drawn as
   * `(mentioner)-[:REFERENCES]->(this)`. Kept even when the other end is not
   * stored; the edge is drawn as soon as it is.
   */
  referenced_by: string[];
}

/** A stored issue. */
export interface IssueResource extends ItemBase {
  kind: "issue";
}

/** A stored pull request. */
export interface PullRequestResource extends ItemBase {
  kind: "pull_request";
  merged: boolean;
  base_ref: string | null;
  files: string[];
  review_comments: Comment[];
  /** URLs of issues this pull request closes (closingIssuesReferences). */
  closes: string[];
}

/** An issue or pull request. */
export type ItemResource = IssueResource | PullRequestResource;

/** A Resource: canonical public content fetched once and shared. */
export type Resource = RepositoryResource | ItemResource;

/** One row of a Listing's index. */
export interface ListingMember {
  position: number;
  address: string;
  number: number;
  kind: "issue" | "pull_request";
  title: string;
  state: "open" | "closed" | "merged";
  author: string | null;
  labels: string[];
  assignees: string[];
  milestone: string | null;
  updated_at: string;
  comment_count: number;
}

/** A stored Listing (its members are read page by page through the store). */
export interface Listing {
  key: string;
  owner: string;
  repo: string;
  listing: ListingKind;
  filters: ListingFilters;
  /** The limit it was fetched with (`null`: everything). */
  limit: number | null;
  /** How many items GitHub said match. */
  total_count: number;
  member_count: number;
  /** True when every matching item is a member (member_count == total_count). */
  fully_expanded: boolean;
  fetched_at: string;
}

/** A reference edge between two stored Resources. */
export type EdgeKind = "REFERENCES" | "CLOSES";
