/**
 * Telling the servers and their versions apart, with what each server
 * answers (Memgraph's from its source: `SHOW VERSION` returns one column
 * `version`, `gflags::VersionString()`; no `dbms.components()`).
 */

import assert from "node:assert/strict";
import neo4j from "neo4j-driver";
import { identify, isOlder, parseVersion, refusal, serverName } from "./server.ts";
import { MEMGRAPH_CLIENT_ERROR } from "./retry.ts";

const refuse = (message: string) => () =>
  Promise.reject(new neo4j.Neo4jError(message, MEMGRAPH_CLIENT_ERROR, "50N42", message));

/** A server that answers the given statements (by their first word after CALL/SHOW). */
function server(answers: Record<string, () => Promise<Record<string, unknown>[]>>) {
  const asked: string[] = [];
  return {
    asked,
    run: (q: string) => {
      const key = Object.keys(answers).find((k) => q.includes(k));
      asked.push(key ?? q);
      return key ? answers[key]() : Promise.reject(new Error(`unexpected ${q}`));
    },
  };
}

Deno.test("Neo4j names itself in dbms.components(), with version and edition", async () => {
  const neo = server({
    "dbms.components": () =>
      Promise.resolve([{ name: "Neo4j Kernel", versions: ["5.26.18"], edition: "community" }]),
  });
  const s = await identify("Neo4j/5.26.18", neo.run);
  assert.deepEqual(s, {
    kind: "neo4j",
    version: "5.26.18",
    edition: "community",
    unknown: null,
    olderThan: null,
  });
  assert.equal(serverName(s), "Neo4j 5.26.18 (community)");
  assert.equal(refusal(s), null);
  assert.match(refusal({ ...s, version: "4.3.9" })!, /^Neo4j 4\.3\.9 is older than Neo4j 4\.4\.0/);
});

Deno.test("Memgraph: by its agent, or when dbms.components() is unknown; SHOW VERSION gives the version", async () => {
  const mg = server({ "SHOW VERSION": () => Promise.resolve([{ version: "3.4.0+12~abc" }]) });
  const s = await identify("Neo4j/v5.11.0 compatible graph database server - Memgraph", mg.run);
  assert.deepEqual(mg.asked, ["SHOW VERSION"], "the agent says Memgraph: no dbms.components()");
  assert.equal(s.kind, "memgraph");
  assert.equal(s.version, "3.4.0+12~abc");
  assert.equal(refusal(s), null);
  // Memgraph before 2.12 announces no agent; told to, it may pass for Neo4j.
  const quiet = server({
    "dbms.components": refuse("There is no procedure named 'dbms.components'."),
    "SHOW VERSION": () => Promise.resolve([{ version: "2.3.0" }]),
  });
  assert.equal((await identify("", quiet.run)).kind, "memgraph");
  assert.deepEqual(quiet.asked, ["dbms.components", "SHOW VERSION"]);
});

Deno.test("a Memgraph older than rgraph runs on is refused, in one line naming both versions", async () => {
  const old = server({ "SHOW VERSION": () => Promise.resolve([{ version: "2.2.1" }]) });
  const s = await identify("Memgraph", old.run);
  assert.equal(
    refusal(s),
    "Memgraph 2.2.1 is older than Memgraph 2.3.0, the oldest rgraph runs on: upgrade the server",
  );
  // Before 2.2.0 SHOW VERSION does not parse: older than 2.2.0 is all that is known, and enough.
  const older = server({ "SHOW VERSION": refuse("line 1:6 mismatched input 'VERSION'") });
  const t = await identify("Memgraph", older.run);
  assert.equal(t.olderThan, "2.2.0");
  assert.match(refusal(t)!, /^Memgraph older than 2\.2\.0 is older than Memgraph 2\.3\.0/);
  // A user without the STATS privilege cannot ask: the version is unknown, not refused.
  const locked = server({
    "SHOW VERSION": refuse(
      "You are not authorized to execute this query! Please contact your database administrator.",
    ),
  });
  const u = await identify("Memgraph", locked.run);
  assert.equal(u.version, null);
  assert.match(u.unknown!, /STATS privilege/);
  assert.equal(refusal(u), null);
  assert.equal(serverName(u), "Memgraph (version unknown)");
});

Deno.test("versions compare by their leading X.Y.Z", () => {
  assert.deepEqual(parseVersion("3.4.0+12~abc-open-source"), [3, 4, 0]);
  assert.deepEqual(parseVersion("v2.3"), [2, 3, 0]);
  assert.equal(parseVersion("dev"), null);
  assert.ok(isOlder("2.2.1", "2.3.0"));
  assert.ok(isOlder("2.10.0", "3.1.1"));
  assert.ok(!isOlder("2.10.0", "2.3.0"), "numeric, not textual");
  assert.ok(!isOlder("2.3.0", "2.3.0"));
});
