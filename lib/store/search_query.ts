/**
 * Searching memory, without a store (pure): the one query language people
 * and models type, written out for each engine so that nothing typed ever
 * reaches it as syntax, and the text of a Resource as the index holds it,
 * with where a query matched in it.
 *
 * The language: plain words, each of which must match (in any of a
 * Resource's texts), and "quoted phrases", whose words must match in order.
 * Every other character is text: FTS5's `" * : ^ ( ) NEAR AND OR NOT` and
 * Lucene's `+ - && || ! ( ) { } [ ] ^ " ~ * ? : \ /` are quoted as text
 * for their engine (a word without a letter or digit is dropped: no index
 * holds it).
 *
 * @example
 * ```ts
 * import { ftsExpression, luceneExpression, parseSearch } from "./search_query.ts";
 * const terms = parseSearch('zstd "block size" NOT:(x)');
 * ftsExpression(terms); // '"zstd" "block size" "NOT:(x)"'
 * luceneExpression(terms); // '"zstd" AND "block size" AND "NOT:(x)"'
 * ```
 * @module
 */

import { UserError } from "../errors.ts";
import type { Comment, Resource, ResourceKind } from "../types.ts";

/** The longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 500;

/**
 * The most words and phrases a query holds: each must match, so more say
 * nothing a person means, and on Neo4j each is a clause per indexed field
 * (Lucene refuses past 1,024 clauses).
 */
export const MAX_QUERY_TERMS = 32;

/** Results on one page of a search. */
export const SEARCH_PAGE_SIZE = 20;

/** Which states a search keeps (`all`: every one, the default). */
export type SearchState = "open" | "closed" | "merged" | "all";

/** One thing that must match: a word, or a phrase's words in order. */
export interface SearchTerm {
  text: string;
  phrase: boolean;
}

/** A search as a store answers it (see `Store.search`). */
export interface SearchRequest {
  /** What was typed: plain words and "quoted phrases". */
  text: string;
  /** Only this repository's Resources (lowercased), when given. */
  repo: { owner: string; repo: string } | null;
  kind: ResourceKind | null;
  state: SearchState;
  /** 1-based. */
  page: number;
}

/** Where in a Resource a query matched. */
export type MatchPlace =
  | { part: "title" | "body" | "labels" | "files" | "description" | "readme" | "name" }
  /** `n`: the entry's number in the item's thread as `resource` pages it (oldest first). */
  | { part: "comment"; n: number; author: string | null; review: boolean; path: string | null };

/** One result: a stored Resource's head, where it matched and a short piece of the text there. */
export interface SearchHit {
  address: string;
  kind: ResourceKind;
  /** `open`, `closed` or `merged`; null for a repository. */
  state: string | null;
  /** An item's title; null for a repository. */
  title: string | null;
  updated_at: string;
  fetched_at: string;
  place: MatchPlace;
  /** Untrusted GitHub text (one line, whitespace collapsed): fence it before showing it. */
  snippet: string;
}

/** One page of a search's answer, with what it covered. */
export interface SearchPage {
  hits: SearchHit[];
  /** How many Resources matched in all; with `capped`, at least this many. */
  total: number;
  /** The store stopped counting at `total` (Neo4j counts at most `COUNT_CAP` of a common word). */
  capped: boolean;
  /** How many stored Resources the filters left to search. */
  in_scope: number;
}

/**
 * What to do where Memgraph has no text search (before 3.6 it is an
 * experimental feature, off unless the server is started with its flag):
 * the search's refusal and `rgraph doctor` say it.
 */
export const MEMGRAPH_SEARCH_FIX =
  "start Memgraph 3.6 or later, or an earlier one with --experimental-enabled=text-search, " +
  "then run any rgraph command to create the index";

/** A search that cannot be run as typed (empty, too long, nothing to look for). */
export class SearchQueryError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "SearchQueryError";
  }
}

/**
 * Patterns of Unicode classes, built on first use: V8 takes a fraction of a
 * millisecond to build each, which module constants would add to every
 * process that loads the store — the hook on every tool call that records —
 * though only searches use them.
 */
const patterns: { indexable?: RegExp; word?: RegExp } = {};

function indexable(): RegExp {
  return patterns.indexable ??= /[\p{L}\p{N}]/u;
}

function word(): RegExp {
  return patterns.word ??= /[\p{L}\p{N}_]+/gu;
}

/**
 * The terms of a query: quoted runs are phrases (an unclosed quote runs to
 * the end), the rest splits on whitespace. Refuses an empty or overlong
 * query, and one with no letter or digit, in one line.
 */
export function parseSearch(text: string): SearchTerm[] {
  if (text.length > MAX_QUERY_CHARS) {
    throw new SearchQueryError(
      `search: the query has ${text.length} characters, more than ${MAX_QUERY_CHARS}`,
    );
  }
  if (text.trim() === "") throw new SearchQueryError("search: the query is empty");
  const terms: SearchTerm[] = [];
  const add = (raw: string, phrase: boolean) => {
    const words = raw.split(/\s+/).filter((w) => indexable().test(w));
    if (words.length === 0) return;
    if (phrase) terms.push({ text: words.join(" "), phrase: words.length > 1 });
    else for (const w of words) terms.push({ text: w, phrase: false });
  };
  const parts = text.split('"');
  parts.forEach((part, i) => add(part, i % 2 === 1));
  if (terms.length === 0) {
    throw new SearchQueryError("search: the query has no letter or digit to look for");
  }
  if (terms.length > MAX_QUERY_TERMS) {
    throw new SearchQueryError(
      `search: the query has ${terms.length} words and phrases, more than ${MAX_QUERY_TERMS}`,
    );
  }
  return terms;
}

