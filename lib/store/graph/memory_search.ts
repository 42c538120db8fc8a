/**
 * The graph store's memory search, for people browsing memory (`rgraph
 * view`): Resources and Listings whose address or title holds the asked
 * text (case-insensitive), newest fetch first, a page at a time, with the
 * total.
 *
 * @example
 * ```ts
 * import { searchMemory } from "./memory_search.ts";
 * const page = await searchMemory(c, { text: "rocket", limit: 20 });
 * ```
 * @module
 */

import {
  type MemoryEntry,
  type MemoryPage,
  type MemoryQuery,
  newestFetchFirst,
} from "../contract.ts";
import { decodeHead, type GraphNode } from "./decode.ts";
import { listingsOf } from "./listings.ts";
import type { Connection } from "./connection.ts";

/**
 * Resources whose address or title holds `$text` (lowercased; null: all),
 * newest fetch first, the first `$to` of them; and how many match.
 */
const SEARCH_RESOURCES = `
MATCH (n:Resource)
WHERE n.address IS NOT NULL AND ($text IS NULL OR toLower(n.address) CONTAINS $text
  OR toLower(coalesce(n.title, '')) CONTAINS $text)
RETURN n ORDER BY n.fetched_at DESC, n.address LIMIT $to`;

const COUNT_RESOURCES = `
MATCH (n:Resource)
WHERE n.address IS NOT NULL AND ($text IS NULL OR toLower(n.address) CONTAINS $text
  OR toLower(coalesce(n.title, '')) CONTAINS $text)
RETURN count(n) AS n`;

/** Listings whose key holds `$text` (null: all), as {@link SEARCH_RESOURCES}. */
const SEARCH_LISTINGS = `
MATCH (l:Listing)
WHERE $text IS NULL OR toLower(l.key) CONTAINS $text
RETURN l ORDER BY l.fetched_at DESC, l.key LIMIT $to`;

const COUNT_LISTINGS = `
MATCH (l:Listing)
WHERE $text IS NULL OR toLower(l.key) CONTAINS $text
RETURN count(l) AS n`;

/** One page of what memory holds matching `query.text` (everything without), with the total. */
export async function searchMemory(c: Connection, query: MemoryQuery): Promise<MemoryPage> {
  const params = {
    text: query.text ? query.text.toLowerCase() : null,
    to: (query.offset ?? 0) + query.limit,
  };
  const [resources, listings, nResources, nListings] = await c.tx(
    "read",
    (run) =>
      Promise.all([
        run(SEARCH_RESOURCES, params),
        run(SEARCH_LISTINGS, params),
        run(COUNT_RESOURCES, params),
        run(COUNT_LISTINGS, params),
      ]),
  );
  const entries: MemoryEntry[] = [];
  for (const r of resources) {
    const node = r.n as GraphNode;
    const head = decodeHead(node, c.skip);
    if (head === null) continue;
    const state = node.properties.state;
    entries.push({
      address: head.address,
      kind: head.kind,
      title: head.title,
      state: head.kind !== "repository" && typeof state === "string" ? state.toLowerCase() : null,
      fetched_at: head.fetched_at,
      updated_at: head.updated_at,
    });
  }
  for (const l of listingsOf(c, listings)) {
    entries.push({
      address: l.key,
      kind: "listing",
      title: null,
      state: null,
      fetched_at: l.fetched_at,
      updated_at: null,
    });
  }
  const from = query.offset ?? 0;
  return {
    entries: entries.sort(newestFetchFirst).slice(from, from + query.limit),
    total: Number(nResources[0]?.n ?? 0) + Number(nListings[0]?.n ?? 0),
  };
}
