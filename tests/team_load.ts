/**
 * A team on one graph server at once, as the load test and `deno task bench
 * team` run it: each teammate with their own config and outbox records
 * Touches through real `rgraph hook` processes, sweeps them with two `rgraph
 * sweep` processes at once, and has an `rgraph serve-mcp` answering `resource`
 * in a loop the whole time; one teammate's Sweep is killed with `kill -9`
 * while it holds its leases, and that teammate sweeps again until its
 * Touches are settled. The GitHub emulator counts the team's requests; a
 * single user's Sweep of the same union, on an emulator of its own, is the
 * reference.
 *
 * @example
 * ```ts
 * const report = await teamLoad({ url, users: 6, hooks: 30, latencyMs: 20, leaseSeconds: 8 });
 * console.log(reportTable(report));
 * ```
 * @module
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { rgraphCommand, type Sandbox, sandbox } from "./helpers.ts";
import { ask, connect } from "./mcp_client.ts";
import { read, wipe } from "./graph_helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { touch } from "./store_contract.ts";
import type { SweepSummary } from "../lib/sweep/mod.ts";

/** How big a load, and how fast GitHub answers. */
export interface TeamLoadOptions {
  url: string;
  users: number;
  /** Hook processes per user (each one Touch). */
  hooks: number;
  latencyMs: number;
  /** `rgraph sweep --lease` (seconds); none: the default (30 s, renewed every 7.5 s while a Sweep lives). */
  leaseSeconds?: number;
}

/** What the run saw: the load table's row and what the assertions check. */
export interface TeamLoadReport {
  users: number;
  hooks: number;
  /** Touches the hooks recorded, as `rgraph touches` shows them (of `users × hooks`). */
  touches: number;
  /** Touches shown with an id or a hook's tool-call id shown twice. */
  duplicateTouches: number;
  /** Touches still pending (or rate-limited) at the end, and others' Touches a user saw. */
  unsettled: number;
  foreign: number;
  /** Sweeps run to the end (the killed one and the teammate's recovery Sweeps apart). */
  sweeps: number;
  /** Sweeps that exited non-zero or reported an error. */
  failedSweeps: string[];
  answers: number;
  errorAnswers: string[];
  /** GitHub requests: the team's, and one user's for the same union of addresses. */
  requests: number;
  /** The Sweeps that sent any, with how many (the killed one's are not reported). */
  senders: string[];
  reference: number;
  /** From the `kill -9` until every Touch of the killed Sweep's user was settled. */
  recoveryMs: number;
  /** Nodes sharing a node_id, Listings sharing a key. */
  duplicateNodes: number;
  duplicateListings: number;
  elapsedMs: number;
}

const { owner: BIG_OWNER, name: BIG } = FACTS.big;
const { owner: PY_OWNER, name: PY } = FACTS.pythonClient;

/**
 * What the team reads, as the hook sees an agent read it: two repositories,
 * a labelled Listing, the long threads (their comments take pages of their
 * own), an issue of a renamed repository (asked by its old name), then
 * issues and pull requests of both repositories taking turns (so any first
 * `n` hold some of each).
 */
function pool(): { command: string; key: string }[] {
  const threads = [FACTS.big.longThread, ...FACTS.big.otherLongThreads].map((t) => t.number);
  const big = [
    ...threads,
    ...Array.from({ length: 60 }, (_, i) => 100 + i),
  ].map((n) => [BIG_OWNER, BIG, n] as const);
  const py = Array.from({ length: 10 }, (_, i) => [PY_OWNER, PY, 1 + i] as const);
  const items = big.flatMap((b, i) => (i < py.length ? [b, py[i]] : [b])).map(([o, r, n]) => ({
    command: `gh issue view ${n} -R ${o}/${r}`,
    key: `github:${o}/${r}#${n}`,
  }));
  const { owner: RN_OWNER, oldName: RN, issueNumber: RN_ISSUE } = FACTS.renamed;
  return [
    { command: `gh repo view ${BIG_OWNER}/${BIG}`, key: `github:${BIG_OWNER}/${BIG}` },
    {
      command: `gh issue view ${RN_ISSUE} -R ${RN_OWNER}/${RN}`,
      key: `github:${RN_OWNER}/${RN}#${RN_ISSUE}`,
    },
    { command: `gh repo view ${PY_OWNER}/${PY}`, key: `github:${PY_OWNER}/${PY}` },
    {
      command: `gh issue list -R ${BIG_OWNER}/${BIG} --label "good first issue"`,
      key: `github:${BIG_OWNER}/${BIG}/issues?label=good%20first%20issue&state=open`,
    },
    ...items,
  ];
}

/**
 * A user's `n` reads: the team's shared workload (the pool's first `n`, or
 * all of it), each teammate in their own order, seeded.
 */
function readsOf(user: number, n: number): { command: string; key: string }[] {
  const all = pool().slice(0, n);
  let seed = 7919 * (user + 1);
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  // More reads than the pool holds: the agent reads some things again.
  return Array.from({ length: n }, (_, i) => all[i % all.length]);
}

/** Runs `jobs` with at most `width` at a time. */
async function pooled<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  }));
  return out;
}

