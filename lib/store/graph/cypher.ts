/**
 * The graph store's data queries, in the Cypher subset that both Memgraph and
 * Neo4j accept: no subqueries (`CALL {}`), no `EXISTS {}`/`COUNT {}`, no map
 * projections, no dynamic labels, no label expressions in patterns.
 * Conditional writes use `FOREACH (once IN CASE WHEN … THEN [1] ELSE [] END | …)`.
 * Every value is a parameter; batches arrive as lists and are `UNWIND`ed.
 *
 * `n` found "by key" means by current address, else by an alias:
 * `OPTIONAL MATCH (d:Resource {address: k}) OPTIONAL MATCH (:Alias {key: k})-[:ALIAS_OF]->(a:Resource)`
 * then `coalesce(d, a)`.
 *
 * @module
 */

import { SEARCH_UPGRADE } from "./search.ts";
import { MARK_LISTING, MARK_RESOURCE, RAISE_STAMP } from "./changes.ts";

/** Finds a Resource by address or alias (`k` bound), yielding `n` (possibly null). */
const BY_KEY = (k: string) =>
  `OPTIONAL MATCH (d:Resource {address: ${k}})
   OPTIONAL MATCH (:Alias {key: ${k}})-[:ALIAS_OF]->(al:Resource)`;

/** Runs a write only when `cond` holds. */
const WHEN = (cond: string, write: string) =>
  `FOREACH (once IN CASE WHEN ${cond} THEN [1] ELSE [] END | ${write})`;

/**
 * MERGEs `(a)-[K {declared_by}]->(b)` for the edge kind K the expression
 * `kind` names, when `cond` holds (relationship types cannot be parameters).
 * `declared_by` is the node id of the Resource whose fields declare the edge:
 * its refetch redraws the edge, nobody else's does.
 */
const MERGE_EDGE = (cond: string, kind: string, a: string, b: string, by: string) =>
  (["REFERENCES", "CLOSES"] as const)
    .map((k) =>
      WHEN(`${cond} AND ${kind} = '${k}'`, `MERGE (${a})-[:${k} {declared_by: ${by}}]->(${b})`)
    )
    .join("\n");

/**
 * Draws an edge the Resource `n` declares to `other`, in the direction the
 * expression `dir` names: `'out'` = (n)->(other), `'in'` = (other)->(n).
 */
const DRAW = (cond: string, kind: string, dir: string, n: string, other: string, by: string) =>
  [
    MERGE_EDGE(`${cond} AND ${dir} = 'out'`, kind, n, other, by),
    MERGE_EDGE(`${cond} AND ${dir} = 'in'`, kind, other, n, by),
  ].join("\n");

// --- Touch counts ----------------------------------------------------------------

/**
 * The running count of Touch `t`'s group, so reports read a few nodes
 * instead of every Touch: one `RgraphTouchCount` per user and (status,
 * outcome, reason; '' for none), with how many Touches it holds (`n`) and
 * the GitHub requests its answered Cache Reads avoided. `d` is 1 (a Touch
 * joins the group) or -1 (it leaves); every statement that records,
 * settles, retries or forgets a Touch moves it in the same statement.
 */
const COUNT_TOUCH = (t: string, d: 1 | -1) => `
MERGE (c:RgraphTouchCount {key: ${t}.user_id + '\u001f' + ${t}.status + '\u001f' +
  coalesce(${t}.outcome, '') + '\u001f' + coalesce(${t}.reason, '')})
ON CREATE SET c.user_id = ${t}.user_id, c.status = ${t}.status,
  c.outcome = coalesce(${t}.outcome, ''), c.reason = coalesce(${t}.reason, ''), c.n = 0,
  c.avoided = 0
SET c.n = c.n + ${d}, c.avoided = c.avoided + ${d} * coalesce(${t}.avoided, 0)`;

/**
 * What answering Touch \`t\` from memory spared GitHub (\`avoided\`), as
 * lib/sweep/cost.ts reckons it, from what answers its target now: a Listing
 * one request per 100 members (up to what was asked) plus one per member; a
 * repository 2; an item 1 plus one per 100 comments. 0 for anything but an
 * answered Cache Read. Binds \`t\` and \`avoided\`, one row per Touch.
 */
