/** `rgraph lookup` as a person runs it: text, JSON, exit codes and the Cache Read it leaves. */

import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { issue, pull, seedListing } from "./fixtures_memory.ts";

Deno.test("rgraph lookup: text and JSON answers, exit codes, Cache Reads", async (t) => {
  const sb = await sandbox();
  const store = openEmbeddedStore(sb.dbPath);
  await store.putResources([
    { resource: issue("o", "r", 1, { comments: 1000, labels: ["bug"] }) },
    { resource: issue("o", "r", 2, { labels: ["docs"] }) },
    { resource: pull("o", "r", 3, { merged: true }) },
  ]);
  await seedListing(store, "o", "r", "issues", { state: "all" }, [1, 2]);
  try {
    await t.step("a hit prints the text answer and exits 0", async () => {
      const r = await sb.rgraph(["lookup", "github:o/r#1"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.match(r.stdout, /^rgraph: hit github:o\/r#1 \(issue\) — from memory, fetched_at /);
      // Pages hold as many comments as fit 20,000 estimated tokens: 1,000 short ones take 3.
      assert.match(
        r.stdout,
        /\nthread: 1000 comments; page 1 of 3 \(entries 1–\d{3} of 1000\) — ask page 2 for more\n/,
      );
    });

    await t.step("--page pages the thread", async () => {
      const r = await sb.rgraph(["lookup", "github:o/r#1", "--page", "3"]);
      assert.equal(r.code, 0);
      const m = /page 3 of 3 \(entries (\d+)–1000 of 1000\)\n/.exec(r.stdout);
      assert.ok(m, r.stdout.slice(0, 800));
      assert.ok(r.stdout.includes(`\nComment ${m[1]} on #1:`));
      assert.ok(r.stdout.includes("\nComment 1000 on #1:"));
      assert.ok(!r.stdout.includes(`\nComment ${Number(m[1]) - 1} on #1:`));
    });

    await t.step("--json gives the structured answer", async () => {
      const r = await sb.rgraph(["lookup", "github:o/r#3", "--json"]);
      assert.equal(r.code, 0);
      const j = JSON.parse(r.stdout);
      assert.equal(j.outcome, "hit");
      assert.equal(j.key, "github:o/r#3");
      assert.equal(j.kind, "item");
      assert.equal(j.resource.kind, "pull_request");
      assert.equal(j.resource.merged, true);
      assert.deepEqual(j.resource.files, [
        "src/query/plan/planner.cpp",
        "tests/e2e/planner_test.py",
      ]);
      assert.equal(j.resource.comments, undefined, "the thread is paged, not inlined");
      assert.deepEqual(j.thread.paging, {
        page: 1,
        pages: 1,
        total: 2,
        offset: 0,
        count: 2,
        out_of_range: false,
      });
      assert.deepEqual(j.thread.entries.map((e: { path: string }) => e.path), [
        "src/query/plan/planner.cpp",
        "tests/e2e/planner_test.py",
      ]);
    });

    await t.step(
      "--json for a subsumed listing names the source and the page of members",
      async () => {
        const r = await sb.rgraph(["lookup", "github:o/r/issues?label=docs", "--json"]);
        const j = JSON.parse(r.stdout);
        assert.equal(j.outcome, "subsumed");
        assert.equal(j.key, "github:o/r/issues?label=docs&state=open");
        assert.equal(j.source.key, "github:o/r/issues?state=all");
        assert.equal(j.matched, 1);
        assert.deepEqual(j.members.map((m: { number: number }) => m.number), [2]);
      },
    );

    await t.step("a miss prints the miss answer and still exits 0", async () => {
      const r = await sb.rgraph(["lookup", "github:o/r#404"]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^rgraph: miss github:o\/r#404 — not in memory/);
      const j = JSON.parse((await sb.rgraph(["lookup", "github:o/r#404", "--json"])).stdout);
      assert.deepEqual(j, { outcome: "miss", key: "github:o/r#404", kind: "item" });
    });

    await t.step("bad input is one line on stderr and exit 2", async () => {
      for (
        const args of [
          ["lookup", "not an address"],
          ["lookup"],
          ["lookup", "github:o/r#1", "--page", "0"],
          ["lookup", "github:o/r#1", "extra"],
          ["lookup", "--bogus"],
        ]
      ) {
        const r = await sb.rgraph(args);
        assert.equal(r.code, 2, args.join(" "));
        assert.equal(r.stdout, "");
        assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
        assert.match(r.stderr, /^rgraph lookup: /);
      }
      // The two messages that used to mislead: a negative page and @me without a login.
      const neg = await sb.rgraph(["lookup", "github:o/r#1", "--page", "-1"]);
      assert.equal(neg.code, 2);
      assert.equal(neg.stderr.trim(), "rgraph lookup: --page takes a whole number of at least 1");
      const me = await sb.rgraph(["lookup", "gh issue list -R o/r --author @me"]);
      assert.equal(me.code, 2);
      assert.match(
        me.stderr,
        /uses @me, which needs your GitHub login: set \[identity\] github_login/,
      );
    });

    await t.step("each lookup was a served Cache Read of this user", async () => {
      const touches = await store.listTouches("alice");
      assert.deepEqual(
        touches.map((x) => [x.address, x.outcome, x.status, x.tool_name]),
        [
          ["github:o/r#1", "hit", "served", "lookup"],
          ["github:o/r#1", "hit", "served", "lookup"],
          ["github:o/r#3", "hit", "served", "lookup"],
          ["github:o/r/issues?label=docs&state=open", "subsumed", "served", "lookup"],
          ["github:o/r#404", "miss", "served", "lookup"],
          ["github:o/r#404", "miss", "served", "lookup"],
        ],
      );
    });
  } finally {
    await store.close();
    await sb.cleanup();
  }
});

Deno.test("rgraph lookup without an identity fails closed with one line", async () => {
  const sb = await sandbox({ userId: null });
  try {
    const r = await sb.rgraph(["lookup", "github:o/r#1"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^rgraph lookup: no identity configured/);
  } finally {
    await sb.cleanup();
  }
});
