/**
 * What reading something costs GitHub when an agent fetches it the ordinary
 * way (REST, one thing at a time, every page of comments). rgraph compares its
 * own requests with this: the Sweep's "requests saved" and `rgraph stats`'
 * "GitHub requests avoided" both rest on it (the stores compute the same sums
 * in their own query languages).
 *
 * @example
 * ```ts
 * import { itemRequests, listingRequests } from "./cost.ts";
 * itemRequests(250); // 4: the item, then three pages of comments
 * listingRequests(720); // 728: eight pages of the list, then each member's comments
 * ```
 * @module
 */

import type { Resource } from "../types.ts";

/** GitHub's largest page. */
const PAGE = 100;

/** Pages needed for `n` things (at least one request, even for none). */
export function pages(n: number): number {
  return Math.max(1, Math.ceil(n / PAGE));
}

/** An issue or pull request: the item, then its comments page by page. */
export function itemRequests(commentCount: number): number {
  return 1 + Math.ceil(commentCount / PAGE);
}

/** A listing of `members` items at full depth: the list's pages, then each member's comments. */
export function listingRequests(members: number): number {
  return pages(members) + members;
}

/** A repository: its metadata and its README. */
export const REPOSITORY_REQUESTS = 2;

/** The ordinary cost of fetching one stored Resource. */
export function resourceRequests(r: Resource): number {
  return r.kind === "repository" ? REPOSITORY_REQUESTS : itemRequests(r.comment_count);
}