const AVOIDED = `
WITH t, coalesce(t.target, t.address) AS k,
  t.status = 'served' AND t.outcome IN ['hit', 'subsumed'] AS answered
OPTIONAL MATCH (l:Listing {key: k}) WHERE answered
WITH t, k, answered, head(collect(l)) AS l
OPTIONAL MATCH (d:Resource {address: k}) WHERE answered
WITH t, k, answered, l, head(collect(d)) AS d
OPTIONAL MATCH (:Alias {key: k})-[:ALIAS_OF]->(al:Resource) WHERE answered AND d IS NULL
WITH t, answered, l, d, head(collect(al)) AS al
WITH t, answered, l, coalesce(d, al) AS r
WITH t, answered, l, r, CASE WHEN t.asked_limit IS NOT NULL
    AND t.asked_limit < toInteger(coalesce(l.member_count, 0))
  THEN toInteger(t.asked_limit) ELSE toInteger(coalesce(l.member_count, 0)) END AS m
WITH t, CASE
  WHEN NOT answered THEN 0
  WHEN l IS NOT NULL THEN (m + 99) / 100 + m
  WHEN r IS NULL THEN 0
  WHEN r:Repository THEN 2
  ELSE 1 + (toInteger(coalesce(r.comment_count, 0)) + 99) / 100 END AS avoided`;

// --- Schema ----------------------------------------------------------------------

/**
 * Data written by earlier versions brought to the current model, each run
 * once per server (the schema record counts how many ran). Earlier versions
 * drew REFERENCES from the mentioned item to the one mentioning it, kept its
 * mentioners under `references`, and recorded neither who declared an edge
 * nor a waiting reference's direction. Another writer of the family draws
 * REFERENCES and CLOSES without `declared_by` too, so an edge is taken for
 * an earlier rgraph's only between Resources rgraph wrote (`null_keys` is
 * its mark) whose own fields declare it.
 */
export const UPGRADES = [
  `MATCH (a:Resource)-[e:REFERENCES]->(b:Resource)
   WHERE e.declared_by IS NULL AND a.null_keys IS NOT NULL AND b.null_keys IS NOT NULL
     AND b.url IN coalesce(a.references, [])
   MERGE (b)-[:REFERENCES {declared_by: a.node_id}]->(a)
   DELETE e`,
  `MATCH (a:Resource)-[e:CLOSES]->(b:Resource)
   WHERE e.declared_by IS NULL AND a.null_keys IS NOT NULL AND b.url IN coalesce(a.closes, [])
   SET e.declared_by = a.node_id`,
  `MATCH (:Resource)-[w:WAITS_FOR]->(:PendingRef)
   WHERE w.direction IS NULL
   SET w.direction = CASE w.kind WHEN 'REFERENCES' THEN 'in' ELSE 'out' END`,
  `MATCH (n:Resource)
   WHERE n.references IS NOT NULL AND n.null_keys IS NOT NULL
   SET n.referenced_by = n.references
   REMOVE n.references`,
  // Touches counted as they come (COUNT_TOUCH): each answered Cache Read reckoned from what is
  // stored now (the only record left of what answered it), then every user's counts filled.
  `MATCH (t:Touch)
   WHERE t.user_id IS NOT NULL AND t.status IS NOT NULL AND t.avoided IS NULL
   ${AVOIDED}
   SET t.avoided = avoided`,
  `MATCH (t:Touch)
   WHERE t.user_id IS NOT NULL AND t.status IS NOT NULL
   WITH t.user_id AS user, t.status AS status, coalesce(t.outcome, '') AS outcome,
     coalesce(t.reason, '') AS reason, count(*) AS n, sum(coalesce(t.avoided, 0)) AS avoided
   MERGE (c:RgraphTouchCount {key: user + '\u001f' + status + '\u001f' + outcome + '\u001f' + reason})
   SET c.user_id = user, c.status = status, c.outcome = outcome, c.reason = reason, c.n = n,
     c.avoided = avoided`,
  // Search: Resources stored before it get the text the index reads (see search.ts).
  SEARCH_UPGRADE,
] as const;

/** The schema record: which setups were applied, and how it went. */
export const SCHEMA_STATE = `MATCH (s:RgraphLock {name: 'schema'}) RETURN s`;

/**
 * Claims the schema setup for `$me` until `$until` unless it is applied
 * already (`done`) or another process holds a live claim (`busy`). The
 * claim is a lease, not a held transaction: DDL must run on its own, and
 * Memgraph's DDL waits for every open transaction, its caller's included.
 */
export const SCHEMA_CLAIM = `
MERGE (s:RgraphLock {name: 'schema'})
WITH s, $tag IN coalesce(s.tags, []) AS done,
     s.claim_until IS NOT NULL AND s.claim_until > $now AND s.claim_by <> $me AS busy
${
  WHEN(
    "NOT done AND NOT busy",
    "SET s.claim_by = $me, s.claim_until = $until",
  )
}
RETURN done, busy, coalesce(s.model, 0) AS model, coalesce(s.tags, []) AS tags`;

