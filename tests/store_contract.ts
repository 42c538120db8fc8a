/**
 * The store contract suite: the same scenarios and expected answers for every
 * store. `tests/store_sqlite_test.ts` runs it on the embedded store and the
 * graph store's test runs it on a real graph server.
 *
 * @example
 * ```ts
 * import { storeContract } from "./store_contract.ts";
 * import { openEmbeddedStore } from "../lib/store/sqlite/store.ts";
 * storeContract("sqlite", async () => openEmbeddedStore(await Deno.makeTempFile()));
 * ```
 * @module
 */

import assert from "node:assert/strict";
import { IdentityRequiredError, type Store } from "../lib/store/contract.ts";
import { itemAddress, listingAddress, repositoryAddress } from "../lib/address/key.ts";
import type {
  CacheOutcome,
  Comment,
  IssueResource,
  Listing,
  NewTouch,
  PullRequestResource,
  RepositoryResource,
  TouchStatus,
} from "../lib/types.ts";

// --- Realistic fixtures ------------------------------------------------------

const FETCHED_AT = "2026-03-02T09:15:00.000Z";

function comments(prefix: string, count: number, path?: string): Comment[] {
  return Array.from({ length: count }, (_, i) => {
    const c: Comment = {
      node_id: `${prefix}_${i + 1}`,
      author: i % 2 ? "octo-reviewer" : "maintainer-bot",
      created_at: new Date(Date.UTC(2026, 0, 5, 10, i)).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 5, 11, i)).toISOString(),
      body: i === 0
        ? "Reproduced on 2.14 with `MATCH (n) RETURN n LIMIT 1`:\n\n```\nSegmentation fault\n```"
        : `Follow-up ${i}: bisected to the planner change, see the linked PR.`,
    };
    if (path) c.path = path;
    return c;
  });
}

/** A rocket-engine repository with a README. */
export function repository(over: Partial<RepositoryResource> = {}): RepositoryResource {
  return {
    kind: "repository",
    node_id: "R_kgDOAcmeRocket",
    address: repositoryAddress("acme", "rocket").key,
    owner: "acme",
    repo: "rocket",
    url: "https://github.com/acme/rocket",
    fetched_at: FETCHED_AT,
    updated_at: "2026-03-01T18:00:00.000Z",
    etag: 'W/"a1b2c3"',
    description: "A fast, embeddable query engine for property graphs",
    readme: "# Rocket\n\nBuild with `cargo build --release`.\n\n## License\nApache-2.0",
    readme_path: "README.md",
    stars: 4211,
    pushed_at: "2026-03-01T17:59:00.000Z",
    ...over,
  };
}

/** An issue of acme/rocket with a comment thread. */
export function issue(number: number, over: Partial<IssueResource> = {}): IssueResource {
  const thread = over.comments ?? comments(`IC_${number}`, 3);
  return {
    kind: "issue",
    node_id: `I_kwDOAcme${number}`,
    address: itemAddress("acme", "rocket", number).key,
    owner: "acme",
    repo: "rocket",
    url: `https://github.com/acme/rocket/issues/${number}`,
    fetched_at: FETCHED_AT,
    updated_at: `2026-02-${String(1 + (number % 27)).padStart(2, "0")}T12:00:00.000Z`,
    etag: null,
    number,
    title: `Crash when planning OPTIONAL MATCH over ${number} labels`,
    body: "Steps:\n1. create index\n2. run the query\n\n<!-- an HTML comment -->",
    state: "open",
    author: "graph-user",
    labels: ["bug", "planner"],
    assignees: ["maintainer-bot"],
    milestone: "v2.15",
    created_at: "2026-01-04T08:00:00.000Z",
    closed_at: null,
    comment_count: thread.length,
    comments: thread,
    referenced_by: [],
    ...over,
  };
}

/**
 * What a store written before REFERENCES were turned round holds, in the
 * current shape: #2 mentions #1, and #3 (not stored) mentions #1 too. Each
 * store's test rewrites it into its earlier shape, reopens the store, and
 * {@link assertUpgradedReferences} checks the answers.
 */
export const OLD_REFERENCES = (() => {
  const mentioner = issue(2, { comments: [] });
  const waiting = "https://github.com/acme/rocket/issues/3";
  const mentioned = issue(1, { comments: [], referenced_by: [mentioner.url, waiting] });
  return { mentioned, mentioner, waiting };
})();

/** An upgraded store reads {@link OLD_REFERENCES} from mentioner to mentioned, and keeps drawing them so. */
export async function assertUpgradedReferences(store: Store): Promise<void> {
  const { mentioned, mentioner, waiting } = OLD_REFERENCES;
  const stored = await store.getResource(mentioned.address);
  assert.deepEqual(stored?.kind === "issue" && stored.referenced_by, [mentioner.url, waiting]);
  assert.equal(stored !== null && "references" in stored, false);
  const edge = (from: string) => ({ kind: "REFERENCES", from, to: mentioned.address });
  assert.deepEqual(await store.edges(mentioned.address), [edge(mentioner.address)]);
  // The mention that was waiting arrives, and the mentioner's refetch keeps its edge.
  const late = issue(3);
  await store.putResources([{ resource: late }, { resource: mentioner }]);
  assert.deepEqual(await store.edges(mentioned.address), [
    edge(mentioner.address),
    edge(late.address),
  ]);
}

