/** `answer()` in process against the real embedded store: limits, JSON and the member cache. */

import assert from "node:assert/strict";
import { answer, MemberCache } from "../lib/serve/answer.ts";
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
  text.split("\n").filter((l) => /^#\d+\t/.test(l)).map((l) => Number(l.slice(1, l.indexOf("\t"))));

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
    const j = sub.json as {
      matched: number;
      served: number;
      paging: { total: number };
      source: { key: string };
    };
    // 30 of the 60 carry `bug`: the answer says so, and shows the 5 asked for.
    assert.equal(j.matched, 30);
    assert.equal(j.served, 5);
    assert.ok(sub.text.includes("60 members of 60 (fully expanded); 30 match this question"));
    assert.ok(sub.text.includes("asked limit: 5; rows served: 5 (the first 5 of the 30)"));
    assert.equal(j.source.key, "github:o/r/issues?state=open");
    const all = await answer(
      store,
      listingAddress("o", "r", "issues", { labels: ["bug"] }, null),
      opts,
    );
    assert.equal(rowsOf(all.text).length, 30, "no limit: every matching member");
  });
});

Deno.test("answer: a limited subsumed answer counts every match across a large listing", async () => {
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
    // Every page, to the last: together they hold the first 1,100 of the 1,250 matches.
    const shown: number[] = [];
    let pages = Infinity;
    for (let page = 1; page <= pages; page++) {
      const j = (await answer(store, asked, { ...opts, page })).json as {
        matched: number;
        served: number;
        paging: { pages: number; offset: number };
        members: { number: number }[];
      };
      assert.equal(j.matched, 1250);
      assert.equal(j.served, 1100);
      assert.equal(j.paging.offset, shown.length);
      pages = j.paging.pages;
      shown.push(...j.members.map((m) => m.number));
    }
    assert.ok(pages > 1 && pages < 11, `${pages} pages, sized by what the rows cost`);
    assert.deepEqual(shown, nums.filter((n) => n % 2 === 0).slice(0, 1100));
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

Deno.test("answer: every member asked — a truncated exact copy misses unless a full broader one subsumes", async () => {
  await withStore(async (store) => {
    const nums = Array.from({ length: 60 }, (_, i) => i + 1);
    await store.putResources(nums.map((n) => ({ resource: issue("o", "r", n) })));
    // The first 30 of 40 open issues: truncated.
    await seedListing(store, "o", "r", "issues", { state: "open" }, nums.slice(0, 30), {
      total: 40,
    });
    const opts = { userId: "alice", now: NOW };
    // `gh api --paginate repos/o/r/issues` and the canonical key both ask for every member.
    const everything = listingAddress("o", "r", "issues", { state: "open" }, null);
    const miss = await answer(store, everything, opts);
    assert.equal(miss.outcome, "miss");
    assert.match(
      miss.text,
      /^rgraph: miss github:o\/r\/issues\?state=open — memory holds only the first 30 of 40 items/,
    );
    assert.ok(miss.text.includes("ask for gh issue list -R o/r --state open -L 30."), miss.text);
    // Within what it holds, the truncated copy is the exact answer.
    const thirty = await answer(store, listingAddress("o", "r", "issues", {}, 30), opts);
    assert.equal(thirty.outcome, "hit");
    assert.equal(rowsOf(thirty.text).length, 30);
    // A fully expanded broader listing now answers every open issue.
    await seedListing(store, "o", "r", "issues", { state: "all" }, nums);
    const sub = await answer(store, everything, opts);
    assert.equal(sub.outcome, "subsumed");
    assert.equal(
      (sub.json as { source: { key: string } }).source.key,
      "github:o/r/issues?state=all",
    );
    assert.equal(rowsOf(sub.text).length, 60);
  });
});