/** Records an applied setup and gives the claim up. */
export const SCHEMA_RECORD = `
MATCH (s:RgraphLock {name: 'schema'})
SET s.tag = $tag, s.tags = $tags, s.model = $model, s.server = $server,
    s.applied_at = $at, s.degraded = $degraded
REMOVE s.claim_by, s.claim_until`;

// --- Touches ---------------------------------------------------------------------

/**
 * Draws a Touch's (`t`) joins to nodes that exist: the Resource or Listing it
 * names (`TOUCHED`), and the soft joins to the actions component's tool call
 * and agent (matched, never created).
 */
const JOIN_TOUCH = `
OPTIONAL MATCH (ac:Action {tool_use_id: t.tool_use_id})
OPTIONAL MATCH (ag:Agent {agent_id: t.agent_id})
OPTIONAL MATCH (d:Resource {address: t.target})
OPTIONAL MATCH (:Alias {key: t.target})-[:ALIAS_OF]->(al:Resource)
OPTIONAL MATCH (l:Listing {key: t.target})
WITH t, collect(DISTINCT ac) AS acs, collect(DISTINCT ag) AS ags,
     collect(DISTINCT coalesce(d, al, l)) AS targets
FOREACH (x IN acs | MERGE (t)-[:CAUSED_BY]->(x))
FOREACH (x IN ags | MERGE (t)-[:BY_AGENT]->(x))
FOREACH (x IN targets | MERGE (t)-[:TOUCHED]->(x))`;

/**
 * Creates new Touches (skipping known ids) with their Session and joins, in
 * one statement; returns the new ids.
 */
export const RECORD_TOUCHES = `
UNWIND $rows AS r
MERGE (t:Touch {id: r.id})
ON CREATE SET t += r, t.fresh = true
WITH t WHERE t.fresh = true
REMOVE t.fresh
FOREACH (sid IN CASE WHEN t.session_id IS NULL THEN [] ELSE [t.session_id] END |
  MERGE (s:Session {session_id: sid}) MERGE (t)-[:IN_SESSION]->(s))
WITH t
${JOIN_TOUCH}
${AVOIDED}
SET t.avoided = avoided
WITH t
${COUNT_TOUCH("t", 1)}
RETURN t.id AS id`;

/** One user's Touches, oldest first. */
export const LIST_TOUCHES = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($status IS NULL OR t.status = $status)
RETURN t ORDER BY t.recorded_at, t.seq`;

/**
 * A page of one user's Touches, newest first, recorded before (`$at`,
 * `$seq`): where the previous page ended. The first page (`$first`) also
 * holds those with no recording time (another writer's, unreadable), so
 * they are named once in store.log as every read of them does.
 */
export const TOUCH_PAGE = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND (t.recorded_at < $at OR (t.recorded_at = $at AND coalesce(t.seq, 0) < $seq)
    OR ($first AND t.recorded_at IS NULL))
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($status IS NULL OR t.status = $status)
RETURN t ORDER BY t.recorded_at DESC, coalesce(t.seq, 0) DESC LIMIT $n`;

