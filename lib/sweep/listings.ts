/**
 * Sweeping a Listing: a PROMPTED one that memory answers costs nothing; a
 * stored one an agent re-fetched is revalidated with `since` and patched
 * from what changed; anything else is fetched page by page, every member
 * stored whole as it arrives.
 *
 * @example
 * ```ts
 * import { sweepListing } from "./listings.ts";
 * await sweepListing(run, group, listingAddress("o", "r", "issues", {}, 500));
 * ```
 * @module
 */

import { chooseListing, memberMatches, parseKey } from "../address/mod.ts";
import {
  type ChangedHead,
  listingPoints,
  type Source,
  TransientError,
  UnavailableError,
} from "../github/mod.ts";
import type {
  ItemAddress,
  ItemResource,
  Listing,
  ListingAddress,
  ListingMember,
  Touch,
} from "../types.ts";
import type { ResourceWrite } from "../store/mod.ts";
import type { SweepContext } from "./context.ts";
import { listingRequests } from "./cost.ts";
import { fetchListed } from "./listed.ts";
import { putListing } from "./listing_put.ts";
import { answeredBy, EVERY_PAGE_CAP, type Group } from "./groups.ts";

/** `since` for a Listing fetched at `fetchedAt`, with a margin for clock skew (unchanged items cost nothing: their `updated_at` is compared). */
function sinceOf(fetchedAt: string): string {
  return new Date(Date.parse(fetchedAt) - 5 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A member-shaped view of a changed head, for the Listing filter matcher. */
function asMember(h: ChangedHead, address: string): ListingMember {
  return {
    position: 0,
    address,
    number: h.number,
    kind: h.kind,
    title: "",
    state: h.state,
    author: h.author,
    labels: h.labels,
    assignees: h.assignees,
    milestone: h.milestone,
    updated_at: h.updated_at,
    comment_count: 0,
  };
}

function itemKeyOf(owner: string, repo: string, n: number): string {
  return `github:${owner.toLowerCase()}/${repo.toLowerCase()}#${n}`;
}

/** Sweeps the Listing `g` asks for. */
export async function sweepListing(run: SweepContext, g: Group, a: ListingAddress): Promise<void> {
  const stored = await run.store.findListings(a.owner, a.repo, a.listing);
  const match = chooseListing(a, stored);
  if (match.outcome !== "miss" && answeredBy(g, match.listing.fetched_at)) {
    // PROMPTED only, or asked before what is stored was fetched: memory answers it
    // (exactly or from a broader fully expanded Listing).
    return await run.settle(
      g.touches,
      { status: "resolved", target: match.listing.key },
      listingRequests(match.listing.member_count),
    );
  }
  const source = await run.source();
  const cost = (n: number) => listingPoints(a, n);
  [g, a] = await withoutTooBig(run, source, g, a, cost);
  const limit = a.limit ?? EVERY_PAGE_CAP;
  if (match.outcome === "hit") {
    const changes = await source.listingChanges(a, sinceOf(match.listing.fetched_at));
    if (changes && await revalidateListing(run, g, a, match.listing, changes, limit)) return;
  }
  // Without a token the cost is planned from what the list shows, page by page.
  if (source.listedPages) return await fetchListed(run, source, g, a, limit);
  await run.withBudget([g], cost(limit), () => fetchListing(run, source, g, a, limit));
}

/**
 * With a token, the Touches of `g` that ask for more members than a whole
 * hour's points can ever fetch are settled `rate_limited` by themselves, so
 * that a narrower ask grouped with them (one a later Sweep took up again,
 * say) is still fetched at its own limit.
 */
async function withoutTooBig(
  run: SweepContext,
  source: Source,
  g: Group,
  a: ListingAddress,
  cost: (limit: number) => number,
): Promise<[Group, ListingAddress]> {
  const asked = (t: Touch) => t.limit ?? EVERY_PAGE_CAP;
  if (source.mode !== "graphql" || new Set(g.touches.map(asked)).size < 2) return [g, a];
  await source.learnBudget();
  const fits = g.touches.filter((t) => source.affordable(cost(asked(t))));
  if (fits.length === 0 || fits.length === g.touches.length) return [g, a];
  const big = g.touches.filter((t) => !fits.includes(t));
  // Not affordable, so the budget settles them with its note and never runs the work.
  await run.withBudget([{ ...g, touches: big }], cost(a.limit!), () => Promise.resolve());
  const narrower: Group = {
    ...g,
    touches: fits,
    fetched: fits.some((t) => t.provenance === "FETCHED"),
  };
  return [narrower, { ...a, limit: Math.max(...fits.map(asked)) }];
}

async function fetchListing(
  run: SweepContext,
  source: Source,
  g: Group,
  a: ListingAddress,
  limit: number,
): Promise<void> {
  const fetchedAt = new Date().toISOString();
  const ranked: [number, string][] = [];
  let total = 0;
  // Pages are written in order while the next ones are fetched: a write slower
  // than a fetch (a remote or busy graph server) never holds the next request
  // back. Only the Listing waits for them; a failed write stops the fetching.
  let written: Promise<void> = Promise.resolve();
  let writeFailed = false;
  try {
    const along = run.repositoryAlong(a.owner, a.repo);
    for await (const page of source.listingPages(a, limit, along)) {
      const writes: ResourceWrite[] = page.items.map((resource) => ({ resource }));
      // The repository that came along is stored with the first page that lives in it.
      const addresses = page.items.map((r) => r.address);
      const home = run.alongWrite(a.owner, a.repo, addresses);
      written = written.then(async () => {
        await run.store.putResources([...writes, ...home]);
        run.summary.resources_written += writes.length;
        run.progress();
      });
      written.catch(() => (writeFailed = true));
      page.items.forEach((r, i) => ranked.push([page.positions[i], r.address]));
      total = page.totalCount;
      if (writeFailed) break;
    }
  } catch (e) {
    // What was fetched is stored (or its write failed) before the group is settled.
    await written.catch(() => {});
    if (e instanceof UnavailableError) {
      return await run.settle(g.touches, { status: "unresolved", reason: e.reason });
    }
    // GitHub failed on a member or a page: the Listing is not stored short (what it
    // had stays), and is retried like an item GitHub fails on.
    if (e instanceof TransientError && e.answered) return await run.failed(g, e.message, true);
    throw e;
  }
  await written;
  // Pages may come out of GitHub's order (members with long threads are held back).
  const members = ranked.sort((x, y) => x[0] - y[0]).map(([, address]) => address);
  await putListing(run, a, limit, total, members, fetchedAt);
  await run.settle(
    g.touches,
    { status: "resolved", target: a.key },
    listingRequests(members.length),
  );
}

/**
 * A stored Listing after a `since` probe: refetch the changed members that
 * still match (or newly match), drop the ones that stopped matching, and
 * rewrite the member list newest-updated first. Returns false when the
 * Listing cannot be patched and must be fetched again.
 */
async function revalidateListing(
  run: SweepContext,
  g: Group,
  a: ListingAddress,
  old: Listing,
  changes: { totalCount: number | null; changed: ChangedHead[] },
  asked: number,
): Promise<boolean> {
  // A narrower ask never shrinks what is stored.
  const limit = Math.max(asked, old.limit ?? old.member_count);
  // Without a count, only a complete Listing can be patched from the changes.
  if (changes.totalCount === null && !old.fully_expanded) return false;
  const fetchedAt = new Date().toISOString();
  const oldMembers = await run.store.listingMembers(old.key);
  const kind = a.listing === "issues" ? "issue" : "pull_request";
  const changed = changes.changed.filter((h) => h.kind === kind);
  // Member addresses are canonical (a renamed repository's new name).
  const first = oldMembers[0] ? parseKey(oldMembers[0].address) as ItemAddress : null;
  const owner = first?.owner ?? a.owner, repo = first?.repo ?? a.repo;
  const keyOf = (n: number) => itemKeyOf(owner, repo, n);
  const matching = changed.filter((h) => memberMatches(a.filters, asMember(h, keyOf(h.number))));

  const order = new Map<string, string>(oldMembers.map((m) => [m.address, m.updated_at]));
  for (const h of changed) order.delete(keyOf(h.number));
  for (const h of matching) order.set(keyOf(h.number), h.updated_at);
  const total = changes.totalCount ?? order.size;
  const ranked = [...order.entries()].sort((x, y) => (x[1] < y[1] ? 1 : x[1] > y[1] ? -1 : 0));
  const members = ranked.map(([address]) => address).slice(0, limit);
  // A truncated Listing that lost members does not know what ranks next: refetch it.
  if (!old.fully_expanded && members.length < Math.min(limit, total)) return false;

  const kept = new Set(members);
  const heads = await run.store.getHeads(
    matching.map((h) => keyOf(h.number)).filter((k) => kept.has(k)),
  );
  const refetch = matching.filter((h) =>
    kept.has(keyOf(h.number)) && heads.get(keyOf(h.number))?.updated_at !== h.updated_at
  );
  const lost = new Set<string>();
  if (refetch.length) {
    const source = await run.source();
    const found = await source.items(owner, repo, refetch.map((h) => h.number));
    const writes: { resource: ItemResource }[] = [];
    for (const [n, r] of found) {
      if (r.status === "ok") writes.push({ resource: r.value });
      else lost.add(keyOf(n));
    }
    await run.store.putResources(writes);
    run.summary.resources_written += writes.length;
  }
  const final = members.filter((m) => !lost.has(m));
  // The probe showed the other members unchanged since the last fetch: they are
  // current as of now, so Touches of them recorded before now need no request.
  const refetched = new Set(refetch.map((h) => keyOf(h.number)));
  await run.store.touchFetchedAt(final.filter((m) => !refetched.has(m)), fetchedAt);
  await putListing(run, a, limit, total - lost.size, final, fetchedAt);
  await run.settle(
    g.touches,
    { status: "resolved", target: a.key },
    Math.max(1, Math.ceil(final.length / 100)),
  );
  return true;
}
