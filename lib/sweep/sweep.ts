/**
 * The Sweep: leases pending Touches oldest first, fetches what they name from
 * GitHub once (deduplicated, batched per repository), stores it, and settles
 * every Touch: `resolved` with its target, `unresolved` with a reason, or
 * given back `pending` (the budget ran out, or a transient failure: the next
 * Sweep takes it up). Only work that can never fit a token's whole hourly
 * budget is settled `rate_limited`. One failing group never stops the others.
 *
 * What costs a request:
 * - a new item, repository or Listing: fetched at full depth;
 * - a FETCHED Touch (the agent really re-fetched) of something stored: a
 *   cheap revalidation (`updatedAt` probe / `If-None-Match`, `since` for a
 *   Listing), refetching only what changed;
 * - a PROMPTED Touch of something stored: nothing.
 *
 * @example
 * ```ts
 * import { sweep } from "./sweep.ts";
 * const summary = await sweep(store, () => openSource(config.github), { limit: 100 });
 * summary.resolved; // Touches settled resolved in this run
 * ```
 * @module
 */

import { parseKey } from "../address/key.ts";
import { listingRequests, pages, REPOSITORY_REQUESTS, resourceRequests } from "./cost.ts";
import { AuthError, RateLimitedError } from "../github/http.ts";
import type { ChangedHead, Fetched, Source } from "../github/source.ts";
import { UnavailableError } from "../github/source.ts";
import { Limiter } from "../github/http.ts";
import { itemPoints, listingPoints } from "../github/queries.ts";
import { chooseListing, memberMatches } from "../address/listing.ts";
import type { ResourceHead, ResourceWrite, Settlement, Store } from "../store/contract.ts";
import type {
  Address,
  ItemAddress,
  ItemResource,
  Listing,
  ListingAddress,
  ListingMember,
  RepositoryAddress,
  Resource,
  Touch,
  UnresolvedReason,
} from "../types.ts";

/** How a Sweep runs. */
export interface SweepOptions {
  /** At most this many Touches this run (default: all pending). */
  limit?: number;
  /** The lease owner id (default: a fresh UUID). */
  owner?: string;
  /** How long leased Touches stay ours if this process dies (default 2 minutes). */
  leaseMs?: number;
  /** Groups worked on at once (default 4; requests are bounded again inside the source). */
  concurrency?: number;
  /** Called as work progresses (for a progress bar). */
  onProgress?: (progress: SweepProgress) => void;
}

/** A snapshot of a running Sweep. */
export interface SweepProgress {
  touches: number;
  settled: number;
  resources: number;
  requests: number;
  budget_remaining: number | null;
}

/** What a Sweep did. */
export interface SweepSummary {
  touches: number;
  resolved: number;
  unresolved: Partial<Record<UnresolvedReason, number>>;
  /** Given back pending for the next Sweep (rate limited, transient failure). */
  pending: number;
  resources_written: number;
  listings_written: number;
  /** GitHub requests sent. */
  requests: number;
  /**
   * Requests avoided, estimated: what fetching each settled Touch the
   * ordinary way would have cost (`lib/cost.ts`: an item with every page of
   * comments, a repository with its README, a Listing's pages and each
   * member's comments), minus what this Sweep sent. Duplicates, PROMPTED Touches of stored things,
   * unchanged revalidations and batching all count.
   */
  requests_saved: number;
  /** `graphql`, `rest`, or `none` when no request was needed. */
  source: "graphql" | "rest" | "none";
  budget: { remaining: number | null; limit: number | null; reset_at: string | null };
  /**
   * Why groups were given back (transient failures, unexpected errors, work
   * bigger than the anonymous hour's budget) or settled `rate_limited` (work
   * bigger than the token's whole hour), token-free.
   */
  errors: string[];
  /** GitHub's budget ran out this run: what is left pending waits for the next Sweep. */
  rate_limited: boolean;
  /** Wall time of the run. */
  elapsed_ms: number;
}

/** Identical addresses among the leased Touches, worked on once. */
interface Group {
  address: Address;
  touches: Touch[];
  /** Some Touch is a real re-fetch by the agent (revalidate what is stored). */
  fetched: boolean;
}

type Outcome = Settlement & { cost?: number };

/** The source is opened only when a request is needed (PROMPTED-only Sweeps never touch the network). */
type SourceFactory = () => Promise<Source>;

