/**
 * The embedded store's reports: a user's Touches counted (`tally.ts`'s
 * running counts) and what memory holds (`memory_counts.ts`'s), with the
 * files' size on disk.
 *
 * @example
 * ```ts
 * import { memoryStats, userStats } from "./counts.ts";
 * userStats(db, "alice").pending;
 * memoryStats(db).resources.issue;
 * ```
 * @module
 */

import { type MemoryStats, requireUser, type UserStats } from "../contract.ts";
import { readUserStats } from "./tally.ts";
import { readMemoryCounts } from "./memory_counts.ts";
import type { Connection } from "./connection.ts";

/** The user's Touches counted, all of them or those recorded since `since`. */
export function userStats(db: Connection, userId: string, since?: string): UserStats {
  requireUser(userId);
  return readUserStats(db.read, userId, since);
}

/** What memory holds, and what the files take on disk. */
export function memoryStats(db: Connection): MemoryStats {
  const { resources, comments } = readMemoryCounts(db.read);
  return {
    resources,
    comments,
    // Listings are few (one per question asked of a repository): counted as they are.
    listings: db.get("SELECT count(*) AS n FROM listings")!.n as number,
    size_bytes: sizeOnDisk(db.path),
  };
}

/** The database file plus its write-ahead log; null for an in-memory database. */
function sizeOnDisk(path: string): number | null {
  if (path === ":memory:") return null;
  let total = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      total += Deno.statSync(file).size;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return total;
}
