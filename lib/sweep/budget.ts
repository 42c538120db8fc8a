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

import { keptBack, type Source } from "../github/mod.ts";
import type { Settlement } from "../store/mod.ts";
import type { Touch } from "../types.ts";
import type { Group } from "./groups.ts";
import type { SweepSummary } from "./summary.ts";

/** Work of at most this many requests (or points) goes ahead before the budget is known. */
const SMALL_WORK = 4;

/** The settlement of work the budget left no room for: a later Sweep retries it. */
export const RATE_LIMITED: Settlement = { status: "unresolved", reason: "rate_limited" };

/** What the budget needs from its run. */
export interface BudgetHost {
  readonly summary: SweepSummary;
  /** The fraction of the hour's budget the run leaves unspent (0: none). */
  readonly reserve: number;
  /** Why the run asks GitHub nothing more (the budget is spent, the token refused), if it stopped. */
  readonly stopped: Error | null;
  source(): Promise<Source>;
  settle(touches: Touch[], outcome: Settlement): Promise<void>;
  /** Gives groups back for `error` (see the run: rate limited, refused, transient). */
  giveBack(groups: Group[], error: unknown): Promise<void>;
}

/** One run's budget keeper. */
export class Budget {
  /** Budget promised to tasks in flight (so concurrent tasks do not overspend it). */
  #reserved = 0;
  /** Learning an unknown budget, which every other task waits for. */
  #learning: Promise<void> | null = null;

  constructor(readonly host: BudgetHost) {}

  /**
   * Runs `work` if its estimated cost fits the budget; otherwise its groups
   * are settled `rate_limited` while smaller work goes on. Work bigger than a
   * whole hour's budget can never be done in one run: without a token it
   * stays pending with a note (a token, once configured, fetches it); with a
   * token it is settled `rate_limited` (only a narrower request can be
   * fetched).
   */
  async withBudget(groups: Group[], estimate: number, work: () => Promise<void>): Promise<void> {
    const { host } = this;
    const source = await host.source();
    if (source.budget().remaining === null) {
      // A run with a reserve learns a REST budget first (`/rate_limit` is free), so not
      // even its first request can spend into the reserve; over GraphQL asking would
      // cost a request, and the first small task costs at most a few points of 5,000.
      const askFirst = host.reserve > 0 && source.mode === "rest";
      if (!this.#learning && estimate <= SMALL_WORK && !askFirst) {
        // The first small task learns the budget from its own responses; the
        // others wait for it rather than overrunning an unknown budget.
        const first = this.#spend(estimate, work);
        this.#learning = first.catch(() => {});
        return await first;
      }
      this.#learning ??= source.learnBudget();
      await this.#learning;
      // The learner found the budget spent (or the token refused): ask nothing more.
      if (host.stopped) return await host.giveBack(groups, host.stopped);
    }
    if (!source.affordable(estimate)) return await this.#tooBig(source, groups, estimate);
    const { remaining, limit } = source.budget();
    const spendable = remaining === null ? null : remaining - keptBack(limit, host.reserve);
    if (spendable !== null && estimate > spendable - this.#reserved) {
      if (groups.length > 0) host.summary.rate_limited = true;
      for (const g of groups) await host.settle(g.touches, RATE_LIMITED);
      return;
    }
    await this.#spend(estimate, work);
  }

  /** Settles (or, without a token, gives back) work bigger than the whole hour's budget. */
  async #tooBig(source: Source, groups: Group[], estimate: number): Promise<void> {
    const { summary } = this.host;
    const limit = source.budget().limit;
    const hour = limit === null ? "the hourly budget" : `the ${limit} an hour`;
    for (const g of groups) {
      if (source.mode === "rest") {
        summary.rate_limited = true;
        summary.errors.push(
          `${g.address.key} needs about ${estimate} requests, more than ${hour} GitHub allows ` +
            "without a token: left pending (configure [github] token, or log in with gh, " +
            "and sweep again)",
        );
        await this.host.settle(g.touches, { status: "pending" });
      } else {
        summary.errors.push(
          `${g.address.key} needs about ${estimate} points, more than ${hour} GitHub allows ` +
            "this token: unresolved rate_limited (ask for fewer members or narrower filters)",
        );
        await this.host.settle(g.touches, RATE_LIMITED);
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
}
