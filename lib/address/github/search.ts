/**
 * GitHub search-query qualifiers (`is:open label:"help wanted" author:x`) as
 * listing filters. Shared by list pages (`?q=`), `gh … --search`, the REST
 * search endpoint and the MCP server's search tools.
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

/** Splits a query into terms, keeping `"quoted parts"` together (quotes removed from values). */
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

const unquote = (v: string) =>
  v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;

const STATE_WORDS: Record<string, ListingState> = {
  open: "open",
  closed: "closed",
  merged: "merged",
};

/**
 * Reads a GitHub search query. `@me` becomes `login`; with no login it
 * returns null (an `@me` listing never enters a shared key).
 *
 * @example
 * ```ts
 * readSearchQuery('is:pr is:open label:"help wanted" crash', null);
 * // { kind: "pulls", filters: { state: "open", labels: ["help wanted"], q: "crash" }, repos: [] }
 * ```
 */
export function readSearchQuery(query: string, login: string | null): SearchQuery | null {
  const filters: FilterInput = {};
  const free: string[] = [];
  const repos: string[] = [];
  let kind: ListingKind | null = null;
  for (const term of terms(query)) {
    const colon = term.indexOf(":");
    const key = colon > 0 ? term.slice(0, colon).toLowerCase() : "";
    const value = unquote(term.slice(colon + 1));
    const lower = value.toLowerCase();
    if ((key === "is" || key === "type") && (lower === "issue" || lower === "issues")) {
      kind = "issues";
    } else if ((key === "is" || key === "type") && (lower === "pr" || lower === "pull-request")) {
      kind = "pulls";
    } else if ((key === "is" || key === "state") && Object.hasOwn(STATE_WORDS, lower)) {
      filters.state = STATE_WORDS[lower];
    } else if (key === "label" && value && !value.includes(",")) {
      // `label:a,b` means either label; a key's labels all apply, so it stays free text.
      (filters.labels ??= []).push(value);
    } else if ((key === "author" || key === "assignee") && value) {
      const who = resolveLogin(value, login);
      if (who === null) return null;
      filters[key] = who;
    } else if (key === "milestone" && value) filters.milestone = value;
    else if (key === "repo" && value) repos.push(value);
    else if (key === "sort") continue; // order, not membership
    else if (colon > 0 && value.toLowerCase() === "@me") {
      // Any other qualifier naming the user (`mentions:@me`, `-author:@me`).
      if (login === null) return null;
      free.push(`${term.slice(0, colon)}:${login}`);
    } else free.push(term);
  }
  if (free.length) filters.q = free.join(" ");
  return { kind, filters, repos };
}
