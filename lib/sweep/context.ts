/**
 * What the Sweep's workers (`items.ts`, `listings.ts`, `repositories.ts`)
 * need from the run they belong to. The run (`run.ts`) implements it; the
 * workers see only this, so they never import the run that dispatches them.
 *
 * @module
 */

import type { Fetched, RateResource, RepositoryAlong, Source } from "../github/mod.ts";
import type { ResourceWrite, Settlement, Store } from "../store/mod.ts";
import type { Resource, Touch } from "../types.ts";
import type { Cost } from "./budget.ts";
import type { Group } from "./groups.ts";
import type { SweepSummary } from "./summary.ts";

/** One running Sweep, as its workers see it. */
export interface SweepContext {
  readonly store: Store;
  /** Counts the workers add to (resources and listings written). */
  readonly summary: SweepSummary;
  /** The GitHub source, opened on first use. */
  source(): Promise<Source>;
  /** Reports progress (after a page of a long Listing, say). */
  progress(): void;
  /**
   * Settles `touches` (a `pending` outcome keeps them held until the run
   * ends). `naiveCost` is what fetching them the ordinary way would have
   * cost, for the requests-saved estimate.
   */
  settle(touches: Touch[], outcome: Settlement, naiveCost?: number): Promise<void>;
  /** Settles a group by what was fetched for it (nothing came back: not found). */
  settleFetched(g: Group, r: Fetched<Resource> | undefined): Promise<void>;
  /**
   * GitHub failed on what `g` asks for alone (`counts`: GitHub answered with
   * the failure): its Touches wait for a later Sweep, and the summary names it.
   */
  failed(g: Group, message: string, counts: boolean): Promise<void>;
  /** Names in the summary something not stored because GitHub did not answer for all of it. */
  incomplete(key: string, message: string): void;
  /**
   * Runs `work` if `cost` fits what is left of the budget now, and says
   * whether it ran (nothing is settled either way; see `budget.ts`).
   */
  tryBudget(cost: Cost, work: () => Promise<void>): Promise<boolean>;
  /**
   * Runs `work` for `groups` once every other piece of this run's work has
   * ended (what would not finish whole within the budget yields to what
   * will); a throw gives the groups back as any task's does.
   */
  later(groups: Group[], work: () => Promise<void>): void;
  /** Notes that `resource` had no room for some work: it is retried after `resetAt`. */
  limitedBy(resource: RateResource, resetAt: string | null): void;
  /** Runs `work` if its estimated cost fits the budget (see `budget.ts`). */
  withBudget(groups: Group[], estimate: Cost, work: () => Promise<void>): Promise<void>;
  /**
   * What a fetch of items or a Listing of `owner/repo` passes its source so
   * the repository comes in the same request: given to the first fetch of a
   * repository that is not stored, `undefined` otherwise. The run stores what
   * comes along, or fetches the repository itself when nothing could.
   */
  repositoryAlong(owner: string, repo: string): RepositoryAlong | undefined;
  /**
   * The write of the repository that came along for `owner/repo`, once, when
   * one of `addresses` (what is about to be written) lives in it: it is
   * stored with them, before their Touches are settled, so a teammate's
   * Sweep waiting on this repository finds it stored too.
   */
  alongWrite(owner: string, repo: string, addresses: string[]): ResourceWrite[];
}
