/**
 * The Sweep's unit of work: identical Addresses among the leased Touches,
 * grouped so each is fetched once, and what a group writes.
 *
 * @example
 * ```ts
 * import { groupTouches } from "./groups.ts";
 * const { groups, unparseable } = groupTouches(leased);
 * groups[0].address.key; // "github:o/r#5", however many Touches named it
 * ```
 * @module
 */

import { parseKey, repositoryAddress } from "../address/mod.ts";
import type { ResourceWrite } from "../store/mod.ts";
import type { Address, RepositoryAddress, Resource, Touch } from "../types.ts";

/** Identical addresses among the leased Touches, worked on once. */
export interface Group {
  address: Address;
  touches: Touch[];
  /** Some Touch is a real re-fetch by the agent (revalidate what is stored). */
  fetched: boolean;
}

/**
 * How many members a Sweep fetches for a Listing asked for in full (limit
 * `null`: `--paginate`, every page). GitHub's search stops at 1,000 results
 * too; a Listing cut there is stored as not fully expanded, so it never
 * passes for "every item".
 */
export const EVERY_PAGE_CAP = 1000;

function limitOf(touches: Touch[]): number {
  return Math.max(...touches.map((t) => t.limit ?? EVERY_PAGE_CAP));
}

/** Groups Touches by canonical address; `null` address → unparseable. */
export function groupTouches(touches: Touch[]): { groups: Group[]; unparseable: Touch[] } {
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
export function writeFor(g: Group, resource: Resource): ResourceWrite {
  return { resource, aliases: resource.address === g.address.key ? [] : [g.address.key] };
}

/** Oldest first: the time the oldest Touch of `groups` was recorded. */
export function oldestTouch(groups: Group[]): string {
  return groups.flatMap((g) => g.touches.map((x) => x.recorded_at)).sort()[0];
}

/**
 * Whether what is stored, fetched at `fetchedAt`, already answers `g` with
 * no request: its Touches are PROMPTED only, or every one of them was
 * recorded before that fetch (which saw what the agent read, or later). A
 * FETCHED Touch recorded after it is a real re-fetch: that is revalidated.
 */
export function answeredBy(g: Group, fetchedAt: string): boolean {
  const fetched = Date.parse(fetchedAt);
  return !g.fetched || g.touches.every((t) => Date.parse(t.recorded_at) <= fetched);
}

/** The repository an Address belongs to (a repository's own Address is its own). */
export function repositoryOf(a: Address): RepositoryAddress {
  return a.kind === "repository" ? a : repositoryAddress(a.owner, a.repo);
}
