/**
 * Graph store benchmark (`deno task bench graph`).
 *
 * Workload: the emulator's big repository, its open-issues Listing (720
 * issues with their comment threads, 2199 comments), asked by one Touch.
 *
 * Figures, each against a reference measured in the same run:
 * 1. **A Sweep end to end**: a real `rgraph sweep` process against the
 *    emulator at 300 ms per request, into the graph store (Neo4j) and into
 *    the embedded store, alternating; target: graph ≤ 1.3× embedded
 *    (median, warmed server). The server is warmed by untimed Sweeps first
 *    (a JVM server compiles and plans on first use); the very first Sweep on
 *    a freshly started server is reported on its own (cold).
 * 2. **Where the time goes**: wall time outside the Sweep loop (process
 *    start, connect, schema check, outbox and local index) and inside it,
 *    from the same processes; per store call and after the last page
 *    (the tail nothing overlaps), from a Sweep in this process.
 * 3. **Bolt statements per Sweep**: the same Sweep with threads of up to 90
 *    comments and with one comment each (the same pages: no thread needs a
 *    page of its own); target: the same number (asserted), and the full
 *    threads' figure beside them.
 * 4. **The write phase alone**: the Sweep's writes (8 pages and the Listing)
 *    replayed into each store; and its Bolt work with full threads and with
 *    one comment each (asserted equal).
 * 5. `resource` from a real MCP client on `rgraph serve-mcp`, graph store vs
 *    embedded (target: median under 15 ms).
 *
 * Starts a Neo4j test server of its own (`tests/neo4j/start.sh`, a state
 * directory of its own) so that the cold figure is a fresh server's, and
 * deletes everything on it.
 *
 * @module
 */

import neo4j from "neo4j-driver";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Emulator, startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";
import { bashCallPayload, RGRAPH_FLAGS, rgraphCommand, type Sandbox, sandbox } from "../helpers.ts";
import { openSource } from "../../lib/github/mod.ts";
import { sweep } from "../../lib/sweep/mod.ts";
import { openEmbeddedStore, type SqliteStore } from "../../lib/store/mod.ts";
import { connectGraph, type GraphStore } from "../../lib/store/graph/mod.ts";
import { listingAddress } from "../../lib/address/key.ts";
import type { Store } from "../../lib/store/contract.ts";
import type { Listing } from "../../lib/types.ts";
import type { ResourceWrite } from "../../lib/store/contract.ts";
import { touch } from "../store_contract.ts";
import { freshServer } from "./_neo4j.ts";

const LATENCY = 300;
const ROUNDS = 5;
const WARM_SWEEPS = 3;
const WRITE_ROUNDS = 3;
const READS = 60;
/** Untimed calls first: a JVM server compiles its hot paths on first use. */
const WARM_READS = 30;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const REPO = `${FACTS.big.owner}/${FACTS.big.name}`;
const LIST = `gh issue list -R ${REPO} --state open --limit 1000 --json number,title,body,comments`;
const KEY = listingAddress(FACTS.big.owner, FACTS.big.name, "issues", {}, null).key;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ok = (cond: boolean) => (cond ? "OK" : "MISSED");

/**
 * Deletes everything on the server but rgraph's lock nodes: the one named
 * `schema` records the applied schema, so every Sweep starts as on a team
 * server set up once.
 */
async function wipe(url: string): Promise<void> {
  const driver = neo4j.driver(url);
  try {
    await driver.executeQuery("MATCH (n) WHERE NOT n:RgraphLock DETACH DELETE n");
  } finally {
    await driver.close();
  }
}

// --- 1 and 2: Sweeps end to end ---------------------------------------------------------

let toolUse = 0;

/** One `rgraph sweep --json` of the Listing from an empty home; wall and in-loop time. */
async function processSweep(
  gh: Emulator,
  url: string | null,
): Promise<{ wall: number; loop: number }> {
  const sb = await sandbox({ userId: "bench" });
  try {
    await sb.writeConfig(
      `[identity]\nuser_id = "bench"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n` +
        (url ? `url = ${JSON.stringify(url)}\n` : "") +
        `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`,
    );
    if (url) await wipe(url);
    const hook = await sb.rgraph(["hook", "claude-code"], {
      stdin: bashCallPayload(LIST, {
        session: "bench",
        toolUse: `toolu_e2e_${++toolUse}`,
        cwd: sb.dir,
      }),
    });
    if (hook.code !== 0) throw new Error(`hook failed: ${hook.stderr}`);
    const t0 = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...RGRAPH_FLAGS, MAIN, "sweep", "--json"],
      env: sb.env,
      cwd: sb.dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const wall = performance.now() - t0;
    if (out.code !== 0) throw new Error(`sweep failed: ${new TextDecoder().decode(out.stderr)}`);
    const summary = JSON.parse(new TextDecoder().decode(out.stdout));
    if (summary.resources_written < 720) throw new Error(`swept only ${summary.resources_written}`);
    return { wall, loop: summary.elapsed_ms };
  } finally {
    await sb.cleanup();
  }
}

