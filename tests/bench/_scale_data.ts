/**
 * The synthetic memory the scale benchmarks build through rgraph's own store
 * API, the same for either store: issues and pull requests with 1–4 KB
 * bodies and 0–20 comments over {@link REPOS} repositories, and Listings of
 * 100–500 members. Deterministic: every run builds the same.
 *
 * @module
 */

import type { ResourceWrite, Store } from "../../lib/store/contract.ts";
import type { Listing } from "../../lib/types.ts";
import { itemAddress, listingAddress } from "../../lib/address/key.ts";
import { issue, pull, repository } from "../fixtures_memory.ts";

/** Repositories the items are spread over. */
export const REPOS = 50;

/** A small deterministic generator, so every run builds the same stores. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LOREM = "The planner rewrites nested MATCH clauses before costing them; ".repeat(80);

/** The Resources of a store of `n`: repositories first, then their items (0 to `maxComments` comments each). */
export function* resourceBatches(
  n: number,
  batch: number,
  maxComments = 20,
): Generator<ResourceWrite[]> {
  const rand = prng(n);
  let out: ResourceWrite[] = [];
  for (let r = 0; r < REPOS; r++) {
    out.push({ resource: repository(`bench-${r}`, `repo-${r}`) });
  }
  for (let i = 0; i < n - REPOS; i++) {
    const r = i % REPOS;
    const number = Math.floor(i / REPOS) + 1;
    const options = {
      body: LOREM.slice(0, 1024 + Math.floor(rand() * 3072)),
      comments: Math.floor(rand() * (maxComments + 1)),
    };
    const item = i % 4 === 3
      ? pull(`bench-${r}`, `repo-${r}`, number, options)
      : issue(`bench-${r}`, `repo-${r}`, number, options);
    out.push({ resource: item });
    if (out.length >= batch) {
      yield out;
      out = [];
    }
  }
  if (out.length) yield out;
}

/** Listings of 100–500 members of one repository's stored items. */
export async function putListings(
  store: Pick<Store, "putListing">,
  resources: number,
): Promise<string[]> {
  const perRepo = Math.floor((resources - REPOS) / REPOS);
  const rand = prng(7);
  const keys: string[] = [];
  for (let r = 0; r < REPOS && perRepo > 0; r++) {
    const members = Math.min(perRepo, 100 + Math.floor(rand() * 401));
    const a = listingAddress(`bench-${r}`, `repo-${r}`, "issues", {}, null);
    const listing: Listing = {
      key: a.key,
      owner: a.owner,
      repo: a.repo,
      listing: "issues",
      filters: a.filters,
      limit: null,
      total_count: members,
      member_count: members,
      fully_expanded: true,
      fetched_at: "2026-11-29T20:00:00Z",
    } as Listing;
    const addresses = Array.from(
      { length: members },
      (_, i) => itemAddress(`bench-${r}`, `repo-${r}`, i + 1).key,
    );
    await store.putListing(listing, addresses);
    keys.push(a.key);
  }
  return keys;
}
