/**
 * Canonical Address keys: the one spelling of each Address that every output,
 * the store and the Nudge use.
 *
 * - repository: `github:OWNER/REPO`
 * - item (issue or pull request): `github:OWNER/REPO#N`
 * - listing: `github:OWNER/REPO/issues?state=open` or `…/pulls?…`, filters as
 *   `key=value` in alphabetical key order (`assignee`, `author`, `label`,
 *   `milestone`, `q`, `state`), values percent-encoded, `state` always present.
 *
 * Owner, repository, labels and logins are lowercased (GitHub treats them
 * case-insensitively); milestone titles and free text keep their case.
 *
 * @example
 * ```ts
 * import { listingAddress } from "./key.ts";
 * const a = listingAddress("Memgraph", "memgraph", "issues", { labels: ["Bug", "bug"] }, 500);
 * a.key; // "github:memgraph/memgraph/issues?label=bug&state=open"
 * ```
 * @module
 */

import type {
  Address,
  ItemAddress,
  ListingAddress,
  ListingFilters,
  ListingKind,
  ListingState,
  RepositoryAddress,
} from "../types.ts";

const NAME = /^[a-z0-9_.-]+$/i;

/**
 * The longest Address rgraph records or answers, in characters, of what was
 * typed and of the canonical key. Real ones are far shorter (a listing with
 * a long search is a few hundred); without a bound one tool call of
 * megabytes became a Touch every later command had to carry.
 */
export const MAX_ADDRESS_CHARS = 2_048;

/** True for a plausible GitHub owner or repository name. */
export function isValidName(name: string): boolean {
  return NAME.test(name) && name !== "." && name !== "..";
}

/** The Address of a repository. */
export function repositoryAddress(owner: string, repo: string): RepositoryAddress {
  const o = owner.toLowerCase(), r = repo.toLowerCase();
  return { platform: "github", kind: "repository", key: `github:${o}/${r}`, owner: o, repo: r };
}

/** The Address of an issue or pull request. */
export function itemAddress(owner: string, repo: string, number: number): ItemAddress {
  const o = owner.toLowerCase(), r = repo.toLowerCase();
  return {
    platform: "github",
    kind: "item",
    key: `github:${o}/${r}#${number}`,
    owner: o,
    repo: r,
    number,
  };
}

/** Partial filters as parsers collect them; normalised by {@link normalizeFilters}. */
export type FilterInput = Partial<Omit<ListingFilters, "labels">> & { labels?: string[] };

/** Normalises filters: default state `open`, labels lowercased/deduplicated/sorted, text collapsed. */
export function normalizeFilters(input: FilterInput): ListingFilters {
  const labels = [
    ...new Set((input.labels ?? []).map((l) => l.trim().toLowerCase()).filter((l) => l !== "")),
  ].sort();
  const out: ListingFilters = { state: input.state ?? "open", labels };
  // `@alice` is alice; `@me` stays as it is: only a parser with the configured
  // login can resolve it, and `parseKey` refuses a key that still holds it.
  const login = (v?: string) => {
    const t = v?.trim().toLowerCase();
    return (t === ME ? t : t?.replace(/^@/, "")) || undefined;
  };
  const author = login(input.author), assignee = login(input.assignee);
  const milestone = input.milestone?.trim() || undefined;
  const q = input.q?.replace(/\s+/g, " ").trim() || undefined;
  if (author) out.author = author;
  if (assignee) out.assignee = assignee;
  if (milestone) out.milestone = milestone;
  if (q) out.q = q;
  return out;
}

/** Formats the query part of a listing key from normalised filters. */
function filtersQuery(f: ListingFilters): string {
  const parts: string[] = [];
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined) parts.push(`${k}=${v}`);
  };
  add("assignee", f.assignee && encodeURIComponent(f.assignee));
  add("author", f.author && encodeURIComponent(f.author));
  add("label", f.labels.length ? f.labels.map(encodeURIComponent).join(",") : undefined);
  add("milestone", f.milestone && encodeURIComponent(f.milestone));
  add("q", f.q && encodeURIComponent(f.q));
  add("state", f.state);
  return parts.join("&");
}

/** The Address of a Listing; `limit` is carried beside the key, not in it. */
export function listingAddress(
  owner: string,
  repo: string,
  listing: ListingKind,
  filters: FilterInput,
  limit: number | null,
): ListingAddress {
  const o = owner.toLowerCase(), r = repo.toLowerCase();
  const f = normalizeFilters(filters);
  // `merged` only narrows pulls; on issues it would name nothing.
  if (listing === "issues" && f.state === "merged") f.state = "closed";
  return {
    platform: "github",
    kind: "listing",
    key: `github:${o}/${r}/${listing}?${filtersQuery(f)}`,
    owner: o,
    repo: r,
    listing,
    filters: f,
    limit,
  };
}

/** The largest issue number GitHub can have (a GraphQL `Int`). */
const MAX_NUMBER = 2 ** 31 - 1;

/** The viewer placeholder of GitHub's filters; never part of a shared key. */
const ME = "@me";

const STATES: readonly ListingState[] = ["open", "closed", "all", "merged"];
const KEY = /^github:([^/#?\s]+)\/([^/#?\s]+)(?:#(\d+)|\/(issues|pulls)\?([^\s]*))?$/;

/**
 * Parses a canonical key (as printed by rgraph) back into an Address; `null`
 * when the text is not a canonical key. Listing keys may omit `state`.
 */
export function parseKey(text: string, limit: number | null = null): Address | null {
  const m = KEY.exec(text.trim());
  if (!m) return null;
  const [, owner, repo, num, listing, query] = m;
  if (!isValidName(owner) || !isValidName(repo)) return null;
  if (num !== undefined) {
    // GitHub numbers are GraphQL Ints: anything larger names nothing.
    const n = Number(num);
    return n > 0 && n <= MAX_NUMBER ? itemAddress(owner, repo, n) : null;
  }
  if (listing === undefined) return repositoryAddress(owner, repo);
  const input: FilterInput = {};
  for (const pair of query.split("&").filter((p) => p !== "")) {
    const eq = pair.indexOf("=");
    if (eq < 0) return null;
    const k = pair.slice(0, eq);
    let v: string;
    try {
      v = pair.slice(eq + 1);
      if (k !== "label") v = decodeURIComponent(v);
    } catch {
      return null;
    }
    switch (k) {
      case "state":
        if (!STATES.includes(v as ListingState)) return null;
        input.state = v as ListingState;
        break;
      case "label":
        try {
          input.labels = v.split(",").map(decodeURIComponent);
        } catch {
          return null;
        }
        break;
      case "author":
      case "assignee":
      case "milestone":
      case "q":
        input[k] = v;
        break;
      default:
        return null;
    }
  }
  // A key names the same thing for everyone; `@me` would mean someone else to each reader.
  if (input.author?.toLowerCase() === ME || input.assignee?.toLowerCase() === ME) return null;
  return listingAddress(owner, repo, listing as ListingKind, input, limit);
}

/** `owner/repo#N` style short name for people (used in Nudges and summaries). */
export function shortName(address: Address): string {
  switch (address.kind) {
    case "repository":
      return `${address.owner}/${address.repo}`;
    case "item":
      return `${address.owner}/${address.repo}#${address.number}`;
    case "listing":
      return address.key.slice("github:".length);
  }
}
