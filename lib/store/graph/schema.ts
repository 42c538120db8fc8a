/**
 * Schema setup: rgraph's constraints and indexes, and the upgrades of data
 * earlier versions wrote, applied once per server, schema and server
 * version, one process at a time.
 *
 * Every command opens the store, so the common case is one read: the
 * schema record (`(:RgraphLock {name: 'schema'})`) lists the setups applied
 * (`tags`), and this one is among them. Otherwise:
 * 1. the lock node's own uniqueness rule is created (so the claim below
 *    cannot be duplicated by two processes creating it at once);
 * 2. the setup is claimed with a lease on the record (a short transaction:
 *    DDL runs outside transactions, and on Memgraph it waits for every open
 *    one, so a claim held open would block its own holder); a process that
 *    finds a live claim of another waits for it to finish;
 * 3. each statement runs on its own, retried while the server is busy
 *    (Memgraph's storage-access timeouts); "already exists" counts as done;
 *    a uniqueness rule that stored data refuses (duplicates, or another
 *    writer's plain index on the same key) becomes a plain index, and the
 *    record says so (`degraded`, shown by `rgraph doctor`);
 * 4. the upgrades not yet run on this server run, each in a transaction;
 * 5. the record is written and the claim given up.
 *
 * @example
 * ```ts
 * import { ensureSchema } from "./schema.ts";
 * const state = await ensureSchema(session, server);
 * state.degraded; // [] when every rule is in force
 * ```
 * @module
 */

import { AVOIDED, WHEN } from "./cypher.ts";
import { MAKE_WRITE_LOCK } from "./changes.ts";
import { obsoleteSchema, schema, type SchemaRule, schemaStatements, schemaTag } from "./model.ts";
import { isAlreadyExists, isRefusedByData, retrying, type RetryPolicy } from "./retry.ts";
import { type ServerIdentity, serverName } from "./server.ts";
import { SEARCH_UPGRADE, searchSchema, searchUnavailableNote } from "./search.ts";

type Rows = Record<string, unknown>[];

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
  // A Listing asked with free text is its asker's own (issue 26): earlier versions shared it, and
  // its key held the words and its fetched_at when. It goes; each asker's machine keeps its own.
  `MATCH (l:Listing)
   WHERE l.key CONTAINS '?q=' OR l.key CONTAINS '&q='
   DETACH DELETE l`,
  // Search: Resources stored before it get the text the index reads (see search.ts).
  SEARCH_UPGRADE,
] as const;

/** The schema record: which setups were applied, and how it went. */
const SCHEMA_STATE = `MATCH (s:RgraphLock {name: 'schema'}) RETURN s`;

/**
 * Claims the schema setup for `$me` until `$until` unless it is applied
 * already (`done`) or another process holds a live claim (`busy`). The
 * claim is a lease, not a held transaction: DDL must run on its own, and
 * Memgraph's DDL waits for every open transaction, its caller's included.
 */
const SCHEMA_CLAIM = `
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
const SCHEMA_RECORD = `
MATCH (s:RgraphLock {name: 'schema'})
SET s.tag = $tag, s.tags = $tags, s.model = $model, s.server = $server,
    s.applied_at = $at, s.degraded = $degraded
