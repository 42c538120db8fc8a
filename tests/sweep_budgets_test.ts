/**
 * One budget per GitHub resource: REST answers name theirs in
 * `X-RateLimit-Resource` (`core`, `search`), GraphQL reports points in
 * `rateLimit`. Real `rgraph hook`, `rgraph sweep --json` and `rgraph status`
 * processes against the emulator, whose buckets are kept apart as GitHub's
 * are (a search answer says nothing of the core budget).
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import { byAddress, world } from "./sweep_world.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const PHRASE = FACTS.big.searchPhrase;

async function status(sb: { rgraph(args: string[]): Promise<{ code: number; stdout: string }> }) {
  const r = await sb.rgraph(["status"]);
  assert.equal(r.code, 0);
  return r.stdout.split("\n");
}

Deno.test("without a token, a search Listing spends the search budget and the items the core one: sweep --json and status show each", async () => {
  const w = await world({ token: null });
  try {
    await w.fetched(`gh issue list -R ${BIG} --search "${PHRASE.text}"`);
    await w.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`);
    const s = await w.sweep();
    assert.equal(s.resolved, 2, JSON.stringify(s));
    assert.equal(s.budgets.search?.limit, 10);
    assert.equal(s.budgets.search?.remaining, 9, JSON.stringify(s.budgets));
    assert.equal(s.budgets.core?.limit, 60);
    // Every request but the one search (and the free /rate_limit) spent the core budget.
    assert.equal(s.budgets.core?.remaining, 60 - (s.requests - 2), JSON.stringify(s));
    assert.deepEqual(s.budget, s.budgets.core);
    const lines = await status(w.sb);
    console.log(
      `emulator, status after a search:\n${
        lines.filter((l) => l.startsWith("GitHub budget")).join("\n")
      }`,
    );
    assert.ok(
      lines.some((l) => /^GitHub budget core: \d+ of 60 REST requests left/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /^GitHub budget search: 9 of 10 REST searches left/.test(l)),
      lines.join("\n"),
    );
  } finally {
    await w.close();
  }
});

Deno.test("without a token, a spent search budget settles only the search Listing rate_limited, retried after the search budget's minute; the items beside it are fetched on the core budget", async () => {
  const w = await world({ token: null });
  const numbers = [FACTS.big.noComments.number, 5, 6];
  try {
    // Another program of the same address spent this minute's anonymous searches.
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${w.gh.apiUrl}/search/issues?q=repo:${BIG}+x`);
      await r.body?.cancel();
    }
    await w.fetched(`gh issue list -R ${BIG} --search "${PHRASE.text}"`);
    for (const n of numbers) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    const before = Date.now();
    const s = await w.sweep();
    assert.equal(s.resolved, 3, JSON.stringify(s));
    assert.deepEqual(s.unresolved, { rate_limited: 1 });
    assert.equal(s.budgets.search?.remaining, 0);
    assert.ok((s.budgets.core?.remaining ?? 0) > 40, JSON.stringify(s.budgets));
    assert.ok(s.retry_at !== null);
    // The search budget refills by the minute: its Touch is retried then, not in an hour.
    assert.ok(Date.parse(s.retry_at!) - before <= 61_000, s.retry_at!);
    const touches = await w.touches();
    for (const n of numbers) {
      assert.equal(byAddress(touches, `github:${BIG}#${n}`).status, "resolved");
    }
    const listing = touches.find((t) => t.address.includes("q="))!;
    assert.deepEqual([listing.status, listing.reason], ["unresolved", "rate_limited"]);
    assert.ok((await status(w.sb)).some((l) => /^GitHub budget search: 0 of 10/.test(l)));
  } finally {
    await w.close();
  }
});

Deno.test("with a token, sweep --json reports the GraphQL points budget apart from REST's", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`);
    const s = await w.sweep();
    assert.equal(s.resolved, 1);
    assert.equal(s.budgets.graphql?.limit, 5000);
    assert.ok((s.budgets.graphql?.remaining ?? 5000) < 5000);
    assert.equal(s.budgets.core, undefined, "no REST request was needed");
    assert.deepEqual(s.budget, s.budgets.graphql);
    const lines = await status(w.sb);
    assert.ok(lines.some((l) => /^GitHub budget graphql: \d+ of 5000 GraphQL points left/.test(l)));
  } finally {
    await w.close();
  }
});
