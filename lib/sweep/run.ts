/**
 * One Sweep run: leases pending Touches oldest first, groups identical
 * Addresses, and works each repository's groups in order — its Listings,
 * then its items, then the repository itself — so that what one fetch
 * stored answers the Touches after it with no request (a Listing's members,
 * the repository that came along with its items). Work goes to the workers
 * (`items.ts`, `listings.ts`, `repositories.ts`) with bounded concurrency
 * and the budget (`budget.ts`) between them; the leases are renewed while
 * the run works (a heartbeat), a repository another Sweep leased first is
 * left to it, and whatever was leased and not settled is released when the
 * run ends, however it ends.
 *
 * @example
 * ```ts
 * import { sweep } from "./run.ts";
 * const summary = await sweep(store, () => openSource(config.github), { limit: 100 });
 * summary.resolved; // Touches settled resolved in this run
 * ```
 * @module
 */

import {
  AuthError,
  type Budget as SourceBudget,
  type Fetched,
  Limiter,
  RateLimitedError,
  type RateResource,
  type RepositoryAlong,
  type Source,
} from "../github/mod.ts";
import { parseKey, repositoryAddress } from "../address/mod.ts";
import type { ResourceHead, ResourceWrite, Settlement, Store } from "../store/mod.ts";
import {
  type ListingAddress,
  type RepositoryAddress,
  type RepositoryResource,
  type Resource,
  type Touch,
  UNAVAILABLE_AFTER,
} from "../types.ts";
import { Budget, type Cost, RATE_LIMITED } from "./budget.ts";
import type { SweepContext } from "./context.ts";
import { REPOSITORY_REQUESTS, resourceRequests } from "./cost.ts";
import { answeredBy, type Group, groupTouches, oldestTouch, repositoryOf } from "./groups.ts";
import { fetchItems, revalidateItems } from "./items.ts";
import { sweepListing } from "./listings.ts";
import { fetchUnasked, sweepRepository } from "./repositories.ts";
import { newSummary, type SweepOptions, type SweepSummary } from "./summary.ts";

/** The source is opened only when a request is needed (PROMPTED-only Sweeps never touch the network). */
export type SourceFactory = () => Promise<Source>;

const LEASE_BATCH = 200;

/** How often a Sweep looks whether another one has let a repository go. */
const HELD_POLL_MS = 200;

/**
 * The longest a lease runs between heartbeats: a live Sweep renews its
 * leases every quarter of this, so a killed one's Touches (and the
 * repositories teammates wait on) are free within 30 s, however long the
 * lease asked for.
 */
const LIVE_LEASE_MS = 30_000;

/**
 * A lease owner id that sorts by when it was made, just before a Sweep's
 * first lease: of two Sweeps leasing one repository's Touches, the one that
 * leased first does its work and the other waits (see `#heldEarlier`),
 * however long each took to start and whatever their leases' renewals.
 */
function newOwner(): string {
  return `sweep-${Date.now().toString(36).padStart(10, "0")}-${crypto.randomUUID()}`;
}

/** A piece of work and the groups it settles. */
interface Task {
  groups: Group[];
  work: () => Promise<void>;
}

/** One repository's groups in a batch, worked in this order. */
interface Pipeline {
  repo: RepositoryAddress;
  listings: Group[];
  items: Group[];
  /** The group asking for the repository itself (groups are per Address: at most one). */
  repository: Group | null;
}

/** What came along for a repository that was not stored. */
interface Along {
  /** The source answered (with the repository, or `null`: there is none to store). */
  came: boolean;
  repository: RepositoryResource | null;
  /** It was stored with what came with it (see `alongWrite`). */
  stored: boolean;
}

