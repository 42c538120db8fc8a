/**
 * Schema setup's protocol on a scripted server: once per setup, behind a
 * claim, DDL retried while Memgraph is busy, a refused uniqueness rule
 * turned into an index, the earlier versions' upgrades run once. (The real
 * servers run it in tests/store_graph_test.ts.)
 */

import assert from "node:assert/strict";
import neo4j from "neo4j-driver";
import { ensureSchema, type SchemaSession } from "./schema.ts";
import { UPGRADES } from "./schema.ts";
import type { ServerIdentity } from "./server.ts";

const MEMGRAPH: ServerIdentity = {
  kind: "memgraph",
  version: "2.18.1",
  edition: null,
  unknown: null,
  olderThan: null,
};
const NEO4J: ServerIdentity = { ...MEMGRAPH, kind: "neo4j", version: "5.26.18" };

type Rows = Record<string, unknown>[];

/** A server that keeps the schema record and logs what it is sent. */
function scripted(
  options: { failOnce?: Map<string, Error>; claims?: Rows[] } = {},
) {
  let record: Record<string, unknown> | null = null;
  const sent: string[] = [];
  const claims = options.claims ?? [];
  const session: SchemaSession = {
    run(query) {
      sent.push(query);
      const failure = options.failOnce?.get(query);
      if (failure) {
        options.failOnce!.delete(query);
        return Promise.reject(failure);
      }
      if (query.includes("RgraphLock {name: 'schema'}) RETURN s")) {
        return Promise.resolve(record ? [{ s: { properties: record } }] : []);
      }
      return Promise.resolve([]);
    },
    write(query, params = {}) {
      sent.push(query);
      if (query.includes("MERGE (s:RgraphLock {name: 'schema'})")) {
        const next = claims.shift();
        if (next) return Promise.resolve(next);
        return Promise.resolve([
          { done: false, busy: false, model: record?.model ?? 0, tags: record?.tags ?? [] },
        ]);
      }
      if (query.includes("SET s.tag = $tag")) record = { ...params, applied_at: params.at };
      return Promise.resolve([]);
    },
  };
  return { session, sent, record: () => record };
}

const fast = { sleep: () => Promise.resolve(), firstDelayMs: 1 };

Deno.test("schema setup runs once: the next connection reads the record and sends nothing else", async () => {
  const server = scripted();
  const first = await ensureSchema(server.session, MEMGRAPH, fast);
  assert.equal(first.current, true);
  assert.deepEqual(first.degraded, []);
  assert.ok(server.sent.includes("CREATE CONSTRAINT ON (n:Session) ASSERT n.session_id IS UNIQUE"));
  // The lock node's rule before the claim, the claim before the rest.
  const claim = server.sent.findIndex((q) => q.includes("MERGE (s:RgraphLock {name: 'schema'})"));
  assert.equal(
    server.sent.indexOf("CREATE CONSTRAINT ON (n:RgraphLock) ASSERT n.name IS UNIQUE") < claim,
    true,
  );
  assert.ok(server.sent.findIndex((q) => q.startsWith("CREATE INDEX ON :Touch")) > claim);
  for (const u of UPGRADES) assert.ok(server.sent.includes(u), "every upgrade, the first time");
  assert.equal(server.record()?.model, UPGRADES.length);
  assert.equal(server.record()?.server, "Memgraph 2.18.1");

  const before = server.sent.length;
  const again = await ensureSchema(server.session, MEMGRAPH, fast);
  assert.equal(again.current, true);
  assert.equal(server.sent.length, before + 1, "one read");
  // Another server version is another setup (its DDL may differ).
  await ensureSchema(server.session, { ...MEMGRAPH, version: "3.4.0" }, fast);
  assert.ok(server.sent.length > before + 2);
  assert.equal((server.record()?.tags as string[]).length, 2);
});

Deno.test("a process that finds another's live claim waits for it, then uses what it applied", async () => {
  const server = scripted({
    claims: [
      [{ done: false, busy: true, model: 0, tags: [] }],
      [{ done: false, busy: true, model: 0, tags: [] }],
      [{ done: true, busy: false, model: UPGRADES.length, tags: [] }],
    ],
  });
  let slept = 0;
  await ensureSchema(server.session, NEO4J, {
    ...fast,
    sleep: () => {
      slept++;
      return Promise.resolve();
    },
  });
  assert.equal(slept, 2);
  assert.ok(!server.sent.some((q) => q.includes("REQUIRE n.node_id")), "no DDL of its own");
});

Deno.test("DDL is retried while Memgraph cannot get storage access; a refused rule becomes an index", async () => {
  const busy = new neo4j.Neo4jError(
    "Cannot get unique access to the storage. Try stopping other queries that are running in parallel.",
    "Memgraph.TransientError.MemgraphError.MemgraphError",
    "50N42",
    "",
  );
  const duplicates = new neo4j.Neo4jError(
    "Unable to create unique constraint :Session(session_id), because an existing node violates it.",
    "Memgraph.ClientError.MemgraphError.MemgraphError",
    "50N42",
    "",
  );
  const server = scripted({
    failOnce: new Map<string, Error>([
      ["CREATE INDEX ON :Touch(status)", busy],
      ["CREATE CONSTRAINT ON (n:Session) ASSERT n.session_id IS UNIQUE", duplicates],
    ]),
  });
  const state = await ensureSchema(server.session, MEMGRAPH, fast);
  assert.equal(server.sent.filter((q) => q === "CREATE INDEX ON :Touch(status)").length, 2);
  assert.deepEqual(state.degraded, [
    "Session.session_id is indexed but not unique: Unable to create unique constraint :Session(session_id), because an existing node violates it.",
  ]);
  assert.ok(server.sent.includes("CREATE INDEX ON :Session(session_id)"));
  assert.deepEqual(server.record()?.degraded, state.degraded);
});

Deno.test("the upgrades already run on a server are not run again", async () => {
  const server = scripted({
    claims: [[{ done: false, busy: false, model: UPGRADES.length, tags: ["older"] }]],
  });
  await ensureSchema(server.session, NEO4J, fast);
  for (const u of UPGRADES) assert.ok(!server.sent.includes(u));
  assert.deepEqual((server.record()?.tags as string[])[0], "older");
  // Neo4j: the earlier versions' Session index goes before the family's constraint is made.
  const drop = server.sent.indexOf("DROP INDEX rgraph_session_session_id IF EXISTS");
  const make = server.sent.findIndex((q) => q.includes("rgraph_session_session_id_unique"));
  assert.ok(drop >= 0 && drop < make);
});
