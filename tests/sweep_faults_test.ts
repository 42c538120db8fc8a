/**
 * GitHub failing on single items, through real `rgraph hook` and `rgraph
 * sweep` processes against the emulator injecting the failures: an error
 * attached to one node is classified by its type and by what REST then
 * says (a 200 is never not found); a batch failing as a whole is split so
 * every good item in it resolves in the same Sweep; an item GitHub fails on
 * alone in 3 consecutive Sweeps is settled `unavailable` with GitHub's
 * message, and a new FETCHED Touch of it is tried again.
 */

import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { bashCallPayload, type Sandbox, sandbox } from "./helpers.ts";
import type { SweepSummary } from "../lib/sweep/mod.ts";

const { owner: OWNER, name: NAME } = FACTS.big;

interface TouchRow {
  address: string;
  status: string;
  reason: string | null;
  detail: string | null;
  failures: number;
}

/** A sandbox whose config points at a fresh emulator (`token` null: anonymous REST). */
async function setUp(token: "token" | null): Promise<{ gh: Emulator; sb: Sandbox }> {
  const gh = await startEmulator();
  const sb = await sandbox({
    extra: `[github]\n${token ? `token = "${gh.token}"\n` : ""}api_url = "${gh.apiUrl}"\n` +
      `graphql_url = "${gh.graphqlUrl}"\n`,
  });
  return { gh, sb };
}

let call = 0;

/** An agent's `gh issue view N`, captured by the Claude Code hook: one FETCHED Touch each call. */
async function view(sb: Sandbox, n: number): Promise<void> {
  const stdin = bashCallPayload(`gh issue view ${n} -R ${OWNER}/${NAME}`, {
    session: "faults",
    toolUse: `toolu_faults_${++call}`,
    cwd: sb.dir,
  });
  const r = await sb.rgraph(["hook", "claude-code"], { stdin });
  assert.equal(r.code, 0, r.stderr);
}