/** A teammate: their own sandbox, config (no automatic Sweeps: the test starts them) and outbox. */
async function teammate(user: string, url: string, gh: Emulator): Promise<Sandbox> {
  const sb = await sandbox({ userId: user });
  await sb.writeConfig(
    `[identity]\nuser_id = "${user}"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n` +
      `url = "${url}"\n[sweep]\nauto = false\n[github]\ntoken = "${gh.token}"\n` +
      `api_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`,
  );
  return sb;
}

/** A running `rgraph sweep --json` of `sb`. */
function startSweep(sb: Sandbox, leaseSeconds: number | undefined): Deno.ChildProcess {
  const { command, args } = rgraphCommand();
  const lease = leaseSeconds === undefined ? [] : ["--lease", String(leaseSeconds)];
  return new Deno.Command(command, {
    args: [...args, "sweep", "--json", ...lease],
    env: sb.env,
    cwd: sb.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** A Sweep's end: why it failed (null: it did not), and the GitHub requests it sent. */
async function ended(
  child: Deno.ChildProcess,
  who: string,
): Promise<{ failure: string | null; requests: number }> {
  const out = await child.output();
  const text = new TextDecoder();
  if (out.code !== 0) {
    return { failure: `${who}: exit ${out.code}: ${text.decode(out.stderr).trim()}`, requests: 0 };
  }
  const summary = JSON.parse(text.decode(out.stdout)) as SweepSummary;
  const failure = summary.errors.length ? `${who}: ${summary.errors.join("; ")}` : null;
  return { failure, requests: summary.requests };
}

/** One user's Sweep of the union on an emulator of its own: the requests one user sends. */
async function reference(keys: string[], latencyMs: number): Promise<number> {
  const gh = await startEmulator({ latencyMs });
  const sb = await sandbox({
    userId: "solo",
    extra: `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\n` +
      `graphql_url = "${gh.graphqlUrl}"\n`,
  });
  try {
    const store = openEmbeddedStore(sb.dbPath);
    try {
      // A Listing as `gh issue list` asks for it: its first 30.
      await store.recordTouches(
        keys.map((k) => touch("solo", k, k.includes("?") ? { limit: 30 } : {})),
      );
    } finally {
      await store.close();
    }
    const r = await sb.rgraph(["sweep", "--json"]);
    if (r.code !== 0) throw new Error(`the reference Sweep failed: ${r.stderr}`);
    return gh.requests().total;
  } finally {
    await gh.close();
    await sb.cleanup();
  }
}

/** The Touches `rgraph touches --json` shows a user. */
async function touchesOf(sb: Sandbox): Promise<Record<string, unknown>[]> {
  const r = await sb.rgraph(["touches", "--json"]);
  if (r.code !== 0) throw new Error(`rgraph touches failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Whether a user's FETCHED/PROMPTED Touches are all settled, as `rgraph touches` shows. */
async function allSettled(sb: Sandbox): Promise<boolean> {
  return (await touchesOf(sb)).every((t) =>
    t.status !== "pending" && !(t.status === "unresolved" && t.reason === "rate_limited")
  );
}

/** Runs the team's load once on the graph server at `url` (emptied first). */
export async function teamLoad(o: TeamLoadOptions): Promise<TeamLoadReport> {
  const started = performance.now();
  await wipe(o.url);
  const gh = await startEmulator({ latencyMs: o.latencyMs });
  const names = Array.from({ length: o.users }, (_, i) => `mate${i}`);
  const team = await Promise.all(names.map((u) => teammate(u, o.url, gh)));
  const reads = names.map((_, i) => readsOf(i, o.hooks));
  const clients: Client[] = [];
  let answering = true;
  let loops: Promise<void>[] = [];
  try {
    // Each teammate's MCP server answers `resource` in a loop while everything else runs.
    for (const sb of team) clients.push(await connect(sb));
    const errorAnswers: string[] = [];
    let answers = 0;
    loops = clients.map(async (client, i) => {
      for (let n = 0; answering; n++) {
        const a = await ask(client, reads[i][n % reads[i].length].key);
        answers++;
        if (a.isError) errorAnswers.push(`${names[i]}: ${a.text}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    });

    // Hooks, then each teammate's two Sweeps at once, teammates overlapping.
    const hooks = team.flatMap((sb, u) =>
      reads[u].map((r, i) => async () => {
        const stdin = JSON.stringify({
          session_id: `sess-${names[u]}`,
          cwd: "/tmp",
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: r.command },
          tool_use_id: `toolu_${names[u]}_${i}`,
        });
        const h = await sb.rgraph(["hook", "claude-code"], { stdin });
        if (h.code !== 0) throw new Error(`a hook of ${names[u]} exited ${h.code}: ${h.stderr}`);
      })
    );
    // Interleaved across teammates, so each one's hooks end at about the same time.
    const order = hooks.map((_, i) => i).sort((a, b) => (a % o.hooks) - (b % o.hooks) || a - b);
    await pooled(4, order.map((i) => hooks[i]));

    const failedSweeps: string[] = [];
    const senders: string[] = [];
    let sweeps = 0;
    // The first teammate's first Sweep leases first, and is killed mid-request (GitHub slow for
    // it alone) as every other Sweep starts: they find its repositories held by a dead Sweep.
    gh.setLatency(5_000);
    const victim = startSweep(team[0], o.leaseSeconds);
    const leased = () =>
      read(
        o.url,
        "MATCH (t:Touch) WHERE t.user_id = $u AND t.lease_owner IS NOT NULL RETURN count(t) AS n",
        { u: names[0] },
      );
    await until(async () => Number((await leased())[0].n) > 0, 120_000);
    await until(() => Promise.resolve(gh.requests().total > 0), 60_000);
    gh.setLatency(o.latencyMs);
    const sweepers = team.flatMap((sb, u) =>
      (u === 0 ? [1] : [0, 1]).map((k) => ({
        who: `${names[u]}/${k}`,
        child: startSweep(sb, o.leaseSeconds),
      }))
    );
    victim.kill("SIGKILL");
    const killedAt = performance.now();
    const rest = Promise.all(
      sweepers.map(async (s) => {
        const end = await ended(s.child, s.who);
        sweeps++;
        if (end.failure !== null) failedSweeps.push(end.failure);
        if (end.requests > 0) senders.push(`${s.who} ${end.requests}`);
      }),
    );
    await victim.status;
    // The killed Sweep's teammate sweeps again, as an automatic Sweep would, until all is settled.
    let recoveryMs = Number.NaN;
    for (let round = 0; Number.isNaN(recoveryMs); round++) {
      if (round > 0) {
        const who = `${names[0]}/again`;
        const end = await ended(startSweep(team[0], o.leaseSeconds), who);
        if (end.failure !== null) failedSweeps.push(end.failure);
        if (end.requests > 0) senders.push(`${who} ${end.requests}`);
      }
      if (await allSettled(team[0])) recoveryMs = performance.now() - killedAt;
      else await new Promise((r) => setTimeout(r, 1_000));
      if (performance.now() - killedAt > 180_000) {
        throw new Error("the killed Sweep's work stalled");
      }
    }
    await rest;
    answering = false;
    await Promise.all(loops);
    loops = [];

    // What each teammate's `rgraph touches` shows.
    let touches = 0, duplicateTouches = 0, unsettled = 0, foreign = 0;
    for (const [u, sb] of team.entries()) {
      const shown = (await touchesOf(sb)).filter((t) => t.status !== "served");
      const mine = new Set(reads[u].map((r) => r.key));
      touches += shown.length;
      duplicateTouches += shown.length - new Set(shown.map((t) => t.tool_use_id)).size;
      unsettled += shown.filter((t) => t.status === "pending").length;
      foreign += shown.filter((t) => !mine.has(String(t.address))).length;
    }
    const [nodes] = await read(
      o.url,
      `MATCH (n:Resource) WITH n.node_id AS id, count(*) AS c WHERE c > 1 RETURN count(id) AS n`,
    );
    const [listings] = await read(
      o.url,
      `MATCH (l:Listing) WITH l.key AS k, count(*) AS c WHERE c > 1 RETURN count(k) AS n`,
    );
    const requests = gh.requests().total;
    const union = [...new Set(reads.flat().map((r) => r.key))];
    return {
      users: o.users,
      hooks: o.hooks,
      touches,
      duplicateTouches,
      unsettled,
      foreign,
      sweeps,
      failedSweeps,
      answers,
      errorAnswers,
      requests,
      senders,
      reference: await reference(union, o.latencyMs),
      recoveryMs,
      duplicateNodes: Number(nodes.n),
      duplicateListings: Number(listings.n),
      elapsedMs: performance.now() - started,
    };
  } finally {
    // A run that failed midway stops its answer loops before their servers go.
    answering = false;
    await Promise.allSettled(loops);
    for (const c of clients) await c.close().catch(() => {});
    await gh.close();
    for (const sb of team) await sb.cleanup().catch(() => {});
  }
}

/** Waits until `done` holds, polling; throws after `ms`. */
async function until(done: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The load table: one line per figure. */
export function reportTable(r: TeamLoadReport): string {
  const ratio = (r.requests / r.reference).toFixed(2);
  return [
    `users ${r.users} · hooks ${r.users} × ${r.hooks} · Touches ${r.touches} ` +
    `(duplicates ${r.duplicateTouches}, unsettled ${r.unsettled}, others' ${r.foreign})`,
    `Sweeps ${r.sweeps} to the end + 1 killed (failed ${r.failedSweeps.length}) · ` +
    `answers ${r.answers} (errors ${r.errorAnswers.length})`,
    `GitHub requests ${r.requests} against ${r.reference} for one user's union (${ratio}×); ` +
    `sent by ${r.senders.join(", ") || "none"} and the killed Sweep`,
    `killed Sweep's work settled ${(r.recoveryMs / 1000).toFixed(1)} s after the kill · ` +
    `duplicate nodes ${r.duplicateNodes}, Listings ${r.duplicateListings} · ` +
    `${(r.elapsedMs / 1000).toFixed(0)} s in all`,
  ].join("\n");
}
