/**
 * Scale benchmark on the graph store (`deno task bench scale_graph`): how
 * each command's cost grows with the team server's size.
 *
 * Builds one Neo4j test server per size (each its own, started by
 * `tests/neo4j/start.sh`), filled through rgraph's own store API with the
 * memory `_scale_data.ts` describes and a user's 2,000 Touches; then runs
 * each command as a real `rgraph` process against each size, interleaved
 * (round by round, size by size):
 * - `lookup`, `status`, `stats`, `doctor` on a machine whose local index
 *   was synced before (what every command after the first pays);
 * - serve-mcp's first `resource` answer (process start to answer, from a
 *   real MCP client) and its peak memory after 20 reads;
 * - the first command on a new machine (`lookup` from an empty data
 *   directory: the local index filled afresh) and the local index's size
 *   after it.
 * Prints the growth table: medians, and each size's ratio to the smallest.
 *
 * `RGRAPH_SCALE_GRAPH_SIZES=1000,10000` picks other sizes (Resources),
 * `RGRAPH_SCALE_GRAPH_COMMENTS` the most comments an item has (default 20),
 * `RGRAPH_SCALE_ROUNDS` the rounds (default 3).
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectGraph } from "../../lib/store/graph/mod.ts";
import type { NewTouch } from "../../lib/types.ts";
import { itemAddress } from "../../lib/address/key.ts";
import { rgraphCommand, type Sandbox, sandbox } from "../helpers.ts";
import { putListings, REPOS, resourceBatches } from "./_scale_data.ts";
import { freshServer } from "./_neo4j.ts";
import { measure, median, time } from "./_run.ts";

const SIZES = (Deno.env.get("RGRAPH_SCALE_GRAPH_SIZES") ?? "1000,10000,50000,100000")
  .split(",").map(Number);
const ROUNDS = Number(Deno.env.get("RGRAPH_SCALE_ROUNDS") ?? 3);
const USER = "bench";
/**
 * Comments per item at most (`RGRAPH_SCALE_GRAPH_COMMENTS`, default 20): a
 * loaded machine builds 100k Resources with 0–20 comments each for an hour;
 * none of the commands measured reads a comment, and doctor's and stats'
 * comment count is a label count.
 */
const MAX_COMMENTS = Number(Deno.env.get("RGRAPH_SCALE_GRAPH_COMMENTS") ?? 20);
const TOUCHES = 2000;
const ITEM = "github:bench-0/repo-0#1";

/** One size's server. */
interface Server {
  size: number;
  url: string;
  stop: () => Promise<void>;
}

