/** `answer()` in process against the real embedded store: limits, JSON and the member cache. */

import assert from "node:assert/strict";
import { answer, MemberCache } from "../lib/serve.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { listingAddress } from "../lib/address/key.ts";
import { issue, seedListing } from "./fixtures_memory.ts";

const NOW = new Date("2026-11-30T00:00:00Z");

async function withStore(f: (store: ReturnType<typeof openEmbeddedStore>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-answer-" });
  const store = openEmbeddedStore(`${dir}/m.db`);
  try {
    await f(store);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const rowsOf = (text: string) =>
  text.split("\n").filter((l) => /^#\d+ \[/.test(l)).map((l) => Number(l.slice(1, l.indexOf(" "))));

Deno.test("answer: the asked limit caps the rows of a hit and of a subsumed answer", async () => {
  await withStore(async (store) => {
    const nums = Array.from({ length: 60 }, (_, i) => i + 1);
    await store.putResources(nums.map((n) => ({
      resource: issue("o", "r", n, { labels: n % 2 ? ["bug"] : ["docs"] }),
    })));
    await seedListing(store, "o", "r", "issues", {}, nums);
    const opts = { userId: "alice", now: NOW };
    const hit = await answer(store, listingAddress("o", "r", "issues", {}, 10), opts);
    assert.equal(hit.outcome, "hit");
    assert.deepEqual(rowsOf(hit.text), nums.slice(0, 10));
    assert.ok(hit.text.includes("asked limit: 10; rows served: 10"));
    const sub = await answer(
      store,
      listingAddress("o", "r", "issues", { labels: ["bug"] }, 5),
      opts,
    );
    assert.equal(sub.outcome, "subsumed");
    assert.deepEqual(rowsOf(sub.text), [1, 3, 5, 7, 9]);
    const j = sub.json as { matched: number; paging: { total: number }; source: { key: string } };
    assert.equal(j.matched, 5);
    assert.equal(j.source.key, "github:o/r/issues?state=open");
    const all = await answer(
      store,
      listingAddress("o", "r", "issues", { labels: ["bug"] }, null),
      opts,
    );
    assert.equal(rowsOf(all.text).length, 30, "no limit: every matching member");
  });
});

Deno.test("answer: a limited subsumed answer reads across chunks until it has enough", async () => {
  await withStore(async (store) => {
    const nums = Array.from({ length: 2500 }, (_, i) => i + 1);
    for (let i = 0; i < nums.length; i += 500) {
      await store.putResources(
        nums.slice(i, i + 500).map((n) => ({
          resource: issue("o", "r", n, { labels: n % 2 ? ["bug"] : ["docs"], comments: 0 }),
        })),
      );
    }
    await seedListing(store, "o", "r", "issues", { state: "all" }, nums);
    const opts = { userId: "alice", now: NOW };
    const asked = listingAddress("o", "r", "issues", { labels: ["docs"] }, 1100);
    const j = (await answer(store, asked, { ...opts, page: 11 })).json as {
      matched: number;
      members: { number: number }[];
    };
    assert.equal(j.matched, 1100);
    assert.deepEqual(
      j.members.map((m) => m.number),
      nums.filter((n) => n % 2 === 0).slice(1000, 1100),
    );
    const few = listingAddress("o", "r", "issues", { labels: ["docs"] }, 3000);
    assert.equal(((await answer(store, few, opts)).json as { matched: number }).matched, 1250);
  });
});

Deno.test("MemberCache: a re-fetched listing is served fresh; an entry expires", async () => {
  await withStore(async (store) => {
    await store.putResources([1, 2, 3].map((n) => ({ resource: issue("o", "r", n) })));
    await seedListing(store, "o", "r", "issues", { state: "all" }, [1, 2], {
      fetched_at: "2026-11-29T00:00:00Z",
    });
    const asked = listingAddress("o", "r", "issues", { labels: ["bug"] }, null);
    const cache = new MemberCache();
    const opts = { userId: "alice", now: NOW, cache };
    assert.deepEqual(rowsOf((await answer(store, asked, opts)).text), [1, 2]);
    // The Sweep re-fetches the broad listing: a new version, new members.
    await seedListing(store, "o", "r", "issues", { state: "all" }, [3, 2, 1], {
      fetched_at: "2026-11-29T12:00:00Z",
    });
    assert.deepEqual(rowsOf((await answer(store, asked, opts)).text), [3, 2, 1]);
    // A member re-fetched on its own shows once the entry expires.
    await store.putResources([{
      resource: issue("o", "r", 2, { labels: ["docs"], updated_at: "2026-11-29T13:00:00Z" }),
    }]);
    // Within its minute the cached entry still answers (the documented trade-off that saves the read).
    assert.deepEqual(rowsOf((await answer(store, asked, opts)).text), [3, 2, 1]);
    const expiring = new MemberCache(8, 0);
    assert.deepEqual(rowsOf((await answer(store, asked, { ...opts, cache: expiring })).text), [
      3,
      1,
    ]);
    assert.deepEqual(rowsOf((await answer(store, asked, { ...opts, cache: expiring })).text), [
      3,
      1,
    ]);
  });
});
