/**
 * The local index: with a shared graph store configured, the part of the
 * embedded database the hook's Nudge reads — heads of the team's Resources
 * (address, kind, title, times and old addresses; never a body or comment)
 * and Listings without their members — with the sync's cursor beside them
 * (`store_meta`), written in the same transaction so the cursor never runs
 * ahead of what was written.
 *
 * A head replaces what the row held: when its fetch or GitHub update time
 * changed, a body mirrored earlier is stale and goes (the row is a head
 * alone until this machine writes the Resource again); the same for a
 * Listing's members.
 *
 * @example
 * ```ts
 * import { putIndex } from "./local_index.ts";
 * putIndex(db, { heads, listings: [], mark });
 * ```
 * @module
 */

import { parseKey } from "../../address/mod.ts";
import type { IndexHead } from "../contract.ts";
import type { Listing } from "../../types.ts";
import { writeListingRow } from "./listing_row.ts";
import { absorb, freeClaimed } from "./resources.ts";
import type { Connection } from "./connection.ts";

/** Where a sync stands in one kind of node: the stamp and id (node id, Listing key) read last. */
export interface IndexCursor {
  stamp: number;
  id: string;
}

/** Where the local index stands with one graph server (see `graph/index_sync.ts`). */
export interface IndexMark {
  /** The server (URL without credentials, and database) and its epoch. */
  server: string;
  epoch: string;
  /** The change counter every change up to which the index holds. */
  stamp: number;
  heads: IndexCursor;
  listings: IndexCursor;
  /** The last sync: when, and how many changed nodes it read from the server. */
  last: { at: string; read: number };
}

/** One sync's step: heads and Listings read from the server, and the mark after them. */
export interface IndexUpdate {
  heads: IndexHead[];
  listings: Listing[];
  /** Where the sync stands after these; absent, the mark stays as it is. */
  mark?: IndexMark;
}

/** The mark as stored; `null` when none is, or it is not one this rgraph wrote. */
function parseMark(text: string | null): IndexMark | null {
  if (text === null) return null;
  try {
    const m = JSON.parse(text);
    return typeof m?.server === "string" && typeof m?.epoch === "string" &&
        Number.isSafeInteger(m?.stamp) && m?.heads && m?.listings && m?.last
      ? m as IndexMark
      : null;
  } catch {
    return null;
  }
}

/** The `store_meta` key the cursor is kept under. */
const INDEX_MARK_KEY = "graph_index";

/** Where the local index stands with its graph server; `null` before the first sync. */
export function indexMark(db: Connection): IndexMark | null {
  const row = db.get("SELECT value FROM store_meta WHERE key = ?", INDEX_MARK_KEY);
  return parseMark((row?.value as string | undefined) ?? null);
}

function putHead(sql: Connection, h: IndexHead): void {
  const key = parseKey(h.address);
  if (key === null || key.kind === "listing") return;
  const prev = sql.get(
    "SELECT id, address, fetched_at, updated_at FROM resources WHERE node_id = ?",
    h.node_id,
  );
  // Another node id at an address this head claims is stale (the server moved on).
  const stale = freeClaimed(sql, h.node_id, [h.address, ...h.aliases]);
  const id = sql.get(
    `INSERT INTO resources (node_id, address, kind, owner, repo, number, title, fetched_at,
       updated_at, etag)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id) DO UPDATE SET address = excluded.address, kind = excluded.kind,
       owner = excluded.owner, repo = excluded.repo, number = excluded.number,
       title = excluded.title, fetched_at = excluded.fetched_at,
       updated_at = excluded.updated_at, etag = excluded.etag
     RETURNING id`,
    h.node_id,
    h.address,
    h.kind,
    key.owner,
    key.repo,
    key.kind === "item" ? key.number : null,
    h.title,
    h.fetched_at,
    h.updated_at,
    h.etag,
  )!.id as number;
  for (const s of stale) absorb(sql, s, id);
  if (prev && (prev.fetched_at !== h.fetched_at || prev.updated_at !== h.updated_at)) {
    sql.run("DELETE FROM resource_data WHERE id = ?", id);
    sql.run("DELETE FROM comments WHERE resource_id = ?", id);
  }
  const aliases = new Set(h.aliases);
  if (prev && prev.address !== h.address && !String(prev.address).startsWith("stale:")) {
    aliases.add(prev.address as string);
  }
  sql.run("DELETE FROM aliases WHERE key = ?", h.address);
  for (const k of aliases) {
    sql.run("INSERT OR REPLACE INTO aliases (key, resource_id) VALUES (?, ?)", k, id);
  }
}

