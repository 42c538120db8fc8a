/**
 * The change stamp: how a machine's local index learns what changed on the
 * server since it last looked, without reading what did not.
 *
 * The write lock node (`(:RgraphLock {name: 'writes'})`) carries a counter,
 * `stamp`, that a write of Resources or Listings raises by one when it
 * changed what a head holds of any of them, and an `epoch` naming this
 * server's life (a server emptied and set up again starts a new one). Each
 * Resource and Listing such a write changed gets the write's number as
 * `rgraph_stamp` (indexed). Writers raise it holding the write lock, until
 * they commit, so stamps commit in order: a reader that saw stamp N has seen every write
 * numbered below N. A sync therefore reads the counter (one small query), and
 * only when it moved reads the nodes stamped after what it saw last, in
 * pages ordered by (stamp, node id). A local index filled afresh reads
 * the newest heads once instead (stamped or not: another writer's nodes and
 * an earlier rgraph's carry none), then goes on from the counter it read
 * first.
 *
 * Cypher in the subset both servers accept (see `cypher.ts`).
 *
 * @example
 * ```ts
 * import { CHANGE_COUNTER } from "./changes.ts";
 * await store.cypher(CHANGE_COUNTER); // [{ epoch: "…", stamp: 42 }]
 * ```
 * @module
 */

/** Where a sync stands in one kind of node: the stamp and id (node id, Listing key) read last. */
export interface ChangeCursor {
  stamp: number;
  id: string;
}

/** One page of changes: what could be read, how many nodes were read, and the cursor after them. */
export interface ChangePage<T> {
  items: T[];
  read: number;
  next: ChangeCursor;
}

/** The server's change counter and the epoch it counts in. */
export interface ChangeCounter {
  epoch: string;
  stamp: number;
}

/** Marks a node a write changed, until {@link STAMP_RESOURCES} or {@link STAMP_LISTING} stamps it. */
const CHANGED = -1;

/**
 * Before `n` takes the properties `props`: marks it changed unless what a
 * head holds (address, title, times, ETag) stays as it is, so writing a
 * Resource again unchanged (a second `migrate`) changes no stamp.
 */
export const MARK_RESOURCE = (n: string, props: string) => `
SET ${n}.rgraph_stamp = CASE WHEN ${n}.rgraph_stamp IS NOT NULL AND ${n}.address = ${props}.address
  AND ${n}.fetched_at = ${props}.fetched_at AND ${n}.updated_at = ${props}.updated_at
  AND coalesce(${n}.title, '') = coalesce(${props}.title, '')
  AND coalesce(${n}.etag, '') = coalesce(${props}.etag, '')
  THEN ${n}.rgraph_stamp ELSE ${CHANGED} END`;

/** The same for a Listing: what the Nudge reads of it. */
export const MARK_LISTING = (l: string, props: string) => `
SET ${l}.rgraph_stamp = CASE WHEN ${l}.rgraph_stamp IS NOT NULL
  AND ${l}.fetched_at = ${props}.fetched_at AND ${l}.member_count = ${props}.member_count
  AND ${l}.total_count = ${props}.total_count AND ${l}.fully_expanded = ${props}.fully_expanded
  THEN ${l}.rgraph_stamp ELSE ${CHANGED} END`;

/**
 * Raises the counter once when any of `changed` (a list expression) is
 * there, and stamps them with the new value; under the write lock, which
 * every write of Resources and Listings takes first.
 */
const RAISE_FOR = (changed: string) => `
WITH w, ${changed} AS changed, coalesce(w.stamp, 0) + 1 AS raised
FOREACH (once IN CASE WHEN size(changed) > 0 THEN [1] ELSE [] END |
  SET w.stamp = raised, w.epoch = coalesce(w.epoch, $epoch))
FOREACH (x IN changed | SET x.rgraph_stamp = raised)`;

/**
 * The last statement of a write of Resources: the ones (by node id) it
 * changed get the next stamp.
 */
