/**
 * The graph store's model, without a connection: which server dialect is
 * talking, the schema (uniqueness and indexes) in each dialect's DDL, and how
 * rgraph's records become node properties and back. Pure: no I/O.
 *
 * Graph model (labels and relationships as in the Context Graph family):
 * `(:Session {session_id})<-[:IN_SESSION]-(:Touch)-[:TOUCHED]->(:Resource|:Listing)`,
 * `(:Resource:Repository)-[:HAS_ISSUE|HAS_PULL_REQUEST]->(:Resource:Issue|:Resource:PullRequest)-[:HAS_COMMENT]->(:Comment)`,
 * `(:Listing)-[:LISTS_FROM]->(:Repository)`, `(:Listing)-[:HAS_MEMBER {position}]->(:Issue|:PullRequest)`,
 * `(:Resource)-[:REFERENCES]->(:Resource)`, `(:PullRequest)-[:CLOSES]->(:Issue)`,
 * `(:Touch)-[:CAUSED_BY]->(:Action {tool_use_id})`, `(:Touch)-[:BY_AGENT]->(:Agent {agent_id})`.
 * Two bookkeeping labels of rgraph's own: `(:Alias {key})-[:ALIAS_OF]->(:Resource)`
 * (old addresses of renamed or transferred Resources) and
 * `(:Resource)-[:WAITS_FOR {kind, direction}]->(:PendingRef {key})` (edges to
 * Resources not stored yet, found by key when they arrive). REFERENCES and
 * CLOSES carry `declared_by`, the node id of the Resource whose fields declare
 * them (a mentioned item declares who mentions it; a pull request what it
 * closes), so its refetch redraws them. Plus one `(:RgraphLock)` node
 * that serialises writers (and one recording which schema was applied).
 *
 * @example
 * ```ts
 * import { ddl, dialectOf } from "./model.ts";
 * const dialect = dialectOf("Neo4j/5.26.18", "Neo4j Kernel"); // "neo4j"
 * ddl(dialect)[0]; // "CREATE CONSTRAINT rgraph_resource_node_id IF NOT EXISTS FOR (n:Resource) REQUIRE n.node_id IS UNIQUE"
 * ```
 * @module
 */

import { createHash } from "node:crypto";
import { repositoryAddress } from "../../address/mod.ts";
import type { Comment, Listing, NewTouch, Resource, Touch } from "../../types.ts";

/** Which graph server answers: their DDL differs, their data Cypher is kept common. */
export type Dialect = "memgraph" | "neo4j";

/**
 * The dialect from the Bolt server agent and, when the agent does not say,
 * the name `CALL dbms.components()` gave (`null` when that call failed, which
 * only Neo4j supports). Memgraph can be told to announce itself as Neo4j.
 */
export function dialectOf(agent: string, component: string | null): Dialect {
  if (/memgraph/i.test(agent)) return "memgraph";
  return component !== null && /neo4j/i.test(component) ? "neo4j" : "memgraph";
}

/** Properties that must be unique (each also indexed). */
export const UNIQUE: readonly (readonly [label: string, property: string])[] = [
  ["Resource", "node_id"],
  ["Comment", "node_id"],
  ["Listing", "key"],
  ["Touch", "id"],
  ["Alias", "key"],
  ["PendingRef", "key"],
  ["RgraphLock", "name"],
];

/**
 * Indexed lookups: addresses, Touch status and owner, and the join keys. The
 * `Session`, `Action` and `Agent` nodes belong to other components, so they get
 * indexes, never constraints of rgraph's.
 */
export const INDEXED: readonly (readonly [label: string, property: string])[] = [
  ["Resource", "address"],
  ["Resource", "repo_address"],
  ["Listing", "repo_address"],
  ["Touch", "status"],
  ["Touch", "user_id"],
  ["Session", "session_id"],
  ["Action", "tool_use_id"],
  ["Agent", "agent_id"],
];

/** The schema statements for one dialect, each run on its own (neither server mixes DDL with data). */
export function ddl(dialect: Dialect): string[] {
  const name = (l: string, p: string) => `rgraph_${l.toLowerCase()}_${p}`;
  if (dialect === "neo4j") {
    return [
      ...UNIQUE.map(([l, p]) =>
        `CREATE CONSTRAINT ${name(l, p)} IF NOT EXISTS FOR (n:${l}) REQUIRE n.${p} IS UNIQUE`
      ),
      ...INDEXED.map(([l, p]) =>
        `CREATE INDEX ${name(l, p)} IF NOT EXISTS FOR (n:${l}) ON (n.${p})`
      ),
    ];
  }
  // Memgraph's uniqueness constraints are not indexes: lookups need both.
  return [
    ...UNIQUE.map(([l, p]) => `CREATE CONSTRAINT ON (n:${l}) ASSERT n.${p} IS UNIQUE`),
    ...[...UNIQUE, ...INDEXED].map(([l, p]) => `CREATE INDEX ON :${l}(${p})`),
  ];
}