function putListing(sql: Connection, l: Listing): void {
  const prev = sql.get(
    "SELECT fetched_at, member_count, total_count FROM listings WHERE key = ?",
    l.key,
  );
  if (
    prev && prev.fetched_at === l.fetched_at && prev.member_count === l.member_count &&
    prev.total_count === l.total_count
  ) return;
  // Members mirrored earlier are another version's.
  sql.run("DELETE FROM listing_members WHERE listing_key = ?", l.key);
  writeListingRow((q, ...p) => sql.run(q, ...p), l, l.member_count, l.fully_expanded);
}

/**
 * Heads this index has no row of yet (by node id or address) and no alias
 * for: inserted in one statement (a new machine's fill is all of these).
 * Returns the rest, which {@link putHead} writes one by one.
 */
function insertNew(sql: Connection, heads: IndexHead[]): IndexHead[] {
  const rows = heads.map((h) => {
    const key = parseKey(h.address);
    return key === null || key.kind === "listing" ? null : {
      node_id: h.node_id,
      address: h.address,
      kind: h.kind,
      owner: key.owner,
      repo: key.repo,
      number: key.kind === "item" ? key.number : null,
      title: h.title,
      fetched_at: h.fetched_at,
      updated_at: h.updated_at,
      etag: h.etag,
    };
  });
  const json = JSON.stringify(rows);
  const taken = new Set(
    (sql.all(
      `SELECT j.key AS i FROM json_each(?1) j
         JOIN resources r ON r.node_id = json_extract(j.value, '$.node_id')
       UNION SELECT j.key FROM json_each(?1) j
         JOIN resources r ON r.address = json_extract(j.value, '$.address')`,
      json,
    )).map((r) => Number(r.i)),
  );
  const rest = heads.filter((h, i) => rows[i] !== null && (taken.has(i) || h.aliases.length > 0));
  // Two nodes of one address on the server (another writer's): the first stays.
  sql.run(
    `INSERT OR IGNORE INTO resources (node_id, address, kind, owner, repo, number, title,
       fetched_at, updated_at, etag)
     SELECT json_extract(value, '$.node_id'), json_extract(value, '$.address'),
       json_extract(value, '$.kind'), json_extract(value, '$.owner'),
       json_extract(value, '$.repo'), json_extract(value, '$.number'),
       json_extract(value, '$.title'), json_extract(value, '$.fetched_at'),
       json_extract(value, '$.updated_at'), json_extract(value, '$.etag')
     FROM json_each(?) WHERE value IS NOT NULL`,
    JSON.stringify(rows.filter((r, i) => r !== null && !taken.has(i) && !heads[i].aliases.length)),
  );
  return rest;
}

/** Writes one sync step with its cursor, in one write transaction. */
export function putIndex(db: Connection, update: IndexUpdate): void {
  db.write(() => writeIndex(db, update));
}

function writeIndex(sql: Connection, update: IndexUpdate): void {
  for (const h of insertNew(sql, update.heads)) putHead(sql, h);
  for (const l of update.listings) putListing(sql, l);
  if (update.mark === undefined) return;
  sql.run(
    "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)",
    INDEX_MARK_KEY,
    JSON.stringify(update.mark),
  );
}
