/**
 * Scale benchmark (`deno task bench scale`): how each command's cost grows
 * with the store.
 *
 * Builds embedded stores of growing size through rgraph's own store API
 * (issues and pull requests with 1–4 KB bodies and 0–20 comments over 50
 * repositories, Listings of 100–500 members, and a user's Touches: settled,
 * pending, unresolved and Cache Reads), then runs each command as a real
 * `rgraph` process against each size, interleaved (round by round, size by
 * size), so a noisy moment on the shared machine colours every size alike.
 * Prints one growth table: the median wall time of each command at each
 * size, its ratio to the smallest size, and `touches --json`'s peak memory.
 *
 * `RGRAPH_SCALE_SIZES=1000/10000,10000/100000` (Resources/Touches pairs)
 * picks other sizes; `RGRAPH_SCALE_ROUNDS` the rounds (default 3).
 *
 * @module
 */

import { openEmbeddedStore, type SqliteStore } from "../../lib/store/mod.ts";
import type { ResourceWrite } from "../../lib/store/contract.ts";
import type { Listing, NewTouch, UnresolvedReason } from "../../lib/types.ts";
import { itemAddress, listingAddress } from "../../lib/address/key.ts";
import { issue, pull, repository } from "../fixtures_memory.ts";
import { RGRAPH_FLAGS, type Sandbox, sandbox } from "../helpers.ts";

/** One store size: Resources and Touches. */
interface Size {
  resources: number;
  touches: number;
}

const SIZES: Size[] =
  (Deno.env.get("RGRAPH_SCALE_SIZES") ?? "1000/10000,10000/100000,100000/1000000")
    .split(",")
    .map((pair) => {
      const [resources, touches] = pair.split("/").map(Number);
      return { resources, touches };
    });
const ROUNDS = Number(Deno.env.get("RGRAPH_SCALE_ROUNDS") ?? 3);
const REPOS = 50;
const USER = "bench";

/** The commands measured, each as `rgraph ARGS`. */
const COMMANDS: { name: string; args: string[] }[] = [
  { name: "status", args: ["status"] },
  { name: "stats", args: ["stats"] },
  { name: "doctor", args: ["doctor"] },
  { name: "lookup", args: ["lookup", "github:bench-0/repo-0#1"] },
  { name: "touches (table)", args: ["touches"] },
  { name: "touches --json", args: ["touches", "--json"] },
];

/** A small deterministic generator, so every run builds the same stores. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LOREM = "The planner rewrites nested MATCH clauses before costing them; ".repeat(80);

/** The Resources of a store of `n`: repositories first, then their items. */
function* resourceBatches(n: number, batch: number): Generator<ResourceWrite[]> {
  const rand = prng(n);
  let out: ResourceWrite[] = [];
  for (let r = 0; r < REPOS; r++) {
    out.push({ resource: repository(`bench-${r}`, `repo-${r}`) });
  }
  for (let i = 0; i < n - REPOS; i++) {
    const r = i % REPOS;
    const number = Math.floor(i / REPOS) + 1;
    const options = {
      body: LOREM.slice(0, 1024 + Math.floor(rand() * 3072)),
      comments: Math.floor(rand() * 21),
    };
    const item = i % 4 === 3
      ? pull(`bench-${r}`, `repo-${r}`, number, options)
      : issue(`bench-${r}`, `repo-${r}`, number, options);
    out.push({ resource: item });
    if (out.length >= batch) {
      yield out;
      out = [];
    }
  }
  if (out.length) yield out;
}

/** Listings of 100–500 members of one repository's stored items. */
async function putListings(store: SqliteStore, resources: number): Promise<string[]> {
  const perRepo = Math.floor((resources - REPOS) / REPOS);
  const rand = prng(7);
  const keys: string[] = [];
  for (let r = 0; r < REPOS && perRepo > 0; r++) {
    const members = Math.min(perRepo, 100 + Math.floor(rand() * 401));
    const a = listingAddress(`bench-${r}`, `repo-${r}`, "issues", {}, null);
    const listing: Listing = {
      key: a.key,
      owner: a.owner,
      repo: a.repo,
      listing: "issues",
      filters: a.filters,
      limit: null,
      total_count: members,
      member_count: members,
      fully_expanded: true,
      fetched_at: "2026-11-29T20:00:00Z",
    } as Listing;
    const addresses = Array.from(
      { length: members },
      (_, i) => itemAddress(`bench-${r}`, `repo-${r}`, i + 1).key,
    );
    await store.putListing(listing, addresses);
    keys.push(a.key);
  }
  return keys;
}

/**
 * A user's Touches over a year: most resolved, some pending, a few
 * unresolved (settled through a lease), a quarter Cache Reads.
 */
