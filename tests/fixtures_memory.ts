/**
 * Builders of realistic stored memory for the serve tests and benchmark:
 * Resources shaped as the Sweep stores them, and Listings with their members.
 *
 * @example
 * ```ts
 * import { issue, seedListing } from "./fixtures_memory.ts";
 * await store.putResources([{ resource: issue("o", "r", 5, { comments: 3 }) }]);
 * ```
 * @module
 */

import type {
  Comment,
  IssueResource,
  Listing,
  ListingFilters,
  PullRequestResource,
  RepositoryResource,
} from "../lib/types.ts";
import type { Store } from "../lib/store/contract.ts";
import {
  type FilterInput,
  itemAddress,
  listingAddress,
  repositoryAddress,
} from "../lib/address/key.ts";

/** A fixed clock the fixtures are dated against. */
export const FETCHED_AT = "2026-11-29T20:00:00Z";
export const UPDATED_AT = "2026-11-26T09:30:00Z";

/** A time `minutes` after a base date, for ordered comments. */
function at(minutes: number): string {
  return new Date(Date.parse("2025-06-01T10:00:00Z") + minutes * 60_000).toISOString().replace(
    ".000Z",
    "Z",
  );
}

/** `n` comments by rotating authors, bodies naming their position. */
export function comments(owner: string, repo: string, number: number, n: number): Comment[] {
  const authors = ["ann", "bob", "carol", "dmitri"];
  return Array.from({ length: n }, (_, i) => ({
    node_id: `IC_${owner}_${repo}_${number}_${i + 1}`,
    author: authors[i % authors.length],
    created_at: at(60 + i * 7),
    updated_at: at(60 + i * 7),
    body: `Comment ${i + 1} on #${number}: I can reproduce this on v2.${i % 9}.`,
  }));
}

/** Options for {@link issue} and {@link pull}. */
export interface ItemOptions {
  title?: string;
  body?: string;
  state?: "open" | "closed";
  labels?: string[];
  author?: string | null;
  assignees?: string[];
  milestone?: string | null;
  comments?: number;
  updated_at?: string;
  fetched_at?: string;
}

/** A stored issue as the Sweep writes it. */
export function issue(
  owner: string,
  repo: string,
  number: number,
  o: ItemOptions = {},
): IssueResource {
  const a = itemAddress(owner, repo, number);
  const cs = comments(a.owner, a.repo, number, o.comments ?? 0);
  const state = o.state ?? "open";
  return {
    kind: "issue",
    node_id: `I_${a.owner}_${a.repo}_${number}`,
    address: a.key,
    owner: a.owner,
    repo: a.repo,
    url: `https://github.com/${a.owner}/${a.repo}/issues/${number}`,
    fetched_at: o.fetched_at ?? FETCHED_AT,
    updated_at: o.updated_at ?? UPDATED_AT,
    number,
    title: o.title ?? `Query planner crashes on nested MATCH #${number}`,
    body: o.body ?? `Steps to reproduce issue ${number}:\n\n1. run the query\n2. see the crash`,
    state,
    author: o.author === undefined ? "ann" : o.author,
    labels: o.labels ?? ["bug"],
    assignees: o.assignees ?? [],
    milestone: o.milestone ?? null,
    created_at: at(0),
    closed_at: state === "closed" ? at(5000) : null,
    comment_count: cs.length,
    comments: cs,
    referenced_by: [],
  };
}

/** A stored pull request with changed files and review comments on them. */
export function pull(
  owner: string,
  repo: string,
  number: number,
  o: ItemOptions & { merged?: boolean; files?: string[]; reviews?: number } = {},
): PullRequestResource {
  const base = issue(owner, repo, number, { title: `Fix planner crash (#${number})`, ...o });
  const files = o.files ?? ["src/query/plan/planner.cpp", "tests/e2e/planner_test.py"];
  const reviews: Comment[] = Array.from({ length: o.reviews ?? 2 }, (_, i) => ({
    node_id: `PRRC_${base.owner}_${base.repo}_${number}_${i + 1}`,
    author: "reviewer",
    created_at: at(61 + i * 7),
    body: `Review ${i + 1}: please add a test for the empty case.`,
    path: files[i % files.length],
  }));
  const merged = o.merged ?? false;
  return {
    ...base,
    kind: "pull_request",
    node_id: `PR_${base.owner}_${base.repo}_${number}`,
    url: `https://github.com/${base.owner}/${base.repo}/pull/${number}`,
    state: merged ? "merged" : base.state,
    closed_at: merged ? at(5000) : base.closed_at,
    merged,
    base_ref: "master",
    files,
    review_comments: reviews,
    closes: [],
  };
}

/** A stored repository with a README. */
export function repository(
  owner: string,
  repo: string,
  readme = "# Memgraph\n\nA graph database.",
): RepositoryResource {
  const a = repositoryAddress(owner, repo);
  return {
    kind: "repository",
    node_id: `R_${a.owner}_${a.repo}`,
    address: a.key,
    owner: a.owner,
    repo: a.repo,
    url: `https://github.com/${a.owner}/${a.repo}`,
    fetched_at: FETCHED_AT,
    updated_at: UPDATED_AT,
    description: "Open-source graph database, built for real-time streaming data",
    readme,
    readme_path: "README.md",
    stars: 3412,
    pushed_at: "2026-11-28T17:00:00Z",
  };
}

/**
 * Stores a Listing whose members are `items` (already stored), in order.
 * `total` defaults to the member count (fully expanded).
 */
export async function seedListing(
  store: Store,
  owner: string,
  repo: string,
  kind: "issues" | "pulls",
  filters: FilterInput,
  members: number[],
  o: { total?: number; fetched_at?: string } = {},
): Promise<Listing> {
  const a = listingAddress(owner, repo, kind, filters, null);
  const total = o.total ?? members.length;
  const listing: Listing = {
    key: a.key,
    owner: a.owner,
    repo: a.repo,
    listing: kind,
    filters: a.filters as ListingFilters,
    limit: total === members.length ? null : members.length,
    total_count: total,
    member_count: members.length,
    fully_expanded: total === members.length,
    fetched_at: o.fetched_at ?? FETCHED_AT,
  };
  await store.putListing(listing, members.map((n) => itemAddress(owner, repo, n).key));
  return listing;
}