/** A short fingerprint of a schema, recorded once it is applied, so a changed schema is applied again. */
export function schemaTag(statements: string[]): string {
  return createHash("sha256").update(statements.join("\n")).digest("hex").slice(0, 16);
}

/** True for the error a server gives when a schema item it is asked to create exists already. */
export function isAlreadyExists(message: string): boolean {
  return /already exists/i.test(message);
}

/**
 * A short reason for a failed connection, from the driver's message (which
 * runs to several sentences of advice about encryption settings).
 *
 * @example
 * ```ts
 * unreachableReason("Failed to connect to server. Please ensure … Caused by: connect ECONNREFUSED 127.0.0.1:7687");
 * // "connection refused"
 * ```
 */
export function unreachableReason(message: string): string {
  const known: [RegExp, string][] = [
    [/ECONNREFUSED/, "connection refused"],
    [/ETIMEDOUT|timed out|timeout/i, "connection timed out"],
    [/ENOTFOUND|EAI_AGAIN/, "host not found"],
    [/ECONNRESET|closed by the server/i, "connection reset"],
    [/unauthori[sz]ed|authentication/i, "authentication failed: check [store] user and password"],
  ];
  for (const [pattern, reason] of known) if (pattern.test(message)) return reason;
  const first = message.split("\n")[0].split(". Please ensure")[0].trim();
  return first.length > 160 ? `${first.slice(0, 159)}…` : first;
}

// --- Records as properties ------------------------------------------------------

type Props = Record<string, unknown>;

/**
 * Splits a record into storable properties and the names of its null fields
 * (a graph property cannot hold null), so decoding gives back the same shape.
 */
function toProps(record: object, skip: ReadonlySet<string>): Props {
  const props: Props = {};
  const nulls: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    if (skip.has(k) || v === undefined) continue;
    if (v === null) nulls.push(k);
    else props[k] = v;
  }
  props.null_keys = nulls;
  return props;
}

function fromProps(props: Props, internal: ReadonlySet<string>): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) if (!internal.has(k)) out[k] = v;
  for (const k of (props.null_keys as string[] | undefined) ?? []) out[k] = null;
  return out;
}

const THREADS = new Set(["comments", "review_comments"]);
const RESOURCE_INTERNAL = new Set(["null_keys", "repo_address"]);
const COMMENT_INTERNAL = new Set(["null_keys", "review", "position"]);

/** A Resource's node properties (comments are nodes of their own). */
export function resourceProps(r: Resource): Props {
  const props = toProps(r, THREADS);
  props.repo_address = repositoryAddress(r.owner, r.repo).key;
  return props;
}

/** A comment's node properties; `review` marks a pull request's review comments. */
export function commentProps(c: Comment, review: boolean, position: number): Props {
  return { ...toProps(c, new Set()), review, position };
}

/** A Resource from its node's properties and its comment nodes' properties. */
export function decodeResource(props: Props, comments: Props[]): Resource {
  const out = fromProps(props, RESOURCE_INTERNAL) as unknown as Resource;
  if (out.kind === "repository") return out;
  const thread = (review: boolean) =>
    comments
      .filter((c) => c.review === review)
      .sort((a, b) => (a.position as number) - (b.position as number))
      .map((c) => fromProps(c, COMMENT_INTERNAL) as unknown as Comment);
  out.comments = thread(false);
  if (out.kind === "pull_request") out.review_comments = thread(true);
  return out;
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

/** A Touch from its node's properties. */
export function decodeTouch(props: Props): Touch {
  const out: Props = { id: props.id };
  for (const f of TOUCH_FIELDS) out[f] = props[touchKey(f)] ?? null;
  // Touches recorded before failures were counted have none.
  out.failures = Number(out.failures ?? 0);
  return out as unknown as Touch;
}

/** A Listing's node properties; its filters are kept as JSON (their keys vary). */
export function listingProps(l: Listing, memberCount: number, complete: boolean): Props {
  const props: Props = {
    key: l.key,
    owner: l.owner.toLowerCase(),
    repo: l.repo.toLowerCase(),
    listing: l.listing,
    filters: JSON.stringify(l.filters),
    total_count: l.total_count,
    member_count: memberCount,
    fully_expanded: complete,
    fetched_at: l.fetched_at,
    repo_address: repositoryAddress(l.owner, l.repo).key,
  };
  if (l.limit !== null) props.limit = l.limit;
  return props;
}

/** A Listing from its node's properties. */
export function decodeListing(props: Props): Listing {
  return {
    key: props.key as string,
    owner: props.owner as string,
    repo: props.repo as string,
    listing: props.listing as Listing["listing"],
    filters: JSON.parse(props.filters as string),
    limit: (props.limit as number | undefined) ?? null,
    total_count: props.total_count as number,
    member_count: props.member_count as number,
    fully_expanded: props.fully_expanded === true,
    fetched_at: props.fetched_at as string,
  };
}