async function sweep(sb: Sandbox): Promise<SweepSummary> {
  const r = await sb.rgraph(["sweep", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function touches(sb: Sandbox): Promise<TouchRow[]> {
  const r = await sb.rgraph(["touches", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const key = (n: number) => `github:${OWNER}/${NAME}#${n}`;

function of(rows: TouchRow[], n: number): TouchRow[] {
  return rows.filter((t) => t.address === key(n));
}

Deno.test("a one-off INTERNAL error on one item: REST finds it, so it stays pending (never not_found) and the next Sweep resolves it", async () => {
  const { gh, sb } = await setUp("token");
  try {
    const [good, flaky] = [FACTS.big.noComments.number, FACTS.big.exactPageThread.number];
    await view(sb, good);
    await view(sb, flaky);
    gh.faultItem(OWNER, NAME, flaky, { kind: "node", type: "INTERNAL" }, 1);
    gh.resetCounts();
    const first = await sweep(sb);
    assert.deepEqual([first.resolved, first.pending, first.unresolved], [1, 1, {}]);
    assert.ok(gh.requests().rest >= 1, "the follow-up asked REST, which answered 200");
    assert.ok(first.errors.some((e) => e.startsWith(`${key(flaky)}: GitHub GraphQL: INTERNAL: `)));
    const [t] = of(await touches(sb), flaky);
    assert.deepEqual([t.status, t.reason, t.failures], ["pending", null, 1]);
    assert.match(t.detail!, /^GitHub GraphQL: INTERNAL: An internal error occurred/);

    const second = await sweep(sb);
    assert.deepEqual([second.resolved, second.unresolved], [1, {}]);
    const [done] = of(await touches(sb), flaky);
    assert.deepEqual([done.status, done.detail], ["resolved", null]);
  } finally {
    await gh.close();
    await sb.cleanup();
  }
});

Deno.test("items GitHub keeps failing: their batch is split so the rest resolve at once; after 3 Sweeps they are unavailable with GitHub's message; a new FETCHED Touch tries again", async () => {
  const { gh, sb } = await setUp("token");
  try {
    const numbers = [101, 102, 103, 104, 105, 106];
    for (const n of numbers) await view(sb, n);
    gh.faultItem(OWNER, NAME, 103, { kind: "request", failure: "graphql-timeout" });
    gh.faultItem(OWNER, NAME, 105, { kind: "request", failure: 502 });
    gh.resetCounts();
    const first = await sweep(sb);
    assert.deepEqual([first.resolved, first.pending, first.unresolved], [4, 2, {}]);
    // The batch tried whole (with retries), then halves asked once each, down to the two items.
    assert.ok(gh.requests().graphql <= 14, `${gh.requests().graphql} GraphQL requests`);
    let rows = await touches(sb);
    for (const n of [101, 102, 104, 106]) assert.equal(of(rows, n)[0].status, "resolved");
    for (const n of [103, 105]) {
      assert.deepEqual([of(rows, n)[0].status, of(rows, n)[0].failures], ["pending", 1]);
    }

    const second = await sweep(sb);
    assert.deepEqual([second.pending, second.unresolved], [2, {}]);
    const third = await sweep(sb);
    assert.deepEqual([third.pending, third.unresolved], [0, { unavailable: 2 }]);
    rows = await touches(sb);
    const [timedOut] = of(rows, 103), [broken] = of(rows, 105);
    assert.deepEqual([timedOut.status, timedOut.reason], ["unresolved", "unavailable"]);
    assert.match(timedOut.detail!, /Something went wrong while executing your query/);
    assert.deepEqual([broken.status, broken.reason], ["unresolved", "unavailable"]);
    assert.equal(broken.detail, "GitHub GraphQL HTTP 502: Server Error");
    const stats = JSON.parse((await sb.rgraph(["stats", "--json"])).stdout);
    assert.equal(JSON.stringify(stats).includes('"unavailable":2'), true, JSON.stringify(stats));

    // Settled: a fourth Sweep leaves them alone; a new FETCHED Touch of one is tried again.
    gh.clearFaults();
    assert.equal((await sweep(sb)).touches, 0);
    await view(sb, 103);
    const fourth = await sweep(sb);
    assert.deepEqual([fourth.touches, fourth.resolved], [1, 1]);
    // Newest first: the new Touch resolved, the old one stays unavailable.
    assert.deepEqual(of(await touches(sb), 103).map((t) => t.status), ["resolved", "unresolved"]);
  } finally {
    await gh.close();
    await sb.cleanup();
  }
});

Deno.test("anonymous REST: a 404 is not found, any other failing status is retried and, three Sweeps on, unavailable", async () => {
  const { gh, sb } = await setUp(null);
  try {
    const good = FACTS.big.noComments.number;
    for (const n of [good, 500, 2000]) await view(sb, n); // 2000: past the last number, 404
    gh.faultItem(OWNER, NAME, 500, { kind: "request", failure: 451 });
    const first = await sweep(sb);
    assert.deepEqual([first.resolved, first.pending, first.unresolved], [1, 1, { not_found: 1 }]);
    await sweep(sb);
    const third = await sweep(sb);
    assert.deepEqual(third.unresolved, { unavailable: 1 });
    const [t] = of(await touches(sb), 500);
    assert.deepEqual([t.reason, t.detail], ["unavailable", "GitHub REST answered HTTP 451"]);
  } finally {
    await gh.close();
    await sb.cleanup();
  }
});

Deno.test("no answer at all (GitHub unreachable) counts nothing against an item", async () => {
  const sb = await sandbox({
    extra: `[github]\ntoken = "t"\napi_url = "http://127.0.0.1:9"\n` +
      `graphql_url = "http://127.0.0.1:9/graphql"\n`,
  });
  try {
    await view(sb, 1);
    const s = await sweep(sb);
    assert.deepEqual([s.resolved, s.pending, s.unresolved], [0, 1, {}]);
    const [t] = await touches(sb);
    assert.deepEqual([t.status, t.failures, t.detail], ["pending", 0, null]);
  } finally {
    await sb.cleanup();
  }
});
