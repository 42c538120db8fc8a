/**
 * A search of memory as a model or person reads it (pure): the outcome
 * first, as every `resource` answer starts; that it searched memory only,
 * how many Resources were in scope and which stored Listings say how much
 * of that scope memory holds; then one page of results inside one fence
 * (titles, logins and snippets are GitHub text), each with its key, kind,
 * state, times and where it matched. Twenty results of bounded size keep a
 * page far under 20,000 tokens.
 *
 * @example
 * ```ts
 * import { renderSearch } from "./search_render.ts";
 * renderSearch({ request, page, listings, outcome: "hit" }, { now: new Date(), nonce: "0123" });
 * // "rgraph: hit search \"zstd\" — memory only (not GitHub's search): …"
 * ```
 * @module
 */

import type { Listing } from "../types.ts";
import type { MatchPlace, SearchHit, SearchPage, SearchRequest } from "../store/mod.ts";
import { SEARCH_PAGE_SIZE } from "../store/mod.ts";
import { framePage, neutralise, oneLine, stamp } from "./frame.ts";
import { nextHint, noSuchPage, type Paging, type RenderContext, shownKey, when } from "./render.ts";

/** A result's title at most this long (characters, before the rule's escapes). */
const TITLE_CHARS = 300;
/** A snippet at most this long once made safe (the rule's escapes lengthen it). */
const SNIPPET_SHOWN = 400;

/** What a search answer shows. */
export interface SearchView {
  request: SearchRequest;
  page: SearchPage;
  listings: Listing[];
  outcome: "hit" | "miss";
}

const KIND_NAMES = { issue: "issue", pull_request: "pull request", repository: "repository" };

/** Where a result matched, in words (a comment's author is GitHub text: made safe). */
export function placeText(p: MatchPlace): string {
  if (p.part !== "comment") return p.part === "readme" ? "README" : p.part;
  const by = p.author ? ` by ${oneLine(p.author)}` : "";
  const on = p.review && p.path ? ` on ${oneLine(p.path)}` : "";
  return `${p.review ? "review comment" : "comment"} ${p.n}${by}${on}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function resultLines(h: SearchHit, n: number): string[] {
  const state = h.state ? `, ${oneLine(h.state)}` : "";
  const title = h.title === null
    ? ""
    : ` ${clip(oneLine(h.title.slice(0, TITLE_CHARS)), TITLE_CHARS)}`;
  return [
    `${n}. ${shownKey(h.address)} [${KIND_NAMES[h.kind]}${state}]${title}`,
    `   updated_at ${stamp(h.updated_at)} · fetched_at ${stamp(h.fetched_at)} · matched in ${
      placeText(h.place)
    }`,
    `   ${clip(neutralise(h.snippet.replace(/\s+/g, " ")), SNIPPET_SHOWN)}`,
  ];
}

function scopeText(r: SearchRequest): string {
  const repo = r.repo ? `repo ${r.repo.owner}/${r.repo.repo}` : "every repository";
  const kind = r.kind ? `${KIND_NAMES[r.kind]}s` : "every kind";
  return `${repo}, ${kind}, state ${r.state}${r.state === "all" ? " (the default)" : ""}`;
}

function listingText(l: Listing, now: Date): string {
  const expanded = l.fully_expanded
    ? "fully expanded"
    : `not fully expanded: ${l.member_count} of ${l.total_count} stored`;
  return `${shownKey(l.key)} — ${l.member_count} member${
    l.member_count === 1 ? "" : "s"
  } (${expanded}), fetched_at ${when(l.fetched_at, now)}`;
}

/** Page `page` of `total` results, twenty a page. */
function resultPaging(total: number, page: number): Paging {
  const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  const out = page > pages;
  const offset = out ? total : (page - 1) * SEARCH_PAGE_SIZE;
  const count = out ? 0 : Math.min(SEARCH_PAGE_SIZE, total - offset);
  return { page, pages, total, offset, count, out_of_range: out };
}

/** The page line: which results this page holds, and how to ask for the next. */
function pageLine(p: Paging): string {
  if (p.out_of_range) return noSuchPage(p.page, p.pages, "results");
  return `page ${p.page} of ${p.pages} (results ${p.offset + 1}–${
    p.offset + p.count
  } of ${p.total})${nextHint(p.page, p.pages)}`;
}

/** The answer to a search of memory (see the module comment). */
export function renderSearch(v: SearchView, ctx: RenderContext): string {
  const { request: r, page } = v;
  const query = JSON.stringify(oneLine(r.text));
  const out = [
    `rgraph: ${v.outcome} search ${query} — searched memory only (what this team's agents ` +
    `already read; not GitHub's search): ${
      page.capped ? "at least " : ""
    }${page.total} of ${page.in_scope} stored Resources in scope match`,
    `scope: ${scopeText(r)}`,
  ];
  if (v.listings.length) {
    out.push(
      `stored Listings of ${r.repo ? "this repository" : "these results' repositories"}:`,
      ...v.listings.map((l) => `- ${listingText(l, ctx.now)}`),
    );
  } else if (r.repo || page.hits.length) {
    out.push(
      `no stored Listing of ${
        r.repo ? "this repository" : "these results' repositories"
      }: memory may hold only some of their items`,
    );
  } else {
    out.push("Listings: name a repository (repo) to see which of its Listings memory holds");
  }
  if (v.outcome === "miss") {
    out.push("Nothing in memory matches. Search GitHub itself if you need more.");
    return out.join("\n");
  }
  const p = resultPaging(page.total, r.page);
  out.push(pageLine(p));
  const tail = page.hits.length
    ? [
      'Read a result whole with resource("KEY"), e.g. resource("' +
      `${shownKey(page.hits[0].address)}").`,
    ]
    : [];
  return framePage({
    head: out,
    fenced: page.hits.flatMap((h, i) => resultLines(h, p.offset + i + 1)),
    tail,
  }, ctx.nonce);
}