/** Starts a server of its own and fills it with `size` Resources, Listings and the user's Touches. */
async function build(size: number): Promise<Server> {
  const { url, stop } = await freshServer();
  const started = performance.now();
  const graph = await connectGraph({ url, user: null, password: null, database: null });
  try {
    for (const writes of resourceBatches(size, 1000, MAX_COMMENTS)) {
      await graph.putResources(writes);
    }
    await putListings(graph, size);
    const perRepo = Math.max(1, Math.floor((size - REPOS) / REPOS));
    const touches: NewTouch[] = Array.from({ length: TOUCHES }, (_, i) => {
      const address = itemAddress(`bench-${i % REPOS}`, `repo-${i % REPOS}`, 1 + (i % perRepo)).key;
      return {
        user_id: USER,
        session_id: `session-${Math.floor(i / 200)}`,
        provenance: "FETCHED",
        address,
        kind: "item",
        limit: null,
        tool_name: "Bash",
        tool_use_id: `toolu_${i}`,
        agent_id: null,
        harness: "claude-code",
        recorded_at: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 60_000).toISOString(),
        dedup_key: `bench-${i}`,
        ...(i % 4 === 0
          ? { status: "served" as const, outcome: "hit" as const, target: address }
          : { status: "resolved" as const, target: address }),
      };
    });
    await graph.importTouches(touches);
  } finally {
    await graph.close();
  }
  console.log(`built ${size} Resources in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { size, url, stop };
}

/** A teammate's machine: a data directory whose config names the server. */
async function machine(url: string): Promise<Sandbox> {
  const sb = await sandbox({ userId: USER });
  await sb.writeConfig(
    `[identity]\nuser_id = "${USER}"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n` +
      `url = ${JSON.stringify(url)}\n[sweep]\nauto = false\n`,
  );
  return sb;
}

/** Bytes of the machine's local database files. */
async function indexBytes(sb: Sandbox): Promise<number> {
  let n = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      n += (await Deno.stat(`${sb.dbPath}${suffix}`)).size;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return n;
}

/** serve-mcp from start to its first `resource` answer, and its peak memory (KB) after 20 reads. */
async function serveFirstAnswer(sb: Sandbox): Promise<{ ms: number; rssKb: number }> {
  const { command, args } = rgraphCommand();
  const client = new Client({ name: "rgraph-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command,
    args: [...args, "serve-mcp"],
    env: sb.env,
    cwd: sb.dir,
    stderr: "ignore",
  });
  const started = performance.now();
  await client.connect(transport);
  try {
    const ask = async () => {
      const r = await client.callTool({ name: "resource", arguments: { address: ITEM } });
      const text = (r.content as { text: string }[])[0].text;
      if (!/\bhit\b/.test(text.split("\n")[0])) throw new Error(`not a hit: ${text.slice(0, 200)}`);
    };
    await ask();
    const ms = performance.now() - started;
    for (let i = 0; i < 19; i++) await ask();
    const status = await Deno.readTextFile(`/proc/${transport.pid}/status`).catch(() => "");
    const rssKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { ms, rssKb };
  } finally {
    await client.close();
  }
}

/** The figures of one size in one round. */
type Figures = Record<string, number>;

async function round(server: Server, warm: Sandbox): Promise<Figures> {
  const out: Figures = {};
  for (
    const [name, args] of [
      ["lookup", ["lookup", ITEM]],
      ["status", ["status"]],
      ["stats", ["stats"]],
      ["doctor", ["doctor"]],
    ] as const
  ) {
    const r = await measure(warm, [...args]);
    if (r.code !== 0 && name !== "doctor") throw new Error(`${name} failed at ${server.size}`);
    out[name] = r.ms;
  }
  const serve = await serveFirstAnswer(warm);
  out["serve-mcp first answer"] = serve.ms;
  out["serve-mcp peak memory (MB)"] = serve.rssKb / 1024;
  const fresh = await machine(server.url);
  try {
    const r = await measure(fresh, ["lookup", ITEM]);
    if (r.code !== 0) throw new Error(`first lookup failed at ${server.size}`);
    out["first command on a new machine"] = r.ms;
    out["local index (MB)"] = (await indexBytes(fresh)) / 1024 / 1024;
  } finally {
    await fresh.cleanup();
  }
  return out;
}

const servers: Server[] = [];
const machines: Sandbox[] = [];
try {
  for (const size of SIZES) servers.push(await build(size));
  for (const s of servers) {
    const sb = await machine(s.url);
    machines.push(sb);
    // Untimed: the first sync of this machine, Deno's caches and the server's plans warm alike.
    await measure(sb, ["lookup", ITEM]);
    await measure(sb, ["status"]);
  }
  const results: Figures[][] = servers.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, s] of servers.entries()) results[i].push(await round(s, machines[i]));
  }
  const names = Object.keys(results[0][0]);
  const sized = (n: number) => n >= 1000 ? `${n / 1000}k` : `${n}`;
  const header = [
    "figure (Resources)",
    ...SIZES.map(sized),
    ...SIZES.slice(1).map((n) => `${sized(n)} ÷ ${sized(SIZES[0])}`),
  ];
  console.log(
    `\nNeo4j, median of ${ROUNDS} rounds, sizes interleaved; ratios to the smallest size`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const name of names) {
    const medians = results.map((rs) => median(rs.map((f) => f[name])));
    const cell = (v: number) => name.endsWith("(MB)") ? `${v.toFixed(1)} MB` : time(v);
    const ratios = medians.slice(1).map((m) => `${(m / medians[0]).toFixed(2)}×`);
    console.log(`| ${[`\`${name}\``, ...medians.map(cell), ...ratios].join(" | ")} |`);
  }
} finally {
  for (const sb of machines) await sb.cleanup();
  for (const s of servers) await s.stop();
}
