/**
 * The embedded store's Resources: writing them whole (comments, aliases and
 * the edges they declare, with stale rows of re-identified Resources folded
 * in), reading them back by address or alias, their heads, and their edges.
 *
 * @example
 * ```ts
 * import { getResource } from "./resources.ts";
 * const issue = getResource(db, "github:acme/rocket#1");
 * ```
 * @module
 */

import type { Edge, ResourceHead, ResourceWrite } from "../contract.ts";
import { type DeclaredEdge, declaredEdges } from "../declared.ts";
import type { Comment, EdgeKind, Resource, ResourceKind } from "../../types.ts";
import type { Connection, Row } from "./connection.ts";

/** Resources per write transaction (see `putResources`). */
const WRITE_GROUP = 50;

/** The row id of the Resource stored under a current address or an alias. */
export function resolve(db: Connection, key: string): number | null {
  const row = db.get(
    `SELECT id FROM resources WHERE address = ?
     UNION ALL SELECT resource_id FROM aliases WHERE key = ? LIMIT 1`,
    key,
    key,
  );
  return row ? (row.id as number) : null;
}

/**
 * Frees the addresses `keys` that rows of other node ids than `nodeId` hold
 * (stale: GitHub re-identified the Resource, or the server moved on), and
 * returns those rows, to be folded in ({@link absorb}) once `nodeId` has one.
 */
export function freeClaimed(db: Connection, nodeId: string, keys: string[]): number[] {
  const stale: number[] = [];
  for (const key of keys) {
    const other = db.get(
      "SELECT id FROM resources WHERE address = ? AND node_id != ?",
      key,
      nodeId,
    );
    if (!other) continue;
    stale.push(other.id as number);
    db.run("UPDATE resources SET address = 'stale:' || id WHERE id = ?", other.id);
  }
  return stale;
}

/**
 * Folds a stale Resource (another node id at an address this write claims,
 * e.g. an issue GitHub re-identified on transfer) into `into`: listings,
 * edges others declared and aliases follow the new row, the stale row goes.
 */
export function absorb(db: Connection, stale: number, into: number): void {
  db.run("UPDATE listing_members SET resource_id = ? WHERE resource_id = ?", into, stale);
  // Edges other Resources declared follow; the stale row's own declarations
  // go (the Resource being written declares its own afresh).
  db.run(
    `INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by)
     SELECT CASE from_id WHEN ?1 THEN ?2 ELSE from_id END, kind,
            CASE to_id WHEN ?1 THEN ?2 ELSE to_id END, declared_by
     FROM edges
     WHERE (from_id = ?1 OR to_id = ?1) AND declared_by != ?1
       AND from_id != ?2 AND to_id != ?2`,
    stale,
    into,
  );
  db.run("DELETE FROM edges WHERE from_id = ?1 OR to_id = ?1 OR declared_by = ?1", stale);
  db.run("DELETE FROM pending_refs WHERE declared_by = ?", stale);
  db.run("UPDATE aliases SET resource_id = ? WHERE resource_id = ?", into, stale);
  db.run("DELETE FROM comments WHERE resource_id = ?", stale);
  db.run("DELETE FROM resource_data WHERE id = ?", stale);
  db.run("DELETE FROM resources WHERE id = ?", stale);
}

