/**
 * A Listing without a token, planned from what GitHub shows rather than
 * from the limit asked: each page of the list is one request and shows its
 * members with their `comments` counts, so a member with no comments costs
 * nothing more, and `gh issue list --limit 100` of a repository with 12
 * open issues costs its one page and those issues' comment pages — not 101
 * requests. What does not fit the budget now yields to work that does (it
 * runs once the rest of the Sweep has ended) and then reads whole members
 * while the budget lasts; what is left is settled `rate_limited` with the
 * budget's reset, and the next Sweep reads the list again and only the
 * members memory does not hold as GitHub lists them now.
 *
 * @example
 * ```ts
 * import { fetchListed } from "./listed.ts";
 * await fetchListed(run, restSource, group, listingAddress, 100);
 * ```
 * @module
 */

import {
  type ListedMember,
  type ListedPage,
  type Source,
  TransientError,
  UnavailableError,
} from "../github/mod.ts";
import type { ItemResource, ListingAddress } from "../types.ts";
import { type Cost, RATE_LIMITED } from "./budget.ts";
import type { SweepContext } from "./context.ts";
import { listingRequests } from "./cost.ts";
import type { Group } from "./groups.ts";
import { putListing } from "./listing_put.ts";

/** Members read at once (the REST client bounds requests in flight again). */
const AT_ONCE = 4;

/** Fetches the Listing `g` asks for from a source that lists members before reading them. */
export async function fetchListed(
  run: SweepContext,
  source: Source,
  g: Group,
  a: ListingAddress,
  limit: number,
): Promise<void> {
  const fetchedAt = new Date().toISOString();
  run.repositoryAlong(a.owner, a.repo);
  const listed = await failing(run, g, () => listAll(run, source, a, limit));
  if (listed === null) return;
  if (listed === "deferred") return await defer(run, source, g, a, 0, null);
  const { members, total } = listed;
  const heads = await run.store.getHeads(members.map((m) => m.address));
  // What memory holds as GitHub lists it now is not read again.
  const needed = members.filter((m) => heads.get(m.address)?.updated_at !== m.updated_at);
  const finish = async (read: number) => {
    if (read < needed.length) return await defer(run, source, g, a, read, needed.length);
    const keys = members.sort((x, y) => x.position - y.position).map((m) => m.address);
    await putListing(run, a, limit, total, keys, fetchedAt);
    await run.settle(
      g.touches,
      { status: "resolved", target: a.key },
      listingRequests(keys.length),
    );
  };
  const cost = needed.reduce((n, m) => n + m.requests, 0);
  let read = 0;
  // All of it fits: read now. Otherwise what will finish goes first, and this reads what is left.
  const ran = await run.tryBudget(cost, async () => {
    read = await failing(run, g, () => readAll(run, needed)) ?? -1;
  });
  if (ran) return read < 0 ? undefined : await finish(read);
  run.later([g], async () => {
    const done = await failing(run, g, () => readWhileBudget(run, needed));
    if (done !== null) await finish(done);
  });
}

/**
 * Runs `work`; a Listing GitHub cannot serve (missing, not public) or
 * failed on part-way is settled for the group, and null is returned.
 */
async function failing<T>(run: SweepContext, g: Group, work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UnavailableError) {
      await run.settle(g.touches, { status: "unresolved", reason: e.reason });
      return null;
    }
    if (e instanceof TransientError && e.answered) {
      await run.failed(g, e.message, true);
      return null;
    }
    throw e;
  }
}

/** Every page of the list, each asked while the budget has room for it. */
async function listAll(
  run: SweepContext,
  source: Source,
  a: ListingAddress,
  limit: number,
): Promise<{ members: ListedMember[]; total: number } | "deferred"> {
  const pages = source.listedPages!(a, limit);
  const page: Cost = a.filters.q === undefined ? 1 : { search: 1 };
  const members: ListedMember[] = [];
  let total = 0;
  for (;;) {
    let step: IteratorResult<ListedPage> | null = null;
    const ran = await run.tryBudget(page, async () => void (step = await pages.next()));
    if (!ran) return "deferred";
    const next = step as IteratorResult<ListedPage> | null;
    if (!next || next.done) return { members, total };
    members.push(...next.value.members);
    total = next.value.totalCount;
  }
}

/** Stores members as they are read. */
async function store(run: SweepContext, items: ItemResource[]): Promise<void> {
  if (items.length === 0) return;
  await run.store.putResources(items.map((resource) => ({ resource })));
  run.summary.resources_written += items.length;
  run.progress();
}

/** Reads every member (the budget for all of them is already promised). */
async function readAll(run: SweepContext, members: ListedMember[]): Promise<number> {
  for (let i = 0; i < members.length; i += AT_ONCE) {
    await store(run, await Promise.all(members.slice(i, i + AT_ONCE).map((m) => m.complete())));
  }
  return members.length;
}

/** Reads members in GitHub's order while the budget has room for the next one whole. */
async function readWhileBudget(run: SweepContext, members: ListedMember[]): Promise<number> {
  let read = 0;
  for (const m of members) {
    const ran = await run.tryBudget(m.requests, async () => await store(run, [await m.complete()]));
    if (!ran) break;
    read++;
  }
  return read;
}

/**
 * Settles a Listing the budget left unfinished `rate_limited`, with when it
 * resets: what was read is stored, and the next Sweep goes on from there.
 */
async function defer(
  run: SweepContext,
  source: Source,
  g: Group,
  a: ListingAddress,
  read: number,
  of: number | null,
): Promise<void> {
  const resource = a.filters.q !== undefined && of === null ? "search" : source.main;
  const resetAt = source.budget(resource).resetAt;
  run.summary.rate_limited = true;
  run.limitedBy(resource, resetAt);
  const progress = of === null ? "its list" : `${of - read} of its ${of} members still to read`;
  run.summary.errors.push(
    `${a.key}: ${progress} when GitHub's ${resource} budget ran out; ` +
      `unresolved rate_limited, taken up again ${
        resetAt ? `after ${resetAt}` : "by the next Sweep"
      }`,
  );
  await run.settle(g.touches, RATE_LIMITED);
}
