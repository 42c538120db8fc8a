/**
 * The graph store against real graph servers: the store contract suite, the
 * graph model a Cypher reader sees, team sharing and privacy, the hooks'
 * outbox, and `rgraph migrate`.
 *
 * - Neo4j: `RGRAPH_TEST_NEO4J_URL` (set by `tests/neo4j/start.sh`, which CI
 *   runs). Unset, these tests fail loudly in CI (`CI=true`): a green run must
 *   have exercised a real server. Locally they are reported as ignored, so a
 *   developer without Java can still run the rest of the suite.
 * - Memgraph: `RGRAPH_TEST_MEMGRAPH_URL` (e.g. `bolt://127.0.0.1:7687` after
 *   `docker run -p 7687:7687 memgraph/memgraph`); ignored when unset.
 *
 * Each test starts from an empty database (everything is deleted first), so
 * these servers must be throwaway ones.
 *
 * @module
 */

import assert from "node:assert/strict";
import neo4j from "neo4j-driver";
import { storeContract } from "./store_contract.ts";
import { connectGraph, type GraphStore } from "../lib/store/graph.ts";

const NEO4J_URL = Deno.env.get("RGRAPH_TEST_NEO4J_URL") ?? "";
const MEMGRAPH_URL = Deno.env.get("RGRAPH_TEST_MEMGRAPH_URL") ?? "";
const IN_CI = Deno.env.get("CI") === "true";

if (!NEO4J_URL && IN_CI) {
  Deno.test("graph store: a real Neo4j server is configured in CI", () => {
    assert.fail(
      "RGRAPH_TEST_NEO4J_URL is not set: start the server with tests/neo4j/start.sh before the tests",
    );
  });
}

/** Deletes everything on a throwaway test server. */
async function wipe(url: string): Promise<void> {
  const driver = neo4j.driver(url, undefined, { disableLosslessIntegers: true });
  try {
    await driver.executeQuery("MATCH (n) DETACH DELETE n");
  } finally {
    await driver.close();
  }
}

/** A fresh, empty graph store on `url`. */
export async function freshGraphStore(
  url: string,
  leaseUser: string | null = null,
): Promise<GraphStore> {
  await wipe(url);
  return await connectGraph({ url, user: null, password: null, database: null }, { leaseUser });
}

/** The servers to run against, with whether each is available. */
const SERVERS = [
  { name: "neo4j", url: NEO4J_URL },
  { name: "memgraph", url: MEMGRAPH_URL },
];

for (const server of SERVERS) {
  if (!server.url) {
    Deno.test({
      name: `graph store on ${server.name}: contract suite (no server URL given)`,
      ignore: true,
      fn() {},
    });
    continue;
  }
  storeContract(`graph (${server.name})`, () => freshGraphStore(server.url));
}
