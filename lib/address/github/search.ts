/**
 * GitHub search-query qualifiers (`is:open label:"help wanted" author:x`) as
 * listing filters. Shared by list pages (`?q=`), `gh … --search`, the REST
 * search endpoint and the MCP server's search tools.
 *
 * Filters are derived only from a plain conjunction of qualifiers. A query
 * with parentheses, a bare `AND`/`OR`/`NOT` (any case), or a single-valued
 * qualifier repeated with different values (`author:a author:b`, which GitHub
 * ORs; `is:open is:closed`) is kept whole as free text `q` — a key that only
 * ever matches exactly — minus the `repo:` and `is:issue|pr` terms that say
 * which listing it is. A top-level `OR` could make even those optional, so
 * such a query names no listing at all.
 *
 * @module
 */

import type { FilterInput } from "../key.ts";
import type { ListingKind, ListingState } from "../../types.ts";
import { resolveLogin } from "./names.ts";

/** A search query read as filters. */
export interface SearchQuery {
  /** `is:issue` / `is:pr`, when the query says. */
  kind: ListingKind | null;
  /** State, labels, people and milestone from qualifiers; the rest as free text `q`. */
  filters: FilterInput;
  /** `repo:OWNER/REPO` qualifiers. */
  repos: string[];
}

/** Splits a query into terms, keeping `"quoted parts"` together (quotes kept). */
function terms(query: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const c of query) {
    if (c === '"') {
      quoted = !quoted;
      cur += c;
    } else if (!quoted && (c === " " || c === "\t" || c === "\n")) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** How many `(` and `)` a term has outside quotes. */
function parens(term: string): { open: number; close: number } {
  let open = 0, close = 0, quoted = false;
  for (const c of term) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") open++;
    else if (!quoted && c === ")") close++;
  }
  return { open, close };
}

const unquote = (v: string) =>
  v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;

const STATE_WORDS: Record<string, ListingState> = {
  open: "open",
  closed: "closed",
  merged: "merged",
};
const OPERATORS = new Set(["and", "or", "not"]);

/** A qualifier that takes one value: seen twice with different values, GitHub does not narrow to the last. */
type Single = "state" | "author" | "assignee" | "milestone";

/** One term of a query, read. */
type Term =
  | { t: "kind"; kind: ListingKind }
  | { t: "repo"; repo: string }
  | { t: "sort" }
  | { t: "single"; key: Single; value: string }
  | { t: "label"; value: string }
  | { t: "text" };

/** Reads a term that stands at the top level of the query (not in parentheses, not after `NOT`). */
function readTerm(term: string, login: string | null): Term | null {
  const colon = term.indexOf(":");
  const key = colon > 0 ? term.slice(0, colon).toLowerCase() : "";
  const value = unquote(term.slice(colon + 1));
  const lower = value.toLowerCase();
  if ((key === "is" || key === "type") && (lower === "issue" || lower === "issues")) {
    return { t: "kind", kind: "issues" };
  }
  if ((key === "is" || key === "type") && (lower === "pr" || lower === "pull-request")) {
    return { t: "kind", kind: "pulls" };
  }
  if ((key === "is" || key === "state") && Object.hasOwn(STATE_WORDS, lower)) {
    return { t: "single", key: "state", value: STATE_WORDS[lower] };
  }
  // `label:a,b` means either label; a key's labels all apply, so it stays free text.
  if (key === "label" && value && !value.includes(",")) return { t: "label", value };
  if ((key === "author" || key === "assignee") && value) {
    const who = resolveLogin(value, login);
    return who === null ? null : { t: "single", key, value: who };
  }
  if (key === "milestone" && value) return { t: "single", key, value };
  if (key === "repo" && value) return { t: "repo", repo: value };
  if (key === "sort") return { t: "sort" }; // order, not membership
  return { t: "text" };
}

/** `@me` as a qualifier value (`mentions:@me`, `-author:"@me"`, `(assignee:@me`). */
const VIEWER = /(?<=:"?)@me(?=$|[\s")])/gi;

/** Free text with `@me` qualifier values resolved; null when one is there and no login is. */
function resolveViewer(text: string, login: string | null): string | null {
  let found = false;
  const out = text.replace(VIEWER, () => {
    found = true;
    return login ?? "";
  });
  return found && login === null ? null : out;
}

/**
 * Reads a GitHub search query. `@me` becomes `login`; with no login it
 * returns null (an `@me` listing never enters a shared key). Null too when
 * the query cannot name one listing (unbalanced parentheses, a top-level
 * `OR`, `is:issue` with `is:pr`).
 *
 * @example
 * ```ts
 * readSearchQuery('is:pr is:open label:"help wanted" crash', null);
 * // { kind: "pulls", filters: { state: "open", labels: ["help wanted"], q: "crash" }, repos: [] }
 * readSearchQuery("is:open (label:bug OR label:ui)", null);
 * // { kind: null, filters: { q: "is:open (label:bug OR label:ui)" }, repos: [] }
 * ```
 */
export function readSearchQuery(query: string, login: string | null): SearchQuery | null {
  const read: { term: string; read: Term }[] = [];
  let depth = 0;
  let negated = false;
  let plain = true;
  for (const term of terms(query)) {
    const { open, close } = parens(term);
    const operator = OPERATORS.has(term.toLowerCase());
    const topLevel = depth === 0 && open === 0 && close === 0 && !negated;
    if (operator && term.toLowerCase() === "or" && depth === 0) return null;
    depth += open - close;
    if (depth < 0) return null;
    if (operator || open || close) plain = false;
    negated = operator && term.toLowerCase() === "not";
    const t = topLevel && !operator ? readTerm(term, login) : { t: "text" as const };
    if (t === null) return null;
    read.push({ term, read: t });
  }
  if (depth !== 0) return null;

  const kinds = new Set(read.flatMap(({ read: t }) => t.t === "kind" ? [t.kind] : []));
  if (kinds.size > 1) return null;
  const kind = kinds.size === 1 ? [...kinds][0] : null;
  const repos = read.flatMap(({ read: t }) => t.t === "repo" ? [t.repo] : []);

  const singles = new Map<Single, Set<string>>();
  for (const { read: t } of read) {
    if (t.t !== "single") continue;
    const seen = singles.get(t.key) ?? new Set<string>();
    seen.add(t.key === "milestone" ? t.value : t.value.toLowerCase());
    singles.set(t.key, seen);
  }
  if ([...singles.values()].some((values) => values.size > 1)) plain = false;

  const filters: FilterInput = {};
  const free: string[] = [];
  for (const { term, read: t } of read) {
    if (t.t === "kind" || t.t === "repo" || t.t === "sort") continue;
    if (!plain || t.t === "text") free.push(term);
    else if (t.t === "label") (filters.labels ??= []).push(t.value);
    else if (t.key === "state") filters.state = t.value as ListingState;
    else filters[t.key] = t.value;
  }
  if (free.length) {
    const q = resolveViewer(free.join(" "), login);
    if (q === null) return null;
    filters.q = q;
  }
  return { kind, filters, repos };
}
