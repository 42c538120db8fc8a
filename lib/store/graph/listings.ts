/**
 * The graph store's Listings: writing one with its members in order (by the
 * node ids this process just wrote when it can, in one flight), finding a
 * repository's, and reading members by position. A member that could not
 * be stored leaves the Listing partial. A Listing asked with free text never
 * reaches the server: it is its asker's own, kept in their local index.
 *
 * @example
 * ```ts
 * import { getListing } from "./listings.ts";
 * const open = await getListing(c, "github:acme/rocket/issues?state=open");
 * ```
 * @module
 */

import { isOwnListing, listingComplete, memberRange } from "../rules.ts";
import type { Listing, ListingKind, ListingMember } from "../../types.ts";
import { BY_KEY } from "./cypher.ts";
import { MARK_LISTING, STAMP_LISTING } from "./changes.ts";
import { listingProps } from "./model.ts";
import { decodeListing, decodeMember, type GraphNode } from "./decode.ts";
import { type Connection, nodeProps, type Props, type Runner } from "./connection.ts";

/** Node ids of the members a Listing is written with (by key). */
const RESOLVE_KEYS = `
UNWIND $keys AS k
${BY_KEY("k")}
WITH k, coalesce(d, al) AS n
WHERE n IS NOT NULL
RETURN k, n.node_id AS node_id`;

/**
 * Upserts a Listing (keeping what another writer of the same key stores
 * beside rgraph's properties), replaces its members (returning how many it
 * found), and hangs it under its stored repository.
 */
const PUT_LISTING = [
  `MERGE (l:Listing {key: $props.key})
   ${MARK_LISTING("l", "$props")}
   SET l += $props
   WITH l
   OPTIONAL MATCH (l)-[m:HAS_MEMBER]->()
   DELETE m`,
  `MATCH (l:Listing {key: $key})
   UNWIND $members AS m
   MATCH (n:Resource {node_id: m.node_id})
   CREATE (l)-[:HAS_MEMBER {position: m.position}]->(n)
   RETURN count(*) AS n`,
  `MATCH (l:Listing {key: $key})
   MATCH (p:Resource {address: l.repo_address})
   WHERE p:Repository
   MERGE (l)-[:LISTS_FROM]->(p)`,
] as const;

const GET_LISTING = `MATCH (l:Listing {key: $key}) RETURN l`;

/** A repository's Listings of one kind, by key (`$prefix` is `github:o/r/issues?`): any writer's. */
const FIND_LISTINGS = `
MATCH (l:Listing)
WHERE l.key STARTS WITH $prefix
RETURN l ORDER BY l.key`;

const LISTING_MEMBERS = `
MATCH (:Listing {key: $key})-[m:HAS_MEMBER]->(n:Resource)
WHERE m.position >= $from AND m.position < $to
RETURN m.position AS position, n ORDER BY position`;

/** Raised inside a Listing write whose members changed under it: it is written again, the long way. */
class MembersMoved extends Error {}

/**
 * Replaces the Listing and its members (addresses or aliases of stored
 * Resources). A Listing asked with free text is its asker's own
 * (`isOwnListing`): it goes to the local index alone, never to the server,
 * where every login could read the words; its members were written as
 * Resources like any.
 */
export async function putListing(
  c: Connection,
  listing: Listing,
  members: string[],
): Promise<void> {
  if (isOwnListing(listing.key)) {
    await c.mirror?.putListing(listing, members);
    return;
  }
  const unique = [...new Set(members)];
  const known = unique.every((a) => c.written.has(a));
  try {
    await c.tx("write", (run) => writeListing(c, run, listing, members, known));
  } catch (e) {
    if (!(e instanceof MembersMoved)) throw e;
    await c.tx("write", (run) => writeListing(c, run, listing, members, false));
  }
  await c.mirrored((local) => local.putListing(listing, members));
}

/**
 * One Listing write. Members this store wrote are known by node id, and
 * then everything goes in one flight; a member no longer found there (another
 * writer folded it away meanwhile) undoes it, to be written again with every
 * member looked up.
 */
async function writeListing(
  c: Connection,
  run: Runner,
  listing: Listing,
  members: string[],
  known: boolean,
): Promise<void> {
  const nodeOf = known ? c.written : new Map(
    (await run(RESOLVE_KEYS, { keys: [...new Set(members)] }))
      .map((r) => [r.k as string, r.node_id as string]),
  );
  const seen = new Set<string>();
  const rows: Props[] = [];
  for (const address of members) {
    const node = nodeOf.get(address);
    if (node === undefined || seen.has(node)) continue;
    rows.push({ node_id: node, position: seen.size });
    seen.add(node);
  }
  const props = listingProps(listing, rows.length, listingComplete(listing, rows.length));
  const [, drawn] = await Promise.all([
    run(PUT_LISTING[0], { props }),
    run(PUT_LISTING[1], { key: listing.key, members: rows }),
    run(PUT_LISTING[2], { key: listing.key }),
    run(STAMP_LISTING, { key: listing.key, epoch: crypto.randomUUID() }),
  ]);
  if (known && Number(drawn[0]?.n ?? 0) !== rows.length) throw new MembersMoved();
}

/** Listings from rows of `l`, leaving out (and reporting) those that cannot be read. */
export function listingsOf(c: Connection, rows: Props[]): Listing[] {
  return rows.flatMap((r) => {
    const l = decodeListing(nodeProps(r.l), c.skip);
    return l === null ? [] : [l];
  });
}

/** The Listing stored under `key` (an own one: in the local index), or null. */
export async function getListing(c: Connection, key: string): Promise<Listing | null> {
  if (isOwnListing(key)) return await c.mirror?.getListing(key) ?? null;
  const rows = await c.read(GET_LISTING, { key });
  return rows.length ? decodeListing(nodeProps(rows[0].l), c.skip) : null;
}

/**
 * Every stored Listing of one kind on a repository, by key: any writer's on
 * the server, and this user's own (free-text) ones from the local index.
 */
export async function findListings(
  c: Connection,
  owner: string,
  repo: string,
  kind: ListingKind,
): Promise<Listing[]> {
  const rows = await c.read(FIND_LISTINGS, {
    prefix: `github:${owner.toLowerCase()}/${repo.toLowerCase()}/${kind}?`,
  });
  const own = (await c.mirror?.findListings(owner, repo, kind) ?? [])
    .filter((l) => isOwnListing(l.key));
  const shared = listingsOf(c, rows).filter((l) => !isOwnListing(l.key));
  return [...shared, ...own].sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** The Listing's members in `range` (every one without), by position. */
export async function listingMembers(
  c: Connection,
  key: string,
  range?: { offset: number; limit: number },
): Promise<ListingMember[]> {
  if (isOwnListing(key)) return await c.mirror?.listingMembers(key, range) ?? [];
  const rows = await c.read(LISTING_MEMBERS, { key, ...memberRange(range) });
  return rows.flatMap((r) => {
    const m = decodeMember(Number(r.position), r.n as GraphNode, c.skip);
    return m === null ? [] : [m];
  });
}