/** A pull request of acme/rocket with changed files, review comments and a closing reference. */
export function pullRequest(
  number: number,
  over: Partial<PullRequestResource> = {},
): PullRequestResource {
  const thread = over.comments ?? comments(`PRC_${number}`, 2);
  return {
    kind: "pull_request",
    node_id: `PR_kwDOAcme${number}`,
    address: itemAddress("acme", "rocket", number).key,
    owner: "acme",
    repo: "rocket",
    url: `https://github.com/acme/rocket/pull/${number}`,
    fetched_at: FETCHED_AT,
    updated_at: "2026-02-20T16:30:00.000Z",
    etag: null,
    number,
    title: "planner: keep OPTIONAL MATCH bindings when the index is missing",
    body: "Fixes the crash.\n\nCloses #1",
    state: "merged",
    author: "contributor-7",
    labels: ["planner"],
    assignees: [],
    milestone: null,
    created_at: "2026-02-18T09:00:00.000Z",
    closed_at: "2026-02-20T16:30:00.000Z",
    comment_count: thread.length,
    comments: thread,
    referenced_by: [],
    merged: true,
    base_ref: "main",
    files: ["src/planner/optional.rs", "tests/planner/optional_match.rs"],
    review_comments: comments(`PRRC_${number}`, 2, "src/planner/optional.rs"),
    closes: [],
    ...over,
  };
}

let touchSeq = 0;

/** A pending FETCHED Touch of `address` for `user`. */
export function touch(user: string, address: string, over: Partial<NewTouch> = {}): NewTouch {
  const n = ++touchSeq;
  return {
    user_id: user,
    session_id: "sess-1",
    provenance: "FETCHED",
    address,
    kind: address.includes("?") ? "listing" : address.includes("#") ? "item" : "repository",
    limit: null,
    tool_name: "Bash",
    tool_use_id: `toolu_${n}`,
    agent_id: null,
    harness: "claude-code",
    recorded_at: new Date(Date.UTC(2026, 2, 1, 10, 0, n)).toISOString(),
    dedup_key: `dedup-${n}`,
    status: "pending",
    ...over,
  };
}

function cacheRead(user: string, address: string, outcome: CacheOutcome, target: string | null) {
  return touch(user, address, { status: "served" as TouchStatus, outcome, target });
}

function listing(key: string, memberCount: number, over: Partial<Listing> = {}): Listing {
  const a = listingAddressOf(key);
  return {
    key,
    owner: a.owner,
    repo: a.repo,
    listing: a.listing,
    filters: a.filters,
    limit: null,
    total_count: memberCount,
    member_count: memberCount,
    fully_expanded: true,
    fetched_at: FETCHED_AT,
    ...over,
  };
}

function listingAddressOf(key: string) {
  const m = /^github:([^/]+)\/([^/]+)\/(issues|pulls)\?(.*)$/.exec(key)!;
  const params = new URLSearchParams(m[4]);
  return listingAddress(m[1], m[2], m[3] as "issues" | "pulls", {
    state: (params.get("state") ?? "open") as "open",
    labels: params.get("label")?.split(",") ?? [],
  }, null);
}

const OPEN_ISSUES = listingAddress("acme", "rocket", "issues", {}, null).key;
const OPEN_BUGS = listingAddress("acme", "rocket", "issues", { labels: ["bug"] }, null).key;

// --- The suite -----------------------------------------------------------------

/**
 * Registers the contract tests for one store implementation. `open` must give
 * a fresh, empty store for every test; `cleanup` (if given) runs after each
 * test, once the store is closed.
 */