function putOne(db: Connection, write: ResourceWrite): void {
  const r = write.resource;
  const address = r.address;
  const aliases = [...new Set(write.aliases ?? [])].filter((a) => a !== address);
  const previous = db.get("SELECT address FROM resources WHERE node_id = ?", r.node_id)
    ?.address as string | undefined;
  // Rows of other node ids at addresses this write claims are stale: fold
  // them into this Resource once it has a row.
  const stale = freeClaimed(db, r.node_id, [address, ...aliases]);
  if (previous !== undefined && previous !== address) aliases.push(previous);

  const item = r.kind === "repository" ? null : r;
  const id = db.get(
    `INSERT INTO resources (node_id, address, kind, owner, repo, number, title, state, author,
       labels, assignees, milestone, comment_count, fetched_at, updated_at, etag)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id) DO UPDATE SET address = excluded.address, kind = excluded.kind,
       owner = excluded.owner, repo = excluded.repo, number = excluded.number,
       title = excluded.title, state = excluded.state, author = excluded.author,
       labels = excluded.labels, assignees = excluded.assignees, milestone = excluded.milestone,
       comment_count = excluded.comment_count, fetched_at = excluded.fetched_at,
       updated_at = excluded.updated_at, etag = excluded.etag
     RETURNING id`,
    r.node_id,
    address,
    r.kind,
    r.owner,
    r.repo,
    item?.number ?? null,
    item?.title ?? null,
    item?.state ?? null,
    item?.author ?? null,
    JSON.stringify(item?.labels ?? []),
    JSON.stringify(item?.assignees ?? []),
    item?.milestone ?? null,
    item?.comment_count ?? 0,
    r.fetched_at,
    r.updated_at,
    r.etag ?? null,
  )!.id as number;
  for (const s of stale) absorb(db, s, id);
  // Comments live in their own rows; the rest of the Resource is kept whole.
  const rest: Record<string, unknown> = { ...r };
  delete rest.comments;
  delete rest.review_comments;
  db.run(
    "INSERT OR REPLACE INTO resource_data (id, data) VALUES (?, ?)",
    id,
    JSON.stringify(rest),
  );
  db.run("DELETE FROM aliases WHERE key = ?", address);
  for (const key of aliases) {
    db.run("INSERT OR REPLACE INTO aliases (key, resource_id) VALUES (?, ?)", key, id);
  }

  db.run("DELETE FROM comments WHERE resource_id = ?", id);
  if (item) {
    putComments(db, id, item.comments, false);
    if (item.kind === "pull_request") putComments(db, id, item.review_comments, true);
  }

  // A refetch redraws what this Resource declares and keeps what others declared.
  db.run("DELETE FROM edges WHERE declared_by = ?", id);
  db.run("DELETE FROM pending_refs WHERE declared_by = ?", id);
  for (const edge of declaredEdges(r)) link(db, id, edge);
  // Edges stored Resources declared while waiting for this one.
  for (const key of [address, ...aliases]) {
    db.run(
      `INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by)
       SELECT CASE direction WHEN 'out' THEN declared_by ELSE ?1 END, kind,
              CASE direction WHEN 'out' THEN ?1 ELSE declared_by END, declared_by
       FROM pending_refs WHERE target_key = ?2 AND declared_by != ?1`,
      id,
      key,
    );
    db.run("DELETE FROM pending_refs WHERE target_key = ?", key);
  }
}