const LEASE_BATCH = 200;
/** Work of at most this many requests (or points) goes ahead before the budget is known. */
const SMALL_WORK = 4;

function newSummary(): SweepSummary {
  return {
    touches: 0,
    resolved: 0,
    unresolved: {},
    pending: 0,
    resources_written: 0,
    listings_written: 0,
    requests: 0,
    requests_saved: 0,
    source: "none",
    budget: { remaining: null, limit: null, reset_at: null },
    errors: [],
    rate_limited: false,
    elapsed_ms: 0,
  };
}

/**
 * How many members a Sweep fetches for a Listing asked for in full (limit
 * `null`: `--paginate`, every page). GitHub's search stops at 1,000 results
 * too; a Listing cut there is stored as not fully expanded, so it never
 * passes for "every item".
 */
const EVERY_PAGE_CAP = 1000;

function limitOf(touches: Touch[]): number {
  return Math.max(...touches.map((t) => t.limit ?? EVERY_PAGE_CAP));
}

/** Groups Touches by canonical address; `null` address → unparseable. */
function groupTouches(touches: Touch[]): { groups: Group[]; unparseable: Touch[] } {
  const byKey = new Map<string, Group>();
  const unparseable: Touch[] = [];
  for (const t of touches) {
    const address = parseKey(t.address, t.limit);
    if (!address || address.kind !== t.kind) {
      unparseable.push(t);
      continue;
    }
    const g = byKey.get(address.key);
    if (g) {
      g.touches.push(t);
      g.fetched ||= t.provenance === "FETCHED";
    } else {
      byKey.set(address.key, { address, touches: [t], fetched: t.provenance === "FETCHED" });
    }
  }
  for (const g of byKey.values()) {
    if (g.address.kind === "listing") g.address = { ...g.address, limit: limitOf(g.touches) };
  }
  return { groups: [...byKey.values()], unparseable };
}

