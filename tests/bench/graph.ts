/**
 * Graph store benchmark (`deno task bench graph`).
 *
 * Data: the emulator's big repository swept for real (`lib/sweep/` against
 * the GitHub emulator) into an embedded store: its open-issues Listing (720
 * issues with their comment threads), exported as the Sweep writes it (pages
 * of 100 Resources, then the Listing).
 *
 * Figures, each against a reference measured in the same run:
 * 1. wall time of the store writes alone, graph store vs embedded store
 *    (target: within 2x);
 * 2. Bolt work for those writes (statements and transactions), with the
 *    full comment threads and with each thread cut to one comment (target:
 *    the same — it must not grow with the number of comments);
 * 3. `resource` on an item from the graph store, timed from a real MCP client
 *    against `rgraph serve-mcp` with `[store] url` set (target: median under
 *    15 ms), beside the same with the embedded store.
 *
 * Each store gets an untimed warm-up first (a JVM server compiles its hot
 * paths on first use): the figures are steady state.
 *
 * Uses `RGRAPH_TEST_NEO4J_URL` if set, else starts the Neo4j test server
 * (`tests/neo4j/start.sh`) for the run. It deletes everything on that server.
 *
 * @module
 */

import neo4j from "neo4j-driver";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";
import { rgraphCommand, sandbox } from "../helpers.ts";
import { openSource } from "../../lib/github/mod.ts";
import { sweep } from "../../lib/sweep/mod.ts";
import { openEmbeddedStore, type SqliteStore } from "../../lib/store/mod.ts";
import { connectGraph } from "../../lib/store/graph/mod.ts";
import { listingAddress } from "../../lib/address/key.ts";
import type { Store } from "../../lib/store/contract.ts";
import type { Listing } from "../../lib/types.ts";
import type { ResourceWrite } from "../../lib/store/contract.ts";

const ROUNDS = 3;
const READS = 60;
/** Untimed calls first: a JVM server compiles its hot paths on first use. */
const WARM_READS = 30;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function neo4jUrl(): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = Deno.env.get("RGRAPH_TEST_NEO4J_URL");
  if (given) return { url: given, stop: () => Promise.resolve() };
  const script = new URL("../neo4j/start.sh", import.meta.url).pathname;
  const out = await new Deno.Command("bash", { args: [script, "start"], stderr: "inherit" })
    .output();
  const url = /RGRAPH_TEST_NEO4J_URL=(\S+)/.exec(new TextDecoder().decode(out.stdout))?.[1];
  if (!url) throw new Error("could not start the Neo4j test server");
  return {
    url,
    stop: async () => {
      await new Deno.Command("bash", { args: [script, "stop"] }).output();
    },
  };
}

async function wipe(url: string): Promise<void> {
  const driver = neo4j.driver(url);
  try {
    await driver.executeQuery("MATCH (n) DETACH DELETE n");
  } finally {
    await driver.close();
  }
}

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
    const key = listingAddress(FACTS.big.owner, FACTS.big.name, "issues", {}, null).key;
    await local.recordTouches([{
      user_id: "bench",
      session_id: null,
      provenance: "FETCHED",
      address: key,
      kind: "listing",
      limit: 1000,
      tool_name: "Bash",
      tool_use_id: null,
      agent_id: null,
      harness: null,
      recorded_at: new Date().toISOString(),
      dedup_key: "bench-listing",
      status: "pending",
    }]);
    const github = { token: emu.token, api_url: emu.apiUrl, graphql_url: emu.graphqlUrl };
    await sweep(local, () => openSource(github));
    const pages = [...local.exportResources(100)];
    const listing = [...local.exportListings()].find((l) => l.listing.key === key);
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

/** Median latency of `resource` calls from an MCP client on `rgraph serve-mcp` with this config. */
async function resourceLatency(
  extraStore: string,
  addresses: string[],
  seed: string | null,
): Promise<number> {
  const sb = await sandbox({ userId: "bench" });
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

const { url, stop } = await neo4jUrl();
try {
  console.log("sweeping the emulator's open-issues listing into an embedded store…");
  const { pages, listing, dbDir } = await dataset();
  const resources = pages.reduce((n, p) => n + p.length, 0);
  const comments = pages.flat().reduce(
    (n, w) => n + (w.resource.kind === "repository" ? 0 : w.resource.comments.length),
    0,
  );
  console.log(
    `data: ${resources} resources, ${comments} comments, a listing of ${listing.members.length} members, ` +
      `in ${pages.length} pages`,
  );

  // One untimed pass on each store: steady state is what a running team server sees.
  await wipe(url);
  const warm = await connectGraph({ url, user: null, password: null, database: null });
  await writeAll(warm, pages, listing);
  await warm.close();

  const sqliteTimes: number[] = [];
  const graphTimes: number[] = [];
  let counts = { statements: 0, transactions: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const embedded: SqliteStore = openEmbeddedStore(`${dbDir}/round-${round}.db`);
    sqliteTimes.push(await writeAll(embedded, pages, listing));
    await embedded.close();

    await wipe(url);
    const graph = await connectGraph({ url, user: null, password: null, database: null });
    graph.boltCounts(true);
    graphTimes.push(await writeAll(graph, pages, listing));
    counts = graph.boltCounts(true);
    await graph.close();
  }
  await wipe(url);
  const bare = await connectGraph({ url, user: null, password: null, database: null });
  bare.boltCounts(true);
  await writeAll(bare, oneCommentEach(pages), listing);
  const bareCounts = bare.boltCounts(true);
  await bare.close();

  const s = median(sqliteTimes), g = median(graphTimes);
  console.log(`writes, embedded store: ${s.toFixed(0)} ms (median of ${ROUNDS})`);
  console.log(
    `writes, graph store (Neo4j): ${g.toFixed(0)} ms (median of ${ROUNDS}) = ${
      (g / s).toFixed(2)
    }x the embedded store (target <= 2x) ${g <= 2 * s ? "OK" : "MISSED"}`,
  );
  console.log(
    `Bolt work: ${counts.statements} statements in ${counts.transactions} transactions with ${comments} comments; ` +
      `${bareCounts.statements} statements in ${bareCounts.transactions} transactions with at most one per thread ` +
      `(target: no growth) ${
        counts.statements === bareCounts.statements &&
          counts.transactions === bareCounts.transactions
          ? "OK"
          : "MISSED"
      }`,
  );

  // The graph now holds the dataset with comments again, for serving.
  await wipe(url);
  const graph = await connectGraph({ url, user: null, password: null, database: null });
  await writeAll(graph, pages, listing);
  await graph.close();
  const sample = listing.members.filter((_, i) => i % 37 === 0);
  const viaGraph = await resourceLatency(`url = ${JSON.stringify(url)}\n`, sample, null);
  const viaSqlite = await resourceLatency("", sample, `${dbDir}/round-0.db`);
  console.log(
    `resource from an MCP client (rgraph serve-mcp), graph store: median ${
      viaGraph.toFixed(1)
    } ms over ${READS} ` +
      `calls (target < 15 ms) ${viaGraph < 15 ? "OK" : "MISSED"}`,
  );
  console.log(`  reference, embedded store: median ${viaSqlite.toFixed(1)} ms`);
  await Deno.remove(dbDir, { recursive: true });
} finally {
  await stop();
}
