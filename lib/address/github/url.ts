/**
 * github.com and api.github.com URLs as Addresses.
 *
 * Resources: a repository root, an issue, a pull request (and its tabs),
 * the issue and pull request list pages with their `?q=` qualifiers. Everything
 * else on the site — code pages, discussions, releases, settings, GitHub's own
 * pages — is not a Resource.
 *
 * @module
 */

import { itemAddress, listingAddress, repositoryAddress } from "../key.ts";
import type { FilterInput } from "../key.ts";
import type { Address, ListingKind, ListingState } from "../../types.ts";
import { countOf, isRepoName } from "./names.ts";
import { fromRestPath } from "./rest.ts";
import { readSearchQuery } from "./search.ts";

/** github.com list pages show 25 items per page. */
const WEB_PAGE = 25;

/** Pull request tabs that show the pull request itself. */
const PULL_TABS = new Set(["files", "commits", "checks", "changes"]);

/** The filters of a list page (`/o/r/issues?q=…`); null when `@me` cannot be resolved. */
function listPage(
  owner: string,
  repo: string,
  kind: ListingKind,
  params: URLSearchParams,
  login: string | null,
): Address | null {
  const q = params.get("q");
  if (q !== null) {
    const read = readSearchQuery(q, login);
    if (!read) return null;
    // A typed query replaces the page's default `is:open`.
    const filters: FilterInput = { state: "all", ...read.filters };
    return listingAddress(owner, repo, read.kind ?? kind, filters, WEB_PAGE);
  }
  const filters: FilterInput = {};
  const state = params.get("state");
  if (state === "open" || state === "closed" || state === "all") {
    filters.state = state as ListingState;
  }
  const labels = params.get("labels");
  if (labels) filters.labels = labels.split(",");
  return listingAddress(owner, repo, kind, filters, WEB_PAGE);
}

/**
 * The Address a github.com or api.github.com URL names, or null.
 *
 * @example
 * ```ts
 * fromGithubUrl("https://github.com/o/r/pull/7/files#diff-1", null)?.key; // "github:o/r#7"
 * fromGithubUrl("https://github.com/o/r/issues?q=is%3Aopen+label%3Abug", null)?.key;
 * // "github:o/r/issues?label=bug&state=open"
 * ```
 */
export function fromGithubUrl(raw: string, login: string | null): Address | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  if (host === "api.github.com") {
    return fromRestPath(url.pathname, url.searchParams, { paginate: false, login });
  }
  if (host !== "github.com" && host !== "www.github.com") return null;
  const seg = url.pathname.split("/").filter((s) => s !== "");
  if (seg.length < 2) return null;
  const [owner, name, what, num, sub] = seg;
  const repo = name.replace(/\.git$/, "");
  if (!isRepoName(owner, repo)) return null;
  if (what === undefined) return repositoryAddress(owner, repo);
  const n = num !== undefined && /^[1-9]\d*$/.test(num) ? countOf(num) : null;
  if ((what === "issues" || what === "pulls") && num === undefined) {
    return listPage(owner, repo, what, url.searchParams, login);
  }
  if (what === "issues" && n !== null && sub === undefined) return itemAddress(owner, repo, n);
  if (what === "pull" && n !== null && (sub === undefined || PULL_TABS.has(sub))) {
    return itemAddress(owner, repo, n);
  }
  // `pull/5.diff` and `pull/5.patch` are the pull request's changes as text.
  const diff = what === "pull" && sub === undefined &&
    /^([1-9]\d*)\.(diff|patch)$/.exec(num ?? "");
  const diffNumber = diff ? countOf(diff[1]) : null;
  if (diffNumber !== null) return itemAddress(owner, repo, diffNumber);
  return null;
}
