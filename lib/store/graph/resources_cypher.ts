/**
 * The graph store's statements for Resources (see `resources.ts`): what a
 * batch finds before it writes, the upserts, folding in or releasing a stale
 * node, aliases, comments, the edges a Resource declares and those waiting
 * for it, and the reads by key.
 *
 * @example
 * ```ts
 * import { GET_RESOURCE } from "./resources_cypher.ts";
 * await store.cypher(GET_RESOURCE, { key: "github:acme/rocket#1" });
 * ```
 * @module
 */

import { BY_KEY, DRAW, MERGE_EDGE, WHEN } from "./cypher.ts";
import { MARK_RESOURCE, RAISE_STAMP } from "./changes.ts";

/**
 * What a batch of Resources finds stored before it writes, in one read (under
 * the write lock), as rows of `what`, `a`, `b`, `own`:
 * - `previous`: Resource `a` is stored now under address `b` (a changed one
 *   becomes an alias; another writer may have released it: null);
 * - `stale`: another Resource `b` holds an address Resource `a` claims (e.g. an
 *   issue re-identified on transfer); `own` says whether `b` holds only
 *   properties rgraph writes (`$owned`) and relationships it carries over
 *   (`$relationships`), so folding it in loses nobody's data;
 * - `alias`: address `a` being written is an Alias now;
 * - `pending`: references wait for key `a` (a claimed key or a stored address).
 * The last two let a batch skip the statements that would find nothing.
 */
export const BEFORE_WRITE = `
UNWIND $ids AS id
MATCH (n:Resource {node_id: id})
RETURN 'previous' AS what, id AS a, n.address AS b, null AS own
UNION ALL
UNWIND $claims AS c
MATCH (s:Resource {address: c.key})
WHERE s.node_id <> c.node_id
OPTIONAL MATCH (s)-[r]-()
WITH c, s, collect(DISTINCT type(r)) AS types
RETURN DISTINCT 'stale' AS what, c.node_id AS a, s.node_id AS b,
  all(k IN keys(s) WHERE k IN $owned) AND all(t IN types WHERE t IN $relationships) AS own
UNION ALL
UNWIND $addresses AS k
MATCH (:Alias {key: k})
RETURN DISTINCT 'alias' AS what, k AS a, null AS b, null AS own
UNION ALL
UNWIND $claims AS c
MATCH (:PendingRef {key: c.key})
RETURN DISTINCT 'pending' AS what, c.key AS a, null AS b, null AS own
UNION ALL
UNWIND $ids AS id
MATCH (n:Resource {node_id: id})
MATCH (:PendingRef {key: n.address})
RETURN DISTINCT 'pending' AS what, n.address AS a, null AS b, null AS own`;

/**
 * Upserts items of one kind on node_id, setting the properties rgraph owns
 * (what another writer keeps beside them stays), and hangs each under its
 * repository when that is stored.
 */
const UPSERT_ITEMS = (label: "Issue" | "PullRequest", rel: "HAS_ISSUE" | "HAS_PULL_REQUEST") => `
UNWIND $rows AS r
MERGE (n:Resource {node_id: r.node_id})
${MARK_RESOURCE("n", "r.props")}
SET n += r.props, n:${label}
WITH n
OPTIONAL MATCH (p:Resource {address: n.repo_address})
WHERE p:Repository
FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | MERGE (x)-[:${rel}]->(n))`;

/** Upserts per kind: one statement for each kind present in a batch. */
export const UPSERT = {
  issue: UPSERT_ITEMS("Issue", "HAS_ISSUE"),
  pull_request: UPSERT_ITEMS("PullRequest", "HAS_PULL_REQUEST"),
  /** A repository arriving after its items and Listings collects them. */
  repository: `
UNWIND $rows AS r
MERGE (n:Resource {node_id: r.node_id})
${MARK_RESOURCE("n", "r.props")}
SET n += r.props, n:Repository
WITH n
OPTIONAL MATCH (i:Resource {repo_address: n.address})
WHERE i <> n
${WHEN("i:Issue", "MERGE (n)-[:HAS_ISSUE]->(i)")}
${WHEN("i:PullRequest", "MERGE (n)-[:HAS_PULL_REQUEST]->(i)")}
WITH DISTINCT n
OPTIONAL MATCH (l:Listing {repo_address: n.address})
FOREACH (x IN CASE WHEN l IS NULL THEN [] ELSE [l] END | MERGE (x)-[:LISTS_FROM]->(n))`,
} as const;

/**
 * Draws `(a)-[kind]->(b)` as the edge it replaces was: with its
 * `declared_by` when it had one (rgraph's), without (another writer's).
 */
const REDRAW = (kind: string, a: string, b: string, by: string) =>
  [
    MERGE_EDGE(`${by} IS NOT NULL`, kind, a, b, by),
    ...(["REFERENCES", "CLOSES"] as const).map((k) =>
      WHEN(`${by} IS NULL AND ${kind} = '${k}'`, `MERGE (${a})-[:${k}]->(${b})`)
    ),
  ].join("\n");

