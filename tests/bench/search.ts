/**
 * Searching memory (`deno task bench search`):
 * 1. embedded: a store of 100,000 Resources with about 500,000 comments
 *    (bodies and comments drawn from a 20,000-word vocabulary with a Zipf-like
 *    spread, so words range from in nearly every item to in a handful),
 *    searched through a running `rgraph serve-mcp` by a real MCP client:
 *    p95 of a mix of rare, middling and common words, two-word queries,
 *    phrases and filtered searches (target ≤ 50 ms), and of the commonest
 *    word alone (the worst case); reference in the same run: the same
 *    server's `resource` answer for one issue. The index's size against the
 *    size of the text it indexes (target ≤ 1×).
 * 2. the 720-issue Listing Sweep of `sweep.ts` (300 ms latency): wall time
 *    with indexing, against the same Sweep by this repository's code before
 *    search (commit fd8eb34, checked out beside it), interleaved (target
 *    ≤ 1.1×).
 * 3. Neo4j: the same memory (100,000 Resources) in a server of the run's
 *    own, searched through the store: p95 (target ≤ 300 ms).
 *
 * Sizes: `RGRAPH_BENCH_SEARCH_RESOURCES` (default 100000; 0 skips the embedded store),
 * `RGRAPH_BENCH_SEARCH_GRAPH` (default the same; 0 skips Neo4j),
 * `RGRAPH_BENCH_SEARCH_SWEEPS` (rounds of the Sweep comparison, default 5;
 * 0 skips it). A quick run: `RGRAPH_BENCH_SEARCH_RESOURCES=5000
 * RGRAPH_BENCH_SEARCH_GRAPH=2000 RGRAPH_BENCH_SEARCH_SWEEPS=1`.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { openEmbeddedStore } from "../../lib/store/mod.ts";
import type { Store } from "../../lib/store/contract.ts";
import { indexColumns } from "../../lib/store/search_query.ts";
import { connectGraph } from "../../lib/store/graph/mod.ts";
import type { ResourceWrite } from "../../lib/store/contract.ts";
import { searchRequest } from "../../lib/serve/mod.ts";
import { bashCallPayload, RGRAPH_FLAGS, type Sandbox, sandbox } from "../helpers.ts";
import { connect } from "../mcp_client.ts";
import { prng, resourceBatches } from "./_scale_data.ts";
import { freshServer } from "./_neo4j.ts";
import { median, time } from "./_run.ts";
import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";

const RESOURCES = Number(Deno.env.get("RGRAPH_BENCH_SEARCH_RESOURCES") ?? 100_000);
const GRAPH = Number(Deno.env.get("RGRAPH_BENCH_SEARCH_GRAPH") ?? RESOURCES);
const SWEEPS = Number(Deno.env.get("RGRAPH_BENCH_SEARCH_SWEEPS") ?? 5);
/** Comments per item at most: 0–10, about 5 on average (500,000 at 100,000 Resources). */
const MAX_COMMENTS = 10;
/** The code before search, for the Sweep's reference. */
const BEFORE = "fd8eb34";

const ok = (cond: boolean) => (cond ? "ok" : "MISSED");

// --- The memory -------------------------------------------------------------------

/** 20,000 made-up words, the same every run. */
const VOCABULARY = (() => {
  const syllables = ["ka", "lo", "mi", "ren", "tu", "sa", "vex", "no", "qui", "dar", "el", "os"];
  const words: string[] = [];
  const rand = prng(42);
  while (words.length < 20_000) {
    let w = "";
    for (let n = 2 + Math.floor(rand() * 3); n > 0; n--) {
      w += syllables[Math.floor(rand() * syllables.length)];
    }
    if (!words.includes(w)) words.push(w);
  }
  return words;
})();

/** A word by a Zipf-like rank: the first words are everywhere, the last rare. */
function word(rand: () => number): string {
  return VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(VOCABULARY.length ** rand()) - 1)];
}

function text(rand: () => number, chars: number): string {
  let out = "";
  while (out.length < chars) out += `${word(rand)}${rand() < 0.08 ? ". " : " "}`;
  return out;
}

/** The scale data's Resources with their text drawn from the vocabulary; `bytes` counts what is indexed. */
function* memory(n: number, bytes: { text: number }): Generator<ResourceWrite[]> {
  const rand = prng(n + 1);
  const utf8 = new TextEncoder();
  for (const batch of resourceBatches(n, 500, MAX_COMMENTS)) {
    for (const { resource: r } of batch) {
      if (r.kind === "repository") r.readme = text(rand, 2000);
      else {
        r.title = text(rand, 60).trim();
        r.body = text(rand, r.body.length);
        for (const c of r.comments) c.body = text(rand, 80 + Math.floor(rand() * 400));
      }
      const c = indexColumns(r);
      bytes.text += utf8.encode(c.title + c.body + c.comments + c.other).length;
    }
    yield batch;
  }
}

