/**
 * Searching memory — the `resource` tool's `search`, `rgraph search` and
 * the view share {@link searchMemory}: the arguments checked into a
 * request, the store's page of matches, the stored Listings that say how
 * much of the scope memory holds, and the search recorded as a Cache Read
 * of its user (a private Touch whose address is the query; never shared).
 *
 * @example
 * ```ts
 * import { searchMemory, searchRequest } from "./search.ts";
 * const request = searchRequest({ text: "zstd", repo: "acme/widgets" });
 * const a = await searchMemory(store, request, { userId: "alice", now: new Date(), via: "search" });
 * a.outcome; // "hit" | "miss"
 * ```
 * @module
 */

import type { Listing, ResourceKind } from "../types.ts";
import {
  parseSearch,
  SEARCH_PAGE_SIZE,
  type SearchPage,
  SearchQueryError,
  type SearchRequest,
  type SearchState,
  type Store,
} from "../store/mod.ts";
import { repositoryAddress } from "../address/mod.ts";
import { placeText, renderSearch } from "./search_render.ts";
import { type Asker, cacheReadTouch, randomNonce } from "./answer.ts";

/** The kinds a search names (the first of each is the one shown), and the other ways people type them. */
const KINDS: Record<string, ResourceKind> = {
  issue: "issue",
  pr: "pull_request",
  repo: "repository",
  issues: "issue",
  prs: "pull_request",
  pull: "pull_request",
  pulls: "pull_request",
  pull_request: "pull_request",
  "pull-request": "pull_request",
  repos: "repository",
  repository: "repository",
};
const STATES: readonly SearchState[] = ["open", "closed", "merged", "all"];

/** A search as typed: the words and the optional filters. */
export interface SearchArgs {
  text: string;
  repo?: string | null;
  kind?: string | null;
  state?: string | null;
  page?: number | null;
}

/**
 * The request for `args`, or a {@link SearchQueryError} saying in one line
 * what is wrong (the words themselves are checked by the store's parser).
 */
export function searchRequest(args: SearchArgs): SearchRequest {
  parseSearch(args.text); // refuses an empty, overlong or wordless query before anything runs
  let repo: SearchRequest["repo"] = null;
  if (args.repo !== undefined && args.repo !== null) {
    const m = args.repo.trim().replace(/^(github:|https?:\/\/github\.com\/)/i, "")
      .replace(/\/+$/, "").match(/^([\w.-]+)\/([\w.-]+)$/);
    if (!m) {
      throw new SearchQueryError(
        `search: repo must be OWNER/REPO, not ${JSON.stringify(args.repo.slice(0, 100))}`,
      );
    }
    const a = repositoryAddress(m[1], m[2]);
    repo = { owner: a.owner, repo: a.repo };
  }
  let kind: ResourceKind | null = null;
  if (args.kind !== undefined && args.kind !== null) {
    kind = KINDS[args.kind.trim().toLowerCase()] ?? null;
    if (kind === null) {
      throw new SearchQueryError(
        `search: kind must be issue, pr or repo, not ${JSON.stringify(args.kind.slice(0, 100))}`,
      );
    }
  }
  let state: SearchState = "all";
  if (args.state !== undefined && args.state !== null) {
    const s = args.state.trim().toLowerCase() as SearchState;
    if (!STATES.includes(s)) {
      throw new SearchQueryError(
        `search: state must be open, closed, merged or all, not ${
          JSON.stringify(args.state.slice(0, 100))
        }`,
      );
    }
    state = s;
  }
  const page = args.page ?? 1;
  if (!Number.isSafeInteger(page) || page < 1) {
    throw new SearchQueryError("search: page must be a whole number from 1");
  }
  return { text: args.text, repo, kind, state, page };
}

/**
 * The search as a Touch's address: the words and the filters given, so
 * `rgraph touches` shows what was asked (only to its user).
 */
export function searchKey(r: SearchRequest): string {
  const filters = [
    ...(r.kind ? [`kind=${Object.keys(KINDS).find((k) => KINDS[k] === r.kind)}`] : []),
    ...(r.repo ? [`repo=${r.repo.owner}/${r.repo.repo}`] : []),
    ...(r.state !== "all" ? [`state=${r.state}`] : []),
  ];
  return `search:${r.text.trim()}${filters.length ? ` ?${filters.join("&")}` : ""}`;
}