/** One user's Touches that a forget selects (`t` bound); `null` parameters match any. */
const FORGOTTEN = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($before IS NULL OR t.recorded_at < $before)
  AND ($address IS NULL OR t.address = $address OR t.target = $address)`;

/** What a forget would delete, oldest first. */
export const FORGET_PREVIEW = `${FORGOTTEN}
RETURN t ORDER BY t.recorded_at, t.seq`;

/**
 * Deletes the Touches a forget selects with their joins, returning them as
 * they were and the sessions they were in.
 */
export const FORGET_TOUCHES = `${FORGOTTEN}
OPTIONAL MATCH (t)-[:IN_SESSION]->(s:Session)
WITH t, properties(t) AS was, s.session_id AS sid
${COUNT_TOUCH("t", -1)}
DETACH DELETE t
RETURN was, sid ORDER BY was.recorded_at, was.seq`;

/** Deletes a user's emptied counts: forgetting everything leaves no count naming them. */
export const DROP_EMPTY_COUNTS = `
MATCH (c:RgraphTouchCount {user_id: $user})
WHERE c.n = 0 AND c.avoided = 0
DELETE c`;

/**
 * Deletes the named Sessions that nothing joins any more: a forgotten
 * session's id does not outlive its Touches, while a Session another user's
 * Touch (or another component) still uses stays.
 */
export const DROP_EMPTY_SESSIONS = `
UNWIND $sids AS sid
MATCH (s:Session {session_id: sid})
OPTIONAL MATCH (s)-[r]-()
WITH s, count(r) AS joins
WHERE joins = 0
DELETE s`;

/**
 * Pending Touches, and rate-limited ones settled before `$retry` (none when
 * it is ''), whose lease is free, of `$user` only: with no user, none (a
 * Sweep never fetches, or prints in its errors, another user's addresses).
 * Only rgraph's Touches: another writer's (the upstream package keeps
 * `touch_id` and no user) are its own to sweep.
 */
const LEASABLE = `(t.status = 'pending' OR (t.status = 'unresolved' AND t.reason = 'rate_limited'
    AND t.settled_at < $retry))
  AND (t.lease_until IS NULL OR t.lease_until <= $now)
  AND t.user_id = $user
  AND t.dedup_key IS NOT NULL AND t.recorded_at IS NOT NULL`;

/**
 * Whether any Touch is leasable: one read, where the lease itself is a write
 * transaction (a Sweep's last lease finds nothing).
 */
export const LEASE_PROBE = `
MATCH (t:Touch)
WHERE ${LEASABLE}
RETURN t.id AS id LIMIT 1`;

/**
 * Leases the oldest free pending Touches. Setting a throwaway property takes
 * the row's write lock first (Neo4j) or raises a write conflict that is
 * retried (Memgraph); the lease condition is then read again under the
 * lock, so two sweeps never lease the same Touch. Every candidate comes back
 * with `won` saying whether this transaction leased it.
 */
export const LEASE_PENDING = `
MATCH (t:Touch)
WHERE ${LEASABLE}
WITH t ORDER BY t.recorded_at, t.seq LIMIT $limit
SET t.lease_lock = true
REMOVE t.lease_lock
WITH t, (${LEASABLE}) AS won
WITH t, won, won AND t.status = 'unresolved' AS retried
${WHEN("retried", COUNT_TOUCH("t", -1))}
${
  WHEN(
    "won",
    "SET t.lease_owner = $owner, t.lease_until = $until, t.status = 'pending' " +
      "REMOVE t.reason, t.settled_at",
  )
}
${WHEN("retried", COUNT_TOUCH("t", 1))}
RETURN t, won`;

/** The pending Touches another live lease holds (see `Store.leasedByOthers`). */
export const LEASED_BY_OTHERS = `
MATCH (t:Touch)
WHERE t.status = 'pending' AND t.lease_owner IS NOT NULL AND t.lease_owner <> $owner
  AND t.lease_until > $now
RETURN t.address AS address, t.lease_owner AS owner, t.lease_until AS until`;

const HELD = `MATCH (t:Touch {id: $id}) WHERE t.lease_owner = $owner AND t.status = 'pending'`;

/**
 * Settlements, each one statement; only the lease holder's takes effect. A
 * resolved Touch is joined to what it names in the same statement.
 */
export const SETTLE = {
  resolved: `${HELD}
${COUNT_TOUCH("t", -1)}
WITH t
SET t.status = 'resolved', t.target = $target, t.settled_at = $now
REMOVE t.reason, t.detail, t.lease_owner, t.lease_until
WITH t
${COUNT_TOUCH("t", 1)}
WITH t
${JOIN_TOUCH}`,
  unresolved: `${HELD}
${COUNT_TOUCH("t", -1)}
WITH t
SET t.status = 'unresolved', t.reason = $reason, t.detail = $detail, t.settled_at = $now
REMOVE t.lease_owner, t.lease_until
WITH t
${COUNT_TOUCH("t", 1)}`,
  // With $failure, one more consecutive failure on GitHub's side, and its message.
  pending: `${HELD}
SET t.failures = coalesce(t.failures, 0) + CASE WHEN $failure IS NULL THEN 0 ELSE 1 END,
    t.detail = coalesce($failure, t.detail)