REMOVE s.claim_by, s.claim_until`;

/** What schema setup needs of a connection. */
export interface SchemaSession {
  /** One statement on its own (auto-commit; DDL must be). */
  run(query: string, params?: Record<string, unknown>): Promise<Rows>;
  /** One statement in a write transaction, retried as every write is. */
  write(query: string, params?: Record<string, unknown>): Promise<Rows>;
}

/** What the schema record says. */
export interface SchemaState {
  /** Whether this rgraph's setup is among those applied. */
  current: boolean;
  tag: string;
  /** When and on which server the last setup ran. */
  applied_at: string | null;
  server: string | null;
  /** Uniqueness rules in force only as plain indexes, and why. */
  degraded: string[];
}

/** How long a claim lasts, and how long a process waits for another's. */
const CLAIM_MS = 30_000;
const WAIT_MS = 60_000;
const POLL_MS = 150;
/** How many applied setups the record remembers (teammates may run other rgraph versions). */
const KEPT_TAGS = 8;

/** The setup for this server: its statements and tag. */
function plan(server: ServerIdentity): { tag: string; rules: SchemaRule[] } {
  const rules = schema();
  const statements = rules.flatMap((r) => schemaStatements(server.kind, r));
  const tag = schemaTag([
    ...obsoleteSchema(server.kind),
    ...statements,
    ...searchSchema(server.kind),
    `upgrades ${UPGRADES.length}`,
    `${server.kind} ${server.version ?? ""}`,
  ]);
  return { tag, rules };
}

function stateOf(props: Record<string, unknown> | undefined, tag: string): SchemaState {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const tags = Array.isArray(props?.tags) ? props.tags : [];
  const degraded = Array.isArray(props?.degraded)
    ? props.degraded.filter((d): d is string => typeof d === "string")
    : [];
  return {
    current: tags.includes(tag),
    tag,
    applied_at: text(props?.applied_at),
    server: text(props?.server),
    degraded,
  };
}

/** Reads the schema record (with `run`, one statement on its own) without changing anything. */
export async function schemaState(
  run: SchemaSession["run"],
  server: ServerIdentity,
): Promise<SchemaState> {
  const rows = await run(SCHEMA_STATE);
  return stateOf(
    (rows[0]?.s as { properties?: Record<string, unknown> })?.properties,
    plan(server).tag,
  );
}

/** Runs one DDL statement, retried while the server is busy; "already exists" is success. */
async function ddl(s: SchemaSession, statement: string, policy: Partial<RetryPolicy>) {
  try {
    await retrying(() => s.run(statement), policy);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}

/** Creates one rule; a uniqueness rule stored data refuses becomes an index (returned: why). */
async function applyRule(
  s: SchemaSession,
  server: ServerIdentity,
  rule: SchemaRule,
  policy: Partial<RetryPolicy>,
): Promise<string | null> {
  try {
    for (const statement of schemaStatements(server.kind, rule)) await ddl(s, statement, policy);
    return null;
  } catch (e) {
    if (!rule.unique || !isRefusedByData(e)) throw e;
    for (const statement of schemaStatements(server.kind, rule, true)) {
      await ddl(s, statement, policy);
    }
    // Neo4j names the clashing nodes on its second line.
    const why = String((e as Error)?.message ?? e).replace(/\s+/g, " ").slice(0, 240);
    return `${rule.label}.${rule.property} is indexed but not unique: ${why}`;
  }
}

/**
 * Makes sure rgraph's schema is applied on this server (see the module
 * comment), returning the record's state.
 */
export async function ensureSchema(
  s: SchemaSession,
  server: ServerIdentity,
  policy: Partial<RetryPolicy> = {},
): Promise<SchemaState> {
  const { tag, rules } = plan(server);
  const first = await schemaState((q) => s.run(q), server);
  if (first.current) return first;

  const [lockRule, ...rest] = rules;
  const degraded: string[] = [];
  const lockProblem = await applyRule(s, server, lockRule, policy);
  if (lockProblem) degraded.push(lockProblem);

  const me = crypto.randomUUID();
  const sleep = policy.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const now = policy.now ?? Date.now;
  const giveUp = now() + WAIT_MS;
  let claim: Record<string, unknown>;
  for (;;) {
    const t = now();
    [claim] = await s.write(SCHEMA_CLAIM, { tag, me, now: t, until: t + CLAIM_MS });
    if (claim.done) return await schemaState((q) => s.run(q), server);
    if (!claim.busy) break;
    if (now() > giveUp) {
      throw new Error("another process has been setting up the graph store's schema for a minute");
    }
    await sleep(POLL_MS);
  }

  for (const statement of obsoleteSchema(server.kind)) await ddl(s, statement, policy);
  for (const rule of rest) {
    const problem = await applyRule(s, server, rule, policy);
    if (problem) degraded.push(problem);
  }
  // Search: a server without text search (Memgraph before 3.6 without the flag) keeps the rest.
  for (const statement of searchSchema(server.kind)) {
    try {
      await ddl(s, statement, policy);
    } catch (e) {
      if (server.kind === "neo4j") throw e;
      degraded.push(searchUnavailableNote(String((e as Error)?.message ?? e)));
    }
  }
  if (server.kind === "neo4j") await s.run("CALL db.awaitIndexes(60)");
  await s.write(MAKE_WRITE_LOCK, { epoch: crypto.randomUUID() });
  const done = Number(claim.model ?? 0);
  for (const upgrade of UPGRADES.slice(Number.isSafeInteger(done) ? done : 0)) {
    await s.write(upgrade);
  }
  const tags = Array.isArray(claim.tags) ? claim.tags.filter((x) => x !== tag) : [];
  await s.write(SCHEMA_RECORD, {
    tag,
    tags: [...tags, tag].slice(-KEPT_TAGS),
    model: UPGRADES.length,
    server: serverName(server),
    at: new Date(now()).toISOString(),
    degraded,
  });
  return {
    current: true,
    tag,
    applied_at: new Date(now()).toISOString(),
    server: serverName(server),
    degraded,
  };
}
