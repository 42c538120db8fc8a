/**
 * The "500 issues" workload: one Touch of a Listing of every open issue of
 * the emulator's big repository (720, full depth: bodies and every comment,
 * threads up to 300 comments), swept by a real `rgraph sweep` process against
 * the emulator with 300 ms of latency per request.
 *
 * Figures: GitHub requests, wall time and peak memory of the Sweep process
 * (targets ≤ 12 requests, ≤ 6 s, < 200 MB); the second identical Touch
 * (target ≤ 1 request); a Cache Read (target 0); requests per item without a
 * token (target ≤ 2 for an issue with ≤ 100 comments; a repository's first
 * item brings the repository, +2). Reference measured in the same run: one
 * raw GraphQL round trip to the same emulator.
 *
 * The "go over the open issues" day-1 workload: the same Listing, then 120
 * `gh issue view N --comments` of its members, one pull request and the
 * repository, all swept at once. Target: at most the Listing's own pages + 1
 * request per thread longer than one page + 2 (the floor, computed from the
 * emulator's data); reference: the Listing alone, swept in the same run.
 *
 * @module
 */

import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";
import { bashCallPayload, RGRAPH_FLAGS, type Sandbox, sandbox } from "../helpers.ts";

const LATENCY = 300;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const REPO = `${FACTS.big.owner}/${FACTS.big.name}`;
const LIST = `gh issue list -R ${REPO} --state open --limit 1000 --json number,title,body,comments`;

let toolUse = 0;
async function touch(sb: Sandbox, command: string): Promise<void> {
  const stdin = bashCallPayload(command, {
    session: "bench",
    toolUse: `toolu_bench_${++toolUse}`,
    cwd: sb.dir,
  });
  const r = await sb.rgraph(["hook", "claude-code"], { stdin });
  if (r.code !== 0) throw new Error(`hook failed: ${r.stderr}`);
}

/** Peak resident memory (VmHWM) of a running process, in kB; null once it has exited. */
function peakKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Runs `rgraph sweep --json`, sampling its peak memory while it runs. */
async function sweep(sb: Sandbox) {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RGRAPH_FLAGS, MAIN, "sweep", "--json"],
    env: sb.env,
    cwd: sb.dir,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let peak = 0;
  const sampler = setInterval(() => {
    const kb = peakKb(child.pid);
    if (kb !== null) peak = Math.max(peak, kb);
  }, 10);
  const out = await child.output();
  clearInterval(sampler);
  const wall = performance.now() - t0;
  if (out.code !== 0) throw new Error(`sweep failed: ${new TextDecoder().decode(out.stderr)}`);
  const summary = JSON.parse(new TextDecoder().decode(out.stdout));
  return { summary, wall, peakMb: peak / 1024 };
}

const gh = await startEmulator({ latencyMs: LATENCY });
const config = (token: boolean) =>
  `[github]\n${
    token ? `token = "${gh.token}"\n` : ""
  }api_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`;
const sb = await sandbox({ extra: config(true) });
const anon = await sandbox({ extra: config(false) });