REMOVE t.lease_owner, t.lease_until`,
} as const;

// --- Resources -------------------------------------------------------------------

/**
 * Serialises writers of Resources and Listings, as the embedded store's
 * write lock does: the first statement of each such transaction. Without it
 * two concurrent transactions (a repository and its Listing, an item and the
 * one that references it) could each miss the other's uncommitted node and
 * leave an edge undrawn; and change stamps (`changes.ts`) could commit out of
 * order. Neo4j queues on the node's write lock (reads after it see what the
 * other committed); Memgraph aborts the later writer with a conflict that the
 * driver retries. Setting and removing a property takes the lock and leaves
 * the node as it was.
 */
export const WRITE_LOCK = `
MERGE (w:RgraphLock {name: 'writes'})
SET w.busy = true
REMOVE w.busy`;

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

// --- Listings --------------------------------------------------------------------

/** Node ids of the members a Listing is written with (by key). */
export const RESOLVE_KEYS = `
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
export const PUT_LISTING = [
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

export const GET_LISTING = `MATCH (l:Listing {key: $key}) RETURN l`;

/** A repository's Listings of one kind, by key (`$prefix` is `github:o/r/issues?`): any writer's. */
export const FIND_LISTINGS = `
MATCH (l:Listing)
WHERE l.key STARTS WITH $prefix
RETURN l ORDER BY l.key`;

export const LISTING_MEMBERS = `
MATCH (:Listing {key: $key})-[m:HAS_MEMBER]->(n:Resource)
WHERE m.position >= $from AND m.position < $to
RETURN m.position AS position, n ORDER BY position`;

// --- Reports ---------------------------------------------------------------------

/** A user's running counts (see COUNT_TOUCH), as groups. */
export const TOUCH_TALLY = `
MATCH (c:RgraphTouchCount {user_id: $user})
WHERE c.n <> 0 OR c.avoided <> 0
RETURN c.status AS status, CASE c.outcome WHEN '' THEN null ELSE c.outcome END AS outcome,
  CASE c.reason WHEN '' THEN null ELSE c.reason END AS reason, c.n AS n, c.avoided AS avoided`;

/** When a user's oldest pending Touch was recorded (through the status index: pending ones are few). */
export const OLDEST_PENDING = `
MATCH (t:Touch)
WHERE t.status = 'pending' AND t.user_id = $user
RETURN min(t.recorded_at) AS oldest`;

/** A user's Touches recorded since \`$since\`, counted one by one in groups. */
export const TOUCH_COUNTS = `
MATCH (t:Touch)
WHERE t.user_id = $user AND t.recorded_at >= $since
RETURN t.status AS status, t.outcome AS outcome, t.reason AS reason, count(*) AS n,
  min(t.recorded_at) AS oldest, sum(coalesce(t.avoided, 0)) AS avoided`;

/**
 * Resources by the kind their labels name, and comments: one label each, so
 * Neo4j answers from its count store and Memgraph from its label index,
 * without reading a node (a team server of 100,000 Resources counts as fast
 * as one of 1,000). rgraph deletes a comment with its thread's refetch, so
 * every Comment node belongs to a stored Resource.
 */
export const RESOURCE_COUNTS = {
  repository: `MATCH (n:Repository) RETURN count(n) AS n`,
  issue: `MATCH (n:Issue) RETURN count(n) AS n`,
  pull_request: `MATCH (n:PullRequest) RETURN count(n) AS n`,
} as const;
export const COMMENT_COUNT = `MATCH (c:Comment) RETURN count(c) AS n`;
export const LISTING_COUNT = `MATCH (l:Listing) RETURN count(l) AS n`;

/**
 * Resources whose address or title holds `$text` (lowercased; null: all),
 * newest fetch first, the first `$to` of them; and how many match.
 */
export const SEARCH_RESOURCES = `
MATCH (n:Resource)
WHERE n.address IS NOT NULL AND ($text IS NULL OR toLower(n.address) CONTAINS $text
  OR toLower(coalesce(n.title, '')) CONTAINS $text)
RETURN n ORDER BY n.fetched_at DESC, n.address LIMIT $to`;
export const COUNT_RESOURCES = `
MATCH (n:Resource)
WHERE n.address IS NOT NULL AND ($text IS NULL OR toLower(n.address) CONTAINS $text
  OR toLower(coalesce(n.title, '')) CONTAINS $text)
RETURN count(n) AS n`;

/** Listings whose key holds `$text` (null: all), as {@link SEARCH_RESOURCES}. */
export const SEARCH_LISTINGS = `
MATCH (l:Listing)
WHERE $text IS NULL OR toLower(l.key) CONTAINS $text
RETURN l ORDER BY l.fetched_at DESC, l.key LIMIT $to`;
export const COUNT_LISTINGS = `
MATCH (l:Listing)
WHERE $text IS NULL OR toLower(l.key) CONTAINS $text
RETURN count(l) AS n`;

/**
 * What changes when what a user sees changes: how many Resources and
 * Listings there are with the newest fetch among them, and the user's
 * Touches counted with their newest record and settlement.
 */
export const CHANGE_MARK = [
  `MATCH (n:Resource) RETURN count(n) AS n, max(n.fetched_at) AS newest`,
  `MATCH (l:Listing) RETURN count(l) AS n, max(l.fetched_at) AS newest`,
  `MATCH (t:Touch) WHERE t.user_id = $user
   RETURN count(t) AS n, max(t.recorded_at) AS newest, max(t.settled_at) AS settled`,
];