/** A store whose calls are timed: total per method, and when each ran. */
function timed<T extends Store>(store: T): { store: T; calls: [string, number, number][] } {
  const calls: [string, number, number][] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await v.apply(target, args);
        } finally {
          calls.push([String(prop), t0, performance.now()]);
        }
      };
    },
  });
  return { store: proxy, calls };
}

/** The Listing's Touch in `store`. */
async function touchListing(store: Store): Promise<void> {
  await store.recordTouches([touch("bench", KEY, { limit: 1000, session_id: null })]);
}

/** A Sweep in this process with its store calls timed: per method, and after the last page. */
async function inProcessSweep(gh: Emulator, store: Store) {
  await touchListing(store);
  const { store: watched, calls } = timed(store);
  const github = { token: gh.token, api_url: gh.apiUrl, graphql_url: gh.graphqlUrl };
  const t0 = performance.now();
  await sweep(watched, () => openSource(github));
  const end = performance.now();
  const pages = calls.filter(([m]) => m === "putResources");
  // The Listing's last page (the repository comes after it, alone).
  const lastPage = pages.at(-2) ?? pages.at(-1)!;
  const per: Record<string, { ms: number; n: number }> = {};
  for (const [m, a, b] of calls) {
    per[m] ??= { ms: 0, n: 0 };
    per[m].ms += b - a;
    per[m].n++;
  }
  return { total: end - t0, tail: end - lastPage[1], per };
}

function describe(per: Record<string, { ms: number; n: number }>): string {
  return Object.entries(per).map(([m, { ms, n }]) => `${m} ${ms.toFixed(0)} ms/${n}`).join(", ");
}

// --- 3: statements per Sweep ----------------------------------------------------------------

/** Bolt work of one Sweep (in this process) with every thread cut to `most` comments. */
async function sweepCounts(url: string, most: number | null) {
  const gh = await startEmulator();
  try {
    if (most !== null) {
      for (const item of gh.dataset.repo(FACTS.big.owner, FACTS.big.name)!.repo.items.values()) {
        item.comments = item.comments.slice(0, most);
        for (const t of item.pull?.reviewThreads ?? []) t.comments = t.comments.slice(0, most);
      }
    }
    await wipe(url);
    const store = await connectGraph({ url, user: null, password: null, database: null }, {
      leaseUser: "bench",
    });
    try {
      await touchListing(store);
      store.boltCounts(true);
      const github = { token: gh.token, api_url: gh.apiUrl, graphql_url: gh.graphqlUrl };
      await sweep(store, () => openSource(github));
      const counts = store.boltCounts(true);
      return { ...counts, comments: (await store.memoryStats()).comments };
    } finally {
      await store.close();
    }
  } finally {
    await gh.close();
  }
}

// --- 4: the write phase alone ---------------------------------------------------------------

/** The open-issues Listing of the big repository, swept for real into a temp embedded store. */
async function dataset(): Promise<{
  pages: ResourceWrite[][];
  listing: { listing: Listing; members: string[] };
  dbDir: string;
}> {
  const emu = await startEmulator();
  const dbDir = await Deno.makeTempDir({ prefix: "rgraph-bench-graph-" });
  const local = openEmbeddedStore(`${dbDir}/swept.db`);
  try {
    await touchListing(local);
    const github = { token: emu.token, api_url: emu.apiUrl, graphql_url: emu.graphqlUrl };
    await sweep(local, () => openSource(github));
    const pages = [...local.exportResources(100)];
    const listing = [...local.exportListings()].find((l) => l.listing.key === KEY);
    if (!listing) throw new Error("the sweep stored no listing");
    return { pages, listing, dbDir };
  } finally {
    await local.close();
    await emu.close();
  }
}

