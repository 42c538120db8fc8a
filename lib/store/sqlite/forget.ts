/**
 * Forgetting in the embedded store: deleting a user's own Touches, then
 * leaving no copy of them in the files (free pages, the write-ahead log).
 *
 * @example
 * ```ts
 * import { forgetTouches } from "./forget.ts";
 * const gone = await forgetTouches(db, "alice", { session_id: "s1" });
 * ```
 * @module
 */

import type { ForgetQuery } from "../contract.ts";
import { forgetParams } from "../rules.ts";
import type { Touch } from "../../types.ts";
import { byRecorded, touchFromRow } from "./touches.ts";
import type { Connection } from "./connection.ts";

/** Bytes of zeros per row when the first forget claims a file's free pages (see `scrubFreeSpace`). */
const SCRUB_CHUNK = 8 * 1024 * 1024;

/**
 * Deletes the user's Touches `query` selects and returns them, oldest first;
 * with `dryRun`, only returns them.
 */
export async function forgetTouches(
  db: Connection,
  userId: string,
  query: ForgetQuery,
  options: { dryRun?: boolean } = {},
): Promise<Touch[]> {
  const params = forgetParams(userId, query);
  const where = `user_id = $user AND ($session IS NULL OR session_id = $session)
    AND ($since IS NULL OR recorded_at >= $since) AND ($before IS NULL OR recorded_at < $before)
    AND ($address IS NULL OR address = $address OR target = $address)`;
  try {
    if (options.dryRun) {
      return db.read(`SELECT * FROM touches WHERE ${where} ORDER BY recorded_at, rowid`, params)
        .map(touchFromRow);
    }
    const rows = db.write(() => db.read(`DELETE FROM touches WHERE ${where} RETURNING *`, params));
    if (rows.length > 0) await scrub(db);
    return rows.map(touchFromRow).sort(byRecorded);
  } catch (e) {
    throw db.fault(e);
  }
}

/**
 * After a forget, leaves no copy of the deleted rows in the files. Rows
 * deleted now are zeroed as they go (secure_delete, see `connection.ts`).
 * A file written before that may hold old copies in free space, so the
 * first forget on it rewrites it once ({@link scrubFreeSpace}). Then the
 * write-ahead log, which holds the pages as they were before the delete,
 * is checkpointed and truncated.
 */
async function scrub(db: Connection): Promise<void> {
  if (db.path === ":memory:") return;
  if (!db.get("SELECT value FROM store_meta WHERE key = 'touches_scrubbed'")) {
    scrubFreeSpace(db);
    db.run(
      "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('touches_scrubbed', ?)",
      new Date().toISOString(),
    );
  }
  // TRUNCATE waits (busy timeout) for readers of an older snapshot; a
  // reader mid-answer can outlast it, so try again a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = db.get("PRAGMA wal_checkpoint(TRUNCATE)");
    if (r?.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Zeroes every byte of free space in the file, as VACUUM would; VACUUM
 * itself is refused under rgraph's permissions (it attaches a database,
 * which Deno allows only with FFI access). First every free page is taken
 * into a throwaway table and freed again, which zeroes it now; then every
 * table is emptied, which frees (and zeroes) each page it held with the old
 * copies in their unused space, and refilled onto zeroed pages. One table
 * per transaction, so hooks wait for one table at a time, not the file.
 */
function scrubFreeSpace(db: Connection): void {
  const pageSize = db.get("PRAGMA page_size")!.page_size as number;
  db.write(() => {
    const free = db.get("PRAGMA freelist_count")!.freelist_count as number;
    if (free === 0) return;
    db.exec("CREATE TABLE rgraph_scrub (b BLOB)");
    // Whole pages' worth of blob claims every free page (and a few more).
    for (let left = free * pageSize; left > 0; left -= SCRUB_CHUNK) {
      db.run("INSERT INTO rgraph_scrub (b) VALUES (zeroblob(?))", Math.min(left, SCRUB_CHUNK));
    }
    db.exec("DROP TABLE rgraph_scrub");
  });
  const tables = db.all(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  ).map((r) => `"${String(r.name).replaceAll('"', '""')}"`);
  for (const table of tables) {
    db.write(() =>
      db.exec(
        `CREATE TEMP TABLE rgraph_kept AS SELECT * FROM main.${table};
         DELETE FROM main.${table};
         INSERT INTO main.${table} SELECT * FROM temp.rgraph_kept;
         DROP TABLE temp.rgraph_kept;`,
      )
    );
  }
}
