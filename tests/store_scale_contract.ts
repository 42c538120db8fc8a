/**
 * The store contract's answers that must not grow with the Touches.
 *
 * Pages: `touchPages` hands out a user's Touches newest first, a bounded page
 * at a time, the same Touches `listTouches` lists (in reverse), with each
 * filter.
 *
 * Running counts: whatever a store keeps so that
 * `status`, `stats` and `doctor` need not read every Touch, `userStats` must
 * answer what counting the user's Touches one by one answers. Random
 * scenarios of recording (Cache Reads of stored and unstored things,
 * re-deliveries), leasing, settling and forgetting, for two users; after
 * every step each user's stats (all time, and since a time) are compared with
 * a count made here from `listTouches` and what the store holds.
 *
 * @example
 * ```ts
 * import { scaleContract } from "./store_scale_contract.ts";
 * scaleContract("sqlite", async () => openEmbeddedStore(await Deno.makeTempFile()));
 * ```
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  IdentityRequiredError,
  type Store,
  type TouchQuery,
  type UserStats,
} from "../lib/store/contract.ts";
import type { CacheOutcome, Listing, Touch, UnresolvedReason } from "../lib/types.ts";
import { itemRequests, REPOSITORY_REQUESTS } from "../lib/sweep/cost.ts";
import { listingAddress } from "../lib/address/key.ts";
import { issue, repository, touch } from "./store_contract.ts";

const USERS = ["alice", "bob"] as const;
const REPO = "github:acme/rocket";
const LISTING = listingAddress("acme", "rocket", "issues", {}, null).key;
/** What a Touch can name: stored items (with 0, 150 and 250 comments), the repository, an alias, a Listing, and an item never stored. */
const ADDRESSES = [
  "github:acme/rocket#1",
  "github:acme/rocket#2",
  "github:acme/rocket#3",
  REPO,
  "github:acme/old-name#1",
  LISTING,
  "github:acme/rocket#99",
];

/** What a Touch a Sweep leased becomes. */
type Settle =
  | { status: "resolved" }
  | { status: "unresolved"; reason: UnresolvedReason }
  | { status: "pending"; failure: boolean };

type Step =
  | {
    op: "record";
    user: number;
    touches: {
      address: number;
      served: CacheOutcome | null;
      limit: number | null;
      minute: number;
      session: number;
      again: boolean;
    }[];
  }
  | { op: "sweep"; limit: number; retry: boolean; settle: Settle[] }
  | {
    op: "forget";
    user: number;
    by: "all" | "session" | "address" | "before";
    session: number;
    address: number;
    minute: number;
  };

const settleArb: fc.Arbitrary<Settle> = fc.oneof(
  fc.constant({ status: "resolved" as const }),
  fc.constantFrom<UnresolvedReason>("not_found", "not_public", "rate_limited", "unavailable").map(
    (reason) => ({ status: "unresolved" as const, reason }),
  ),
  fc.boolean().map((failure) => ({ status: "pending" as const, failure })),
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("record" as const),
      user: fc.integer({ min: 0, max: 1 }),
      touches: fc.array(
        fc.record({
          address: fc.integer({ min: 0, max: ADDRESSES.length - 1 }),
          served: fc.option(fc.constantFrom<CacheOutcome>("hit", "subsumed", "miss")),
          limit: fc.option(fc.integer({ min: 1, max: 400 })),
          minute: fc.integer({ min: 0, max: 600 }),
          session: fc.integer({ min: 0, max: 2 }),
          again: fc.boolean(),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("sweep" as const),
      limit: fc.integer({ min: 1, max: 8 }),
      retry: fc.boolean(),
      settle: fc.array(settleArb, { minLength: 8, maxLength: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("forget" as const),
      user: fc.integer({ min: 0, max: 1 }),
      by: fc.constantFrom(
        "all" as const,
        "session" as const,
        "address" as const,
        "before" as const,
      ),
      session: fc.integer({ min: 0, max: 2 }),
      address: fc.integer({ min: 0, max: ADDRESSES.length - 1 }),
      minute: fc.integer({ min: 0, max: 600 }),
    }),
  },
);

const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 8, minute)).toISOString();

/** Stores what the Touches can name: the repository, three items (one also under an old name) and a Listing of 250. */
async function seed(store: Store): Promise<void> {
  await store.putResources([
    { resource: repository() },
    { resource: issue(1, { comment_count: 0 }), aliases: ["github:acme/old-name#1"] },
    { resource: issue(2, { comment_count: 150 }) },
    { resource: issue(3, { comment_count: 250 }) },
  ]);
  const a = listingAddress("acme", "rocket", "issues", {}, null);
  const listing: Listing = {
    key: a.key,
    owner: a.owner,
    repo: a.repo,
    listing: "issues",
    filters: a.filters,
    limit: null,
    total_count: 250,
    member_count: 250,
    fully_expanded: true,
    fetched_at: "2026-05-01T00:00:00.000Z",
  };
  // Members need not be stored for the count: a Listing's member count is what it records.
  await store.putListing(listing, []);
}

/**
 * The user's stats counted one Touch at a time, as the stores' reports did
 * before they kept counts: each answered Cache Read costed from what answers
 * its target now (nothing in the scenario is refetched after it is read).
 */
