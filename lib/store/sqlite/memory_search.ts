/**
 * The embedded store's memory search, for people browsing memory (`rgraph view`):
 * stored Resources and Listings whose address or title holds the
 * asked text, newest fetch first, a page at a time, with the total.
 *
 * @example
 * ```ts
 * import { searchMemory } from "./memory_search.ts";
 * const page = searchMemory(db, { text: "rocket", limit: 20 });
 * ```
 * @module
 */

import type { MemoryEntry, MemoryPage, MemoryQuery } from "../contract.ts";
import type { Connection } from "./connection.ts";

/** One page of what memory holds matching `query.text` (everything without), with the total. */
export function searchMemory(db: Connection, query: MemoryQuery): MemoryPage {
  // A LIKE pattern matching `text` literally anywhere; ASCII case is ignored by LIKE itself.
  const pattern = query.text ? `%${query.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const matching = `
    SELECT address, kind, title, state, fetched_at, updated_at FROM resources
     WHERE $p IS NULL OR address LIKE $p ESCAPE '\\' OR title LIKE $p ESCAPE '\\'
    UNION ALL
    SELECT key, 'listing', NULL, NULL, fetched_at, NULL FROM listings
     WHERE $p IS NULL OR key LIKE $p ESCAPE '\\'`;
  const entries = db.read(
    `${matching} ORDER BY fetched_at DESC, address LIMIT $limit OFFSET $offset`,
    { p: pattern, limit: query.limit, offset: query.offset ?? 0 },
  );
  const total = db.read(`SELECT count(*) AS n FROM (${matching})`, { p: pattern })[0];
  return {
    entries: entries.map((r) => ({
      address: r.address as string,
      kind: r.kind as MemoryEntry["kind"],
      title: r.kind === "repository" ? null : r.title as string | null,
      state: r.state as string | null,
      fetched_at: r.fetched_at as string,
      updated_at: r.updated_at as string | null,
    })),
    total: total.n as number,
  };
}
