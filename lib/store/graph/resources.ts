/**
 * The graph store's Resources: a batch written in one transaction of a fixed
 * number of `UNWIND` statements, sent pipelined, so the Bolt round trips do
 * not grow with the number of Resources in a batch or of comments on them,
 * and each Resource lands whole with its comments and edges or not at all;
 * reading them back by address or alias (another writer's nodes read through
 * `decode.ts`), their heads and edges. Statements: `resources_cypher.ts`.
 *
 * @example
 * ```ts
 * import { getResource } from "./resources.ts";
 * const issue = await getResource(c, "github:acme/rocket#1");
 * ```
 * @module
 */

import {
  type Edge,
  headOf,
  type IndexHead,
  type ResourceHead,
  type ResourceWrite,
} from "../contract.ts";
import { declaredEdges } from "../declared.ts";
import type { EdgeKind, Resource, ResourceKind } from "../../types.ts";
import { commentProps, OWNED_RESOURCE_KEYS, resourceProps } from "./model.ts";
import { decodeHead, decodeResource, type GraphNode } from "./decode.ts";
import { STAMP_RESOURCES } from "./changes.ts";
import { WRITE_LOCK } from "./cypher.ts";
import {
  ABSORB,
  ABSORBED_RELATIONSHIPS,
  BACKFILL,
  BEFORE_WRITE,
  CLEAR_EDGES,
  EDGES,
  GET_HEADS,
  GET_RESOURCE,
  GET_RESOURCES,
  LINK_REFERENCES,
  PUT_COMMENTS,
  RELEASE,
  SET_ALIASES,
  TOUCH_FETCHED_AT,
  UPSERT,
} from "./resources_cypher.ts";
import type { Connection, Params, Props, Runner } from "./connection.ts";

/** Resources per write transaction: bounds a transaction's size on big sweeps. */
const BATCH = 250;

/** Writes Resources whole, {@link BATCH} to a transaction, and repeats them on the local index. */
export async function putResources(c: Connection, writes: ResourceWrite[]): Promise<void> {
  for (let i = 0; i < writes.length; i += BATCH) {
    const batch = writes.slice(i, i + BATCH);
    await c.tx("write", (run) => putBatch(run, batch));
    for (const { resource: r, aliases = [] } of batch) {
      for (const key of [r.address, ...aliases]) c.written.set(key, r.node_id);
    }
  }
  await c.mirrored((local) => local.putResources(writes));
}

/**
 * One batch in one transaction: the write lock and one read pipelined, then
 * the writes pipelined, leaving out those the read shows would find nothing.
 */
async function putBatch(run: Runner, writes: ResourceWrite[]): Promise<void> {
  const ids = writes.map((w) => w.resource.node_id);
  const addresses = writes.map((w) => w.resource.address);
  const claims = writes.flatMap((w) =>
    [w.resource.address, ...(w.aliases ?? [])].map((key) => ({
      node_id: w.resource.node_id,
      key,
    }))
  );
  const [, found] = await Promise.all([
    run(WRITE_LOCK),
    run(BEFORE_WRITE, {
      ids,
      claims,
      addresses,
      owned: OWNED_RESOURCE_KEYS,
      relationships: ABSORBED_RELATIONSHIPS,
    }),
  ]);
  // Stored before, and where (null: another writer released its address).
  const before = new Map<string, string | null>();
  const absorbed: Props[] = [];
  const released: Props[] = [];
  const pending = new Set<string>();
  let aliased = false;
  for (const { what, a, b, own } of found) {
    if (what === "previous") before.set(a as string, typeof b === "string" ? b : null);
    else if (what === "stale") (own === true ? absorbed : released).push({ into: a, stale: b });
    else if (what === "pending") pending.add(a as string);
    else aliased = true;
  }

  const upserts = {
    repository: [] as Props[],
    issue: [] as Props[],
    pull_request: [] as Props[],
  };
  const aliases: Props[] = [];
  const threads: Props[] = [];
  const refetched: Props[] = [];
  const refs: Props[] = [];
  const keys: Props[] = [];
  for (const { resource: r, aliases: asked = [] } of writes) {
    const node = r.node_id;
    const prev = before.get(node);
    const mine = new Set([...asked, ...(typeof prev === "string" ? [prev] : [])]);
    mine.delete(r.address);
    for (const key of mine) aliases.push({ node_id: node, key });
    for (const key of [r.address, ...mine]) {
      if (pending.has(key)) keys.push({ node_id: node, key });
    }
    const thread = r.kind === "repository" ? [] : [
      ...r.comments.map((c, i) => commentProps(c, false, i)),
      ...(r.kind === "pull_request"
        ? r.review_comments.map((c, i) => commentProps(c, true, i))
        : []),
    ];
    upserts[r.kind].push({ node_id: node, props: resourceProps(r) });
    if (thread.length) threads.push({ node_id: node, comments: thread });
    // A refetch clears what the new version may no longer have; a new Resource has nothing to clear.
    if (before.has(node)) {
      refetched.push({ node_id: node, comment_ids: thread.map((c) => c.node_id) });
    }
    for (const edge of declaredEdges(r)) refs.push({ node, ...edge });
  }
  const when = (cond: boolean, ...qs: [string, Params][]) => cond ? qs : [];
  const each = (qs: readonly string[], params: Params): [string, Params][] =>
    qs.map((q) => [q, params]);
  const steps: [string, Params][] = [
    ...(Object.keys(upserts) as ResourceKind[]).flatMap((kind) =>
      when(upserts[kind].length > 0, [UPSERT[kind], { rows: upserts[kind] }])
    ),
    ...when(absorbed.length > 0, ...each(ABSORB, { pairs: absorbed })),
    ...when(released.length > 0, ...each(RELEASE, { pairs: released })),
    ...when(aliased, [SET_ALIASES[0], { addresses }]),
    ...when(aliases.length > 0, [SET_ALIASES[1], { aliases }]),
    ...when(
      refetched.length > 0,
      [PUT_COMMENTS[0], { rows: refetched }],
      ...each(CLEAR_EDGES, { ids: refetched.map((r) => r.node_id) }),
    ),
    ...when(threads.length > 0, [PUT_COMMENTS[1], { threads }]),
    ...when(refs.length > 0, [LINK_REFERENCES, { refs }]),
    ...when(keys.length > 0, [BACKFILL, { keys }]),
    [STAMP_RESOURCES, { ids, epoch: crypto.randomUUID() }],
  ];
  // Statements are queued in order on the transaction and answered in one go.
  await Promise.all(steps.map(([q, p]) => run(q, p)));
}