async function countedStats(store: Store, user: string, since?: string): Promise<UserStats> {
  const stats: UserStats = {
    cache_reads: { hit: 0, subsumed: 0, miss: 0 },
    requests_avoided: 0,
    pending: 0,
    oldest_pending: null,
    resolved: 0,
    unresolved: {},
  };
  for (const t of await store.listTouches(user, since === undefined ? {} : { since })) {
    if (t.status === "served" && t.outcome !== null) {
      stats.cache_reads[t.outcome]++;
      if (t.outcome !== "miss") {
        stats.requests_avoided += await cost(store, t.target ?? t.address, t.limit);
      }
    } else if (t.status === "pending") {
      stats.pending++;
      if (stats.oldest_pending === null || t.recorded_at < stats.oldest_pending) {
        stats.oldest_pending = t.recorded_at;
      }
    } else if (t.status === "resolved") stats.resolved++;
    else if (t.status === "unresolved" && t.reason !== null) {
      stats.unresolved[t.reason] = (stats.unresolved[t.reason] ?? 0) + 1;
    }
  }
  return stats;
}

/** What answering `key` from memory spared GitHub (see lib/sweep/cost.ts). */
async function cost(store: Store, key: string, asked: number | null): Promise<number> {
  const listing = await store.getListing(key);
  if (listing !== null) {
    const m = Math.min(asked ?? listing.member_count, listing.member_count);
    return Math.ceil(m / 100) + m;
  }
  const r = await store.getResource(key);
  if (r === null) return 0;
  return r.kind === "repository" ? REPOSITORY_REQUESTS : itemRequests(r.comment_count);
}

/** Runs one step against the store. */
async function run(store: Store, step: Step, counter: { n: number }): Promise<void> {
  if (step.op === "record") {
    const user = USERS[step.user];
    const batch = step.touches.map((t) => {
      const address = ADDRESSES[t.address];
      const n = ++counter.n;
      return touch(user, address, {
        // Some re-deliver an earlier event: recorded once.
        dedup_key: t.again && n > 1 ? `dedup-${n - 1}` : `dedup-${n}`,
        recorded_at: at(t.minute),
        session_id: `s${t.session}`,
        limit: address === LISTING ? t.limit : null,
        ...(t.served === null ? {} : {
          status: "served" as const,
          outcome: t.served,
          target: t.served === "miss" ? null : address,
        }),
      });
    });
    await store.recordTouches(batch);
  } else if (step.op === "sweep") {
    const retry = step.retry ? new Date(Date.now() + 60_000).toISOString() : undefined;
    const leased = await store.leasePending("sweeper", step.limit, 60_000, retry);
    for (const [i, t] of leased.entries()) {
      const s = step.settle[i % step.settle.length];
      await store.settleTouch(
        t.id,
        "sweeper",
        s.status === "resolved"
          ? { status: "resolved", target: t.address }
          : s.status === "unresolved"
          ? { status: "unresolved", reason: s.reason }
          : s.failure
          ? { status: "pending", failure: "GitHub said 502" }
          : { status: "pending" },
      );
    }
  } else {
    const user = USERS[step.user];
    await store.forgetTouches(
      user,
      step.by === "all"
        ? { all: true }
        : step.by === "session"
        ? { session_id: `s${step.session}` }
        : step.by === "address"
        ? { address: ADDRESSES[step.address] }
        : { before: at(step.minute) },
    );
  }
}

/** Every page `touchPages` hands out, and their Touches in order. */
async function paged(store: Store, user: string, query: TouchQuery, size: number) {
  const sizes: number[] = [];
  const touches: Touch[] = [];
  for await (const page of store.touchPages(user, query, size)) {
    sizes.push(page.length);
    touches.push(...page);
  }
  return { sizes, ids: touches.map((t) => t.id) };
}

/**
 * Registers the scale tests for one store implementation (`open`: a fresh,
 * empty store each time; `cleanup` after each, once it is closed).
 */
export function scaleContract(
  name: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
  runs = 25,
): void {
  Deno.test(`${name} store: touchPages hands out a user's Touches newest first, a bounded page at a time`, async () => {
    const store = await open();
    try {
      // 23 of alice's over two sessions, some in the same instant, a third Cache Reads; bob's between them.
      const batch = Array.from(
        { length: 23 },
        (_, i) =>
          touch("alice", ADDRESSES[i % ADDRESSES.length], {
            recorded_at: at(Math.floor(i / 2)),
            session_id: `s${i % 2}`,
            ...(i % 3 === 0 ? { status: "served" as const, outcome: "miss" as const } : {}),
          }),
      );
      batch.splice(5, 0, touch("bob", REPO, { recorded_at: at(3) }));
      await store.recordTouches(batch);
      const all = (await store.listTouches("alice")).map((t) => t.id).reverse();
      assert.equal(all.length, 23);
      assert.deepEqual(await paged(store, "alice", {}, 5), {
        sizes: [5, 5, 5, 5, 3],
        ids: all,
      });
      for (
        const query of [{ session_id: "s1" }, { since: at(6) }, { status: "pending" as const }]
      ) {
        const listed = (await store.listTouches("alice", query)).map((t) => t.id).reverse();
        assert.ok(
          listed.length > 0 && listed.length < 23,
          `${JSON.stringify(query)}: ${listed.length}`,
        );
        assert.deepEqual((await paged(store, "alice", query, 4)).ids, listed);
      }
      assert.deepEqual(await paged(store, "carol", {}, 5), { sizes: [], ids: [] });
      await assert.rejects(() => store.touchPages("", {}, 5).next(), IdentityRequiredError);
    } finally {
      await store.close();
      await cleanup?.();
    }
  });

  Deno.test(`${name} store: userStats answers what counting every Touch answers, through record, settle and forget`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
        const store = await open();
        try {
          await seed(store);
          const counter = { n: 0 };
          for (const step of steps) {
            await run(store, step, counter);
            for (const user of USERS) {
              assert.deepEqual(await store.userStats(user), await countedStats(store, user));
              const since = at(300);
              assert.deepEqual(
                await store.userStats(user, since),
                await countedStats(store, user, since),
              );
            }
          }
        } finally {
          await store.close();
          await cleanup?.();
        }
      }),
      { numRuns: runs },
    );
  });
}