/** The pipelines of a batch's groups, one per repository, oldest Touch first. */
function pipelines(groups: Group[]): Pipeline[] {
  const out = new Map<string, Pipeline>();
  for (const g of groups) {
    const repo = repositoryOf(g.address);
    const p = out.get(repo.key) ?? { repo, listings: [], items: [], repository: null };
    out.set(repo.key, p);
    if (g.address.kind === "listing") p.listings.push(g);
    else if (g.address.kind === "item") p.items.push(g);
    else p.repository = g;
  }
  const all = (p: Pipeline) => [...p.listings, ...p.items, ...(p.repository ? [p.repository] : [])];
  return [...out.values()].sort((x, y) => oldestTouch(all(x)).localeCompare(oldestTouch(all(y))));
}

/** One Sweep run. */
class Run implements SweepContext {
  readonly summary = newSummary();
  readonly #budget = new Budget(this);
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
  /**
   * Touches given back pending mid-run (held until the run ends): left out
   * of the heartbeat, so a teammate waiting on their repository waits at
   * most one lease for them, not for this whole run.
   */
  #parked = new Set<string>();
  /** Why the run asks GitHub nothing more: its main budget is spent, or the token was refused. */
  #stop: RateLimitedError | AuthError | null = null;
  /** Each budget that had no room for some work this run, with when it resets. */
  readonly #limited = new Map<RateResource, string | null>();
  /** Each budget GitHub or the reserve says is spent: work needing it is not tried again. */
  readonly #spent = new Set<RateResource>();
  /** Work put off until the rest of the run has ended (see {@link later}). */
  #later: Task[] = [];
  /** Repositories not stored when the batch began, not yet asked to come along. */
  #unasked = new Set<string>();
  /** Repositories asked to come along this batch, by key. */
  #alongs = new Map<string, Along>();
  /** GitHub's message for each held Touch whose item GitHub failed on alone: counted on release. */
  #failures = new Map<string, string>();

  constructor(
    readonly store: Store,
    readonly openSource: SourceFactory,
    public owner: string,
    readonly options: SweepOptions,
  ) {}

  get stopped(): Error | null {
    return this.#stop;
  }

  get reserve(): number {
    return this.options.reserve ?? 0;
  }

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

  withBudget(groups: Group[], estimate: Cost, work: () => Promise<void>): Promise<void> {
    return this.#budget.withBudget(groups, estimate, work);
  }

  tryBudget(cost: Cost, work: () => Promise<void>): Promise<boolean> {
    return this.#budget.tryWith(cost, work);
  }

  later(groups: Group[], work: () => Promise<void>): void {
    this.#later.push({ groups, work });
  }

  spent(resource: RateResource): boolean {
    return this.#spent.has(resource);
  }

  limitedBy(resource: RateResource, resetAt: string | null): void {
    this.#limited.set(resource, resetAt ?? this.#limited.get(resource) ?? null);
  }

