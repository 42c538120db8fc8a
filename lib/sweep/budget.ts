/**
 * The Sweep's spending of GitHub's hourly budget: each piece of work carries
 * an estimate (requests without a token, GraphQL points with one) and goes
 * ahead only if it fits what is left, less what work in flight has already
 * been promised. Work that does not fit now waits pending while smaller work
 * goes on (no head-of-line blocking); work bigger than a whole hour is
 * reported (`tooBig`).
 *
 * @example
 * ```ts
 * const budget = new Budget(run);
 * await budget.withBudget(groups, 2, () => fetchThem());
 * ```
 * @module
 */

import type { Source } from "../github/mod.ts";
import type { Settlement } from "../store/mod.ts";
import type { Touch } from "../types.ts";
import type { Group } from "./groups.ts";
import type { SweepSummary } from "./summary.ts";

/** Work of at most this many requests (or points) goes ahead before the budget is known. */
const SMALL_WORK = 4;

/** What the budget needs from its run. */
export interface BudgetHost {
  readonly summary: SweepSummary;
  /** GitHub said the budget is spent (or refused the token): no further request this run. */
  readonly stopped: boolean;
  source(): Promise<Source>;
  settle(touches: Touch[], outcome: Settlement): Promise<void>;
}

/** One run's budget keeper. */
export class Budget {
  /** Budget promised to tasks in flight (so concurrent tasks do not overspend it). */
  #reserved = 0;
  /** The task learning an unknown REST budget, which the others wait for. */
  #learning: Promise<void> | null = null;

  constructor(readonly host: BudgetHost) {}

  /**
   * Runs `work` if its estimated cost fits the budget; otherwise its groups
   * are given back pending while smaller work goes on (no head-of-line
   * blocking). Work bigger than a whole hour's budget can never be done in
   * one run: without a token it stays pending with a note (a token, once
   * configured, fetches it); with a token it is settled `rate_limited` (only
   * a narrower request can be fetched).
   */
  async withBudget(groups: Group[], estimate: number, work: () => Promise<void>): Promise<void> {
    const { host } = this;
    const source = await host.source();
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
      if (host.stopped) {
        for (const g of groups) await host.settle(g.touches, { status: "pending" });
        return;
      }
    }
    if (!source.affordable(estimate)) return await this.#tooBig(source, groups, estimate);
    const remaining = source.budget().remaining;
    if (remaining !== null && estimate > remaining - this.#reserved) {
      host.summary.rate_limited = true;
      for (const g of groups) await host.settle(g.touches, { status: "pending" });
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
        await this.host.settle(g.touches, { status: "unresolved", reason: "rate_limited" });
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
