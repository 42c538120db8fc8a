/**
 * `rgraph touches` at length: newest first, the table limited by default
 * (saying so), `--limit`, `--since` and `--all`, and `--json` as one array of
 * every Touch, whatever the page size the store hands them out in.
 */

import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";
import { touch } from "./store_contract.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";

/** 2,345 of alice's Touches a minute apart (more than two of the command's pages), one of bob's. */
const COUNT = 2345;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
const address = (i: number) => `github:acme/rocket#${i + 1}`;

async function seeded() {
  const sb = await sandbox();
  const store = openEmbeddedStore(sb.dbPath);
  await store.recordTouches([
    ...Array.from({ length: COUNT }, (_, i) => touch("alice", address(i), { recorded_at: at(i) })),
    touch("bob", "github:acme/secret#1", { recorded_at: at(COUNT) }),
  ]);
  await store.close();
  return sb;
}

/** The addresses of the table's rows, top to bottom. */
function tableAddresses(stdout: string): string[] {
  return stdout.split("\n").flatMap((l) => /(github:\S+)/.exec(l)?.[1] ?? []);
}

Deno.test("touches: the table shows the newest 50 and says how to see more; --limit, --since, --all", async () => {
  const sb = await seeded();
  try {
    const table = await sb.rgraph(["touches"]);
    assert.equal(table.code, 0, table.stderr);
    const newest = Array.from({ length: COUNT }, (_, i) => address(COUNT - 1 - i));
    assert.deepEqual(tableAddresses(table.stdout), newest.slice(0, 50));
    assert.match(table.stdout, /^recorded\s+read\s+status/);
    assert.match(table.stdout, /the newest 50 shown; --limit N, --since DATE or --all shows more/);

    const three = await sb.rgraph(["touches", "--limit", "3"]);
    assert.deepEqual(tableAddresses(three.stdout), newest.slice(0, 3));

    const since = await sb.rgraph(["touches", "--since", at(COUNT - 5)]);
    assert.deepEqual(tableAddresses(since.stdout), newest.slice(0, 5));
    assert.ok(!since.stdout.includes("shows more"), "nothing was left out");

    const all = await sb.rgraph(["touches", "--all"]);
    assert.deepEqual(tableAddresses(all.stdout), newest);
    assert.ok(!all.stdout.includes("secret"), "never another user's");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("touches --json: one array of every Touch, newest first; --limit takes the newest", async () => {
  const sb = await seeded();
  try {
    const r = await sb.rgraph(["touches", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const all = JSON.parse(r.stdout) as { address: string; recorded_at: string }[];
    assert.deepEqual(
      all.map((t) => t.address),
      Array.from({ length: COUNT }, (_, i) => address(COUNT - 1 - i)),
    );
    assert.deepEqual(Object.keys(all[0]).slice(0, 3), ["id", "address", "kind"]);
    const two = JSON.parse((await sb.rgraph(["touches", "--json", "--limit", "2"])).stdout);
    assert.deepEqual(two, all.slice(0, 2));
    const none = await sb.rgraph(["touches", "--json", "--since", "2100-01-01"]);
    assert.deepEqual(JSON.parse(none.stdout), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("touches: bad --limit, --limit with --all and a bad --since are one-line usage errors", async () => {
  const sb = await seeded();
  try {
    for (
      const [args, says] of [
        [["--limit", "0"], /--limit takes a whole number/],
        [["--limit", "3", "--all"], /--limit and --all cannot be used together/],
        [["--since", "last week"], /--since takes a date .*or a duration ago/],
      ] as const
    ) {
      const r = await sb.rgraph(["touches", ...args]);
      assert.notEqual(r.code, 0, args.join(" "));
      assert.equal(r.stdout, "");
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, says);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("touches --since takes a duration, today and yesterday, as pause --for and forget do", async () => {
  const sb = await sandbox();
  try {
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const store = openEmbeddedStore(sb.dbPath);
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1", { recorded_at: ago(3 * 86_400_000) }),
      touch("alice", "github:acme/rocket#2", { recorded_at: ago(3 * 3_600_000) }),
      touch("alice", "github:acme/rocket#3", { recorded_at: ago(10 * 60_000) }),
    ]);
    await store.close();
    const since = async (value: string) => {
      const r = await sb.rgraph(["touches", "--since", value]);
      assert.equal(r.code, 0, r.stderr);
      return tableAddresses(r.stdout);
    };
    assert.deepEqual(await since("1h"), ["github:acme/rocket#3"]);
    assert.deepEqual(await since("4h"), ["github:acme/rocket#3", "github:acme/rocket#2"]);
    assert.deepEqual(await since("1w"), [
      "github:acme/rocket#3",
      "github:acme/rocket#2",
      "github:acme/rocket#1",
    ]);
    // Yesterday's midnight (UTC) is at most two days back: the 3-day-old Touch is before it.
    assert.ok(!(await since("yesterday")).includes("github:acme/rocket#1"));
    assert.ok((await since("yesterday")).includes("github:acme/rocket#3"));
  } finally {
    await sb.cleanup();
  }
});
