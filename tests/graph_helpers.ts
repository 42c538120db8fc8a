/**
 * What the graph-store suites share: the real servers they run against, a
 * lock that keeps one test at a time on a server (test files run in
 * parallel, and each test starts by deleting everything on it), and
 * teammates — sandboxes whose config names the graph store and the GitHub
 * emulator.
 *
 * - Neo4j: `RGRAPH_TEST_NEO4J_URL` (set by `tests/neo4j/start.sh`, which CI
 *   runs). Unset, the suites fail loudly in CI (`CI=true`).
 * - Memgraph: `RGRAPH_TEST_MEMGRAPH_URL` (e.g. `bolt://127.0.0.1:7687` after
 *   `docker run -p 7687:7687 memgraph/memgraph`). Unset, its suites are not
 *   registered at all (no package installs Memgraph, so `deno task test` cannot
 *   provide it, and a skip would read as a tool missing); `tests/run.sh` says
 *   how to run them.
 *
 * @module
 */

import assert from "node:assert/strict";
import neo4j from "neo4j-driver";
import { connectGraph, type GraphStore } from "../lib/store/graph/mod.ts";
import type { Emulator } from "./emulator/mod.ts";
import { type RunResult, type Sandbox, sandbox } from "./helpers.ts";

const NEO4J_URL = Deno.env.get("RGRAPH_TEST_NEO4J_URL") ?? "";
const MEMGRAPH_URL = Deno.env.get("RGRAPH_TEST_MEMGRAPH_URL") ?? "";

/** The servers to run against: Neo4j always (skipped without a URL), Memgraph when it has one. */
export const SERVERS = [
  { name: "neo4j" as const, url: NEO4J_URL },
  ...(MEMGRAPH_URL ? [{ name: "memgraph" as const, url: MEMGRAPH_URL }] : []),
];

/** Fails the run in CI when no Neo4j server is configured: a green run must have used one. */
export function requireServerInCi(): void {
  if (NEO4J_URL || Deno.env.get("CI") !== "true") return;
  Deno.test("graph store: a real Neo4j server is configured in CI", () => {
    assert.fail(
      "RGRAPH_TEST_NEO4J_URL is not set: start the server with tests/neo4j/start.sh before the tests",
    );
  });
}

/** The lock file of one server, shared by every test process of this machine. */
function lockPath(url: string): string {
  const where = url.replace(/[^A-Za-z0-9]+/g, "_");
  return `${Deno.env.get("TMPDIR") ?? "/tmp"}/rgraph-test-server-${where}.lock`;
}

/** Holds `url`'s server for this test until `release` is called. */
export async function holdServer(url: string): Promise<() => void> {
  const file = await Deno.open(lockPath(url), { create: true, write: true });
  await file.lock(true);
  return () => {
    file.unlockSync();
    file.close();
  };
}

/** Runs `fn` holding `url`'s server. */
export async function exclusive<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const release = await holdServer(url);
  try {
    return await fn();
  } finally {
    release();
  }
}

/** A test on one server: skipped without its URL, run holding it. */
export function serverTest(
  server: { name: string; url: string },
  name: string,
  fn: () => Promise<void>,
): void {
  Deno.test({
    name: `graph store on ${server.name}: ${name}`,
    ignore: !server.url,
    fn: () => exclusive(server.url, fn),
  });
}

/** Deletes everything on a throwaway test server (its schema stays). */
export async function wipe(url: string): Promise<void> {
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

/** A store on `url` as it is (nothing deleted). */
export function graphStore(url: string, leaseUser: string | null = null): Promise<GraphStore> {
  return connectGraph({ url, user: null, password: null, database: null }, { leaseUser });
}

/** Writes on the test server as another component of the family would. */
export async function write(
  url: string,
  query: string,
  params: Record<string, unknown> = {},
): Promise<void> {
  const driver = neo4j.driver(url);
  try {
    await driver.executeQuery(query, params);
  } finally {
    await driver.close();
  }
}

/** Reads the test server as another component would, without rgraph (no schema setup). */
export async function read(
  url: string,
  query: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  const driver = neo4j.driver(url, undefined, { disableLosslessIntegers: true });
  try {
    const result = await driver.executeQuery(query, params, { routing: neo4j.routing.READ });
    return result.records.map((r) => r.toObject());
  } finally {
    await driver.close();
  }
}

/** A dead Bolt address: a port that was free a moment ago. */
export function deadUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `bolt://127.0.0.1:${port}`;
}

/** A teammate: a sandbox whose config names the graph store (or none) and the emulator. */
export async function teammate(
  userId: string | null,
  url: string | null,
  emu: Emulator,
): Promise<Sandbox & { setUrl(url: string | null): Promise<void> }> {
  const sb = await sandbox({ userId });
  const write = (u: string | null) =>
    sb.writeConfig(
      [
        userId === null ? "" : `[identity]\nuser_id = ${JSON.stringify(userId)}\n`,
        `[store]\npath = ${JSON.stringify(sb.dbPath)}\n`,
        u === null ? "" : `url = ${JSON.stringify(u)}\n`,
        `[github]\ntoken = ${JSON.stringify(emu.token)}\napi_url = ${JSON.stringify(emu.apiUrl)}\n`,
        `graphql_url = ${JSON.stringify(emu.graphqlUrl)}\n`,
      ].join(""),
    );
  await write(url);
  return Object.assign(sb, { setUrl: write });
}

let toolUse = 0;

/** A Claude Code PreToolUse payload running `command` in Bash. */
export function bashPayload(command: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "sess-team",
    cwd: "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_graph_${++toolUse}`,
    ...over,
  });
}

/** Awaits a run and fails the test unless it exited 0. */
export async function ok(run: Promise<RunResult>, what: string): Promise<RunResult> {
  const r = await run;
  assert.equal(r.code, 0, `${what} failed: ${r.stderr}`);
  return r;
}

/** `rgraph touches --json` of a sandbox. */
export async function touchesOf(sb: Sandbox): Promise<Record<string, unknown>[]> {
  return JSON.parse((await ok(sb.rgraph(["touches", "--json"]), "rgraph touches")).stdout);
}
