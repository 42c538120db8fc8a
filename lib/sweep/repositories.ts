/**
 * Sweeping a repository: fetched with its README, or revalidated when stored
 * and an agent really re-fetched it.
 *
 * @example
 * ```ts
 * import { sweepRepository } from "./repositories.ts";
 * await sweepRepository(run, group, repositoryAddress("o", "r"), storedHeadOrNull);
 * ```
 * @module
 */

import { parseKey } from "../address/mod.ts";
import type { ResourceHead } from "../store/mod.ts";
import type { RepositoryAddress } from "../types.ts";
import type { SweepContext } from "./context.ts";
import { REPOSITORY_REQUESTS } from "./cost.ts";
import { type Group, writeFor } from "./groups.ts";

/**
 * Fetches a repository no Touch asked for, because items or a Listing of it
 * were fetched and nothing brought it along (REST): memory holds every
 * stored item's repository.
 */
export async function fetchUnasked(run: SweepContext, a: RepositoryAddress): Promise<void> {
  await run.withBudget([], REPOSITORY_REQUESTS, async () => {
    const r = await (await run.source()).repository(a.owner, a.repo, null);
    if (r.status !== "ok") {
      // Its items are stored; a later Sweep that meets them again fetches it.
      const why = r.status === "failed" ? r.message : `GitHub answered ${r.status}`;
      return run.incomplete(a.key, `the repository of stored items was not stored: ${why}`);
    }
    await run.store.putResources([{
      resource: r.value,
      aliases: r.value.address === a.key ? [] : [a.key],
    }]);
    run.summary.resources_written++;
  });
}

/** Fetches (or, with `head`, revalidates) the repository `g` asks for. */
export async function sweepRepository(
  run: SweepContext,
  g: Group,
  a: RepositoryAddress,
  head: ResourceHead | null,
): Promise<void> {
  await run.withBudget([g], REPOSITORY_REQUESTS, () => fetchNow(run, g, a, head));
}

async function fetchNow(
  run: SweepContext,
  g: Group,
  a: RepositoryAddress,
  head: ResourceHead | null,
): Promise<void> {
  const source = await run.source();
  const now = new Date().toISOString();
  const current = head ? parseKey(head.address) as RepositoryAddress : a;
  const r = await source.repository(current.owner, current.repo, head);
  if (r.status === "unchanged") {
    await run.store.touchFetchedAt([head!.address], now);
    return await run.settle(
      g.touches,
      { status: "resolved", target: head!.address },
      REPOSITORY_REQUESTS,
    );
  }
  if (r.status === "ok") {
    await run.store.putResources([writeFor(g, r.value)]);
    run.summary.resources_written++;
  }
  await run.settleFetched(g, r);
}