/** The queries, by kind; a needle planted in one comment is among them. */
function queries(): { kind: string; args: Parameters<typeof searchRequest>[0] }[] {
  const rand = prng(9);
  const pick = (from: number, to: number) => VOCABULARY[from + Math.floor(rand() * (to - from))];
  const out: { kind: string; args: Parameters<typeof searchRequest>[0] }[] = [];
  for (let i = 0; i < 40; i++) {
    out.push({ kind: "rare word", args: { text: pick(5000, 20000) } });
    out.push({ kind: "middling word", args: { text: pick(200, 2000) } });
    out.push({ kind: "two words", args: { text: `${pick(100, 2000)} ${pick(500, 5000)}` } });
    out.push({ kind: "phrase", args: { text: `"${pick(20, 400)} ${pick(20, 400)}"` } });
    out.push({
      kind: "word in one repository",
      args: { text: pick(50, 2000), repo: `bench-${i % 50}/repo-${i % 50}`, kind: "issue" },
    });
  }
  return out;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}

// --- 1. Embedded, through serve-mcp -----------------------------------------------

async function embedded(): Promise<void> {
  const sb = await sandbox({ userId: "bench", extra: "[sweep]\nauto = false\n" });
  try {
    await Deno.mkdir(sb.dbPath.slice(0, sb.dbPath.lastIndexOf("/")), { recursive: true });
    const bytes = { text: 0 };
    const t0 = performance.now();
    const store = openEmbeddedStore(sb.dbPath);
    for (const writes of memory(RESOURCES, bytes)) await store.putResources(writes);
    const stats = await store.memoryStats();
    await store.close();
    const built = performance.now() - t0;
    const db = new DatabaseSync(sb.dbPath);
    const index = Number(
      (db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name LIKE 'search_index%'").get() as {
        n: number;
      }).n,
    );
    db.close();
    console.log(
      `embedded: ${
        stats.resources.issue + stats.resources.pull_request + stats.resources.repository
      } ` +
        `Resources, ${stats.comments} comments, built in ${time(built)}; store ${
          (stats.size_bytes! / 2 ** 20).toFixed(0)
        } MB`,
    );
    console.log(
      `  index ${(index / 2 ** 20).toFixed(1)} MB for ${(bytes.text / 2 ** 20).toFixed(1)} MB of ` +
        `text: ${(index / bytes.text).toFixed(2)}× [target ≤ 1×: ${ok(index <= bytes.text)}]`,
    );

    const client = await connect(sb, "bench");
    try {
      const call = async (a: Record<string, unknown>) => {
        const t = performance.now();
        const r = await client.callTool({ name: "resource", arguments: a });
        const ms = performance.now() - t;
        if (r.isError) throw new Error(JSON.stringify(r.content));
        return { ms, text: (r.content as { text: string }[])[0].text };
      };
      // Warm both paths (prepared statements, page cache), then measure.
      await call({ address: "github:bench-1/repo-1#3" });
      await call({ search: VOCABULARY[300] });
      const reads: number[] = [];
      for (let i = 0; i < 50; i++) {
        reads.push((await call({ address: `github:bench-${i % 50}/repo-${i % 50}#${1 + i}` })).ms);
      }
      const byKind = new Map<string, number[]>();
      const all: number[] = [];
      let hits = 0;
      for (const q of queries()) {
        const args: Record<string, unknown> = { search: q.args.text };
        if (q.args.repo) args.repo = q.args.repo;
        if (q.args.kind) args.kind = q.args.kind;
        const { ms, text } = await call(args);
        if (text.startsWith("rgraph: hit")) hits++;
        all.push(ms);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
      const worst: number[] = [];
      for (let i = 0; i < 10; i++) worst.push((await call({ search: VOCABULARY[0] })).ms);
      console.log(
        `  reference, same server: resource(address) of one issue p95 ${
          p95(reads).toFixed(1)
        } ms ` +
          `(median ${median(reads).toFixed(1)})`,
      );
      console.log(
        `  search p95 ${p95(all).toFixed(1)} ms over ${all.length} searches (${hits} hits; median ${
          median(all).toFixed(1)
        }) [target ≤ 50 ms: ${ok(p95(all) <= 50)}]; ${
          (p95(all) / p95(reads)).toFixed(1)
        }× the address read`,
      );
      for (const [kind, ms] of byKind) {
        console.log(`    ${kind}: p95 ${p95(ms).toFixed(1)} ms, median ${median(ms).toFixed(1)}`);
      }
      console.log(
        `  the commonest word (in nearly every Resource) alone: p95 ${p95(worst).toFixed(1)} ms`,
      );
    } finally {
      await client.close();
    }
  } finally {
    await sb.cleanup();
  }
}