function putComments(db: Connection, id: number, comments: Comment[], review: boolean): void {
  comments.forEach((c, i) =>
    db.run(
      `INSERT OR REPLACE INTO comments (node_id, resource_id, is_review, position, author,
         created_at, updated_at, body, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.node_id,
      id,
      review ? 1 : 0,
      i,
      c.author,
      c.created_at,
      c.updated_at ?? null,
      c.body,
      c.path ?? null,
    )
  );
}

/** Draws an edge `id` declares, or remembers it under the other end's key until that arrives. */
function link(db: Connection, id: number, edge: DeclaredEdge): void {
  const other = resolve(db, edge.key);
  if (other === id) return;
  if (other !== null) {
    const [from, to] = edge.direction === "out" ? [id, other] : [other, id];
    db.run(
      "INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by) VALUES (?, ?, ?, ?)",
      from,
      edge.kind,
      to,
      id,
    );
  } else {
    db.run(
      `INSERT OR IGNORE INTO pending_refs (target_key, kind, declared_by, direction)
       VALUES (?, ?, ?, ?)`,
      edge.key,
      edge.kind,
      id,
      edge.direction,
    );
  }
}

/**
 * Each Resource lands whole (with its comments and edges) or not at all.
 * Writes are committed in groups of {@link WRITE_GROUP}: one commit per
 * Resource would rewrite the same pages hundreds of times on a big Sweep,
 * one commit per call would hold the write lock while hooks wait.
 */
export function putResources(db: Connection, writes: ResourceWrite[]): void {
  for (let i = 0; i < writes.length; i += WRITE_GROUP) {
    db.write(() => {
      for (const w of writes.slice(i, i + WRITE_GROUP)) putOne(db, w);
    });
  }
}

function comments(db: Connection, id: number, review: boolean): Comment[] {
  return db.all(
    `SELECT node_id, author, created_at, updated_at, body, path FROM comments
     WHERE resource_id = ? AND is_review = ? ORDER BY position`,
    id,
    review ? 1 : 0,
  ).map((c) => {
    const out: Comment = {
      node_id: c.node_id as string,
      author: c.author as string | null,
      created_at: c.created_at as string,
      body: c.body as string,
    };
    if (c.updated_at !== null) out.updated_at = c.updated_at as string;
    if (c.path !== null) out.path = c.path as string;
    return out;
  });
}

/** The Resource stored under a current address or an alias, or null. */
export function getResource(db: Connection, address: string): Resource | null {
  const row = db.get(
    `SELECT r.id, r.address, r.fetched_at, r.updated_at, r.etag, d.data
     FROM resources r JOIN resource_data d ON d.id = r.id
     WHERE r.id = (SELECT id FROM resources WHERE address = ?
                   UNION ALL SELECT resource_id FROM aliases WHERE key = ? LIMIT 1)`,
    address,
    address,
  );
  return row ? resourceFrom(db, row) : null;
}

/** A whole Resource from its head row and body (`id, address, fetched_at, updated_at, etag, data`). */
export function resourceFrom(db: Connection, row: Row): Resource {
  const data = JSON.parse(row.data as string);
  const out = {
    ...data,
    address: row.address,
    fetched_at: row.fetched_at,
    updated_at: row.updated_at,
  } as Resource;
  if (row.etag !== null || "etag" in data) out.etag = row.etag as string | null;
  const id = row.id as number;
  if (out.kind !== "repository") out.comments = comments(db, id, false);
  if (out.kind === "pull_request") out.review_comments = comments(db, id, true);
  return out;
}

/** The heads stored under each address or alias; missing ones are left out. */
export function getHeads(db: Connection, addresses: string[]): Map<string, ResourceHead> {
  const heads = new Map<string, ResourceHead>();
  if (addresses.length === 0) return heads;
  const cols = "r.node_id, r.kind, r.address, r.title, r.fetched_at, r.updated_at, r.etag";
  const keys = JSON.stringify(addresses);
  const rows = db.all(
    `SELECT 0 AS via_alias, j.value AS asked, ${cols}
     FROM json_each(?) j JOIN resources r ON r.address = j.value
     UNION ALL
     SELECT 1, j.value, ${cols}
     FROM json_each(?) j JOIN aliases a ON a.key = j.value JOIN resources r ON r.id = a.resource_id
     ORDER BY 1`,
    keys,
    keys,
  );
  for (const r of rows) {
    const asked = r.asked as string;
    if (heads.has(asked)) continue;
    heads.set(asked, {
      node_id: r.node_id as string,
      kind: r.kind as ResourceKind,
      address: r.address as string,
      title: r.title as string | null,
      fetched_at: r.fetched_at as string,
      updated_at: r.updated_at as string,
      etag: r.etag as string | null,
    });
  }
  return heads;
}

/** Marks Resources and Listings (by key) as fetched at `fetchedAt`. */
export function touchFetchedAt(db: Connection, addresses: string[], fetchedAt: string): void {
  if (addresses.length === 0) return;
  const keys = JSON.stringify(addresses);
  db.write(() => {
    db.run(
      `UPDATE resources SET fetched_at = ? WHERE id IN (
         SELECT id FROM resources WHERE address IN (SELECT value FROM json_each(?))
         UNION SELECT resource_id FROM aliases WHERE key IN (SELECT value FROM json_each(?)))`,
      fetchedAt,
      keys,
      keys,
    );
    db.run(
      "UPDATE listings SET fetched_at = ? WHERE key IN (SELECT value FROM json_each(?))",
      fetchedAt,
      keys,
    );
  });
}

/** The reference edges in and out of a Resource, sorted. */
export function edges(db: Connection, address: string): Edge[] {
  const id = resolve(db, address);
  if (id === null) return [];
  return db.all(
    `SELECT e.kind AS kind, f.address AS "from", t.address AS "to" FROM edges e
     JOIN resources f ON f.id = e.from_id JOIN resources t ON t.id = e.to_id
     WHERE e.from_id = ?
     UNION
     SELECT e.kind, f.address, t.address FROM edges e
     JOIN resources f ON f.id = e.from_id JOIN resources t ON t.id = e.to_id
     WHERE e.to_id = ?
     ORDER BY 1, 2, 3`,
    id,
    id,
  ).map((e) => ({ kind: e.kind as EdgeKind, from: e.from as string, to: e.to as string }));
}
