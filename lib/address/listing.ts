/**
 * The listing matcher (pure): decides whether a stored Listing answers an
 * asked one exactly (`hit`), by filtering a broader fully expanded one
 * (`subsumed`), or not at all (`miss`).
 *
 * Rules:
 * - hit: same key, and the stored listing is fully expanded or holds at least
 *   as many members as were asked for (an asked limit of `null` — `--paginate`,
 *   a canonical key — asks for every member, which only a fully expanded
 *   listing holds);
 * - subsumed: the stored listing is fully expanded, of the same repository and
 *   kind, neither side has free text, its state is `all` or the asked one (for
 *   pulls `closed` includes `merged`), its labels are a subset of the asked
 *   ones, and its author/assignee/milestone are unset or equal to the asked ones.
 *   A truncated listing never answers a broader or differently filtered
 *   question: it does not know what it left out.
 *
 * @example
 * ```ts
 * import { chooseListing } from "./listing.ts";
 * import { listingAddress } from "./key.ts";
 * const asked = listingAddress("o", "r", "issues", { labels: ["bug"] }, 30);
 * const m = chooseListing(asked, storedListingsOfOR);
 * m.outcome; // "subsumed" when "github:o/r/issues?state=open" is stored fully expanded
 * ```
 * @module
 */

import type { Listing, ListingAddress, ListingFilters, ListingMember } from "../types.ts";

/** How one stored Listing relates to an asked one. */
export type ListingRelation = "hit" | "subsumed" | "miss";

/** The chosen source for an asked Listing. */
export type ListingMatch =
  | { outcome: "hit" | "subsumed"; listing: Listing }
  | { outcome: "miss"; listing: null };

/** How `stored` relates to `asked` (see the module rules). */
export function relate(asked: ListingAddress, stored: Listing): ListingRelation {
  if (stored.owner.toLowerCase() !== asked.owner || stored.repo.toLowerCase() !== asked.repo) {
    return "miss";
  }
  if (stored.listing !== asked.listing) return "miss";
  if (stored.key === asked.key) {
    return covers(stored, asked.limit) ? "hit" : "miss";
  }
  return stored.fully_expanded && filtersCover(stored.listing, stored.filters, asked.filters)
    ? "subsumed"
    : "miss";
}

/**
 * True when `stored` holds every member a question with `limit` wants: all
 * of them, or at least `limit` (`null` wants all, so only a fully expanded
 * listing covers it).
 */
export function covers(stored: Listing, limit: number | null): boolean {
  return stored.fully_expanded || (limit !== null && limit <= stored.member_count);
}

/** True when every item matching `asked` also matches `stored` (no free text on either side). */
function filtersCover(kind: Listing["listing"], stored: ListingFilters, asked: ListingFilters) {
  if (stored.q !== undefined || asked.q !== undefined) return false;
  const stateCovers = stored.state === "all" || stored.state === asked.state ||
    (kind === "pulls" && stored.state === "closed" && asked.state === "merged");
  if (!stateCovers) return false;
  if (!stored.labels.every((l) => asked.labels.includes(l))) return false;
  const same = (s: string | undefined, a: string | undefined) => s === undefined || s === a;
  return same(stored.author, asked.author) && same(stored.assignee, asked.assignee) &&
    same(stored.milestone, asked.milestone);
}

/**
 * Picks the source that answers `asked` among `stored` listings of its
 * repository and kind. A hit beats any subsumption. Among several subsuming
 * listings the most recently fetched wins (the model judges staleness, so the
 * freshest facts serve it best); on equal fetch times, the one with fewer
 * members (less to filter).
 */
export function chooseListing(asked: ListingAddress, stored: Listing[]): ListingMatch {
  let best: { outcome: "hit" | "subsumed"; listing: Listing } | null = null;
  for (const listing of stored) {
    const outcome = relate(asked, listing);
    if (outcome === "miss") continue;
    if (best === null || better(outcome, listing, best.outcome, best.listing)) {
      best = { outcome, listing };
    }
  }
  return best ?? { outcome: "miss", listing: null };
}

function better(o: ListingRelation, l: Listing, bo: ListingRelation, bl: Listing): boolean {
  if (o !== bo) return o === "hit";
  if (l.fetched_at !== bl.fetched_at) return l.fetched_at > bl.fetched_at;
  return l.member_count < bl.member_count;
}

/**
 * True when a stored member satisfies the asked filters (free text is never
 * applied here: a question with free text is only ever answered exactly).
 * State `closed` includes merged pull requests, as on GitHub.
 */
export function memberMatches(filters: ListingFilters, member: ListingMember): boolean {
  switch (filters.state) {
    case "open":
      if (member.state !== "open") return false;
      break;
    case "closed":
      if (member.state === "open") return false;
      break;
    case "merged":
      if (member.state !== "merged") return false;
      break;
  }
  if (filters.labels.length > 0) {
    const have = new Set(member.labels.map((l) => l.toLowerCase()));
    if (!filters.labels.every((l) => have.has(l))) return false;
  }
  if (filters.author !== undefined && member.author?.toLowerCase() !== filters.author) {
    return false;
  }
  if (
    filters.assignee !== undefined &&
    !member.assignees.some((a) => a.toLowerCase() === filters.assignee)
  ) return false;
  if (filters.milestone !== undefined && member.milestone !== filters.milestone) return false;
  return true;
}