/** The write for a Resource `g` asked for: findable under the asked key too when it moved. */
function writeFor(g: Group, resource: Resource): ResourceWrite {
  return { resource, aliases: resource.address === g.address.key ? [] : [g.address.key] };
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

/** One Sweep run. */
class Run {
  readonly summary = newSummary();
  #source: Source | null = null;
  #opening: Promise<Source> | null = null;
  #naive = 0;
  #settled = 0;
  #total = 0;
  /**
   * Leased Touches not yet settled (including those given back pending):
   * released when the run ends, however it ends, so none waits out its lease.
   */
  #open = new Map<string, Touch>();
  /** GitHub said the budget is spent (or refused the token): no further request this run. */
  #stopped = false;
  /** The token was refused: the run stops and {@link run} rethrows this. */
  #refused: AuthError | null = null;
  /** Budget promised to tasks in flight (so concurrent tasks do not overspend it). */
  #reserved = 0;
  /** The task learning an unknown REST budget, which the others wait for. */
  #learning: Promise<void> | null = null;

  constructor(
    readonly store: Store,
    readonly openSource: SourceFactory,
    readonly owner: string,
    readonly options: SweepOptions,
  ) {}

  source(): Promise<Source> {
    this.#opening ??= this.openSource().then((s) => (this.#source = s));
    return this.#opening;
  }

  progress(): void {
    const s = this.#source;
    this.options.onProgress?.({
      touches: this.#total,
      settled: this.#settled,
      resources: this.summary.resources_written,
      requests: s?.requests() ?? 0,
      budget_remaining: s?.budget().remaining ?? null,
    });
  }

  async settle(touches: Touch[], outcome: Outcome, naiveCost = 1): Promise<void> {
    for (const t of touches) {
      // A pending one is held until the run ends, so this run's own leasing never hands it back to us.
      if (outcome.status === "pending") continue;
      await this.store.settleTouch(t.id, this.owner, outcome);
      this.#open.delete(t.id);
      this.#settled++;
      if (outcome.status === "resolved") {
        this.summary.resolved++;
        this.#naive += naiveCost;
      } else if (outcome.status === "unresolved") {
        this.summary.unresolved[outcome.reason] = (this.summary.unresolved[outcome.reason] ?? 0) +
          1;
      }
    }
    this.progress();
  }

  /**
   * Settles a group by what was fetched for it: resolved at the Resource's
   * current address, or unresolved with why (nothing came back: not found).
   */
  async settleFetched(g: Group, r: Fetched<Resource> | undefined): Promise<void> {
    if (r?.status === "ok") {
      return await this.settle(
        g.touches,
        { status: "resolved", target: r.value.address },
        resourceRequests(r.value),
      );
    }
    await this.settle(g.touches, { status: "unresolved", reason: r?.status ?? "not_found" });
  }

  /**
   * Gives a group back (pending) and remembers why, unless it was simply rate
   * limited. A refused token stops the run (every task still queued gives
   * its groups back) and is rethrown once the tasks in flight have ended.
   */
  async giveBack(groups: Group[], error: unknown): Promise<void> {
    if (error instanceof RateLimitedError) {
      this.summary.rate_limited = true;
      this.#stopped = true;
    } else if (error instanceof AuthError) {
      this.#refused ??= error;
      this.#stopped = true;
    } else {
      const msg = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (!this.summary.errors.includes(msg)) this.summary.errors.push(msg);
    }
    for (const g of groups) await this.settle(g.touches, { status: "pending" });
  }

  async run(): Promise<SweepSummary> {
    const started = performance.now();
    const limit = this.options.limit ?? Infinity;
    // A run longer than its lease could lease its own Touches again: never twice.
    const seen = new Set<string>();
    try {
      while (this.summary.touches < limit && !this.#stopped) {
        const want = Math.min(LEASE_BATCH, limit - this.summary.touches);
        const leased =
          (await this.store.leasePending(this.owner, want, this.options.leaseMs ?? 120_000))
            .filter((t) => !seen.has(t.id));
        if (leased.length === 0) break;
        for (const t of leased) {
          seen.add(t.id);
          this.#open.set(t.id, t);
        }
        this.summary.touches += leased.length;
        this.#total += leased.length;
        await this.batch(leased);
      }
    } finally {
      for (const t of this.#open.values()) {
        await this.store.settleTouch(t.id, this.owner, { status: "pending" });
        this.summary.pending++;
      }
      this.#open.clear();
    }
    if (this.#refused) throw this.#refused;
    const s = this.#source;
    if (s) {
      const b = s.budget();
      this.summary.source = s.mode;
      this.summary.requests = s.requests();
      this.summary.budget = { remaining: b.remaining, limit: b.limit, reset_at: b.resetAt };
    }
    this.summary.requests_saved = Math.max(0, this.#naive - this.summary.requests);
    this.summary.elapsed_ms = Math.round(performance.now() - started);
    return this.summary;
  }

  /** Works one leased batch: settle what needs no request, then the rest with bounded concurrency. */
  async batch(touches: Touch[]): Promise<void> {
    const { groups, unparseable } = groupTouches(touches);
    await this.settle(unparseable, { status: "unresolved", reason: "unparseable" });
    const keys = groups.filter((g) => g.address.kind !== "listing").map((g) => g.address.key);
    const heads = await this.store.getHeads(keys);
    const tasks: { groups: Group[]; work: () => Promise<void> }[] = [];

    const itemsByRepo = new Map<string, { fetch: Group[]; revalidate: [Group, ResourceHead][] }>();
    for (const g of groups) {
      const a = g.address;
      if (a.kind === "listing") {
        tasks.push({ groups: [g], work: () => this.listing(g, a) });
        continue;
      }
      const head = heads.get(a.key);
      if (head && !g.fetched) {
        // PROMPTED only: the stored Resource answers it; no request.
        await this.settle(g.touches, { status: "resolved", target: head.address });
        continue;
      }
      if (a.kind === "repository") {
        tasks.push({ groups: [g], work: () => this.repository(g, a, head ?? null) });
        continue;
      }
      const repoKey = `${a.owner}/${a.repo}`;
      const bucket = itemsByRepo.get(repoKey) ?? { fetch: [], revalidate: [] };
      itemsByRepo.set(repoKey, bucket);
      if (head) bucket.revalidate.push([g, head]);
      else bucket.fetch.push(g);
    }
    // REST has no batching: one item per task lets the budget be spent item by item.
    const rest = itemsByRepo.size > 0 && (await this.source()).mode === "rest";
    for (const bucket of itemsByRepo.values()) {
      for (const fetch of rest ? bucket.fetch.map((g) => [g]) : [bucket.fetch]) {
        if (fetch.length) tasks.push({ groups: fetch, work: () => this.fetchItems(fetch) });
      }
      if (bucket.revalidate.length) {
        const gs = bucket.revalidate.map(([g]) => g);
        tasks.push({ groups: gs, work: () => this.revalidateItems(bucket.revalidate) });
      }
    }

    // Oldest Touch first, whatever kind of work it needs.
    const oldest = (t: { groups: Group[] }) =>
      t.groups.flatMap((g) => g.touches.map((x) => x.recorded_at)).sort()[0];
    tasks.sort((x, y) => oldest(x).localeCompare(oldest(y)));
    const pool = new Limiter(this.options.concurrency ?? 4);
    // Every task ends (settling or giving back its groups) before the batch does.
    const ended = await Promise.allSettled(tasks.map((t) =>
      pool.run(async () => {
        if (this.#stopped) return await this.giveBack(t.groups, new RateLimitedError(null));
        try {
          await t.work();
        } catch (e) {
          await this.giveBack(t.groups, e);
        }
      })
    ));
    const failed = ended.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /**
   * Runs `work` if its estimated cost fits the budget; otherwise its groups
   * are given back pending while smaller work goes on (no head-of-line
   * blocking). Work bigger than a whole hour's budget can never be done in
   * one run: without a token it stays pending with a note (a token, once
   * configured, fetches it); with a token it is settled `rate_limited` (only
   * a narrower request can be fetched).
   */
  async withBudget(groups: Group[], estimate: number, work: () => Promise<void>): Promise<void> {
    const source = await this.source();
    if (source.budget().remaining === null) {
      if (this.#learning) {
        await this.#learning;
      } else if (estimate <= SMALL_WORK) {
        // The first small task learns the budget from its own responses; the
        // others wait for it rather than overrunning an unknown budget.
        const first = this.#spend(estimate, work);
        this.#learning = first.catch(() => {});
        return await first;
      } else {
        await source.learnBudget();
      }
      // The learner found the budget spent (or the token refused): ask nothing more.
      if (this.#stopped) {
        for (const g of groups) await this.settle(g.touches, { status: "pending" });
        return;
      }
    }
    if (!source.affordable(estimate)) return await this.tooBig(source, groups, estimate);
    const remaining = source.budget().remaining;
    if (remaining !== null && estimate > remaining - this.#reserved) {
      this.summary.rate_limited = true;
      for (const g of groups) await this.settle(g.touches, { status: "pending" });
      return;
    }
    await this.#spend(estimate, work);
  }

  /** Settles (or, without a token, gives back) work bigger than the whole hour's budget. */
  async tooBig(source: Source, groups: Group[], estimate: number): Promise<void> {
    const limit = source.budget().limit;
    const hour = limit === null ? "the hourly budget" : `the ${limit} an hour`;
    for (const g of groups) {
      if (source.mode === "rest") {
        this.summary.rate_limited = true;
        this.summary.errors.push(
          `${g.address.key} needs about ${estimate} requests, more than ${hour} GitHub allows ` +
            "without a token: left pending (configure [github] token, or log in with gh, " +
            "and sweep again)",
        );
        await this.settle(g.touches, { status: "pending" });
      } else {
        this.summary.errors.push(
          `${g.address.key} needs about ${estimate} points, more than ${hour} GitHub allows ` +
            "this token: unresolved rate_limited (ask for fewer members or narrower filters)",
        );
        await this.settle(g.touches, { status: "unresolved", reason: "rate_limited" });
      }
    }
  }

  async #spend(estimate: number, work: () => Promise<void>): Promise<void> {
    this.#reserved += estimate;
    try {
      await work();
    } finally {
      this.#reserved -= estimate;
    }
  }

  async fetchItems(groups: Group[]): Promise<void> {
    const source = await this.source();
    const estimate = source.mode === "rest" ? 2 * groups.length : itemPoints(groups.length);
    await this.withBudget(groups, estimate, () => this.#fetchItems(source, groups));
  }

  async #fetchItems(source: Source, groups: Group[]): Promise<void> {
    const first = groups[0].address as ItemAddress;
    const numbers = groups.map((g) => (g.address as ItemAddress).number);
    const found = await source.items(first.owner, first.repo, numbers);
    const writes = [];
    for (const g of groups) {
      const r = found.get((g.address as ItemAddress).number);
      if (r?.status === "ok") writes.push(writeFor(g, r.value));
    }
    await this.store.putResources(writes);
    this.summary.resources_written += writes.length;
    for (const g of groups) {
      await this.settleFetched(g, found.get((g.address as ItemAddress).number));
    }
  }

  async revalidateItems(entries: [Group, ResourceHead][]): Promise<void> {
    // Revalidate at the stored Resource's current address (a renamed repository's new name).
    const byRepo = new Map<
      string,
      { owner: string; repo: string; list: [Group, ResourceHead, number][] }
    >();
    for (const [g, head] of entries) {
      const current = parseKey(head.address) as ItemAddress;
      const k = `${current.owner}/${current.repo}`;
      const b = byRepo.get(k) ?? { owner: current.owner, repo: current.repo, list: [] };
      byRepo.set(k, b);
      b.list.push([g, head, current.number]);
    }
    const source = await this.source();
    for (const { owner, repo, list } of byRepo.values()) {
      const estimate = source.mode === "rest" ? list.length : 1;
      await this.withBudget(
        list.map(([g]) => g),
        estimate,
        () => this.#revalidateItems(source, owner, repo, list),
      );
    }
  }

  async #revalidateItems(
    source: Source,
    owner: string,
    repo: string,
    list: [Group, ResourceHead, number][],
  ): Promise<void> {
    {
      const now = new Date().toISOString();
      const result = await source.revalidateItems(
        owner,
        repo,
        list.map(([, h, n]) => ({ number: n, updated_at: h.updated_at, etag: h.etag })),
      );
      const writes = [];
      const unchanged: string[] = [];
      for (const [g, head, n] of list) {
        const r = result.get(n);
        if (r?.status === "ok") writes.push(writeFor(g, r.value));
        else if (r?.status === "unchanged") unchanged.push(head.address);
      }
      await this.store.putResources(writes);
      await this.store.touchFetchedAt(unchanged, now);
      this.summary.resources_written += writes.length;
      for (const [g, head, n] of list) {
        const r = result.get(n);
        if (r?.status === "unchanged") {
          await this.settle(g.touches, { status: "resolved", target: head.address });
        } else await this.settleFetched(g, r);
      }
    }
  }

  async repository(g: Group, a: RepositoryAddress, head: ResourceHead | null): Promise<void> {
    await this.withBudget([g], 2, () => this.#repository(g, a, head));
  }

  async #repository(g: Group, a: RepositoryAddress, head: ResourceHead | null): Promise<void> {
    const source = await this.source();
    const now = new Date().toISOString();
    const current = head ? parseKey(head.address) as RepositoryAddress : a;
    const r = await source.repository(current.owner, current.repo, head);
    if (r.status === "unchanged") {
      await this.store.touchFetchedAt([head!.address], now);
      return await this.settle(
        g.touches,
        { status: "resolved", target: head!.address },
        REPOSITORY_REQUESTS,
      );
    }
    if (r.status === "ok") {
      await this.store.putResources([writeFor(g, r.value)]);
      this.summary.resources_written++;
    }
    await this.settleFetched(g, r);
  }

  async listing(g: Group, a: ListingAddress): Promise<void> {
    const stored = await this.store.findListings(a.owner, a.repo, a.listing);
    const match = chooseListing(a, stored);
    if (match.outcome !== "miss" && !g.fetched) {
      // PROMPTED only: memory answers it (exactly or from a broader fully expanded Listing).
      return await this.settle(
        g.touches,
        { status: "resolved", target: match.listing.key },
        listingRequests(match.listing.member_count),
      );
    }
    const source = await this.source();
    const limit = a.limit ?? EVERY_PAGE_CAP;
    if (match.outcome === "hit") {
      const changes = await source.listingChanges(a, sinceOf(match.listing.fetched_at));
      if (changes && await this.revalidateListing(g, a, match.listing, changes, limit)) return;
    }
    const estimate = source.mode === "rest"
      ? restListingRequests(a, limit)
      : listingPoints(a, limit);
    await this.withBudget([g], estimate, () => this.#fetchListing(source, g, a, limit));
  }

  async #fetchListing(source: Source, g: Group, a: ListingAddress, limit: number): Promise<void> {
    const fetchedAt = new Date().toISOString();
    const ranked: [number, string][] = [];
    let total = 0;
    try {
      for await (const page of source.listingPages(a, limit)) {
        await this.store.putResources(page.items.map((resource) => ({ resource })));
        this.summary.resources_written += page.items.length;
        page.items.forEach((r, i) => ranked.push([page.positions[i], r.address]));
        total = page.totalCount;
        this.progress();
      }
    } catch (e) {
      if (e instanceof UnavailableError) {
        return await this.settle(g.touches, { status: "unresolved", reason: e.reason });
      }
      throw e;
    }
    // Pages may come out of GitHub's order (members with long threads are held back).
    const members = ranked.sort((x, y) => x[0] - y[0]).map(([, address]) => address);
    await this.putListing(a, limit, total, members, fetchedAt);
    await this.settle(
      g.touches,
      { status: "resolved", target: a.key },
      listingRequests(members.length),
    );
  }

  async putListing(
    a: ListingAddress,
    limit: number,
    total: number,
    members: string[],
    fetchedAt: string,
  ) {
    const listing: Listing = {
      key: a.key,
      owner: a.owner,
      repo: a.repo,
      listing: a.listing,
      filters: a.filters,
      limit,
      total_count: Math.max(total, members.length),
      member_count: members.length,
      fully_expanded: members.length >= total,
      fetched_at: fetchedAt,
    };
    await this.store.putListing(listing, members);
    this.summary.listings_written++;
  }

  /**
   * A stored Listing after a `since` probe: refetch the changed members that
   * still match (or newly match), drop the ones that stopped matching, and
   * rewrite the member list newest-updated first.
   */
  async revalidateListing(
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
    const oldMembers = await this.store.listingMembers(old.key);
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
    const heads = await this.store.getHeads(
      matching.map((h) => keyOf(h.number)).filter((k) => kept.has(k)),
    );
    const refetch = matching.filter((h) =>
      kept.has(keyOf(h.number)) && heads.get(keyOf(h.number))?.updated_at !== h.updated_at
    );
    const lost = new Set<string>();
    if (refetch.length) {
      const source = await this.source();
      const found = await source.items(owner, repo, refetch.map((h) => h.number));
      const writes: { resource: ItemResource }[] = [];
      for (const [n, r] of found) {
        if (r.status === "ok") writes.push({ resource: r.value });
        else lost.add(keyOf(n));
      }
      await this.store.putResources(writes);
      this.summary.resources_written += writes.length;
    }
    const final = members.filter((m) => !lost.has(m));
    await this.putListing(a, limit, total - lost.size, final, fetchedAt);
    await this.settle(
      g.touches,
      { status: "resolved", target: a.key },
      Math.max(1, Math.ceil(final.length / 100)),
    );
    return true;
  }
}

/**
 * REST requests to fetch a Listing of `limit` members: its pages, then each
 * member's comments; a pull request also needs `/pulls/N`, its files and its
 * review comments.
 */
function restListingRequests(a: ListingAddress, limit: number): number {
  return a.listing === "pulls" ? pages(limit) + REST_PULL_REQUESTS * limit : listingRequests(limit);
}

/** REST requests per pull request: comments, `/pulls/N`, files, review comments. */
const REST_PULL_REQUESTS = 4;

/** `since` for a Listing fetched at `fetchedAt`, with a margin for clock skew (unchanged items cost nothing: their `updated_at` is compared). */
function sinceOf(fetchedAt: string): string {
  return new Date(Date.parse(fetchedAt) - 5 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Runs one Sweep over the store's pending Touches. `source` is opened only if
 * a request turns out to be needed. Throws only for a refused token
 * ({@link AuthError}) or a failing store, and only after every task in
 * flight has ended and every leased Touch not settled has been released
 * pending (so the next Sweep takes them up at once, not after the lease);
 * every other failure is per group.
 */
export async function sweep(
  store: Store,
  source: Source | SourceFactory,
  options: SweepOptions = {},
): Promise<SweepSummary> {
  const factory = typeof source === "function" ? source : () => Promise.resolve(source);
  const run = new Run(store, factory, options.owner ?? `sweep-${crypto.randomUUID()}`, options);
  return await run.run();
}
