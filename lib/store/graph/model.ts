/**
 * The graph store's model, without a connection: the schema (uniqueness and
 * indexes) in each dialect's DDL, and how rgraph's records become node
 * properties. Reading nodes back, whoever wrote them, is `decode.ts`. Pure:
 * no I/O.
 *
 * Graph model (labels and relationships as in the Context Graph family):
 * `(:Session {session_id})<-[:IN_SESSION]-(:Touch)-[:TOUCHED]->(:Resource|:Listing)`,
 * `(:Resource:Repository)-[:HAS_ISSUE|HAS_PULL_REQUEST]->(:Resource:Issue|:Resource:PullRequest)-[:HAS_COMMENT]->(:Comment)`,
 * `(:Listing)-[:LISTS_FROM]->(:Repository)`, `(:Listing)-[:HAS_MEMBER {position}]->(:Issue|:PullRequest)`,
 * `(:Resource)-[:REFERENCES]->(:Resource)`, `(:PullRequest)-[:CLOSES]->(:Issue)`,
 * `(:Touch)-[:CAUSED_BY]->(:Action {tool_use_id})`, `(:Touch)-[:BY_AGENT]->(:Agent {agent_id})`,
 * and the family's `(old:Resource)-[:MOVED_TO]->(new:Resource)` for a node
 * another writer stored whose address now names another node id.
 * Two bookkeeping labels of rgraph's own: `(:Alias {key})-[:ALIAS_OF]->(:Resource)`
 * (old addresses of renamed or transferred Resources) and
 * `(:Resource)-[:WAITS_FOR {kind, direction}]->(:PendingRef {key})` (edges to
 * Resources not stored yet, found by key when they arrive). REFERENCES and
 * CLOSES that rgraph draws carry `declared_by`, the node id of the Resource
 * whose fields declare them (a mentioned item declares who mentions it; a pull
 * request what it closes), so its refetch redraws them; edges without it are
 * another writer's and are left alone. Plus `(:RgraphLock)` nodes that
 * serialise writers and record which schema was applied.
 *
 * Other writers of the family share these labels. rgraph writes a node's
 * properties with `SET +=`, every property it owns included (a null removes
 * one), so what another writer keeps on the same node survives a refetch.
 *
 * @example
 * ```ts
 * import { schema, schemaStatements } from "./model.ts";
 * schemaStatements("neo4j", schema()[0]);
 * // ["CREATE CONSTRAINT rgraph_resource_node_id IF NOT EXISTS FOR (n:Resource) REQUIRE n.node_id IS UNIQUE"]
 * ```
 * @module
 */

import { createHash } from "node:crypto";
import { repositoryAddress } from "../../address/mod.ts";
import type { Comment, Listing, NewTouch, Resource, Touch } from "../../types.ts";

/** Which graph server answers: their DDL differs, their data Cypher is kept common. */
export type Dialect = "memgraph" | "neo4j";

/** One schema rule: a property rgraph finds nodes by, unique or only indexed. */
export interface SchemaRule {
  label: string;
  property: string;
  unique: boolean;
}

/** Properties that must be unique (each also indexed). */
export const UNIQUE: readonly (readonly [label: string, property: string])[] = [
  ["RgraphLock", "name"],
  ["Resource", "node_id"],
  ["Comment", "node_id"],
  ["Listing", "key"],
  ["Touch", "id"],
  ["Alias", "key"],
  ["PendingRef", "key"],
  // The family defines a Session by its id (its other writers create this
  // constraint too): with it, concurrent MERGEs of one Session cannot duplicate it.
  ["Session", "session_id"],
  // One running count per user and (status, outcome, reason): see cypher.ts's COUNT_TOUCH.
  ["RgraphTouchCount", "key"],
];

/**
 * Indexed lookups: addresses, Touch status and owner, and the join keys. The
 * `Action` and `Agent` nodes belong to other components, so they get
 * indexes, never constraints of rgraph's.
 */
