/**
 * One Sweep run: leases pending Touches oldest first, groups identical
 * Addresses, settles what needs no request, hands the rest to the workers
 * (`items.ts`, `listings.ts`, `repositories.ts`) with bounded concurrency and
 * the budget (`budget.ts`) between them, and releases whatever it leased and
 * did not settle when it ends, however it ends.
 *
 * @example
 * ```ts
 * import { sweep } from "./run.ts";
 * const summary = await sweep(store, () => openSource(config.github), { limit: 100 });
 * summary.resolved; // Touches settled resolved in this run
 * ```
 * @module
 */

import { AuthError, type Fetched, Limiter, RateLimitedError, type Source } from "../github/mod.ts";
import type { ResourceHead, Settlement, Store } from "../store/mod.ts";
import { type Resource, type Touch, UNAVAILABLE_AFTER } from "../types.ts";
import { Budget } from "./budget.ts";
import type { SweepContext } from "./context.ts";
import { resourceRequests } from "./cost.ts";
import { type Group, groupTouches, oldestTouch } from "./groups.ts";
import { fetchItems, revalidateItems } from "./items.ts";
import { sweepListing } from "./listings.ts";
import { sweepRepository } from "./repositories.ts";
import { newSummary, type SweepOptions, type SweepSummary } from "./summary.ts";

/** The source is opened only when a request is needed (PROMPTED-only Sweeps never touch the network). */
export type SourceFactory = () => Promise<Source>;

const LEASE_BATCH = 200;

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
  /** GitHub's message for each held Touch whose item GitHub failed on alone: counted on release. */
  #failures = new Map<string, string>();
  /** GitHub said the budget is spent (or refused the token): no further request this run. */
  #stopped = false;
  /** The token was refused: the run stops and {@link run} rethrows this. */
  #refused: AuthError | null = null;

  constructor(
    readonly store: Store,
    readonly openSource: SourceFactory,
    readonly owner: string,
    readonly options: SweepOptions,
  ) {}

  get stopped(): boolean {
    return this.#stopped;
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

  withBudget(groups: Group[], estimate: number, work: () => Promise<void>): Promise<void> {
    return this.#budget.withBudget(groups, estimate, work);
  }

  async settle(touches: Touch[], outcome: Settlement, naiveCost = 1): Promise<void> {
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
    if (r?.status === "failed") return await this.#failed(g, r.message, r.counts);
    await this.settle(g.touches, { status: "unresolved", reason: r?.status ?? "not_found" });
  }

  /**
   * GitHub failed on a group's item alone. Each Touch goes back pending with
   * one more consecutive failure counted, and is settled `unavailable` (with
   * GitHub's message) at the {@link UNAVAILABLE_AFTER}th; a new Touch of the
   * item starts from none, so it is tried again. A failure of the network
   * on the way counts nothing.
   */
  async #failed(g: Group, message: string, counts: boolean): Promise<void> {
    const note = `${g.address.key}: ${message}`;
    if (!this.summary.errors.includes(note)) this.summary.errors.push(note);
    const last = counts ? g.touches.filter((t) => t.failures + 1 >= UNAVAILABLE_AFTER) : [];
    const again = g.touches.filter((t) => !last.includes(t));
    await this.settle(last, { status: "unresolved", reason: "unavailable", detail: message });
    if (counts) { for (const t of again) this.#failures.set(t.id, message); }
    await this.settle(again, { status: "pending" });
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
        tasks.push({ groups: [g], work: () => sweepListing(this, g, a) });
        continue;
      }
      const head = heads.get(a.key);
      if (head && !g.fetched) {
        // PROMPTED only: the stored Resource answers it; no request.
        await this.settle(g.touches, { status: "resolved", target: head.address });
        continue;
      }
      if (a.kind === "repository") {
        tasks.push({ groups: [g], work: () => sweepRepository(this, g, a, head ?? null) });
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
        if (fetch.length) tasks.push({ groups: fetch, work: () => fetchItems(this, fetch) });
      }
      if (bucket.revalidate.length) {
        const gs = bucket.revalidate.map(([g]) => g);
        tasks.push({ groups: gs, work: () => revalidateItems(this, bucket.revalidate) });
      }
    }

    // Oldest Touch first, whatever kind of work it needs.
    tasks.sort((x, y) => oldestTouch(x.groups).localeCompare(oldestTouch(y.groups)));
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
