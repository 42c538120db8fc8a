/**
 * Cypher the graph store's concern modules share, in the subset that both
 * Memgraph and Neo4j accept: no subqueries (`CALL {}`), no `EXISTS {}`/`COUNT {}`,
 * no map projections, no dynamic labels, no label expressions in patterns.
 * Conditional writes use `FOREACH (once IN CASE WHEN … THEN [1] ELSE [] END | …)`.
 * Every value is a parameter; batches arrive as lists and are `UNWIND`ed.
 * Each concern's own statements live beside it (`touches.ts`, `leases.ts`,
 * `forget.ts`, `resources_cypher.ts`, `listings.ts`, `counts.ts`,
 * `memory_search.ts`, `changes.ts`, `schema.ts`).
 *
 * `n` found "by key" means by current address, else by an alias:
 * `OPTIONAL MATCH (d:Resource {address: k}) OPTIONAL MATCH (:Alias {key: k})-[:ALIAS_OF]->(a:Resource)`
 * then `coalesce(d, a)`.
 *
 * @example
 * ```ts
 * import { BY_KEY } from "./cypher.ts";
 * const GET = `${BY_KEY("$key")} WITH coalesce(d, al) AS n RETURN n`;
 * ```
 * @module
 */

/** Finds a Resource by address or alias (`k` bound), yielding `n` (possibly null). */
export const BY_KEY = (k: string) =>
  `OPTIONAL MATCH (d:Resource {address: ${k}})
   OPTIONAL MATCH (:Alias {key: ${k}})-[:ALIAS_OF]->(al:Resource)`;

/** Runs a write only when `cond` holds. */
export const WHEN = (cond: string, write: string) =>
  `FOREACH (once IN CASE WHEN ${cond} THEN [1] ELSE [] END | ${write})`;

/**
 * MERGEs `(a)-[K {declared_by}]->(b)` for the edge kind K the expression
 * `kind` names, when `cond` holds (relationship types cannot be parameters).
 * `declared_by` is the node id of the Resource whose fields declare the edge:
 * its refetch redraws the edge, nobody else's does.
 */
export const MERGE_EDGE = (cond: string, kind: string, a: string, b: string, by: string) =>
  (["REFERENCES", "CLOSES"] as const)
    .map((k) =>
      WHEN(`${cond} AND ${kind} = '${k}'`, `MERGE (${a})-[:${k} {declared_by: ${by}}]->(${b})`)
    )
    .join("\n");

/**
 * Draws an edge the Resource `n` declares to `other`, in the direction the
 * expression `dir` names: `'out'` = (n)->(other), `'in'` = (other)->(n).
 */
export const DRAW = (
  cond: string,
  kind: string,
  dir: string,
  n: string,
  other: string,
  by: string,
) =>
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
export const COUNT_TOUCH = (t: string, d: 1 | -1) => `
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
export const AVOIDED = `
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

/**
 * Draws a Touch's (`t`) joins to nodes that exist: the Resource or Listing it
 * names (`TOUCHED`), and the soft joins to the actions component's tool call
 * and agent (matched, never created).
 */
export const JOIN_TOUCH = `
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