export const STAMP_RESOURCES = `
MATCH (w:RgraphLock {name: 'writes'})
OPTIONAL MATCH (n:Resource) WHERE n.node_id IN $ids AND n.rgraph_stamp = ${CHANGED}
WITH w, collect(n) AS marked
${RAISE_FOR("marked")}`;

/** The last statement of a Listing's write: stamps it if it changed. */
export const STAMP_LISTING = `
MATCH (w:RgraphLock {name: 'writes'})
OPTIONAL MATCH (l:Listing {key: $key}) WHERE l.rgraph_stamp = ${CHANGED}
WITH w, collect(l) AS marked
${RAISE_FOR("marked")}`;

/**
 * Raises the counter for a write that changes what it names whatever it
 * held (a revalidation's fetch time), binding `w` with the new value.
 */
export const RAISE_STAMP = `
MERGE (w:RgraphLock {name: 'writes'})
SET w.stamp = coalesce(w.stamp, 0) + 1, w.epoch = coalesce(w.epoch, $epoch)`;

/** The lock node, made once at setup with its counter, so writers only ever find it. */
export const MAKE_WRITE_LOCK = `
MERGE (w:RgraphLock {name: 'writes'})
SET w.stamp = coalesce(w.stamp, 0), w.epoch = coalesce(w.epoch, $epoch)`;

/** The counter and the server's epoch: what an unchanged server costs a sync. */
export const CHANGE_COUNTER = `
MATCH (w:RgraphLock {name: 'writes'})
RETURN w.epoch AS epoch, w.stamp AS stamp`;

/**
 * The heads of Resources stamped after the cursor (`$stamp`, `$id`: the last
 * one read), oldest change first, with their aliases: what the hook's
 * Nudge reads, a few hundred bytes each, never a body or a comment. The
 * first condition is the index's range; the second steps past the cursor
 * within its stamp.
 */
export const CHANGED_HEADS = `
MATCH (n:Resource)
WHERE n.rgraph_stamp >= $stamp
WITH n WHERE n.rgraph_stamp > $stamp OR n.node_id > $id
WITH n ORDER BY n.rgraph_stamp, n.node_id LIMIT $limit
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(n)
RETURN n.rgraph_stamp AS stamp, n.node_id AS node_id, labels(n) AS labels,
  n.address AS address, n.title AS title, n.fetched_at AS fetched_at,
  n.updated_at AS updated_at, n.etag AS etag, collect(a.key) AS aliases`;

/**
 * The heads of the `$limit` most recently fetched Resources (stamped or
 * not), without aliases: what a local index filled afresh reads, once, in
 * one query.
 */
export const NEWEST_HEADS = `
MATCH (n:Resource)
WITH n ORDER BY n.fetched_at DESC LIMIT $limit
RETURN n.node_id AS node_id, labels(n) AS labels, n.address AS address, n.title AS title,
  n.fetched_at AS fetched_at, n.updated_at AS updated_at, n.etag AS etag`;

/** Every alias with the node id of the Resource it names (renamed or moved ones: few). */
export const ALL_ALIASES = `
MATCH (a:Alias)-[:ALIAS_OF]->(n:Resource)
RETURN n.node_id AS node_id, a.key AS key`;

/** Every Listing after key `$id`, by key, likewise. */
export const ALL_LISTINGS = `
MATCH (l:Listing)
WHERE l.key > $id
WITH l ORDER BY l.key LIMIT $limit
RETURN l`;

/** Listings stamped after the cursor (`$stamp`, `$id`: the last key read), oldest change first. */
export const CHANGED_LISTINGS = `
MATCH (l:Listing)
WHERE l.rgraph_stamp >= $stamp
WITH l WHERE l.rgraph_stamp > $stamp OR l.key > $id
WITH l ORDER BY l.rgraph_stamp, l.key LIMIT $limit
RETURN l.rgraph_stamp AS stamp, l`;
