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
import type { NewTouch, UnresolvedReason } from "../../lib/types.ts";
import { itemAddress } from "../../lib/address/key.ts";
import { type Sandbox, sandbox } from "../helpers.ts";
import { prng, putListings, REPOS, resourceBatches } from "./_scale_data.ts";
import { measure, median, time } from "./_run.ts";

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

function label(s: Size): string {
  const k = (n: number) =>
    n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : `${n}`;
  return `${k(s.resources)}/${k(s.touches)}`;
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
