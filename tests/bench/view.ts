/**
 * View benchmark (`deno task bench view`, issue 21): `rgraph view` on an
 * embedded store of 10,000 Resources (issues and pull requests with 1–3 KB
 * bodies and comments, over 50 repositories) and 10,000 of the user's
 * Touches, opened in headless chromium.
 *
 * Figures: the first load of each main view (from navigation to the page
 * having drawn its answer; a fresh browser context each time, so nothing is
 * cached) and the bytes it transferred; and the hook's wall time with the
 * page open and polling (re-rendering after every Touch the hook records)
 * against the page closed, and likewise one MCP `resource` call answered by
 * a running `rgraph serve-mcp`, in alternating blocks of the same run.
 * Reference, same run: `rgraph lookup` of one stored issue (a real process).
 *
 * @module
 */

// The page's global inside `page.evaluate` callbacks (which run in the browser).
declare const document: any;
import { openEmbeddedStore } from "../../lib/store/mod.ts";
import type { NewTouch } from "../../lib/types.ts";
import { issue, pull, repository } from "../fixtures_memory.ts";
import { RGRAPH_FLAGS, sandbox } from "../helpers.ts";
import { launchChromium, startView } from "../view_helpers.ts";
import { ask, connect } from "../mcp_client.ts";

const RESOURCES = 10_000;
const TOUCHES = 10_000;
const REPOS = 50;
const RUNS = Number(Deno.env.get("RGRAPH_BENCH_RUNS") ?? 12);
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

const sb = await sandbox();
{
  const started = performance.now();
  const store = openEmbeddedStore(sb.dbPath);
  const body = "The planner rewrites nested MATCH clauses before costing them; ".repeat(30);
  let batch = [];
  for (let r = 0; r < REPOS; r++) batch.push({ resource: repository(`bench-${r}`, `repo-${r}`) });
  for (let i = 0; i < RESOURCES - REPOS; i++) {
    const [owner, repo, n] = [`bench-${i % REPOS}`, `repo-${i % REPOS}`, Math.floor(i / REPOS) + 1];
    const o = { body: body.slice(0, 1024 + (i % 2048)), comments: i % 6 };
    batch.push({ resource: i % 4 === 3 ? pull(owner, repo, n, o) : issue(owner, repo, n, o) });
    if (batch.length === 500) {
      await store.putResources(batch);
      batch = [];
    }
  }
  await store.putResources(batch);
  const touches: NewTouch[] = Array.from({ length: TOUCHES }, (_, i) => ({
    user_id: "alice",
    session_id: `session-${Math.floor(i / 200)}`,
    provenance: "FETCHED",
    address: `github:bench-${i % REPOS}/repo-${i % REPOS}#${1 + (i % 190)}`,
    kind: "item",
    limit: null,
    tool_name: "Bash",
    tool_use_id: `toolu_${i}`,
    agent_id: null,
    harness: "claude-code",
    recorded_at: new Date(Date.parse("2026-11-01T00:00:00Z") + i * 60_000).toISOString(),
    dedup_key: `bench-${i}`,
    status: i % 4 === 0 ? "served" : "resolved",
    outcome: i % 4 === 0 ? (i % 8 === 0 ? "hit" : "miss") : null,
    target: `github:bench-${i % REPOS}/repo-${i % REPOS}#${1 + (i % 190)}`,
  }));
  await store.recordTouches(touches);
  await store.close();
  console.log(
    `built ${RESOURCES} Resources, ${TOUCHES} Touches in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
}

async function wall(args: string[], stdin?: string): Promise<number> {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RGRAPH_FLAGS, MAIN, ...args],
    env: sb.env,
    cwd: sb.dir,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const { code } = await child.status;
  if (code !== 0) throw new Error(`rgraph ${args.join(" ")} exited ${code}`);
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

const lookups: number[] = [];
for (let i = 0; i < 5; i++) lookups.push(await wall(["lookup", "github:bench-0/repo-0#1"]));
const reference = median(lookups);
console.log(`reference: rgraph lookup ${ms(reference)} (median of ${lookups.length})`);

const view = await startView(sb);
const browser = await launchChromium();
try {
  // The server's own answer times, without a browser.
  for (const path of ["/api/change", "/api/sessions", "/api/memory", "/api/value"]) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${view.port}${path}`, {
        headers: { "x-rgraph-token": view.token },
      });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
    console.log(`answer ${path.padEnd(14)} ${ms(median(times)).padStart(8)}`);
  }
  for (
    const hash of ["#/sessions", "#/memory", "#/value", "#/resource/github%3Abench-0%2Frepo-0%231"]
  ) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const client = await page.createCDPSession();
      await client.send("Network.enable");
      let transferred = 0;
      client.on("Network.loadingFinished", (e) => (transferred += e.encodedDataLength));
      const t0 = performance.now();
      await page.goto(`${view.url}${hash}`, { waitUntil: "domcontentloaded" });
      await page.waitForSelector("body[data-rendered]", { timeout: 60_000 });
      times.push(performance.now() - t0);
      bytes = transferred;
      await context.close();
    }
    console.log(
      `first load ${hash.padEnd(42)} ${ms(median(times)).padStart(8)} (${
        (median(times) / reference).toFixed(2)
      }× lookup), ${(bytes / 1024).toFixed(0)} KB transferred`,
    );
  }

  // The hook with the page closed, then open (polling, redrawing Sessions after each new Touch), alternating.
  const page = await browser.newPage();
  const mcp = await connect(sb);
  await ask(mcp, "github:bench-0/repo-0#1");
  const closed: number[] = [], open: number[] = [];
  const askClosed: number[] = [], askOpen: number[] = [];
  let n = 0;
  const hook = () =>
    wall(
      ["hook", "claude-code"],
      JSON.stringify({
        session_id: "bench-live",
        cwd: sb.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: `gh issue view ${++n} -R bench-1/repo-1` },
        tool_use_id: `toolu_live_${n}`,
      }),
    );
  for (let block = 0; block < 8; block++) {
    const isOpen = block % 2 === 1;
    if (isOpen) {
      await page.goto(`${view.url}#/sessions`, { waitUntil: "domcontentloaded" });
      await page.waitForSelector("body[data-rendered]");
    } else await page.goto("about:blank");
    for (let i = 0; i < RUNS / 4; i++) {
      (isOpen ? open : closed).push(await hook());
      const t0 = performance.now();
      await ask(mcp, `github:bench-0/repo-0#${1 + (n % 150)}`);
      (isOpen ? askOpen : askClosed).push(performance.now() - t0);
      // Let the page see the change and redraw before the next hook, as a person's pace would.
      await new Promise((r) => setTimeout(r, 1600));
    }
  }
  const rendered = await page.evaluate(() => Number(document.body.dataset.rendered));
  console.log(
    `hook, page closed: ${ms(median(closed))}; page open: ${ms(median(open))} (${
      (median(open) / median(closed)).toFixed(2)
    }×, ${open.length} runs each; the open page redrew ${rendered} times in its last block)`,
  );
  console.log(
    `MCP resource call, page closed: ${ms(median(askClosed))}; page open: ${ms(median(askOpen))} (${
      (median(askOpen) / median(askClosed)).toFixed(2)
    }×)`,
  );
  await mcp.close();
} finally {
  await browser.close();
  await view.stop();
  await sb.cleanup();
}