export const INDEXED: readonly (readonly [label: string, property: string])[] = [
  ["Resource", "address"],
  ["Resource", "repo_address"],
  ["Listing", "repo_address"],
  // The change stamp a local index syncs by (see `changes.ts`).
  ["Resource", "rgraph_stamp"],
  // What a search's state filter counts in scope by (see search.ts).
  ["Resource", "state"],
  ["Listing", "rgraph_stamp"],
  ["Touch", "status"],
  ["Touch", "user_id"],
  ["Action", "tool_use_id"],
  ["Agent", "agent_id"],
  ["RgraphTouchCount", "user_id"],
];

/** Every schema rule, the lock node's first: schema setup takes that lock before the rest. */
export function schema(): SchemaRule[] {
  return [
    ...UNIQUE.map(([label, property]) => ({ label, property, unique: true })),
    ...INDEXED.map(([label, property]) => ({ label, property, unique: false })),
  ];
}

/**
 * Neo4j's name for a rule: the ones of earlier versions, so a server set up
 * by them is not given a second copy. The Session rule was a plain index
 * under the plain name (dropped before, see {@link obsoleteSchema}), and a
 * unique rule that existing data refuses falls back to an index of its own name.
 */
function ruleName(r: SchemaRule, index: boolean): string {
  const base = `rgraph_${r.label.toLowerCase()}_${r.property}`;
  if (r.unique && index) return `${base}_index`;
  return r.unique && r.label === "Session" ? `${base}_unique` : base;
}

/**
 * The statements that create one rule (each runs on its own: neither server
 * mixes DDL with data); `index` asks for a plain index even for a unique
 * rule (what is left when existing data refuses the constraint).
 */
export function schemaStatements(dialect: Dialect, r: SchemaRule, index = false): string[] {
  if (dialect === "neo4j") {
    // Neo4j backs a constraint with an index of its own and refuses a second one on the same key.
    return r.unique && !index
      ? [
        `CREATE CONSTRAINT ${
          ruleName(r, false)
        } IF NOT EXISTS FOR (n:${r.label}) REQUIRE n.${r.property} IS UNIQUE`,
      ]
      : [
        `CREATE INDEX ${ruleName(r, index)} IF NOT EXISTS FOR (n:${r.label}) ON (n.${r.property})`,
      ];
  }
  // Memgraph's uniqueness constraints are not indexes: lookups need both.
  return [
    ...(r.unique && !index
      ? [`CREATE CONSTRAINT ON (n:${r.label}) ASSERT n.${r.property} IS UNIQUE`]
      : []),
    `CREATE INDEX ON :${r.label}(${r.property})`,
  ];
}

/**
 * Schema an earlier rgraph created that now stands in the way: its plain
 * index on `:Session(session_id)` keeps Neo4j from creating the family's
 * uniqueness constraint there. Dropped (by name, so only rgraph's own)
 * before the rules are created.
 */
export function obsoleteSchema(dialect: Dialect): string[] {
  return dialect === "neo4j" ? ["DROP INDEX rgraph_session_session_id IF EXISTS"] : [];
}

/** A short fingerprint of what a schema setup applies, recorded once it is applied. */
export function schemaTag(parts: string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 16);
}

// --- Records as properties ------------------------------------------------------

type Props = Record<string, unknown>;

/** The properties rgraph writes on a Resource of each kind (besides the bookkeeping ones). */
const COMMON = [
  "kind",
  "node_id",
  "address",
  "owner",
  "repo",
  "url",
  "fetched_at",
  "updated_at",
  "etag",
] as const;
const ITEM = [
  ...COMMON,
  "number",
  "title",
  "body",
  "state",
  "author",
  "labels",
  "assignees",
  "milestone",
  "created_at",
  "closed_at",
  "comment_count",
  "referenced_by",
] as const;
const RESOURCE_KEYS = {
  repository: [...COMMON, "description", "readme", "readme_path", "stars", "pushed_at"],
  issue: ITEM,
  pull_request: [...ITEM, "merged", "base_ref", "files", "closes"],
} as const;

/**
 * Every property rgraph has ever written on a Resource node (`references`
 * and `null_keys` by earlier versions, `rgraph_stamp` beside the record): a node holding nothing else is
 * rgraph's alone, so folding it into another one loses nobody's data.
 */