/** Writes the dataset as the Sweep does; returns the wall time in ms. */
async function writeAll(
  store: Store,
  pages: ResourceWrite[][],
  listing: { listing: Listing; members: string[] },
): Promise<number> {
  const t0 = performance.now();
  for (const page of pages) await store.putResources(page);
  await store.putListing(listing.listing, listing.members);
  return performance.now() - t0;
}

/** The same pages with every thread cut to its first comment (and review comment). */
function oneCommentEach(pages: ResourceWrite[][]): ResourceWrite[][] {
  return pages.map((page) =>
    page.map(({ resource, aliases }) => ({
      aliases,
      resource: resource.kind === "repository"
        ? resource
        : resource.kind === "issue"
        ? { ...resource, comments: resource.comments.slice(0, 1) }
        : {
          ...resource,
          comments: resource.comments.slice(0, 1),
          review_comments: resource.review_comments.slice(0, 1),
        },
    }))
  );
}

// --- 5: resource from an MCP client ----------------------------------------------------------

/** Median latency of `resource` calls from an MCP client on `rgraph serve-mcp` with this config. */
async function resourceLatency(
  extraStore: string,
  addresses: string[],
  seed: string | null,
): Promise<number> {
  const sb: Sandbox = await sandbox({ userId: "bench" });
  if (seed !== null) {
    await Deno.mkdir(sb.dbPath.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.copyFile(seed, sb.dbPath);
  }
  await sb.writeConfig(
    `[identity]\nuser_id = "bench"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n${extraStore}`,
  );
  const { command, args } = rgraphCommand();
  const client = new Client({ name: "rgraph-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args: [...args, "serve-mcp"],
      env: sb.env,
      cwd: sb.dir,
      stderr: "ignore",
    }),
  );
  try {
    const times: number[] = [];
    for (let i = 0; i < READS + WARM_READS; i++) {
      const address = addresses[i % addresses.length];
      const t0 = performance.now();
      const r = await client.callTool({ name: "resource", arguments: { address } });
      const dt = performance.now() - t0;
      const text = (r.content as { text: string }[])[0].text;
      if (!/\bhit\b/.test(text.split("\n")[0])) throw new Error(`not a hit: ${text.slice(0, 200)}`);
      if (i >= WARM_READS) times.push(dt);
    }
    return median(times);
  } finally {
    await client.close();
    await sb.cleanup();
  }
}

// --- The run --------------------------------------------------------------------------------

