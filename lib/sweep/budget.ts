/**
 * The Sweep's spending of GitHub's hourly budget: each piece of work carries
 * an estimate (requests without a token, GraphQL points with one) and goes
 * ahead only if it fits what is left, less what work in flight has already
 * been promised and less the reserve the run keeps for the agent. Work that
 * does not fit now is settled `rate_limited` (a later Sweep retries it)
 * while smaller work goes on (no head-of-line blocking); work bigger than a
 * whole hour is reported (`tooBig`).
 *
 * @example
 * ```ts
 * const budget = new Budget(run);
 * await budget.withBudget(groups, 2, () => fetchThem());
 * ```
 * @module
 */

import { keptBack, type RateResource, type Source } from "../github/mod.ts";
import type { Settlement } from "../store/mod.ts";
import type { Touch } from "../types.ts";
import type { Group } from "./groups.ts";
import type { SweepSummary } from "./summary.ts";

/** Work of at most this many requests (or points) goes ahead before the budget is known. */
const SMALL_WORK = 4;

/** The settlement of work the budget left no room for: a later Sweep retries it. */
export const RATE_LIMITED: Settlement = { status: "unresolved", reason: "rate_limited" };

/**
 * What a piece of work spends, per budget: a number is the source's main
 * budget (REST `core` requests, or GraphQL points); a REST search Listing
 * spends `search` for its pages and `core` for its members' threads.
 */
export type Cost = number | Partial<Record<RateResource, number>>;

/** What the budget needs from its run. */
export interface BudgetHost {
  readonly summary: SweepSummary;
  /** The fraction of the hour's budget the run leaves unspent (0: none). */
  readonly reserve: number;
  /** Why the run asks GitHub nothing more (the budget is spent, the token refused), if it stopped. */
  readonly stopped: Error | null;
  /** Whether `resource` ran out this run (so work needing it is not even tried). */
  spent(resource: RateResource): boolean;
  /** Notes that `resource` had no room for work: it is retried after `resetAt`. */
  limitedBy(resource: RateResource, resetAt: string | null): void;
  source(): Promise<Source>;
  settle(touches: Touch[], outcome: Settlement): Promise<void>;
  /** Gives groups back for `error` (see the run: rate limited, refused, transient). */
  giveBack(groups: Group[], error: unknown): Promise<void>;
}

/** One run's budget keeper. */
export class Budget {
  /** Budget promised to tasks in flight, per resource (so concurrent tasks do not overspend it). */
  readonly #reserved = new Map<RateResource, number>();
  /** Learning an unknown budget, which every other task waits for. */
  #learning: Promise<void> | null = null;

  constructor(readonly host: BudgetHost) {}

  /**
   * Runs `work` if its estimated cost fits every budget it spends; otherwise
   * its groups are settled `rate_limited` while smaller work (or work on
   * another budget) goes on. Work bigger than a whole hour's budget can
   * never be done in one run: it is settled `rate_limited` with a note (without a
   * token, a token once configured fetches it; with one, only a narrower request).
   */
  async withBudget(groups: Group[], estimate: Cost, work: () => Promise<void>): Promise<void> {
    const { host } = this;
    const source = await host.source();
    const cost = this.#parts(source, estimate);
    const total = cost.reduce((a, [, n]) => a + n, 0);
    const limited = cost.find(([r]) => host.spent(r));
    if (limited) return await this.#limited(source, groups, limited[0]);
    if (source.budget().remaining === null) {
      // A run with a reserve learns a REST budget first (`/rate_limit` is free), so not
      // even its first request can spend into the reserve; over GraphQL asking would
      // cost a request, and the first small task costs at most a few points of 5,000.
      const askFirst = host.reserve > 0 && source.mode === "rest";
      if (!this.#learning && total <= SMALL_WORK && !askFirst) {
        // The first small task learns the budget from its own responses; the
        // others wait for it rather than overrunning an unknown budget.
        const first = this.#spend(cost, work);
        this.#learning = first.catch(() => {});
        return await first;
      }
      this.#learning ??= source.learnBudget();
      await this.#learning;
      // The learner found the budget spent (or the token refused): ask nothing more.
      if (host.stopped) return await host.giveBack(groups, host.stopped);
    }
    const big = cost.find(([r, n]) => !source.affordable(n, r));
    if (big) return await this.#tooBig(source, groups, big[1], big[0]);
    for (const [r, n] of cost) {
      const { remaining, limit } = source.budget(r);
      const spendable = remaining === null ? null : remaining - keptBack(limit, host.reserve);
      if (spendable !== null && n > spendable - (this.#reserved.get(r) ?? 0)) {
        return await this.#limited(source, groups, r);
      }
    }
    await this.#spend(cost, work);
  }

  /**
   * Runs `work` if `cost` fits what is left of every budget it spends now
   * (learning an unknown budget first), and says whether it ran: for work
   * done piece by piece, which stops where the budget does instead of
   * settling anything.
   */
  async tryWith(cost: Cost, work: () => Promise<void>): Promise<boolean> {
    const source = await this.host.source();
    const parts = this.#parts(source, cost);
    if (parts.some(([r]) => this.host.spent(r))) return false;
    if (source.budget().remaining === null) {
      this.#learning ??= source.learnBudget();
      await this.#learning;
    }
    for (const [r, n] of parts) {
      const { remaining, limit } = source.budget(r);
      if (remaining === null) continue;
      const room = remaining - keptBack(limit, this.host.reserve) - (this.#reserved.get(r) ?? 0);
      if (n > room) return false;
    }
    await this.#spend(parts, work);
    return true;
  }

  #parts(source: Source, cost: Cost): [RateResource, number][] {
    return typeof cost === "number"
      ? [[source.main, cost]]
      : Object.entries(cost) as [RateResource, number][];
  }

  /** Settles groups `rate_limited` for want of `resource`, retried after its reset. */
  async #limited(source: Source, groups: Group[], resource: RateResource): Promise<void> {
    if (groups.length === 0) return;
    this.host.summary.rate_limited = true;
    this.host.limitedBy(resource, source.budget(resource).resetAt);
    for (const g of groups) await this.host.settle(g.touches, RATE_LIMITED);
  }

  /** Settles work bigger than the whole hour's budget `rate_limited`, saying what would fetch it. */
  async #tooBig(
    source: Source,
    groups: Group[],
    estimate: number,
    resource: RateResource,
  ): Promise<void> {
    const { summary } = this.host;
    const limit = source.budget(resource).limit;
    const hour = limit === null ? "the hourly budget" : `the ${limit} an hour`;
    for (const g of groups) {
      // Without a token the hour is what ran out; a token's hour is not, only the ask is too big.
      if (source.mode === "rest") summary.rate_limited = true;
      summary.errors.push(
        source.mode === "rest"
          ? `${g.address.key} needs about ${estimate} requests, more than ${hour} GitHub allows ` +
            "without a token: unresolved rate_limited (configure [github] token, or log in " +
            "with gh, and sweep again)"
          : `${g.address.key} needs about ${estimate} points, more than ${hour} GitHub allows ` +
            "this token: unresolved rate_limited (ask for fewer members or narrower filters)",
      );
      await this.host.settle(g.touches, RATE_LIMITED);
    }
  }

  async #spend(cost: [RateResource, number][], work: () => Promise<void>): Promise<void> {
    const add = (sign: number) => {
      for (const [r, n] of cost) this.#reserved.set(r, (this.#reserved.get(r) ?? 0) + sign * n);
    };
    add(1);
    try {
      await work();
    } finally {
      add(-1);
    }
  }
}
