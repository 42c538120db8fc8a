/**
 * GitHub REST paths (`repos/o/r/issues/5/comments`, `repos/o/r/issues?state=all`)
 * as Addresses — what `gh api`, `curl https://api.github.com/…` and web
 * fetches of API URLs read.
 *
 * @module
 */

import { itemAddress, listingAddress, repositoryAddress } from "../key.ts";
import type { FilterInput } from "../key.ts";
import type { Address, ListingKind, ListingState } from "../../types.ts";
import { countOf, isRepoName, repoSpec, resolveLogin } from "./names.ts";
import { readSearchQuery } from "./search.ts";

/** REST list endpoints return 30 items per page unless `per_page` says otherwise. */
const REST_PAGE = 30;

const ITEM_SUFFIXES: Record<string, Set<string>> = {
  issues: new Set(["", "comments", "timeline", "events"]),
  pulls: new Set(["", "files", "comments", "reviews", "commits"]),
};
const README = /^readme(\.[a-z0-9]+)?$/i;

/** How a REST list read is shaped. */
export interface RestOptions {
  /** `--paginate`: every page was read. */
  paginate: boolean;
  /** Resolves `@me` in search queries and `creator`/`assignee` parameters. */
  login: string | null;
}

function perPage(query: URLSearchParams, paginate: boolean): number | null {
  if (paginate) return null;
  const n = Number(query.get("per_page") ?? REST_PAGE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 100) : REST_PAGE;
}

/** Filters of `GET /repos/o/r/issues|pulls?…`; null when a parameter narrows it in a way a key cannot say. */
function listFilters(
  kind: ListingKind,
  query: URLSearchParams,
  login: string | null,
): FilterInput | null {
  const f: FilterInput = {};
  for (const [k, v] of query) {
    switch (k) {
      case "state":
        if (v !== "open" && v !== "closed" && v !== "all") return null;
        f.state = v as ListingState;
        break;
      case "labels":
        if (kind !== "issues") return null;
        f.labels = v.split(",");
        break;
      case "creator":
      case "assignee": {
        // `*` and `none` mean "any" / "unset": not expressible as a value.
        if (kind !== "issues" || v === "*" || v === "none") return null;
        const who = resolveLogin(v, login);
        if (who === null) return null;
        f[k === "creator" ? "author" : k] = who;
        break;
      }
      case "sort":
      case "direction":
      case "page":
      case "per_page":
        break;
      default:
        // `milestone` is a milestone number (or `*`/`none`), while a key holds its title;
        // since, mentioned, head, base, type, …
        return null;
    }
  }
  return f;
}

/**
 * The Address a REST GET of `path` reads, or null.
 *
 * @example
 * ```ts
 * fromRestPath("/repos/o/r/issues/12/comments", new URLSearchParams(), { paginate: true, login: null });
 * // item github:o/r#12
 * ```
 */
export function fromRestPath(
  path: string,
  query: URLSearchParams,
  opts: RestOptions,
): Address | null {
  const seg = path.split("/").filter((s) => s !== "");
  if (seg[0] === "search" && (seg[1] === "issues") && seg.length === 2) {
    const read = readSearchQuery(query.get("q") ?? "", opts.login);
    const repo = read?.repos.length === 1 ? repoSpec(read.repos[0]) : null;
    if (!read || !repo) return null;
    // Search matches every state unless the query narrows it.
    const filters = { state: "all" as ListingState, ...read.filters };
    const limit = perPage(query, opts.paginate);
    return listingAddress(repo.owner, repo.repo, read.kind ?? "issues", filters, limit);
  }
  if (seg[0] !== "repos" || seg.length < 3 || !isRepoName(seg[1], seg[2])) return null;
  const [, owner, repo, what, num, sub, ...more] = seg;
  if (what === undefined) return repositoryAddress(owner, repo);
  if (what === "readme" && num === undefined) return repositoryAddress(owner, repo);
  if (what === "contents" && num !== undefined && README.test(num) && sub === undefined) {
    return repositoryAddress(owner, repo);
  }
  if (what !== "issues" && what !== "pulls") return null;
  if (num === undefined) {
    const filters = listFilters(what, query, opts.login);
    return filters && listingAddress(owner, repo, what, filters, perPage(query, opts.paginate));
  }
  const n = /^[1-9]\d*$/.test(num) ? countOf(num) : null;
  if (n === null || more.length > 0 || !ITEM_SUFFIXES[what].has(sub ?? "")) return null;
  return itemAddress(owner, repo, n);
}