/**
 * The one Resource rows name (two nodes may share an address when another
 * writer put them there): the one that can be read, most recently fetched.
 */
function pick(candidates: (Resource | null)[]): Resource | null {
  let best: Resource | null = null;
  for (const r of candidates) {
    if (r !== null && (best === null || r.fetched_at > best.fetched_at)) best = r;
  }
  return best;
}

function resource(c: Connection, row: Props): Resource | null {
  return decodeResource(row.n as GraphNode, row.comments as GraphNode[], c.skip);
}

/** The Resource stored under a current address or an alias, or null. */
export async function getResource(c: Connection, address: string): Promise<Resource | null> {
  const rows = await c.read(GET_RESOURCE, { key: address });
  const found = pick(rows.map((r) => resource(c, r)));
  if (found !== null) await remember(c, [found]);
  return found;
}

/**
 * Puts the heads of Resources read here into the local index when it lacks
 * them as they are: another writer's node carries no change stamp, so no
 * sync brings it, and the hook's next Nudge should know it all the same.
 */
async function remember(c: Connection, resources: Resource[]): Promise<void> {
  await c.mirrored(async (local) => {
    const have = await local.getHeads(resources.map((r) => r.address));
    const heads = resources.filter((r) => {
      const h = have.get(r.address);
      return h === undefined || h.node_id !== r.node_id || h.fetched_at !== r.fetched_at ||
        h.updated_at !== r.updated_at;
    }).map((r): IndexHead => ({ ...headOf(r), aliases: [] }));
    if (heads.length) await local.putIndex({ heads, listings: [] });
  });
}

/** Many Resources by address or alias in one query; missing ones are left out. */
export async function getResources(
  c: Connection,
  addresses: string[],
): Promise<Map<string, Resource>> {
  const out = new Map<string, Resource>();
  if (addresses.length === 0) return out;
  const rows = await c.read(GET_RESOURCES, { keys: addresses });
  for (const r of rows) {
    const k = r.k as string;
    const best = pick([out.get(k) ?? null, resource(c, r)]);
    if (best !== null) out.set(k, best);
  }
  await remember(c, [...out.values()]);
  return out;
}

/** The heads stored under each address or alias; missing ones are left out. */
export async function getHeads(
  c: Connection,
  addresses: string[],
): Promise<Map<string, ResourceHead>> {
  const heads = new Map<string, ResourceHead>();
  if (addresses.length === 0) return heads;
  const rows = await c.read(GET_HEADS, { keys: addresses });
  for (const r of rows) {
    const head = decodeHead(r.n as GraphNode, c.skip);
    const k = r.k as string;
    const had = heads.get(k);
    if (head !== null && (had === undefined || head.fetched_at > had.fetched_at)) {
      heads.set(k, head);
    }
  }
  return heads;
}

/** Marks Resources and Listings (by key) as fetched at `fetchedAt`, stamped as a change. */
export async function touchFetchedAt(
  c: Connection,
  addresses: string[],
  fetchedAt: string,
): Promise<void> {
  if (addresses.length === 0) return;
  await c.write(TOUCH_FETCHED_AT, {
    keys: addresses,
    at: fetchedAt,
    epoch: crypto.randomUUID(),
  });
  await c.mirrored((local) => local.touchFetchedAt(addresses, fetchedAt));
}

/** The reference edges in and out of a Resource, sorted. */
export async function edges(c: Connection, address: string): Promise<Edge[]> {
  const rows = await c.read(EDGES, { key: address });
  if (rows.length === 0) return [];
  const seen = new Map<string, Edge>();
  for (
    const [kind, from, to] of [...rows[0].outs as unknown[][], ...rows[0].ins as unknown[][]]
  ) {
    if (typeof kind !== "string" || typeof from !== "string" || typeof to !== "string") continue;
    const e = { kind: kind as EdgeKind, from, to };
    seen.set(`${e.kind}\u0000${e.from}\u0000${e.to}`, e);
  }
  return [...seen.values()].sort((a, b) =>
    cmp(a.kind, b.kind) || cmp(a.from, b.from) || cmp(a.to, b.to)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