/**
 * What points at a stale node `s` follows the node `n` that now holds its
 * address: Listings' memberships, aliases and Touches. `rgraphOnly` keeps
 * to rgraph's own Listings and Touches (another writer's node is released,
 * not folded, and its writer's records stay as they are).
 */
const FOLLOW = (rgraphOnly: boolean) => [
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (l:Listing)-[m:HAS_MEMBER]->(s:Resource {node_id: p.stale})
   ${rgraphOnly ? "WHERE l.filters IS NOT NULL" : ""}
   CREATE (l)-[:HAS_MEMBER {position: m.position}]->(n)
   DELETE m`,
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (a:Alias)-[x:ALIAS_OF]->(s:Resource {node_id: p.stale})
   MERGE (a)-[:ALIAS_OF]->(n)
   DELETE x`,
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (t:Touch)-[x:TOUCHED]->(s:Resource {node_id: p.stale})
   ${rgraphOnly ? "WHERE t.user_id IS NOT NULL" : ""}
   MERGE (t)-[:TOUCHED]->(n)
   DELETE x`,
];

/**
 * The relationships {@link ABSORB} carries over or drops with the stale
 * node (its comments, its waiting references): a node with any other is
 * not folded in but released ({@link RELEASE}).
 */
export const ABSORBED_RELATIONSHIPS = [
  "HAS_MEMBER",
  "ALIAS_OF",
  "TOUCHED",
  "REFERENCES",
  "CLOSES",
  "HAS_ISSUE",
  "HAS_PULL_REQUEST",
  "LISTS_FROM",
  "HAS_COMMENT",
  "WAITS_FOR",
] as const;

/**
 * Folding a stale Resource that is rgraph's alone into the one that claims
 * its address: Listings, edges others declared (or drew without declaring),
 * aliases, Touches and what it contains follow the new node, then the stale
 * node (with the edges it declared) and its comments go. One statement per
 * relationship kind.
 */
export const ABSORB = [
  ...FOLLOW(false),
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (o:Resource)-[e:REFERENCES|CLOSES]->(s:Resource {node_id: p.stale})
   WHERE o <> n AND coalesce(e.declared_by, '') <> p.stale
   WITH n, o, type(e) AS kind, e.declared_by AS by
   ${REDRAW("kind", "o", "n", "by")}`,
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (s:Resource {node_id: p.stale})-[e:REFERENCES|CLOSES]->(o:Resource)
   WHERE o <> n AND coalesce(e.declared_by, '') <> p.stale
   WITH n, o, type(e) AS kind, e.declared_by AS by
   ${REDRAW("kind", "n", "o", "by")}`,
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (s:Resource {node_id: p.stale})-[e:HAS_ISSUE|HAS_PULL_REQUEST]->(i:Resource)
   WHERE i <> n
   WITH n, i, type(e) AS kind
   ${WHEN("kind = 'HAS_ISSUE'", "MERGE (n)-[:HAS_ISSUE]->(i)")}
   ${WHEN("kind = 'HAS_PULL_REQUEST'", "MERGE (n)-[:HAS_PULL_REQUEST]->(i)")}`,
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (l:Listing)-[:LISTS_FROM]->(s:Resource {node_id: p.stale})
   MERGE (l)-[:LISTS_FROM]->(n)`,
  `UNWIND $pairs AS p
   MATCH (s:Resource {node_id: p.stale})
   OPTIONAL MATCH (s)-[:HAS_COMMENT]->(c:Comment)
   WITH s, collect(c) AS cs
   FOREACH (c IN cs | DETACH DELETE c)
   DETACH DELETE s`,
] as const;

/**
 * A stale Resource that holds more than rgraph writes (another writer's
 * properties or relationships) is kept: it gives up the address, as the
 * family's writers do, and points at its successor with `MOVED_TO`;
 * rgraph's own aliases, Listings and Touches follow the successor.
 */
export const RELEASE = [
  ...FOLLOW(true),
  `UNWIND $pairs AS p
   MATCH (n:Resource {node_id: p.into})
   MATCH (s:Resource {node_id: p.stale})
   SET s.address = null
   MERGE (s)-[:MOVED_TO]->(n)`,
] as const;

/**
 * Aliases: an address being written is nobody's alias any more; each alias
 * points at the Resource that now answers it.
 */
export const SET_ALIASES = [
  `UNWIND $addresses AS k
   MATCH (a:Alias {key: k})
   DETACH DELETE a`,
  `UNWIND $aliases AS x
   MATCH (n:Resource {node_id: x.node_id})
   MERGE (a:Alias {key: x.key})
   WITH n, a
   OPTIONAL MATCH (a)-[old:ALIAS_OF]->(m:Resource)
   WHERE m <> n
   DELETE old
   WITH DISTINCT n, a
   MERGE (a)-[:ALIAS_OF]->(n)`,
] as const;

/**
 * Comments: on a refetch the ones no longer in a thread go (GitHub deleted
 * them, whoever stored them: the family's writers agree); then each is
 * upserted on node_id under its Resource. Threads arrive whole (one row per
 * Resource): its node is found once, and the parameters do not repeat it.
 */
export const PUT_COMMENTS = [
  `UNWIND $rows AS r
   MATCH (:Resource {node_id: r.node_id})-[:HAS_COMMENT]->(c:Comment)
   WHERE NOT c.node_id IN r.comment_ids
   DETACH DELETE c`,
  `UNWIND $threads AS t
   MATCH (n:Resource {node_id: t.node_id})
   UNWIND t.comments AS c
   MERGE (m:Comment {node_id: c.node_id})
   SET m += c
   MERGE (n)-[:HAS_COMMENT]->(m)`,
] as const;

/**
 * A refetch redraws the edges a Resource declared (they touch it, so they are
 * found from its node) and its waiting references; edges others declared stay.
 */
export const CLEAR_EDGES = [
  `UNWIND $ids AS id
   MATCH (:Resource {node_id: id})-[e:REFERENCES|CLOSES]-(:Resource)
   WHERE e.declared_by = id
   DELETE e`,
  `UNWIND $ids AS id
   MATCH (:Resource {node_id: id})-[w:WAITS_FOR]->(:PendingRef)
   DELETE w`,
] as const;

/**
 * Draws each edge a Resource declares to a stored Resource, or leaves it
 * waiting under the other end's key (with its kind and direction).
 */
export const LINK_REFERENCES = `
UNWIND $refs AS f
MATCH (n:Resource {node_id: f.node})
${BY_KEY("f.key")}
WITH n, f, coalesce(d, al) AS t
${DRAW("t IS NOT NULL AND t <> n", "f.kind", "f.direction", "n", "t", "f.node")}
${
  WHEN(
    "t IS NULL",
    "MERGE (p:PendingRef {key: f.key}) MERGE (n)-[:WAITS_FOR {kind: f.kind, direction: f.direction}]->(p)",
  )
}`;

/**
 * References that were waiting for a key now written become edges, declared
 * by the Resource that waited; the key's PendingRef goes (and its WAITS_FOR
 * relationships with it).
 */
export const BACKFILL = `
UNWIND $keys AS k
MATCH (p:PendingRef {key: k.key})
MATCH (n:Resource {node_id: k.node_id})
OPTIONAL MATCH (src:Resource)-[w:WAITS_FOR]->(p)
WHERE src <> n
WITH p, n, src, w
${DRAW("src IS NOT NULL", "w.kind", "w.direction", "src", "n", "src.node_id")}
WITH DISTINCT p
DETACH DELETE p`;

/** One Resource by key, with its comments. */
export const GET_RESOURCE = `
${BY_KEY("$key")}
WITH coalesce(d, al) AS n
WHERE n IS NOT NULL
OPTIONAL MATCH (n)-[:HAS_COMMENT]->(c:Comment)
RETURN n, collect(c) AS comments`;

/** Many Resources by key, each with its comments. */
export const GET_RESOURCES = `
UNWIND $keys AS k
${BY_KEY("k")}
WITH k, coalesce(d, al) AS n
WHERE n IS NOT NULL
OPTIONAL MATCH (n)-[:HAS_COMMENT]->(c:Comment)
RETURN k, n, collect(c) AS comments`;

/** Resources by key without their comments (what a head is read from). */
export const GET_HEADS = `
UNWIND $keys AS k
${BY_KEY("k")}
WITH k, coalesce(d, al) AS n
WHERE n IS NOT NULL
RETURN k, n`;

/**
 * Marks Resources (by key) and Listings (by key) as fetched at `$at`, as one
 * write: the change counter first (see `changes.ts`), then each one stamped.
 */
export const TOUCH_FETCHED_AT = `${RAISE_STAMP}
WITH w
UNWIND $keys AS k
${BY_KEY("k")}
OPTIONAL MATCH (l:Listing {key: k})
${WHEN("d IS NOT NULL", "SET d.fetched_at = $at, d.rgraph_stamp = w.stamp")}
${WHEN("al IS NOT NULL", "SET al.fetched_at = $at, al.rgraph_stamp = w.stamp")}
${WHEN("l IS NOT NULL", "SET l.fetched_at = $at, l.rgraph_stamp = w.stamp")}`;

/** Reference edges in and out of a Resource. */
export const EDGES = `
${BY_KEY("$key")}
WITH coalesce(d, al) AS n
WHERE n IS NOT NULL
OPTIONAL MATCH (n)-[o:REFERENCES|CLOSES]->(t:Resource)
WITH n, collect([type(o), n.address, t.address]) AS outs
OPTIONAL MATCH (f:Resource)-[i:REFERENCES|CLOSES]->(n)
RETURN outs, collect([type(i), f.address, n.address]) AS ins`;