try {
  // Reference: one raw GraphQL round trip (latency included), and a Deno start.
  let t = performance.now();
  const res = await fetch(gh.graphqlUrl, {
    method: "POST",
    headers: { authorization: `bearer ${gh.token}` },
    body: JSON.stringify({ query: "{ rateLimit { remaining } }" }),
  });
  await res.body?.cancel();
  const roundTrip = performance.now() - t;
  t = performance.now();
  await new Deno.Command(Deno.execPath(), { args: ["eval", "0"] }).output();
  const denoStart = performance.now() - t;

  await touch(sb, LIST);
  gh.resetCounts();
  const first = await sweep(sb);
  const firstRequests = gh.requests().total;

  await touch(sb, LIST);
  gh.resetCounts();
  const second = await sweep(sb);
  const secondRequests = gh.requests().total;

  gh.resetCounts();
  const look = await sb.rgraph(["lookup", "--json", `github:${REPO}/issues?state=open`]);
  const cacheRequests = gh.requests().total;
  const lookOutcome = look.code === 0 ? JSON.parse(look.stdout).outcome : `exit ${look.code}`;

  // Without a token: one issue with exactly 100 comments (its repository comes with the first
  // item: two requests more), then one with none.
  await touch(anon, `gh issue view ${FACTS.big.exactPageThread.number} -R ${REPO} --comments`);
  gh.resetCounts();
  await sweep(anon);
  const anonFull = gh.requests().total - 2;
  await touch(anon, `gh issue view ${FACTS.big.noComments.number} -R ${REPO}`);
  gh.resetCounts();
  await sweep(anon);
  const anonEmpty = gh.requests().total;

  // Day 1: the Listing, then 120 of its members one by one, a pull request, the repository.
  const repo = gh.dataset.repo(FACTS.big.owner, FACTS.big.name)!.repo;
  const open = [...repo.items.values()].filter((i) => i.kind === "issue" && i.state === "OPEN")
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  const longer = (n: number) => n > 100;
  const longThreads = open.filter((i) => longer(i.comments.length) || longer(i.timeline.length));
  const pr = repo.items.get(FACTS.detailedPull.number)!;
  const floor = Math.ceil(open.length / 100) + longThreads.length + 2;
  const reading = open.slice(0, 120).map((i) => i.number);
  const day1 = await sandbox({ extra: config(true) });
  const alone = await sandbox({ extra: config(true) });
  let day1Requests = 0, aloneRequests = 0, day1Wall = 0, day1Touches = 0, day2 = "";
  try {
    await touch(alone, LIST);
    gh.resetCounts();
    await sweep(alone);
    aloneRequests = gh.requests().total;

    await touch(day1, LIST);
    for (const n of reading) await touch(day1, `gh issue view ${n} -R ${REPO} --comments`);
    await touch(day1, `gh pr view ${pr.number} -R ${REPO}`);
    await touch(day1, `gh repo view ${REPO}`);
    gh.resetCounts();
    const run = await sweep(day1);
    day1Requests = gh.requests().total;
    day1Wall = run.wall;
    day1Touches = run.summary.touches;
    gh.resetCounts();
    const next = await day1.rgraph(["lookup", "--json", `github:${REPO}#${reading[119]}`]);
    day2 = `day 2: lookup of a member ${JSON.parse(next.stdout).outcome}, ` +
      `${gh.requests().total} requests`;
  } finally {
    await day1.cleanup();
    await alone.cleanup();
  }

  const s = first.summary;
  const ok = (cond: boolean) => (cond ? "ok" : "MISSED");
  console.log(
    `reference: one GraphQL round trip ${
      roundTrip.toFixed(0)
    } ms (latency ${LATENCY} ms); deno start ${denoStart.toFixed(0)} ms`,
  );
  console.log(
    `first Touch (${s.resources_written} resources: the issues and their repository, listing ` +
      `fully expanded): ${firstRequests} requests ` +
      `[target ≤ 12: ${ok(firstRequests <= 12)}], wall ${(first.wall / 1000).toFixed(2)} s ` +
      `(sweep itself ${(s.elapsed_ms / 1000).toFixed(2)} s) [target ≤ 6 s: ${
        ok(first.wall <= 6000)
      }], ` +
      `peak memory ${first.peakMb.toFixed(0)} MB [target < 200: ${ok(first.peakMb < 200)}]`,
  );
  console.log(
    `  ratios: wall = ${(first.wall / roundTrip).toFixed(1)} round trips; ` +
      `${(s.resources_written / firstRequests).toFixed(0)} issues per request; ` +
      `sweep time / (requests × round trip) = ${
        (s.elapsed_ms / (firstRequests * roundTrip)).toFixed(2)
      }`,
  );
  console.log(
    `second identical Touch: ${secondRequests} request(s) [target ≤ 1: ${
      ok(secondRequests <= 1)
    }], ` +
      `wall ${(second.wall / 1000).toFixed(2)} s, ${second.summary.resources_written} refetched`,
  );
  console.log(
    `Cache Read (lookup, outcome ${lookOutcome}): ${cacheRequests} requests [target 0: ${
      ok(cacheRequests === 0)
    }]`,
  );
  console.log(
    `without a token: ${anonFull} requests for an issue with ${FACTS.big.exactPageThread.comments} comments ` +
      `(+2 for its repository, the first time) [target ≤ 2: ${
        ok(anonFull <= 2)
      }], ${anonEmpty} for an issue with none`,
  );
  console.log(
    `day 1 ("go over the open issues"): ${day1Touches} Touches (the Listing, ${reading.length} ` +
      `members with --comments, a pull request, the repository): ${day1Requests} requests ` +
      `[floor ${floor} = ${Math.ceil(open.length / 100)} pages + ${longThreads.length} threads ` +
      `longer than a page + 2: ${ok(day1Requests <= floor)}], wall ${
        (day1Wall / 1000).toFixed(2)
      } s (${(day1Wall / roundTrip).toFixed(1)} round trips)`,
  );
  console.log(
    `  reference, same run: the Listing alone ${aloneRequests} requests; the other ${
      day1Touches - 1
    } Touches cost ${day1Requests - aloneRequests}; ${day2}`,
  );
} finally {
  await gh.close();
  await sb.cleanup();
  await anon.cleanup();
}
