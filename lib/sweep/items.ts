/**
 * Sweeping issues and pull requests: new ones are fetched at full depth in
 * one batched request per repository (one per item over REST); stored ones a
 * FETCHED Touch asks about are revalidated (an `updatedAt` probe or an
 * `If-None-Match`), refetching only what changed.
 *
 * @example
 * ```ts
 * import { fetchItems } from "./items.ts";
 * await fetchItems(run, groupsOfOneRepository);
 * ```
 * @module
 */

import { parseKey } from "../address/mod.ts";
import { itemPoints, type Source } from "../github/mod.ts";
import type { ResourceHead } from "../store/mod.ts";
import type { ItemAddress } from "../types.ts";
import type { SweepContext } from "./context.ts";
import { type Group, writeFor } from "./groups.ts";

/** Fetches the items of `groups` (all of one repository) at full depth. */
export async function fetchItems(run: SweepContext, groups: Group[]): Promise<void> {
  const source = await run.source();
  const estimate = source.mode === "rest" ? 2 * groups.length : itemPoints(groups.length);
  await run.withBudget(groups, estimate, () => fetchNow(run, source, groups));
}

async function fetchNow(run: SweepContext, source: Source, groups: Group[]): Promise<void> {
  const first = groups[0].address as ItemAddress;
  const numbers = groups.map((g) => (g.address as ItemAddress).number);
  const along = run.repositoryAlong(first.owner, first.repo);
  const found = await source.items(first.owner, first.repo, numbers, along);
  const writes = [];
  for (const g of groups) {
    const r = found.get((g.address as ItemAddress).number);
    if (r?.status === "ok") writes.push(writeFor(g, r.value));
  }
  run.summary.resources_written += writes.length;
  const addresses = writes.map((w) => w.resource.address);
  await run.store.putResources([...writes, ...run.alongWrite(first.owner, first.repo, addresses)]);
  for (const g of groups) {
    await run.settleFetched(g, found.get((g.address as ItemAddress).number));
  }
}

/** Revalidates stored items, one request (or budget check) per repository they now live in. */
export async function revalidateItems(
  run: SweepContext,
  entries: [Group, ResourceHead][],
): Promise<void> {
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
  const source = await run.source();
  for (const { owner, repo, list } of byRepo.values()) {
    const estimate = source.mode === "rest" ? list.length : 1;
    await run.withBudget(
      list.map(([g]) => g),
      estimate,
      () => revalidateNow(run, source, owner, repo, list),
    );
  }
}

async function revalidateNow(
  run: SweepContext,
  source: Source,
  owner: string,
  repo: string,
  list: [Group, ResourceHead, number][],
): Promise<void> {
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
  await run.store.putResources(writes);
  await run.store.touchFetchedAt(unchanged, now);
  run.summary.resources_written += writes.length;
  for (const [g, head, n] of list) {
    const r = result.get(n);
    if (r?.status === "unchanged") {
      await run.settle(g.touches, { status: "resolved", target: head.address });
    } else await run.settleFetched(g, r);
  }
}