export function storeContract(
  name: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
): void {
  const test = (title: string, fn: (store: Store) => Promise<void>) =>
    Deno.test(`${name} store: ${title}`, async () => {
      const store = await open();
      try {
        await fn(store);
      } finally {
        await store.close();
        await cleanup?.();
      }
    });

  // --- Touches ---------------------------------------------------------------

  test("records Touches once per dedup key and lists them oldest first", async (store) => {
    const later = touch("alice", "github:acme/rocket#1", {
      recorded_at: "2026-03-01T12:00:00.000Z",
      limit: null,
    });
    const earlier = touch("alice", OPEN_ISSUES, {
      recorded_at: "2026-03-01T11:00:00.000Z",
      limit: 500,
      provenance: "PROMPTED",
      tool_name: null,
      tool_use_id: null,
      agent_id: "subagent-2",
    });
    assert.equal(await store.recordTouches([later, earlier]), 2);
    assert.equal(await store.recordTouches([later, { ...earlier, session_id: "other" }]), 0);
    assert.equal(await store.recordTouches([]), 0);
    const listed = await store.listTouches("alice");
    assert.deepEqual(listed.map((t) => t.address), [OPEN_ISSUES, "github:acme/rocket#1"]);
    const first = listed[0];
    assert.equal(typeof first.id, "string");
    assert.notEqual(first.id, listed[1].id);
    assert.deepEqual(
      { ...first, id: undefined },
      {
        ...earlier,
        id: undefined,
        outcome: null,
        target: null,
        reason: null,
        detail: null,
        failures: 0,
        settled_at: null,
      },
    );
  });

  test("filters a user's Touches by session, time and status", async (store) => {
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1", {
        session_id: "s1",
        recorded_at: "2026-03-01T10:00:00Z",
      }),
      touch("alice", "github:acme/rocket#2", {
        session_id: "s2",
        recorded_at: "2026-03-02T10:00:00Z",
      }),
      cacheRead("alice", "github:acme/rocket#3", "miss", null),
    ]);
    const s2 = await store.listTouches("alice", { session_id: "s2" });
    assert.deepEqual(s2.map((t) => t.address), ["github:acme/rocket#2"]);
    const since = await store.listTouches("alice", { since: "2026-03-02T00:00:00Z" });
    assert.ok(since.every((t) => t.recorded_at >= "2026-03-02T00:00:00Z"));
    assert.ok(since.some((t) => t.address === "github:acme/rocket#2"));
    const served = await store.listTouches("alice", { status: "served" });
    assert.deepEqual(served.map((t) => [t.address, t.outcome]), [["github:acme/rocket#3", "miss"]]);
  });

  test("keeps Touches private to their user and fails closed without identity", async (store) => {
    const same = { dedup_key: "same-event" };
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1", same),
      touch("bob", "github:acme/rocket#2", same),
    ]);
    assert.deepEqual((await store.listTouches("alice")).map((t) => t.address), [
      "github:acme/rocket#1",
    ]);
    assert.deepEqual((await store.listTouches("bob")).map((t) => t.user_id), ["bob"]);
    assert.deepEqual(await store.listTouches("carol"), []);
    await assert.rejects(() => store.listTouches(""), IdentityRequiredError);
    await assert.rejects(() => store.userStats(""), IdentityRequiredError);
  });

  test("forget deletes the user's selected Touches only, never Resources; twice is a no-op", async (store) => {
    await store.putResources([{ resource: issue(1) }]);
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1", {
        session_id: "s1",
        recorded_at: "2026-03-01T10:00:00.000Z",
      }),
      touch("alice", "github:acme/rocket#2", {
        session_id: "s1",
        recorded_at: "2026-03-01T10:01:00.000Z",
      }),
      touch("alice", "github:acme/rocket#3", {
        session_id: "s2",
        recorded_at: "2026-03-02T09:00:00.000Z",
      }),
      // Asked under a listing, answered by issue #1: named by its target.
      touch("alice", OPEN_ISSUES, {
        session_id: "s2",
        recorded_at: "2026-03-02T10:00:00.000Z",
        status: "served",
        outcome: "hit",
        target: "github:acme/rocket#1",
      }),
      touch("alice", "github:acme/rocket#4", {
        session_id: "s3",
        recorded_at: "2026-03-03T10:00:00.000Z",
      }),
      touch("bob", "github:acme/rocket#1", { session_id: "s1", dedup_key: "dedup-1" }),
    ]);
    const mine = async () => (await store.listTouches("alice")).map((t) => t.address);
    const bobs = async () => (await store.listTouches("bob")).map((t) => t.address);
    const addresses = (ts: { address: string }[]) => ts.map((t) => t.address);

    const preview = await store.forgetTouches("alice", { session_id: "s1" }, { dryRun: true });
    assert.deepEqual(addresses(preview), ["github:acme/rocket#1", "github:acme/rocket#2"]);
    assert.equal((await mine()).length, 5, "a dry run deletes nothing");

    const s1 = await store.forgetTouches("alice", { session_id: "s1" });
    assert.deepEqual(addresses(s1), ["github:acme/rocket#1", "github:acme/rocket#2"]);
    assert.deepEqual(s1.map((t) => t.user_id), ["alice", "alice"]);
    assert.deepEqual(await store.forgetTouches("alice", { session_id: "s1" }), []);
    assert.deepEqual(await bobs(), ["github:acme/rocket#1"], "bob's Touch of s1 stays");

    const byTarget = await store.forgetTouches("alice", { address: "github:acme/rocket#1" });
    assert.deepEqual(addresses(byTarget), [OPEN_ISSUES]);
    assert.deepEqual(await bobs(), ["github:acme/rocket#1"]);

    const window = { since: "2026-03-02T00:00:00.000Z", before: "2026-03-03T00:00:00.000Z" };
    assert.deepEqual(addresses(await store.forgetTouches("alice", window)), [
      "github:acme/rocket#3",
    ]);
    assert.deepEqual(await mine(), ["github:acme/rocket#4"]);
    assert.deepEqual(
      addresses(await store.forgetTouches("alice", { before: "2026-03-03T10:00:00.000Z" })),
      [],
      "before is exclusive",
    );

    assert.deepEqual(addresses(await store.forgetTouches("alice", { all: true })), [
      "github:acme/rocket#4",
    ]);
    assert.deepEqual(await mine(), []);
    assert.deepEqual(await store.forgetTouches("alice", { all: true }), []);
    assert.deepEqual(await bobs(), ["github:acme/rocket#1"]);
    assert.deepEqual(await store.getResource(issue(1).address), issue(1));
    assert.equal((await store.memoryStats()).resources.issue, 1);

    await assert.rejects(() => store.forgetTouches("", { all: true }), IdentityRequiredError);
    await assert.rejects(() => store.forgetTouches("alice", {}), /all: true/);
    assert.deepEqual(await bobs(), ["github:acme/rocket#1"]);
  });

  // --- Leases ----------------------------------------------------------------

  test("two concurrent leasers get disjoint Touches, oldest first, never Cache Reads", async (store) => {
    const pending = Array.from(
      { length: 10 },
      (_, i) => touch("alice", itemAddress("acme", "rocket", i + 1).key),
    );
    await store.recordTouches([
      ...pending,
      cacheRead("alice", "github:acme/rocket#99", "hit", null),
    ]);
    const [a, b] = await Promise.all([
      store.leasePending("sweep-a", 6, 60_000),
      store.leasePending("sweep-b", 6, 60_000),
    ]);
    const ids = [...a, ...b].map((t) => t.id);
    assert.equal(new Set(ids).size, ids.length, "no Touch leased twice");
    assert.equal(ids.length, 10);
    assert.ok([...a, ...b].every((t) => t.status === "pending"));
    const first = a.length === 6 ? a : b;
    assert.deepEqual(
      first.map((t) => t.address),
      pending.slice(0, 6).map((t) => t.address),
      "the first lease takes the oldest",
    );
    assert.deepEqual(await store.leasePending("sweep-c", 10, 60_000), []);
  });

  test("leasedByOthers names the pending Touches other live leases hold, never the asker's own or expired ones", async (store) => {
    const [one, two, three] = [1, 2, 3].map((n) => itemAddress("acme", "rocket", n).key);
    await store.recordTouches([touch("alice", one), touch("alice", two), touch("alice", three)]);
    const [mine] = await store.leasePending("sweep-a", 1, 60_000);
    const [theirs] = await store.leasePending("sweep-b", 1, 60_000);
    await store.leasePending("crashed", 1, 1);
    await new Promise((r) => setTimeout(r, 20));
    const held = await store.leasedByOthers("sweep-a");
    assert.deepEqual(held.map((h) => [h.address, h.owner]), [[theirs.address, "sweep-b"]]);
    assert.ok(held[0].until > Date.now() && held[0].until <= Date.now() + 60_000);
    assert.deepEqual((await store.leasedByOthers("sweep-b")).map((h) => h.address), [mine.address]);
    await store.settleTouch(theirs.id, "sweep-b", { status: "resolved", target: theirs.address });
    assert.deepEqual(await store.leasedByOthers("sweep-a"), []);
  });

  test("a renewed lease outlives its first term; a lapsed one taken by another stays theirs", async (store) => {
    const [one, two] = [1, 2].map((n) => itemAddress("acme", "rocket", n).key);
    await store.recordTouches([touch("alice", one), touch("alice", two)]);
    const [live] = await store.leasePending("live", 1, 2_000);
    const [dead] = await store.leasePending("dead", 1, 2_000);
    // The live Sweep's heartbeat (naming the other's Touch too changes nothing of it).
    await store.renewLeases("live", [live.id, dead.id], 60_000);
    await new Promise((r) => setTimeout(r, 2_100));
    // Past both first terms: the live Sweep's lease holds, the silent one's is free.
    assert.deepEqual((await store.leasePending("next", 5, 60_000)).map((t) => t.id), [dead.id]);
    await store.renewLeases("dead", [dead.id], 60_000);
    const held = await store.leasedByOthers("someone");
    assert.deepEqual(
      held.map((h) => [h.address, h.owner]).sort(),
      [
        [live.address, "live"],
        [dead.address, "next"],
      ].sort(),
    );
  });

  test("an expired lease is leased again; a settle by a non-holder is ignored", async (store) => {
    await store.recordTouches([touch("alice", "github:acme/rocket#1")]);
    const [t] = await store.leasePending("crashed-sweep", 5, 1);
    assert.ok(t);
    await new Promise((r) => setTimeout(r, 20));
    const [again] = await store.leasePending("next-sweep", 5, 60_000);
    assert.equal(again?.id, t.id);
    await store.settleTouch(t.id, "crashed-sweep", { status: "unresolved", reason: "not_found" });
    assert.equal((await store.listTouches("alice"))[0].status, "pending");
    await store.settleTouch(t.id, "next-sweep", {
      status: "resolved",
      target: "github:acme/rocket#1",
    });
    const [settled] = await store.listTouches("alice");
    assert.equal(settled.status, "resolved");
    assert.equal(settled.target, "github:acme/rocket#1");
    assert.ok(settled.settled_at);
  });

  test("settlements are visible to the user; a returned Touch can be leased at once", async (store) => {
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1"),
      touch("alice", "github:acme/private#1"),
      touch("alice", "github:acme/rocket#2"),
    ]);
    const leased = await store.leasePending("sweep", 10, 60_000);
    assert.equal(leased.length, 3);
    const by = (a: string) => leased.find((t) => t.address === a)!;
    await store.settleTouch(by("github:acme/rocket#1").id, "sweep", {
      status: "resolved",
      target: "github:acme/rocket#1",
    });
    await store.settleTouch(by("github:acme/private#1").id, "sweep", {
      status: "unresolved",
      reason: "not_public",
    });
    await store.settleTouch(by("github:acme/rocket#2").id, "sweep", { status: "pending" });
    const mine = new Map((await store.listTouches("alice")).map((t) => [t.address, t]));
    assert.equal(mine.get("github:acme/rocket#1")!.status, "resolved");
    assert.equal(mine.get("github:acme/private#1")!.status, "unresolved");
    assert.equal(mine.get("github:acme/private#1")!.reason, "not_public");
    assert.equal(mine.get("github:acme/rocket#2")!.status, "pending");
    const again = await store.leasePending("other-sweep", 10, 60_000);
    assert.deepEqual(again.map((t) => t.address), ["github:acme/rocket#2"]);
  });

  test("a rate_limited Touch is leased again by a later Sweep, pending once more; other reasons stay settled", async (store) => {
    await store.recordTouches([
      touch("alice", "github:acme/rocket#1", { recorded_at: "2026-03-01T10:00:00.000Z" }),
      touch("alice", "github:acme/private#1", { recorded_at: "2026-03-01T11:00:00.000Z" }),
    ]);
    const first = await store.leasePending("sweep-1", 10, 60_000);
    const by = (a: string) => first.find((t) => t.address === a)!;
    await store.settleTouch(by("github:acme/rocket#1").id, "sweep-1", {
      status: "unresolved",
      reason: "rate_limited",
    });
    await store.settleTouch(by("github:acme/private#1").id, "sweep-1", {
      status: "unresolved",
      reason: "not_public",
    });
    const limited = (await store.listTouches("alice")).find((t) => t.reason === "rate_limited");
    assert.equal(limited?.status, "unresolved", "visible as unresolved while it waits");
    assert.ok(limited?.settled_at);

    assert.deepEqual(
      await store.leasePending("sweep-1", 10, 60_000, limited!.settled_at!),
      [],
      "not by the Sweep that settled it so",
    );
    assert.deepEqual(await store.leasePending("sweep-2", 10, 60_000), [], "not unless asked");
    await new Promise((r) => setTimeout(r, 5));
    const retry = await store.leasePending("sweep-2", 10, 60_000, new Date().toISOString());
    assert.deepEqual(retry.map((t) => t.address), ["github:acme/rocket#1"]);
    assert.equal(retry[0].status, "pending");
    assert.equal(retry[0].reason, null);
    assert.deepEqual(
      await store.leasePending("sweep-3", 10, 60_000, new Date().toISOString()),
      [],
      "held by sweep-2",
    );
    await store.settleTouch(retry[0].id, "sweep-2", {
      status: "resolved",
      target: "github:acme/rocket#1",
    });
    const mine = new Map((await store.listTouches("alice")).map((t) => [t.address, t]));
    assert.equal(mine.get("github:acme/rocket#1")!.status, "resolved");
    assert.equal(mine.get("github:acme/rocket#1")!.reason, null);
    assert.equal(mine.get("github:acme/private#1")!.reason, "not_public");
  });

  test("a Touch given back with a failure counts it and keeps GitHub's message; unavailable carries it", async (store) => {
    await store.recordTouches([touch("alice", "github:acme/rocket#9")]);
    const read = async () => (await store.listTouches("alice"))[0];
    assert.deepEqual([(await read()).failures, (await read()).detail], [0, null]);
    for (let sweep = 1; sweep <= 2; sweep++) {
      const [t] = await store.leasePending(`sweep-${sweep}`, 5, 60_000);
      assert.equal(t.failures, sweep - 1, "a leased Touch carries its count");
      await store.settleTouch(t.id, `sweep-${sweep}`, {
        status: "pending",
        failure: `INTERNAL: try ${sweep}`,
      });
    }
    const failed = await read();
    assert.deepEqual([failed.status, failed.failures, failed.detail], [
      "pending",
      2,
      "INTERNAL: try 2",
    ]);
    // A plain give-back (rate limited before its turn) counts nothing.
    const [t3] = await store.leasePending("sweep-3", 5, 60_000);
    await store.settleTouch(t3.id, "sweep-3", { status: "pending" });
    assert.equal((await read()).failures, 2);
    const [t4] = await store.leasePending("sweep-4", 5, 60_000);
    await store.settleTouch(t4.id, "sweep-4", {
      status: "unresolved",
      reason: "unavailable",
      detail: "INTERNAL: try 3",
    });
    const settled = await read();
    assert.deepEqual([settled.status, settled.reason, settled.detail], [
      "unresolved",
      "unavailable",
      "INTERNAL: try 3",
    ]);
    assert.deepEqual((await store.userStats("alice")).unresolved, { unavailable: 1 });
  });

  // --- Resources ---------------------------------------------------------------

  test("stores an issue, a pull request and a repository whole", async (store) => {
    const i = issue(1, { comments: comments("IC_1", 120), comment_count: 120 });
    const pr = pullRequest(2);
    const repo = repository();
    await store.putResources([{ resource: i }, { resource: pr }, { resource: repo }]);
    assert.deepEqual(await store.getResource(i.address), i);
    assert.deepEqual(await store.getResource(pr.address), pr);
    assert.deepEqual(await store.getResource(repo.address), repo);
    assert.equal(await store.getResource("github:acme/rocket#404"), null);
    const stats = await store.memoryStats();
    assert.deepEqual(stats.resources, { repository: 1, issue: 1, pull_request: 1 });
    assert.equal(stats.comments, 120 + 2 + 2);
  });

  test("a refetch upserts on node_id and replaces the comments", async (store) => {
    await store.putResources([{ resource: issue(1, { comments: comments("IC_1", 5) }) }]);
    const newer = issue(1, {
      title: "Crash when planning OPTIONAL MATCH (fixed in 2.15)",
      state: "closed",
      closed_at: "2026-02-21T00:00:00.000Z",
      comments: comments("IC_1", 2),
      comment_count: 2,
      fetched_at: "2026-03-05T00:00:00.000Z",
    });
    await store.putResources([{ resource: newer }]);
    assert.deepEqual(await store.getResource(newer.address), newer);
    const stats = await store.memoryStats();
    assert.equal(stats.resources.issue, 1);
    assert.equal(stats.comments, 2);
  });

  test("a renamed repository stays one Resource under its old and new address", async (store) => {
    await store.putResources([{ resource: repository() }]);
    const moved = repository({
      address: repositoryAddress("acme", "rocket-engine").key,
      repo: "rocket-engine",
      url: "https://github.com/acme/rocket-engine",
      stars: 4300,
    });
    await store.putResources([{ resource: moved, aliases: ["github:acme/rocket"] }]);
    assert.deepEqual(await store.getResource("github:acme/rocket-engine"), moved);
    assert.deepEqual(await store.getResource("github:acme/rocket"), moved);
    const heads = await store.getHeads(["github:acme/rocket", "github:acme/rocket-engine"]);
    assert.equal(heads.get("github:acme/rocket")?.address, "github:acme/rocket-engine");
    assert.equal(heads.get("github:acme/rocket-engine")?.node_id, moved.node_id);
    assert.equal((await store.memoryStats()).resources.repository, 1);
  });

  test("a rename without explicit aliases still answers the old address", async (store) => {
    await store.putResources([{ resource: issue(7) }]);
    const moved = issue(7, {
      address: itemAddress("acme", "rocket-engine", 7).key,
      repo: "rocket-engine",
      url: "https://github.com/acme/rocket-engine/issues/7",
    });
    await store.putResources([{ resource: moved }]);
    assert.equal((await store.getResource("github:acme/rocket#7"))?.address, moved.address);
    assert.equal((await store.memoryStats()).resources.issue, 1);
  });

  test("a transferred issue with a new node_id replaces the stale one everywhere", async (store) => {
    const old = issue(7);
    // #7 mentions #8: an edge #8 declares, which follows #7 to its new identity.
    const other = issue(8, { referenced_by: ["https://github.com/acme/rocket/issues/7"] });
    await store.putResources([{ resource: old }, { resource: other }]);
    await store.putListing(listing(OPEN_ISSUES, 2), [old.address, other.address]);
    const transferred = issue(3, {
      node_id: "I_kwDOLaunchpad3",
      address: itemAddress("acme", "launchpad", 3).key,
      repo: "launchpad",
      url: "https://github.com/acme/launchpad/issues/3",
    });
    await store.putResources([{ resource: transferred, aliases: [old.address] }]);
    assert.deepEqual(await store.getResource(old.address), transferred);
    assert.deepEqual(await store.getResource(transferred.address), transferred);
    const stats = await store.memoryStats();
    assert.equal(stats.resources.issue, 2);
    assert.equal(stats.comments, 6);
    const members = await store.listingMembers(OPEN_ISSUES);
    assert.deepEqual(members.map((m) => m.address), [transferred.address, other.address]);
    assert.deepEqual(await store.edges(other.address), [
      { kind: "REFERENCES", from: transferred.address, to: other.address },
    ]);
  });

  test("REFERENCES run from the mentioning item to the mentioned one, in either fetch order", async (store) => {
    // #11 mentions #10; pull request #12 mentions #11 (each learns it from its own timeline).
    const a = issue(10, { referenced_by: ["https://github.com/acme/rocket/issues/11"] });
    const b = issue(11, {
      referenced_by: ["https://github.com/Acme/Rocket/pull/12#issuecomment-9"],
    });
    const c = pullRequest(12);
    // Mentioned before mentioner: the edge waits for #11.
    await store.putResources([{ resource: a }]);
    assert.deepEqual(await store.edges(a.address), []);
    // Mentioner before mentioned: #12 is stored when #11 names it.
    await store.putResources([{ resource: c }]);
    await store.putResources([{ resource: b }]);
    assert.deepEqual(await store.edges(a.address), [
      { kind: "REFERENCES", from: b.address, to: a.address },
    ]);
    assert.deepEqual(await store.edges(b.address), [
      { kind: "REFERENCES", from: b.address, to: a.address },
      { kind: "REFERENCES", from: c.address, to: b.address },
    ]);
    assert.deepEqual(await store.edges(c.address), [
      { kind: "REFERENCES", from: c.address, to: b.address },
    ]);
  });

  test("a mention by an already stored item is drawn at once; only the mentioned item's refetch redraws it", async (store) => {
    const mentioner = issue(21);
    await store.putResources([{ resource: mentioner }]);
    const mentioned = issue(20, { referenced_by: ["https://github.com/acme/rocket/issues/21"] });
    await store.putResources([{ resource: mentioned }]);
    const edge = { kind: "REFERENCES", from: mentioner.address, to: mentioned.address };
    assert.deepEqual(await store.edges(mentioned.address), [edge]);
    // The mentioner's refetch keeps the edge the mentioned item declared.
    await store.putResources([{ resource: { ...mentioner, title: "renamed" } }]);
    assert.deepEqual(await store.edges(mentioner.address), [edge]);
    await store.putResources([{ resource: { ...mentioned, referenced_by: [] } }]);
    assert.deepEqual(await store.edges(mentioned.address), []);
  });

  test("a refetch redraws the edges a Resource declared and keeps those others declared", async (store) => {
    // #5 closes #1 and is mentioned by #3; #1 says #5 mentions it.
    const pr = pullRequest(5, {
      closes: ["https://github.com/acme/rocket/issues/1"],
      referenced_by: ["https://github.com/acme/rocket/issues/3"],
    });
    const closed = issue(1, { referenced_by: ["https://github.com/acme/rocket/pull/5"] });
    const mentioner = issue(3);
    await store.putResources([{ resource: closed }, { resource: pr }]);
    await store.putResources([{ resource: mentioner }]);
    const all = [
      { kind: "CLOSES", from: pr.address, to: closed.address },
      { kind: "REFERENCES", from: mentioner.address, to: pr.address },
      { kind: "REFERENCES", from: pr.address, to: closed.address },
    ];
    assert.deepEqual(await store.edges(pr.address), all);
    await store.putResources([{ resource: pr }]);
    assert.deepEqual(await store.edges(pr.address), all, "an unchanged refetch draws the same");
    await store.putResources([{ resource: { ...pr, closes: [], referenced_by: [] } }]);
    assert.deepEqual(await store.edges(pr.address), [
      { kind: "REFERENCES", from: pr.address, to: closed.address },
    ]);
    assert.deepEqual(await store.edges(mentioner.address), []);
    // What the pull request declares again is drawn again, to stored ends at once.
    await store.putResources([{ resource: pr }]);
    assert.deepEqual(await store.edges(pr.address), all);
  });

  test("a pull request CLOSES the issues it names, stored before or after it", async (store) => {
    const before = issue(1);
    await store.putResources([{ resource: before }]);
    const pr = pullRequest(5, {
      closes: [
        "https://github.com/acme/rocket/issues/1",
        "https://github.com/acme/rocket/issues/2",
      ],
      referenced_by: ["https://github.com/acme/rocket/issues/2"],
    });
    await store.putResources([{ resource: pr }]);
    const after = issue(2);
    await store.putResources([{ resource: after }]);
    assert.deepEqual(await store.edges(pr.address), [
      { kind: "CLOSES", from: pr.address, to: before.address },
      { kind: "CLOSES", from: pr.address, to: after.address },
      { kind: "REFERENCES", from: after.address, to: pr.address },
    ]);
    assert.deepEqual(await store.edges(before.address), [
      { kind: "CLOSES", from: pr.address, to: before.address },
    ]);
    assert.deepEqual(await store.edges("github:acme/rocket#404"), []);
  });

  test("getHeads answers many addresses in one call", async (store) => {
    const i = issue(1);
    const repo = repository();
    await store.putResources([{ resource: i }, { resource: repo }]);
    const heads = await store.getHeads([i.address, repo.address, "github:acme/rocket#404"]);
    assert.equal(heads.size, 2);
    assert.deepEqual(heads.get(i.address), {
      node_id: i.node_id,
      kind: "issue",
      address: i.address,
      title: i.title,
      fetched_at: i.fetched_at,
      updated_at: i.updated_at,
      etag: null,
    });
    assert.equal(heads.get(repo.address)?.kind, "repository");
    assert.equal(heads.get(repo.address)?.etag, repo.etag);
    assert.equal((await store.getHeads([])).size, 0);
  });

  test("touchFetchedAt marks Resources revalidated without changing them", async (store) => {
    const i = issue(1);
    await store.putResources([{ resource: i }]);
    await store.touchFetchedAt([i.address, "github:acme/rocket#404"], "2026-04-01T00:00:00.000Z");
    assert.deepEqual(await store.getResource(i.address), {
      ...i,
      fetched_at: "2026-04-01T00:00:00.000Z",
    });
    assert.equal(
      (await store.getHeads([i.address])).get(i.address)?.fetched_at,
      "2026-04-01T00:00:00.000Z",
    );
  });

  // --- Listings --------------------------------------------------------------

  test("a Listing keeps its members in order, pages them, and a refetch replaces them", async (store) => {
    const items = [issue(3), issue(1), pullRequest(2), issue(4)];
    await store.putResources(items.map((resource) => ({ resource })));
    const order = ["github:acme/rocket#3", "github:acme/rocket#1", "github:acme/rocket#4"];
    const l = listing(OPEN_ISSUES, 3, { limit: 500 });
    await store.putListing(l, order);
    assert.deepEqual(await store.getListing(OPEN_ISSUES), l);
    const all = await store.listingMembers(OPEN_ISSUES);
    assert.deepEqual(all.map((m) => m.address), order);
    assert.deepEqual(all[0], {
      position: 0,
      address: "github:acme/rocket#3",
      number: 3,
      kind: "issue",
      title: items[0].title,
      state: "open",
      author: "graph-user",
      labels: ["bug", "planner"],
      assignees: ["maintainer-bot"],
      milestone: "v2.15",
      updated_at: items[0].updated_at,
      comment_count: 3,
    });
    const page = await store.listingMembers(OPEN_ISSUES, { offset: 1, limit: 1 });
    assert.deepEqual(page.map((m) => [m.position, m.number]), [[1, 1]]);
    assert.deepEqual(await store.listingMembers(OPEN_ISSUES, { offset: 5, limit: 10 }), []);

    const refetched = listing(OPEN_ISSUES, 2, { fetched_at: "2026-03-09T00:00:00.000Z" });
    await store.putListing(refetched, ["github:acme/rocket#4", "github:acme/rocket#3"]);
    assert.deepEqual(await store.getListing(OPEN_ISSUES), refetched);
    assert.deepEqual((await store.listingMembers(OPEN_ISSUES)).map((m) => m.number), [4, 3]);
    assert.equal(await store.getListing(OPEN_BUGS), null);
    assert.deepEqual(await store.listingMembers(OPEN_BUGS), []);
  });

  test("a Listing with members that are not stored is kept partial, never complete", async (store) => {
    await store.putResources([{ resource: issue(1) }, { resource: issue(2) }]);
    const asked = listing(OPEN_ISSUES, 3, { total_count: 3 });
    await store.putListing(asked, [
      "github:acme/rocket#1",
      "github:acme/rocket#404",
      "github:acme/rocket#2",
    ]);
    const stored = await store.getListing(OPEN_ISSUES);
    assert.equal(stored?.member_count, 2);
    assert.equal(stored?.fully_expanded, false);
    assert.deepEqual(
      (await store.listingMembers(OPEN_ISSUES)).map((m) => [m.position, m.number]),
      [[0, 1], [1, 2]],
    );
  });

  test("findListings returns the Listings of one repository and kind", async (store) => {
    await store.putResources([{ resource: issue(1) }, { resource: pullRequest(2) }]);
    await store.putListing(listing(OPEN_ISSUES, 1), ["github:acme/rocket#1"]);
    await store.putListing(listing(OPEN_BUGS, 1, { fully_expanded: false, total_count: 40 }), [
      "github:acme/rocket#1",
    ]);
    const pulls = listingAddress("acme", "rocket", "pulls", { state: "all" }, null).key;
    await store.putListing(listing(pulls, 1), ["github:acme/rocket#2"]);
    const found = await store.findListings("acme", "rocket", "issues");
    assert.deepEqual(found.map((l) => l.key).sort(), [OPEN_BUGS, OPEN_ISSUES].sort());
    assert.equal(found.find((l) => l.key === OPEN_BUGS)?.fully_expanded, false);
    assert.deepEqual((await store.findListings("acme", "rocket", "pulls")).map((l) => l.key), [
      pulls,
    ]);
    assert.deepEqual(await store.findListings("acme", "launchpad", "issues"), []);
  });

  // --- Reports -----------------------------------------------------------------

  test("userStats counts Cache Reads, settlements and the requests the hits saved", async (store) => {
    const long = issue(1, { comments: comments("IC_1", 150), comment_count: 150 });
    const members = [issue(2), issue(3), issue(4)];
    await store.putResources([long, repository(), ...members].map((resource) => ({ resource })));
    await store.putListing(listing(OPEN_ISSUES, 3), members.map((m) => m.address));
    await store.recordTouches([
      cacheRead("alice", long.address, "hit", long.address),
      cacheRead("alice", "github:acme/rocket", "hit", "github:acme/rocket"),
      cacheRead("alice", OPEN_BUGS, "subsumed", OPEN_ISSUES),
      cacheRead("alice", "github:acme/rocket#404", "miss", null),
      cacheRead("bob", long.address, "hit", long.address),
      touch("alice", "github:acme/rocket#5"),
      touch("alice", "github:acme/rocket#6"),
      touch("alice", "github:acme/private#1"),
    ]);
    const leased = await store.leasePending("sweep", 10, 60_000);
    const mine = leased.filter((t) => t.user_id === "alice");
    await store.settleTouch(mine[0].id, "sweep", { status: "resolved", target: mine[0].address });
    await store.settleTouch(mine[2].id, "sweep", { status: "unresolved", reason: "not_public" });
    await store.settleTouch(mine[1].id, "sweep", { status: "pending" });
    const stats = await store.userStats("alice");
    assert.deepEqual(stats, {
      cache_reads: { hit: 2, subsumed: 1, miss: 1 },
      // issue: 1 + ceil(150/100) = 3; repository: 2; listing of 3: ceil(3/100) + 3 = 4.
      requests_avoided: 3 + 2 + 4,
      pending: 1,
      oldest_pending: mine[1].recorded_at,
      resolved: 1,
      unresolved: { not_public: 1 },
    });
    const later = await store.userStats("alice", "2099-01-01T00:00:00Z");
    assert.deepEqual(later.cache_reads, { hit: 0, subsumed: 0, miss: 0 });
    assert.equal(later.requests_avoided, 0);
    assert.equal((await store.userStats("bob")).cache_reads.hit, 1);
    assert.equal((await store.userStats("bob")).oldest_pending, null);
  });

  test("memoryStats counts what is stored", async (store) => {
    const empty = await store.memoryStats();
    assert.deepEqual(empty.resources, { repository: 0, issue: 0, pull_request: 0 });
    assert.equal(empty.comments, 0);
    assert.equal(empty.listings, 0);
    await store.putResources([
      { resource: repository() },
      { resource: issue(1) },
      { resource: pullRequest(2) },
    ]);
    await store.putListing(listing(OPEN_ISSUES, 1), ["github:acme/rocket#1"]);
    const stats = await store.memoryStats();
    assert.deepEqual(stats.resources, { repository: 1, issue: 1, pull_request: 1 });
    assert.equal(stats.comments, 3 + 2 + 2);
    assert.equal(stats.listings, 1);
    assert.ok(stats.size_bytes === null || stats.size_bytes > 0);
  });

  test("searchMemory lists Resources and Listings newest fetch first, by address or title, in pages", async (store) => {
    assert.deepEqual(await store.searchMemory({ limit: 10 }), { entries: [], total: 0 });
    await store.putResources([
      { resource: repository({ fetched_at: "2026-03-01T10:00:00.000Z" }) },
      {
        resource: issue(1, {
          title: "Planner 100% CPU_spin",
          fetched_at: "2026-03-03T10:00:00.000Z",
        }),
      },
      { resource: issue(2, { fetched_at: "2026-03-02T10:00:00.000Z", state: "closed" }) },
      { resource: pullRequest(3, { fetched_at: "2026-03-04T10:00:00.000Z" }) },
    ]);
    await store.putListing(
      listing(OPEN_ISSUES, 2, { fetched_at: "2026-03-05T10:00:00.000Z" }),
      ["github:acme/rocket#1", "github:acme/rocket#2"],
    );
    const all = await store.searchMemory({ limit: 10 });
    assert.equal(all.total, 5);
    assert.deepEqual(all.entries.map((e) => [e.address, e.kind]), [
      [OPEN_ISSUES, "listing"],
      ["github:acme/rocket#3", "pull_request"],
      ["github:acme/rocket#1", "issue"],
      ["github:acme/rocket#2", "issue"],
      ["github:acme/rocket", "repository"],
    ]);
    const two = all.entries.find((e) => e.address === "github:acme/rocket#2")!;
    assert.deepEqual(two, {
      address: "github:acme/rocket#2",
      kind: "issue",
      title: issue(2).title,
      state: "closed",
      fetched_at: "2026-03-02T10:00:00.000Z",
      updated_at: issue(2).updated_at,
    });
    const repo = all.entries.find((e) => e.kind === "repository")!;
    assert.equal(repo.title, null);
    assert.equal(all.entries[0].updated_at, null);
    // Pages of the same order.
    const page = await store.searchMemory({ limit: 2, offset: 2 });
    assert.equal(page.total, 5);
    assert.deepEqual(page.entries, all.entries.slice(2, 4));
    // By title, ignoring case; % and _ are plain characters.
    const byTitle = await store.searchMemory({ text: "planner 100% cpu_", limit: 10 });
    assert.deepEqual(byTitle.entries.map((e) => e.address), ["github:acme/rocket#1"]);
    assert.equal(byTitle.total, 1);
    assert.equal((await store.searchMemory({ text: "100%%", limit: 10 })).total, 0);
    assert.equal((await store.searchMemory({ text: "cpu__spin", limit: 10 })).total, 0);
    // By address: a Listing's key too.
    const byAddress = await store.searchMemory({ text: "ACME/ROCKET/issues?", limit: 10 });
    assert.deepEqual(byAddress.entries.map((e) => e.address), [OPEN_ISSUES]);
  });
}
