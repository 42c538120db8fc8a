/**
 * Filtering and ordering of issues and pull requests, shared by the GraphQL
 * connections, the REST lists and search (`is:open label:bug …`).
 *
 * @example
 * ```ts
 * const open = selectItems(repo.items.values(), { kinds: ["issue"], states: ["OPEN"] },
 *   { field: "updated", direction: "desc" });
 * ```
 * @module
 */

import type { ItemRec, RepoRec } from "./dataset.ts";

/** Which milestone an item must have. */
export type MilestoneFilter =
  | { kind: "any" }
  | { kind: "none" }
  | { kind: "number"; number: number }
  | { kind: "title"; title: string }
  | { kind: "databaseId"; id: number };

/** A conjunction of conditions; absent fields do not filter. */
export interface ItemFilter {
  kinds?: ItemRec["kind"][];
  states?: ItemRec["state"][];
  /** At least one of these labels (GraphQL `labels`). */
  labelsAny?: string[];
  /** Every one of these labels (REST `labels`, search `label:`). */
  labelsAll?: string[];
  author?: string;
  /** A login, `*` (any assignee) or `none`. */
  assignee?: string;
  mentioned?: string;
  milestone?: MilestoneFilter;
  /** `updatedAt >= since` (ISO 8601). */
  since?: string;
  /** Words that must all occur in the title or body (case-insensitive). */
  words?: string[];
  baseRefName?: string;
  headRefName?: string;
}

/** How to order the selection. */
export interface ItemOrder {
  field: "created" | "updated" | "comments";
  direction: "asc" | "desc";
}

const lower = (s: string) => s.toLowerCase();

function milestoneMatches(item: ItemRec, f: MilestoneFilter): boolean {
  const m = item.milestone === null
    ? null
    : item.repo.milestones.find((x) => x.number === item.milestone) ?? null;
  switch (f.kind) {
    case "any":
      return m !== null;
    case "none":
      return m === null;
    case "number":
      return m?.number === f.number;
    case "title":
      return m !== null && lower(m.title) === lower(f.title);
    case "databaseId":
      return m?.databaseId === f.id;
  }
}

/** Does `item` satisfy every condition of `f`? */
function matches(item: ItemRec, f: ItemFilter): boolean {
  if (f.kinds && !f.kinds.includes(item.kind)) return false;
  if (f.states && !f.states.includes(item.state)) return false;
  const labels = item.labels.map(lower);
  if (f.labelsAny?.length && !f.labelsAny.some((l) => labels.includes(lower(l)))) return false;
  if (f.labelsAll?.length && !f.labelsAll.every((l) => labels.includes(lower(l)))) return false;
  if (f.author && lower(item.author) !== lower(f.author)) return false;
  if (f.assignee === "*" && item.assignees.length === 0) return false;
  if (f.assignee === "none" && item.assignees.length > 0) return false;
  if (
    f.assignee && f.assignee !== "*" && f.assignee !== "none" &&
    !item.assignees.some((a) => lower(a) === lower(f.assignee!))
  ) return false;
  if (f.mentioned && !lower(item.body).includes(`@${lower(f.mentioned)}`)) return false;
  if (f.milestone && !milestoneMatches(item, f.milestone)) return false;
  if (f.since && item.updatedAt < f.since) return false;
  if (f.words?.length) {
    const text = lower(`${item.title}\n${item.body}`);
    if (!f.words.every((w) => text.includes(lower(w)))) return false;
  }
  if (f.baseRefName && item.pull?.baseRefName !== f.baseRefName) return false;
  if (f.headRefName && item.pull?.headRefName !== f.headRefName) return false;
  return true;
}

/** The items of `items` that match `f`, ordered by `order` (ties by number). */
export function selectItems(items: Iterable<ItemRec>, f: ItemFilter, order: ItemOrder): ItemRec[] {
  const out: ItemRec[] = [];
  for (const it of items) if (matches(it, f)) out.push(it);
  const sign = order.direction === "asc" ? 1 : -1;
  const key = (it: ItemRec): string | number =>
    order.field === "created"
      ? it.createdAt
      : order.field === "updated"
      ? it.updatedAt
      : it.comments.length;
  out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.number - b.number;
    return sign * c;
  });
  return out;
}

/** A parsed GitHub issue-search query. */
export interface SearchQuery {
  /** `owner/name` qualifiers (lowercased); empty means every repository. */
  repos: string[];
  filter: ItemFilter;
  order: ItemOrder;
}

/** Splits a search query into terms, keeping `"quoted values"` together. */
function terms(q: string): string[] {
  return [...q.matchAll(/[^\s":]+:"[^"]*"|[^\s"]+|"[^"]*"/g)].map((m) => m[0]);
}

const unquote = (s: string) => s.replace(/^"(.*)"$/, "$1");

/**
 * Parses the qualifiers rgraph uses: `repo:o/r is:issue|pr is:open|closed|merged
 * state:open label:x author:y assignee:z milestone:"m" sort:updated-desc` and
 * free words (matched in title and body).
 */
export function parseSearch(q: string): SearchQuery {
  const filter: ItemFilter = {};
  const repos: string[] = [];
  const words: string[] = [];
  let order: ItemOrder = { field: "created", direction: "desc" };
  for (const term of terms(q)) {
    const m = term.match(/^(-?)([a-z]+):(.+)$/i);
    if (!m) {
      words.push(unquote(term));
      continue;
    }
    const key = lower(m[2]);
    const value = unquote(m[3]);
    switch (key) {
      case "repo":
        repos.push(lower(value));
        break;
      case "is":
      case "type":
      case "state":
        switch (lower(value)) {
          case "issue":
            filter.kinds = ["issue"];
            break;
          case "pr":
          case "pull-request":
            filter.kinds = ["pull"];
            break;
          case "open":
            filter.states = ["OPEN"];
            break;
          case "closed":
            filter.states = ["CLOSED", "MERGED"];
            break;
          case "merged":
            filter.states = ["MERGED"];
            break;
          case "unmerged":
            filter.states = ["CLOSED"];
            break;
        }
        break;
      case "label":
        (filter.labelsAll ??= []).push(value);
        break;
      case "author":
        filter.author = value;
        break;
      case "assignee":
        filter.assignee = value;
        break;
      case "no":
        if (lower(value) === "assignee") filter.assignee = "none";
        if (lower(value) === "milestone") filter.milestone = { kind: "none" };
        break;
      case "mentions":
        filter.mentioned = value;
        break;
      case "milestone":
        filter.milestone = { kind: "title", title: value };
        break;
      case "updated":
        if (value.startsWith(">=")) filter.since = value.slice(2);
        break;
      case "sort": {
        const [field, dir] = lower(value).split("-");
        if (field === "updated" || field === "created" || field === "comments") {
          order = { field, direction: dir === "asc" ? "asc" : "desc" };
        }
        break;
      }
      default:
        words.push(term);
    }
  }
  if (words.length) filter.words = words;
  return { repos, filter, order };
}

/** Runs a parsed search over the repositories the caller may see. */
export function search(repos: RepoRec[], q: SearchQuery): ItemRec[] {
  const scope = q.repos.length
    ? repos.filter((r) =>
      q.repos.includes(lower(`${r.owner}/${r.name}`)) ||
      r.oldNames.some((o) => q.repos.includes(lower(`${r.owner}/${o}`)))
    )
    : repos;
  return selectItems(scope.flatMap((r) => [...r.items.values()]), q.filter, q.order);
}