/** The terms as an FTS5 query: each a string (quotes doubled), all of them required. */
export function ftsExpression(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replaceAll('"', '""')}"`).join(" ");
}

/** The terms as a Lucene query: each a quoted phrase (`\` and `"` escaped), joined by AND. */
export function luceneExpression(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(" AND ");
}

/** A part of a Resource's text as the index holds it. */
export interface TextPart {
  place: MatchPlace;
  text: string;
}

/** Every text of a Resource that a search looks in, in the order results name them. */
export function textParts(r: Resource): TextPart[] {
  if (r.kind === "repository") {
    return [
      { place: { part: "name" }, text: `${r.owner}/${r.repo}` },
      { place: { part: "description" }, text: r.description ?? "" },
      { place: { part: "readme" }, text: r.readme ?? "" },
    ];
  }
  const parts: TextPart[] = [
    { place: { part: "title" }, text: r.title },
    { place: { part: "body" }, text: r.body ?? "" },
    { place: { part: "labels" }, text: r.labels.join(" ") },
  ];
  if (r.kind === "pull_request") parts.push({ place: { part: "files" }, text: r.files.join(" ") });
  const thread = r.comments.map((c) => ({ c, review: false }));
  if (r.kind === "pull_request") {
    for (const c of r.review_comments) thread.push({ c, review: true });
  }
  // Numbered as the thread reads: oldest first, comments before review comments at one time.
  thread.sort((
    a,
    b,
  ) => (a.c.created_at < b.c.created_at ? -1 : a.c.created_at > b.c.created_at ? 1 : 0));
  thread.forEach(({ c, review }, i) =>
    parts.push({
      place: { part: "comment", n: i + 1, author: c.author, review, path: c.path ?? null },
      // Its file path is searched with it (see commentText), so a match there is found here.
      text: c.path ? `${c.path}\n${c.body}` : c.body,
    })
  );
  return parts;
}

/**
 * A comment as the index holds it: its author and file path are searchable
 * with its body.
 */
export function commentText(c: Comment): string {
  return [c.author ?? "", c.path ?? "", c.body].join(" ");
}

/**
 * The columns an index keeps for a Resource: its name or title; its body or
 * description; its comments (authors and paths with them); the rest
 * (labels, changed files, README).
 */
export function indexColumns(
  r: Resource,
): { title: string; body: string; comments: string; other: string } {
  if (r.kind === "repository") {
    return {
      title: `${r.owner}/${r.repo}`,
      body: r.description ?? "",
      comments: "",
      other: r.readme ?? "",
    };
  }
  const thread = r.kind === "pull_request" ? [...r.comments, ...r.review_comments] : r.comments;
  const files = r.kind === "pull_request" ? r.files : [];
  return {
    title: r.title,
    body: r.body ?? "",
    comments: thread.map(commentText).join("\n"),
    other: [...r.labels, ...files].join("\n"),
  };
}

// --- Where it matched --------------------------------------------------------------

/**
 * A word's rough stem, for finding where the engine's match lies: the
 * engines stem properly; this only has to bring "compressions",
 * "compression" and "compressed" close enough to compare by prefix.
 */
function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.endsWith("'s")) w = w.slice(0, -2);
  for (const suffix of ["ations", "ation", "ings", "ing", "ions", "ion", "ies", "es", "ed", "s"]) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
  }
  return w;
}

function wordsOf(text: string): string[] {
  return text.match(word()) ?? [];
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short);
}

/** Characters of text a snippet shows around the first match. */
const SNIPPET_CHARS = 200;

/**
 * Where `terms` matched in `parts`, and a short piece of text there: the
 * part holding the most of the query's words (the first such, so a title
 * beats a comment), cut around its first matching word. With no part
 * matching (the engine stems differently), the first part with text.
 */
export function locate(
  parts: TextPart[],
  terms: SearchTerm[],
): { place: MatchPlace; snippet: string } {
  const wanted = [...new Set(terms.flatMap((t) => wordsOf(t.text)).map(stem))];
  // A word the same as asked counts twice one that only shares its start ("plan", "planner").
  let best: { part: TextPart; score: number; at: number } | null = null;
  for (const part of parts) {
    if (part.text === "") continue;
    const exact = new Set<string>(), near = new Set<string>();
    let at = -1, nearAt = -1;
    for (const m of part.text.matchAll(word())) {
      const s = stem(m[0]);
      const same = wanted.find((w) => w === s);
      if (same !== undefined) {
        exact.add(same);
        if (at < 0) at = m.index!;
        if (exact.size === wanted.length) break;
        continue;
      }
      const like = wanted.find((w) => sameWord(w, s));
      if (like === undefined) continue;
      near.add(like);
      if (nearAt < 0) nearAt = m.index!;
    }
    const score = 2 * exact.size + [...near].filter((w) => !exact.has(w)).length;
    if (score > (best?.score ?? 0)) best = { part, score, at: at >= 0 ? at : nearAt };
    if (exact.size === wanted.length) break;
  }
  const chosen = best ?? { part: parts.find((p) => p.text !== "") ?? parts[0], score: 0, at: 0 };
  return { place: chosen.part.place, snippet: snippetAt(chosen.part.text, chosen.at) };
}

/** About {@link SNIPPET_CHARS} of `text` around `at`, whitespace collapsed, cut ends marked `…`. */
function snippetAt(text: string, at: number): string {
  // Never half of a surrogate pair at either end.
  const low = (i: number) => /[\uDC00-\uDFFF]/.test(text[i] ?? "");
  let start = Math.max(0, at - SNIPPET_CHARS / 4);
  if (low(start)) start--;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (low(end)) end++;
  const piece = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${piece}${end < text.length ? "…" : ""}`;
}