// --- 2. The Sweep, with and without indexing ------------------------------------------

async function sweeps(): Promise<void> {
  const gh = await startEmulator({ latencyMs: 300 });
  const before = await Deno.makeTempDir({ prefix: "rgraph-before-search-" });
  const repoRoot = new URL("../../", import.meta.url).pathname;
  // The tree as it was, unpacked (no worktree: the repository's own metadata stays untouched).
  const unpacked = await new Deno.Command("bash", {
    args: ["-c", `git archive ${BEFORE} | tar -x -C '${before}'`],
    cwd: repoRoot,
  }).output();
  if (unpacked.code !== 0) throw new Error(`could not unpack ${BEFORE}`);
  const list = `gh issue list -R ${FACTS.big.owner}/${FACTS.big.name} --state open --limit 1000 ` +
    "--json number,title,body,comments";
  const extra =
    `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`;
  /** One Sweep of the Listing in a fresh sandbox by the code at `root`; its wall time. */
  const once = async (root: string): Promise<number> => {
    const sb: Sandbox = await sandbox({ extra });
    try {
      const main = `${root}/main.ts`;
      const run = (args: string[], stdin?: string) =>
        new Deno.Command(Deno.execPath(), {
          args: ["run", ...RGRAPH_FLAGS, main, ...args],
          env: sb.env,
          cwd: sb.dir,
          stdin: stdin === undefined ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
      const hook = run(["hook", "claude-code"], "");
      const w = hook.stdin.getWriter();
      await w.write(
        new TextEncoder().encode(
          bashCallPayload(list, { session: "bench", toolUse: "toolu_1", cwd: sb.dir }),
        ),
      );
      await w.close();
      await hook.output();
      const t = performance.now();
      const out = await run(["sweep", "--json"]).output();
      const ms = performance.now() - t;
      if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
      return ms;
    } finally {
      await sb.cleanup();
    }
  };
  try {
    const withIndex: number[] = [], without: number[] = [];
    for (let round = 0; round < SWEEPS; round++) {
      without.push(await once(before));
      withIndex.push(await once(repoRoot.replace(/\/$/, "")));
    }
    const ratio = median(withIndex) / median(without);
    console.log(
      `Sweep of the 720-issue Listing (300 ms latency), median of ${SWEEPS}: with the index ${
        time(median(withIndex))
      }, before search (${BEFORE}) ${time(median(without))}: ${ratio.toFixed(2)}× ` +
        `[target ≤ 1.1×: ${ok(ratio <= 1.1)}]`,
    );
  } finally {
    await Deno.remove(before, { recursive: true });
    await gh.close();
  }
}

// --- 3. Neo4j ----------------------------------------------------------------------

async function graph(): Promise<void> {
  const { url, stop } = await freshServer();
  try {
    const store: Store = await connectGraph({ url, user: null, password: null, database: null });
    try {
      const t0 = performance.now();
      for (const writes of memory(GRAPH, { text: 0 })) await store.putResources(writes);
      console.log(`Neo4j: ${GRAPH} Resources built in ${time(performance.now() - t0)}`);
      await store.search(searchRequest({ text: VOCABULARY[300] }));
      const reads: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await store.getResource(`github:bench-${i % 50}/repo-${i % 50}#${1 + i}`);
        reads.push(performance.now() - t);
      }
      const all: number[] = [];
      const byKind = new Map<string, number[]>();
      for (const q of queries()) {
        const t = performance.now();
        await store.search(searchRequest(q.args));
        const ms = performance.now() - t;
        all.push(ms);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
      const worst: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await store.search(searchRequest({ text: VOCABULARY[0] }));
        worst.push(performance.now() - t);
      }
      console.log(
        `  reference: getResource of one issue p95 ${p95(reads).toFixed(1)} ms; search p95 ${
          p95(all).toFixed(1)
        } ms over ${all.length} (median ${median(all).toFixed(1)}) [target ≤ 300 ms: ${
          ok(p95(all) <= 300)
        }]`,
      );
      for (const [kind, ms] of byKind) {
        console.log(`    ${kind}: p95 ${p95(ms).toFixed(1)} ms, median ${median(ms).toFixed(1)}`);
      }
      console.log(
        `  the commonest word alone (counted to 1,000): p95 ${p95(worst).toFixed(1)} ms`,
      );
    } finally {
      await store.close();
    }
  } finally {
    await stop();
  }
}

if (RESOURCES > 0) await embedded();
if (SWEEPS > 0) await sweeps();
if (GRAPH > 0) await graph();