export const OWNED_RESOURCE_KEYS: readonly string[] = [
  ...new Set([
    ...Object.values(RESOURCE_KEYS).flat(),
    "repo_address",
    "null_keys",
    "references",
    "rgraph_stamp",
    // The text the search index reads beside the other properties (see search.ts).
    "rgraph_search",
  ]),
];

/**
 * Splits a record into properties for `SET +=`: its values, a null for each
 * of `owned` it has none for (which removes what an earlier version stored),
 * and `null_keys` naming its null fields, which earlier rgraph versions read
 * back as nulls.
 */
function toProps(record: object, owned: readonly string[], skip: ReadonlySet<string>): Props {
  const props: Props = {};
  const nulls: string[] = [];
  for (const k of owned) props[k] = null;
  for (const [k, v] of Object.entries(record)) {
    if (skip.has(k) || v === undefined) continue;
    if (v === null) nulls.push(k);
    props[k] = v;
  }
  props.null_keys = nulls;
  return props;
}

const THREADS = new Set(["comments", "review_comments"]);
const COMMENT_KEYS = ["node_id", "author", "created_at", "updated_at", "body", "path"] as const;

/** A Resource's node properties (comments are nodes of their own). */
export function resourceProps(r: Resource): Props {
  const props = toProps(r, RESOURCE_KEYS[r.kind], THREADS);
  props.repo_address = repositoryAddress(r.owner, r.repo).key;
  // Written by earlier versions; never again.
  props.references = null;
  return props;
}

/** A comment's node properties; `review` marks a pull request's review comments. */
export function commentProps(c: Comment, review: boolean, position: number): Props {
  return { ...toProps(c, COMMENT_KEYS, new Set()), review, position };
}

/**
 * A Touch's id: the same for the same user and event wherever it is written
 * (hook outbox, migrate, a retry), so writing it twice stores it once.
 */
export function touchId(userId: string, dedupKey: string): string {
  return `t_${
    createHash("sha256").update(`${userId}\u0000${dedupKey}`).digest("hex").slice(0, 32)
  }`;
}

/** The Touch fields as stored; absent properties read back as null. */
const TOUCH_FIELDS = [
  "user_id",
  "session_id",
  "provenance",
  "address",
  "kind",
  "limit",
  "tool_name",
  "tool_use_id",
  "agent_id",
  "harness",
  "recorded_at",
  "dedup_key",
  "status",
  "outcome",
  "target",
  "reason",
  "detail",
  "failures",
  "settled_at",
] as const;

/** `limit` is a Cypher keyword: stored under a plain name so every dialect can query it. */
const touchKey = (f: (typeof TOUCH_FIELDS)[number]) => f === "limit" ? "asked_limit" : f;

/** A Touch's node properties (nulls dropped); `seq` orders Touches recorded in the same instant. */
export function touchProps(t: NewTouch & Partial<Touch>, seq: number): Props {
  const props: Props = { id: touchId(t.user_id, t.dedup_key), seq };
  for (const f of TOUCH_FIELDS) {
    const v = t[f];
    if (v !== null && v !== undefined) props[touchKey(f)] = v;
  }
  // A Cache Read is settled the moment it is answered.
  if (t.status === "served" && props.settled_at === undefined) props.settled_at = t.recorded_at;
  return props;
}

/**
 * A Listing's node properties for `SET +=` (a null `limit` removes an old
 * one); its filters are also kept as JSON for earlier versions, which read
 * them from there.
 */
export function listingProps(l: Listing, memberCount: number, complete: boolean): Props {
  return {
    key: l.key,
    owner: l.owner.toLowerCase(),
    repo: l.repo.toLowerCase(),
    listing: l.listing,
    filters: JSON.stringify(l.filters),
    limit: l.limit,
    total_count: l.total_count,
    member_count: memberCount,
    fully_expanded: complete,
    fetched_at: l.fetched_at,
    repo_address: repositoryAddress(l.owner, l.repo).key,
  };
}