async function putTouches(
  store: SqliteStore,
  size: Size,
  listings: string[],
): Promise<void> {
  const rand = prng(size.touches);
  const perRepo = Math.max(1, Math.floor((size.resources - REPOS) / REPOS));
  const start = Date.parse("2025-12-01T00:00:00Z");
  const step = (365 * 86_400_000) / size.touches;
  const batch: NewTouch[] = [];
  const flush = async () => {
    await store.recordTouches(batch.splice(0));
  };
  for (let i = 0; i < size.touches; i++) {
    const r = i % REPOS;
    const item = itemAddress(`bench-${r}`, `repo-${r}`, 1 + Math.floor(rand() * perRepo)).key;
    const roll = rand();
    const listing = listings.length > 0 && roll < 0.1;
    const address = listing ? listings[r % listings.length] : item;
    const base = {
      user_id: USER,
      session_id: `session-${Math.floor(i / 200)}`,
      provenance: "FETCHED" as const,
      address,
      kind: listing ? "listing" as const : "item" as const,
      limit: null,
      tool_name: "Bash",
      tool_use_id: `toolu_${i}`,
      agent_id: null,
      harness: "claude-code",
      recorded_at: new Date(start + i * step).toISOString(),
      dedup_key: `bench-${i}`,
    };
    if (roll < 0.25) {
      const outcome = roll < 0.18 ? "hit" : roll < 0.22 ? "subsumed" : "miss";
      batch.push({
        ...base,
        status: "served",
        outcome,
        target: outcome === "miss" ? null : address,
      });
    } else if (roll < 0.9) batch.push({ ...base, status: "resolved", target: address });
    else batch.push({ ...base, status: "pending" });
    if (batch.length >= 20_000) await flush();
  }
  await flush();
  // A few of the pending settle unresolved, as a Sweep would leave them.
  const reasons: UnresolvedReason[] = ["not_found", "not_public", "rate_limited"];
  const leased = await store.leasePending("bench-build", Math.ceil(size.touches / 100), 60_000);
  for (const [i, t] of leased.entries()) {
    await store.settleTouch(t.id, "bench-build", {
      status: "unresolved",
      reason: reasons[i % reasons.length],
    });
  }
}

/** Builds one size's store in a sandbox of its own; returns the sandbox. */
async function build(size: Size): Promise<Sandbox> {
  const sb = await sandbox({ userId: USER });
  const started = performance.now();
  const store = openEmbeddedStore(sb.dbPath);
  try {
    for (const writes of resourceBatches(size.resources, 1000)) await store.putResources(writes);
    const listings = await putListings(store, size.resources);
    await putTouches(store, size, listings);
  } finally {
    await store.close();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`built ${label(size)} in ${seconds} s`);
  return sb;
}

/** One run of a command: wall time, peak memory (KB, from GNU time), exit code. */
async function measure(
  sb: Sandbox,
  args: string[],
): Promise<{ ms: number; rssKb: number; code: number }> {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const started = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M", Deno.execPath(), "run", ...RGRAPH_FLAGS, main, ...args],
    env: sb.env,
    cwd: sb.dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
  const rssKb = Number(lines[lines.length - 1]) || 0;
  return { ms, rssKb, code: out.code };
}

function label(s: Size): string {
  const k = (n: number) =>
    n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : `${n}`;
  return `${k(s.resources)}/${k(s.touches)}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function time(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

const sandboxes: Sandbox[] = [];
try {
  for (const size of SIZES) sandboxes.push(await build(size));
  // runs[command][size] = every round's result
  const runs = COMMANDS.map(() =>
    SIZES.map(() => [] as { ms: number; rssKb: number; code: number }[])
  );
  // One untimed pass first: the module cache and the files' pages warm alike for every size.
  for (const sb of sandboxes) await measure(sb, ["status"]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, command] of COMMANDS.entries()) {
      for (const [s, sb] of sandboxes.entries()) runs[c][s].push(await measure(sb, command.args));
    }
  }
  const header = [
    "figure (Resources/Touches)",
    ...SIZES.map(label),
    `${label(SIZES[SIZES.length - 1])} ÷ ${label(SIZES[0])}`,
  ];
  const rows: string[][] = [];
  for (const [c, command] of COMMANDS.entries()) {
    const cells = runs[c].map((rs) => {
      const failed = rs.find((r) => r.code !== 0);
      return failed ? `fails (exit ${failed.code})` : time(median(rs.map((r) => r.ms)));
    });
    const medians = runs[c].map((rs) => median(rs.map((r) => r.ms)));
    const ref = medians[0];
    rows.push([
      `\`${command.name}\``,
      ...cells,
      `${(medians[medians.length - 1] / ref).toFixed(2)}×`,
    ]);
    if (command.name === "touches --json") {
      const peaks = runs[c].map((rs) => Math.max(...rs.map((r) => r.rssKb)) / 1024);
      rows.push([
        "`touches --json` peak memory",
        ...peaks.map((mb) => `${Math.round(mb)} MB`),
        `${(peaks[peaks.length - 1] / peaks[0]).toFixed(2)}×`,
      ]);
    }
  }
  console.log(
    `\nmedian of ${ROUNDS} rounds, sizes interleaved; the last column is the largest size's figure over the smallest's`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  for (const sb of sandboxes) await sb.cleanup();
}
