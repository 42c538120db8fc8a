/**
 * What readers of the graph store learn changes by: the change mark a viewer
 * polls (counts and newest times, with the outbox's own mark), and the
 * change counter and stamped pages a local index syncs by (`changes.ts`
 * holds the stamp's statements, `index_sync.ts` the sync).
 *
 * @example
 * ```ts
 * import { changeCounter, changedHeads } from "./change_feed.ts";
 * const counter = await changeCounter(c);
 * const page = await changedHeads(c, { stamp: 0, id: "" }, 500);
 * ```
 * @module
 */

import { type IndexHead, requireUser } from "../contract.ts";
import type { Listing } from "../../types.ts";
import { decodeIndexHead, wholeNumber } from "./decode.ts";
import {
  ALL_ALIASES,
  ALL_LISTINGS,
  CHANGE_COUNTER,
  type ChangeCounter,
  type ChangeCursor,
  CHANGED_HEADS,
  CHANGED_LISTINGS,
  type ChangePage,
  NEWEST_HEADS,
} from "./changes.ts";
import { listingsOf } from "./listings.ts";
import { type Connection, nodeProps, plain, type Props } from "./connection.ts";

/**
 * What changes when what a user sees changes: how many Resources and
 * Listings there are with the newest fetch among them, and the user's
 * Touches counted with their newest record and settlement.
 */
const CHANGE_MARK = [
  `MATCH (n:Resource) RETURN count(n) AS n, max(n.fetched_at) AS newest`,
  `MATCH (l:Listing) RETURN count(l) AS n, max(l.fetched_at) AS newest`,
  `MATCH (t:Touch) WHERE t.user_id = $user
   RETURN count(t) AS n, max(t.recorded_at) AS newest, max(t.settled_at) AS settled`,
];

/**
 * The server's counts and newest times (see `CHANGE_MARK`), with
 * the hooks' outbox's own mark: Touches a hook recorded there since are
 * news too, before any command sends them on.
 */
export async function changeMark(c: Connection, userId: string): Promise<string> {
  requireUser(userId);
  const rows = await c.tx(
    "read",
    (run) => Promise.all(CHANGE_MARK.map((q) => run(q, { user: userId }))),
  );
  const local = c.mirror === null ? "" : await c.mirror.changeMark(userId);
  return JSON.stringify([
    ...rows.map(([r]) => [r?.n, r?.newest, r?.settled].map((v) => String(plain(v ?? null)))),
    local,
  ]);
}

/** The change counter and the server's epoch; `null` before anything was set up. */
export async function changeCounter(c: Connection): Promise<ChangeCounter | null> {
  const [row] = await c.read(CHANGE_COUNTER);
  const stamp = wholeNumber(row?.stamp);
  return typeof row?.epoch === "string" && stamp !== null ? { epoch: row.epoch, stamp } : null;
}

/**
 * Up to `limit` heads changed after `cursor`, oldest change first; `next`
 * is the cursor after them (what cannot be read as a head is passed over,
 * and counted in `read` all the same).
 */
export async function changedHeads(
  c: Connection,
  cursor: ChangeCursor,
  limit: number,
): Promise<ChangePage<IndexHead>> {
  const rows = await c.read(CHANGED_HEADS, { ...cursor, limit });
  const last = rows.at(-1);
  const next = last === undefined
    ? cursor
    : { stamp: wholeNumber(last.stamp) ?? cursor.stamp, id: String(last.node_id) };
  return { items: indexHeads(rows), read: rows.length, next };
}

/** The heads of the `limit` most recently fetched Resources, stamped or not, without aliases. */
export async function newestHeads(c: Connection, limit: number): Promise<IndexHead[]> {
  return indexHeads(await c.read(NEWEST_HEADS, { limit }));
}

function indexHeads(rows: Props[]): IndexHead[] {
  return rows.flatMap((r) => {
    const head = decodeIndexHead({ aliases: [], ...r });
    return head === null ? [] : [head];
  });
}

/** Up to `limit` Listings changed after `cursor` (by key), as {@link changedHeads}. */
export async function changedListings(
  c: Connection,
  cursor: ChangeCursor,
  limit: number,
  all: boolean,
): Promise<ChangePage<Listing>> {
  const rows = await c.read(all ? ALL_LISTINGS : CHANGED_LISTINGS, { ...cursor, limit });
  const last = rows.at(-1);
  const next = last === undefined
    ? cursor
    : { stamp: wholeNumber(last.stamp) ?? cursor.stamp, id: String(nodeProps(last.l).key) };
  return { items: listingsOf(c, rows), read: rows.length, next };
}

/** The old addresses of every Resource that has any, by node id. */
export async function allAliases(c: Connection): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const { node_id, key } of await c.read(ALL_ALIASES)) {
    if (typeof node_id !== "string" || typeof key !== "string") continue;
    out.set(node_id, [...out.get(node_id) ?? [], key]);
  }
  return out;
}