const { url, stop } = await freshServer();
const gh = await startEmulator({ latencyMs: LATENCY });
let failed = false;
try {
  // 1. A Sweep end to end: cold first, then warmed.
  await processSweep(gh, null); // untimed: Deno's caches
  const coldRef = await processSweep(gh, null);
  const cold = await processSweep(gh, url);
  console.log(
    `cold: the first Sweep on a freshly started Neo4j ${sec(cold.wall)} vs embedded ${
      sec(coldRef.wall)
    } = ${
      (cold.wall / coldRef.wall).toFixed(2)
    }x (reported, not a target: the server plans and compiles its statements)`,
  );
  for (let i = 0; i < WARM_SWEEPS; i++) await processSweep(gh, url);
  const embedded: { wall: number; loop: number }[] = [];
  const graph: { wall: number; loop: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    embedded.push(await processSweep(gh, null));
    graph.push(await processSweep(gh, url));
  }
  const e = median(embedded.map((r) => r.wall)), g = median(graph.map((r) => r.wall));
  console.log(
    `warm: a Sweep of the ${KEY} Listing (720 issues, ${LATENCY} ms a request), median of ${ROUNDS}: ` +
      `graph store ${sec(g)} vs embedded ${sec(e)} = ${(g / e).toFixed(2)}x [target <= 1.3x: ${
        ok(g <= 1.3 * e)
      }]; rounds graph ${graph.map((r) => sec(r.wall)).join(" / ")}, embedded ${
        embedded.map((r) => sec(r.wall)).join(" / ")
      }`,
  );

  // 2. Where the time goes.
  const outside = (rs: { wall: number; loop: number }[]) => median(rs.map((r) => r.wall - r.loop));
  const loop = (rs: { wall: number; loop: number }[]) => median(rs.map((r) => r.loop));
  console.log(
    `  outside the Sweep loop (process start, connect, schema check, outbox, local index, close): ` +
      `graph ${outside(graph).toFixed(0)} ms, embedded ${outside(embedded).toFixed(0)} ms; ` +
      `in the loop: graph ${loop(graph).toFixed(0)} ms, embedded ${loop(embedded).toFixed(0)} ms`,
  );
  const dir = await Deno.makeTempDir();
  try {
    await wipe(url);
    const graphStore = await connectGraph({ url, user: null, password: null, database: null }, {
      leaseUser: "bench",
    });
    graphStore.attachLocalIndex(openEmbeddedStore(`${dir}/index.db`));
    const gRun = await inProcessSweep(gh, graphStore);
    await graphStore.close();
    const local = openEmbeddedStore(`${dir}/embedded.db`);
    const eRun = await inProcessSweep(gh, local);
    await local.close();
    console.log(
      `  in this process: graph ${sec(gRun.total)}, of it after the last page ${
        gRun.tail.toFixed(0)
      } ms (embedded ${eRun.tail.toFixed(0)} ms); store calls: graph ${describe(gRun.per)}; ` +
        `embedded ${describe(eRun.per)} (page writes overlap the next page's fetch)`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }

  // 3. Statements per Sweep.
  const many = await sweepCounts(url, 90);
  const one = await sweepCounts(url, 1);
  const full = await sweepCounts(url, null);
  const same = many.statements === one.statements && many.transactions === one.transactions;
  console.log(
    `Bolt work per Sweep: ${many.statements} statements in ${many.transactions} transactions with ` +
      `${many.comments} comments (threads up to 90), ${one.statements} in ${one.transactions} with ` +
      `${one.comments} (one each) [target: the same: ${
        ok(same)
      }]; the full threads (${full.comments} ` +
      `comments, long ones held back into later pages): ${full.statements} in ${full.transactions}`,
  );
  if (!same) failed = true;

  // 4. The write phase alone.
  const { pages, listing, dbDir } = await dataset();
  const sqliteTimes: number[] = [];
  const graphTimes: number[] = [];
  let counts = { statements: 0, transactions: 0 };
  await wipe(url);
  const warm: GraphStore = await connectGraph({ url, user: null, password: null, database: null });
  await writeAll(warm, pages, listing);
  await warm.close();
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const embeddedStore: SqliteStore = openEmbeddedStore(`${dbDir}/round-${round}.db`);
    sqliteTimes.push(await writeAll(embeddedStore, pages, listing));
    await embeddedStore.close();
    await wipe(url);
    const g = await connectGraph({ url, user: null, password: null, database: null });
    g.boltCounts(true);
    graphTimes.push(await writeAll(g, pages, listing));
    counts = g.boltCounts(true);
    await g.close();
  }
  await wipe(url);
  const bare = await connectGraph({ url, user: null, password: null, database: null });
  bare.boltCounts(true);
  await writeAll(bare, oneCommentEach(pages), listing);
  const bareCounts = bare.boltCounts(true);
  await bare.close();
  const s = median(sqliteTimes), w = median(graphTimes);
  const equal = counts.statements === bareCounts.statements &&
    counts.transactions === bareCounts.transactions;
  console.log(
    `write phase alone (${pages.length} pages and the Listing): graph ${w.toFixed(0)} ms vs ` +
      `embedded ${s.toFixed(0)} ms = ${(w / s).toFixed(1)}x (median of ${WRITE_ROUNDS}; hidden ` +
      `behind the fetch in a Sweep but for the last page); Bolt work ${counts.statements} ` +
      `statements in ${counts.transactions} transactions, with one comment per thread ` +
      `${bareCounts.statements} in ${bareCounts.transactions} [target: the same: ${ok(equal)}]`,
  );
  if (!equal) failed = true;

  // 5. resource from an MCP client.
  await wipe(url);
  const served = await connectGraph({ url, user: null, password: null, database: null });
  await writeAll(served, pages, listing);
  await served.close();
  const sample = listing.members.filter((_, i) => i % 37 === 0);
  const viaGraph = await resourceLatency(`url = ${JSON.stringify(url)}\n`, sample, null);
  const viaSqlite = await resourceLatency("", sample, `${dbDir}/round-0.db`);
  console.log(
    `resource from an MCP client (rgraph serve-mcp), graph store: median ${
      viaGraph.toFixed(1)
    } ms over ${READS} calls [target < 15 ms: ${ok(viaGraph < 15)}]; embedded ${
      viaSqlite.toFixed(1)
    } ms`,
  );
  await Deno.remove(dbDir, { recursive: true });
} finally {
  await gh.close();
  await stop();
}
if (failed) Deno.exit(1);
