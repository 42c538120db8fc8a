/**
 * Two Sweeps started at once share the work instead of doubling it: what
 * they send GitHub together stays within 1.2× of what one Sweep sends for
 * the same Touches, measured on two emulators in the same run. Real `rgraph
 * sweep` processes; the Touches are written to the store directly (252 hook
 * processes would only make the test slow).
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { listingAddress } from "../lib/address/key.ts";
import { touch } from "./store_contract.ts";
import { type World, world } from "./sweep_world.ts";

/**
 * 252 Touches as an agent makes them: a Listing of open issues, then 251
 * of its members one by one, newest-updated first.
 */
async function workload(w: World): Promise<void> {
  const { owner, name } = FACTS.big;
  const repo = w.gh.dataset.repo(owner, name)!.repo;
  const members = [...repo.items.values()]
    .filter((i) => i.kind === "issue" && i.state === "OPEN")
    .sort((x, y) => y.updatedAt.localeCompare(x.updatedAt)).slice(0, 251);
  const list = listingAddress(owner, name, "issues", {}, 300);
  const store = openEmbeddedStore(w.sb.dbPath);
  try {
    await store.recordTouches([
      touch("alice", list.key, { limit: 300 }),
      ...members.map((i) => touch("alice", `github:${owner}/${name}#${i.number}`)),
    ]);
  } finally {
    await store.close();
  }
}

Deno.test("two Sweeps at once send GitHub at most 1.2x what one Sweep sends for the same 252 Touches", async () => {
  const one = await world({ latencyMs: 5 });
  const two = await world({ latencyMs: 5 });
  try {
    await workload(one);
    await workload(two);
    one.gh.resetCounts();
    two.gh.resetCounts();
    await one.sweep();
    const [a, b] = await Promise.all([two.sweep(), two.sweep()]);
    const single = one.gh.requests().total;
    const pair = two.gh.requests().total;
    console.log(
      `two Sweeps at once: ${pair} requests (${a.requests} + ${b.requests}) against ${single} ` +
        `for one (${(pair / single).toFixed(2)}x)`,
    );
    assert.equal(a.touches + b.touches, 252);
    assert.ok((await two.touches()).every((t) => t.status === "resolved"));
    assert.ok(pair <= 1.2 * single, `${pair} against ${single}`);
  } finally {
    await one.close();
    await two.close();
  }
});

Deno.test("a live Sweep slower than its lease is never robbed: a second Sweep meanwhile fetches nothing", async () => {
  const w = await world({ latencyMs: 3_000 });
  try {
    const { owner, name } = FACTS.big;
    for (const n of [100, 101, 102]) await w.fetched(`gh issue view ${n} -R ${owner}/${name}`);
    // A 1 s lease, and GitHub answers after 3 s: only the heartbeat keeps the first Sweep's claim.
    const first = w.sweep(["--lease", "1"]);
    while (w.gh.requests().total === 0) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1_500));
    const second = await w.sweep(["--lease", "1"]);
    const one = await first;
    assert.equal(second.touches, 0, "the second Sweep leased none of the first one's Touches");
    assert.equal(second.requests, 0);
    assert.equal(one.resolved, 3);
    assert.equal(w.gh.requests().total, one.requests, "every request was the first Sweep's");
    assert.ok((await w.touches()).every((t) => t.status === "resolved"));
  } finally {
    await w.close();
  }
});
