/**
 * The "500 issues" workload: one Touch of a Listing of every open issue of
 * the emulator's big repository (720, full depth: bodies and every comment,
 * threads up to 300 comments), swept by a real `rgraph sweep` process against
 * the emulator with 300 ms of latency per request.
 *
 * Figures: GitHub requests, wall time and peak memory of the Sweep process
 * (targets ≤ 12 requests, ≤ 6 s, < 200 MB); the second identical Touch
 * (target ≤ 1 request); a Cache Read (target 0); requests per item without a
 * token (target ≤ 2 for an issue with ≤ 100 comments). Reference measured in
 * the same run: one raw GraphQL round trip to the same emulator.
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

  // Without a token: one issue with exactly 100 comments, one with none.
  await touch(anon, `gh issue view ${FACTS.big.exactPageThread.number} -R ${REPO} --comments`);
  gh.resetCounts();
  await sweep(anon);
  const anonFull = gh.requests().total;
  await touch(anon, `gh issue view ${FACTS.big.noComments.number} -R ${REPO}`);
  gh.resetCounts();
  await sweep(anon);
  const anonEmpty = gh.requests().total;

  const s = first.summary;
  const ok = (cond: boolean) => (cond ? "ok" : "MISSED");
  console.log(
    `reference: one GraphQL round trip ${
      roundTrip.toFixed(0)
    } ms (latency ${LATENCY} ms); deno start ${denoStart.toFixed(0)} ms`,
  );
  console.log(
    `first Touch (${s.resources_written} issues, listing fully expanded): ${firstRequests} requests ` +
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
      `[target ≤ 2: ${ok(anonFull <= 2)}], ${anonEmpty} for an issue with none`,
  );
} finally {
  await gh.close();
  await sb.cleanup();
  await anon.cleanup();
}