/** Who searches, and how it is recorded. */
export interface SearchOptions extends Asker {
  /** The Touch's tool name: `resource` for the MCP tool, `search` for the command, `view`. */
  via: "resource" | "search" | "view";
  /** Fence nonce; random when omitted. */
  nonce?: string;
  /** `false`: answered without recording (capture paused or excluded). Default `true`. */
  record?: boolean;
}

/** A search's answer: outcome, text for a model or person, and JSON. */
export interface SearchAnswer {
  outcome: "hit" | "miss";
  key: string;
  text: string;
  json: Record<string, unknown>;
  page: SearchPage;
  /** The stored Listings that cover the scope (see {@link scopeListings}). */
  listings: Listing[];
}

/** How many repositories' Listings an answer without a repo filter names. */
const LISTED_REPOS = 5;

/**
 * The stored Listings that say how much of the scope memory holds: those of
 * the searched repository (without one, of the repositories on this page),
 * of the kinds searched, filtered by state alone (a narrower Listing says
 * nothing about "all open issues").
 */
async function scopeListings(
  store: Store,
  request: SearchRequest,
  page: SearchPage,
): Promise<Listing[]> {
  const repos = request.repo ? [request.repo] : [...new Map(page.hits.map((h) => {
    const m = h.address.match(/^github:([^/]+)\/([^#/?]+)/)!;
    return [`${m[1]}/${m[2]}`, { owner: m[1], repo: m[2] }];
  })).values()].slice(0, LISTED_REPOS);
  const kinds = request.kind === "repository"
    ? []
    : request.kind === "issue"
    ? ["issues" as const]
    : request.kind === "pull_request"
    ? ["pulls" as const]
    : ["issues" as const, "pulls" as const];
  const out: Listing[] = [];
  for (const r of repos) {
    for (const kind of kinds) {
      for (const l of await store.findListings(r.owner, r.repo, kind)) {
        const f = l.filters;
        const plain = f.labels.length === 0 && f.author === undefined &&
          f.assignee === undefined && f.milestone === undefined && f.q === undefined;
        if (plain) out.push(l);
      }
    }
  }
  return out;
}

/**
 * Searches memory and records the search as a Cache Read of `opts.userId`
 * (outcome `hit` when something matched, else `miss`). Never calls GitHub.
 * Throws {@link SearchQueryError} for a query that cannot be run (nothing is
 * recorded then).
 */
export async function searchMemory(
  store: Store,
  request: SearchRequest,
  opts: SearchOptions,
): Promise<SearchAnswer> {
  const page = await store.search(request);
  const listings = await scopeListings(store, request, page);
  const outcome = page.total > 0 ? "hit" : "miss";
  const key = searchKey(request);
  if (opts.record !== false) {
    await store.recordTouches([
      cacheReadTouch(
        { address: key, kind: "search", limit: null, outcome, target: null },
        opts,
        opts.via,
      ),
    ]);
  }
  const text = renderSearch(
    { request, page, listings, outcome },
    { now: opts.now, nonce: opts.nonce ?? randomNonce() },
  );
  const json = {
    outcome,
    searched: "memory only",
    query: request.text,
    filters: {
      repo: request.repo ? `${request.repo.owner}/${request.repo.repo}` : null,
      kind: request.kind,
      state: request.state,
    },
    in_scope: page.in_scope,
    total: page.total,
    total_is_lower_bound: page.capped,
    page: request.page,
    pages: Math.max(1, Math.ceil(page.total / SEARCH_PAGE_SIZE)),
    listings: listings.map((l) => ({
      key: l.key,
      member_count: l.member_count,
      total_count: l.total_count,
      fully_expanded: l.fully_expanded,
      fetched_at: l.fetched_at,
    })),
    results: page.hits.map(({ address, place, ...rest }) => ({
      key: address,
      ...rest,
      matched: placeText(place),
      place,
    })),
  };
  return { outcome, key, text, json, page, listings };
}