  repositoryAlong(owner: string, repo: string): RepositoryAlong | undefined {
    const key = repositoryAddress(owner, repo).key;
    if (!this.#unasked.delete(key)) return undefined;
    const along: Along = { came: false, repository: null, stored: false };
    this.#alongs.set(key, along);
    return {
      found: (r) => {
        along.came = true;
        along.repository = r;
      },
    };
  }

  alongWrite(owner: string, repo: string, addresses: string[]): ResourceWrite[] {
    const key = repositoryAddress(owner, repo).key;
    const along = this.#alongs.get(key);
    const r = along?.repository;
    if (!along || !r || along.stored) return [];
    if (!addresses.some((a) => repositoryOf(parseKey(a)!).key === r.address)) return [];
    along.stored = true;
    this.summary.resources_written++;
    return [{ resource: r, aliases: r.address === key ? [] : [key] }];
  }

  async settle(touches: Touch[], outcome: Settlement, naiveCost = 1): Promise<void> {
    for (const t of touches) {
      // A pending one is held until the run ends, so this run's own leasing never hands it back to us.
      if (outcome.status === "pending") {
        this.#parked.add(t.id);
        continue;
      }
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
    if (r?.status === "failed") return await this.failed(g, r.message, r.counts);
    await this.settle(g.touches, { status: "unresolved", reason: r?.status ?? "not_found" });
  }

  /**
   * GitHub failed on a group's item alone. Each Touch goes back pending with
   * one more consecutive failure counted, and is settled `unavailable` (with
   * GitHub's message) at the {@link UNAVAILABLE_AFTER}th; a new Touch of the
   * item starts from none, so it is tried again. A failure of the network
   * on the way counts nothing.
   */
  async failed(g: Group, message: string, counts: boolean): Promise<void> {
    this.incomplete(g.address.key, message);
    const last = counts ? g.touches.filter((t) => t.failures + 1 >= UNAVAILABLE_AFTER) : [];
    const again = g.touches.filter((t) => !last.includes(t));
    await this.settle(last, { status: "unresolved", reason: "unavailable", detail: message });
    if (counts) { for (const t of again) this.#failures.set(t.id, message); }
    await this.settle(again, { status: "pending" });
  }

  incomplete(key: string, message: string): void {
    const note = `${key}: ${message}`;
    if (!this.summary.errors.includes(note)) this.summary.errors.push(note);
    if (!this.summary.incomplete.includes(key)) this.summary.incomplete.push(key);
  }

  /**
   * Gives groups back after `error`. A rate limit (GitHub's, or the reserve
   * reached) stops the run and settles them `rate_limited`, which a later
   * Sweep retries; a refused token stops the run too, leaving them pending,
   * and is rethrown once the tasks in flight have ended; anything else gives
   * them back pending and remembers why.
   */
  async giveBack(groups: Group[], error: unknown): Promise<void> {
    let outcome: Settlement = { status: "pending" };
    if (error instanceof RateLimitedError) {
      this.summary.rate_limited = true;
      this.limitedBy(error.resource, error.resetAt);
      this.#spent.add(error.resource);
      // Only the budget most work spends stops the run: a spent search budget (a minute's)
      // leaves every item and repository to the core budget.
      if (error.resource === (this.#source?.main ?? "core")) this.#stop ??= error;
      outcome = RATE_LIMITED;
    } else if (error instanceof AuthError) {
      this.#stop = error;
    } else {
      const msg = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (!this.summary.errors.includes(msg)) this.summary.errors.push(msg);
    }
    for (const g of groups) await this.settle(g.touches, outcome);
  }

  async run(): Promise<SweepSummary> {
    const started = performance.now();
    const limit = this.options.limit ?? Infinity;
    // Touches earlier Sweeps left rate_limited are retried; the ones this run settles so are not.
    const retryBefore = new Date().toISOString();
    // A run longer than its lease could lease its own Touches again: never twice.
    const seen = new Set<string>();
    const leaseMs = Math.min(this.options.leaseMs ?? LIVE_LEASE_MS, LIVE_LEASE_MS);
    // Named as it first leases (see newOwner), unless the caller named it.
    if (this.options.owner === undefined) this.owner = newOwner();
    const heart = this.#heartbeat(leaseMs);
    try {
      while (this.summary.touches < limit && !this.#stop) {
        const want = Math.min(LEASE_BATCH, limit - this.summary.touches);
        const leased = (await this.store.leasePending(this.owner, want, leaseMs, retryBefore))
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
      // What yielded to whole Touches spends what is left, oldest first.
      while (this.#later.length) {
        const tasks = this.#later;
        this.#later = [];
        for (const t of tasks) {
          if (this.#stop) {
            await this.giveBack(t.groups, this.#stop);
            continue;
          }
          try {
            await t.work();
          } catch (e) {
            await this.giveBack(t.groups, e);
          }
        }
      }
    } finally {
      await heart.stop();
      for (const t of this.#open.values()) {
        const failure = this.#failures.get(t.id);
        await this.store.settleTouch(
          t.id,
          this.owner,
          failure === undefined ? { status: "pending" } : { status: "pending", failure },
        );
        this.summary.pending++;
      }
      this.#open.clear();
    }
    if (this.#stop instanceof AuthError) throw this.#stop;
    const s = this.#source;
    if (s) {
      const b = s.budget();
      this.summary.source = s.mode;
      this.summary.requests = s.requests();
      this.summary.budget = { remaining: b.remaining, limit: b.limit, reset_at: b.resetAt };
      for (const [r, seen] of Object.entries(s.budgets()) as [RateResource, SourceBudget][]) {
        this.summary.budgets[r] = {
          remaining: seen.remaining,
          limit: seen.limit,
          reset_at: seen.resetAt,
        };
      }
    }
    // What was left rate_limited is worth retrying once every budget it lacked has reset.
    const resets = [...this.#limited.values()];
    this.summary.retry_at = resets.length === 0 || resets.includes(null)
      ? null
      : resets.reduce((a, b) => (a! > b! ? a : b));
    this.summary.requests_saved = Math.max(0, this.#naive - this.summary.requests);
    this.summary.elapsed_ms = Math.round(performance.now() - started);
    return this.summary;
  }

  /** Works one leased batch: each repository's pipeline, all of them at once, bounded by the pool. */
  async batch(touches: Touch[]): Promise<void> {
    const { groups, unparseable } = groupTouches(touches);
    await this.settle(unparseable, { status: "unresolved", reason: "unparseable" });
    const lines = pipelines(groups);
    // Both reads at once: on a graph server each is a round trip before the first request.
    const [heads, earlier] = await Promise.all([
      this.store.getHeads([
        ...lines.flatMap((p) => p.items.map((g) => g.address.key)),
        ...lines.map((p) => p.repo.key),
      ]),
      this.#heldEarlier(),
    ]);
    this.#unasked = new Set(lines.map((p) => p.repo.key).filter((k) => !heads.has(k)));
    this.#alongs.clear();
    const pool = new Limiter(this.options.concurrency ?? 4);
    // Every task ends (settling or giving back its groups) before its stage does.
    const stage = async (tasks: Task[]) => {
      const ended = await Promise.allSettled(tasks.map((t) =>
        pool.run(async () => {
          if (this.#stop) return await this.giveBack(t.groups, this.#stop);
          try {
            await t.work();
          } catch (e) {
            await this.giveBack(t.groups, e);
          }
        })
      ));
      const failed = ended.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    };
    const ended = await Promise.allSettled(lines.map(async (p) => {
      // Another Sweep leased Touches of this repository first: what it stores answers these.
      const waited = earlier.has(p.repo.key) && await this.#whileHeld(p.repo.key);
      if (waited && (await this.store.getHeads([p.repo.key])).has(p.repo.key)) {
        this.#unasked.delete(p.repo.key);
      }
      if (p.listings.length) {
        await stage(p.listings.map((g) => ({
          groups: [g],
          work: () => sweepListing(this, g, g.address as ListingAddress),
        })));
      }
      // After the Listings, what they stored answers their members' Touches.
      if (p.items.length) {
        await stage(await this.#itemTasks(p.items, p.listings.length || waited ? null : heads));
      }
      await stage(await this.#repositoryTasks(p));
    }));
    const failed = ended.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /**
   * Renews this run's leases every quarter of `leaseMs` until stopped, so
   * no live Sweep is robbed however slow its work, while a killed one's
   * leases lapse within `leaseMs`. A renewal that fails is tried at the next
   * beat (the lease has three more beats to run).
   */
  #heartbeat(leaseMs: number): { stop(): Promise<void> } {
    let beat: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      beat = beat.then(async () => {
        const ids = [...this.#open.keys()].filter((id) => !this.#parked.has(id));
        await this.store.renewLeases(this.owner, ids, leaseMs).catch(() => {});
      });
    }, leaseMs / 4);
    return {
      async stop() {
        clearInterval(timer);
        await beat;
      },
    };
  }

  /**
   * The repositories (by key) whose pending Touches a Sweep started before
   * this one holds (owner ids sort by start: see {@link newOwner}), so each
   * repository's work is one Sweep's; one that waits on another is never
   * waited on by it, so no two wait on each other.
   */
  async #heldEarlier(): Promise<Set<string>> {
    const out = new Set<string>();
    for (const h of await this.store.leasedByOthers(this.owner)) {
      const a = parseKey(h.address);
      if (h.owner < this.owner && a) out.add(repositoryOf(a).key);
    }
    return out;
  }

  /** Waits while a Sweep that leased first still holds Touches of `repo`; true once it has waited. */
  async #whileHeld(repo: string): Promise<boolean> {
    while ((await this.#heldEarlier()).has(repo) && !this.#stop) {
      await new Promise((r) => setTimeout(r, HELD_POLL_MS));
    }
    return true;
  }

  /**
   * The items of one repository: those what is stored answers are settled
   * with no request; the rest are fetched (new) or revalidated (stored, and
   * really re-fetched since). `known` are heads read before the batch, when
   * nothing of this repository can have been stored since.
   */
  async #itemTasks(groups: Group[], known: Map<string, ResourceHead> | null): Promise<Task[]> {
    const heads = known ?? await this.store.getHeads(groups.map((g) => g.address.key));
    const fetch: Group[] = [];
    const revalidate: [Group, ResourceHead][] = [];
    for (const g of groups) {
      const head = heads.get(g.address.key);
      if (head && answeredBy(g, head.fetched_at)) {
        await this.settle(g.touches, { status: "resolved", target: head.address });
      } else if (head) revalidate.push([g, head]);
      else fetch.push(g);
    }
    const tasks: Task[] = [];
    // REST has no batching: one item per task lets the budget be spent item by item.
    const rest = fetch.length > 0 && (await this.source()).mode === "rest";
    for (const batch of rest ? fetch.map((g) => [g]) : fetch.length ? [fetch] : []) {
      tasks.push({ groups: batch, work: () => fetchItems(this, batch) });
    }
    if (revalidate.length) {
      tasks.push({
        groups: revalidate.map(([g]) => g),
        work: () => revalidateItems(this, revalidate),
      });
    }
    return tasks;
  }

  /**
   * The repository itself, last. A Touch of it is answered (by what came
   * along with its items or Listings, say), revalidated or fetched; and when
   * this batch fetched items or a Listing of it, every repository they now
   * live in (a transferred issue's new home too) is stored: what came along,
   * else fetched on its own (REST, or a home no request brought).
   */
  async #repositoryTasks(p: Pipeline): Promise<Task[]> {
    const { repo } = p;
    const along = this.#alongs.get(repo.key);
    const homes = new Set<string>();
    // Not stored and not fetched along this batch: an earlier Sweep stored its items and
    // GitHub failed on the repository itself, so it is fetched now.
    const missing = this.#unasked.has(repo.key);
    if (along || missing) {
      const heads = await this.store.getHeads(p.items.map((g) => g.address.key));
      for (const h of heads.values()) homes.add(repositoryOf(parseKey(h.address)!).key);
    }
    if (along) {
      // A Listing's repository, unless GitHub said it has none to store.
      if (p.listings.length && !(along.came && along.repository === null)) {
        homes.add(along.repository?.address ?? repo.key);
      }
    }
    const g = p.repository;
    const brought = along?.repository ?? null;
    if (brought && !along!.stored && (g || homes.has(brought.address))) {
      await this.store.putResources([{
        resource: brought,
        aliases: brought.address === repo.key ? [] : [repo.key],
      }]);
      this.summary.resources_written++;
    }
    const tasks: Task[] = [];
    if (g) {
      const head = (await this.store.getHeads([repo.key])).get(repo.key) ?? null;
      if (head && answeredBy(g, head.fetched_at)) {
        await this.settle(
          g.touches,
          { status: "resolved", target: head.address },
          REPOSITORY_REQUESTS,
        );
      } else tasks.push({ groups: [g], work: () => sweepRepository(this, g, repo, head) });
      // The Touch's own work stores it.
      homes.delete(head?.address ?? repo.key);
      homes.delete(repo.key);
    }
    const stored = await this.store.getHeads([...homes]);
    for (const key of homes) {
      if (stored.has(key)) continue;
      const home = parseKey(key) as RepositoryAddress;
      tasks.push({ groups: [], work: () => fetchUnasked(this, home) });
    }
    return tasks;
  }
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
  const run = new Run(store, factory, options.owner ?? "", options);
  return await run.run();
}
