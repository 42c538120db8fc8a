import assert from "node:assert/strict";
import { chooseListing, memberMatches, relate } from "./listing.ts";
import { type FilterInput, listingAddress, normalizeFilters } from "./key.ts";
import type { Listing, ListingKind, ListingMember } from "../types.ts";

function stored(
  kind: ListingKind,
  filters: FilterInput,
  shape: { members: number; total: number; fetched?: string; owner?: string; repo?: string },
): Listing {
  const a = listingAddress(shape.owner ?? "o", shape.repo ?? "r", kind, filters, null);
  return {
    key: a.key,
    owner: a.owner,
    repo: a.repo,
    listing: kind,
    filters: a.filters,
    limit: shape.members === shape.total ? null : shape.members,
    total_count: shape.total,
    member_count: shape.members,
    fully_expanded: shape.members === shape.total,
    fetched_at: shape.fetched ?? "2026-11-01T00:00:00Z",
  };
}

const FULL = { members: 40, total: 40 };
const TRUNC = { members: 30, total: 200 };

type Row = [
  string,
  ListingKind,
  FilterInput,
  number | null,
  ListingKind,
  FilterInput,
  typeof FULL,
  string,
];

// [name, asked kind, asked filters, asked limit, stored kind, stored filters, stored shape, expected]
const TABLE: Row[] = [
  // exact key
  ["exact, fully expanded", "issues", {}, 30, "issues", {}, FULL, "hit"],
  ["exact, fully expanded, limit above members", "issues", {}, 1000, "issues", {}, FULL, "hit"],
  ["exact, truncated, limit fits", "issues", {}, 30, "issues", {}, TRUNC, "hit"],
  ["exact, truncated, limit below members", "issues", {}, 10, "issues", {}, TRUNC, "hit"],
  ["exact, truncated, limit above members", "issues", {}, 31, "issues", {}, TRUNC, "miss"],
  ["exact, truncated, every member asked (null)", "issues", {}, null, "issues", {}, TRUNC, "miss"],
  ["exact, fully expanded, every member asked", "issues", {}, null, "issues", {}, FULL, "hit"],
  [
    "exact, truncated at the default page, every member asked",
    "issues",
    {},
    null,
    "issues",
    {},
    { members: 30, total: 40 },
    "miss",
  ],
  [
    "full all covers every open member",
    "issues",
    { state: "open" },
    null,
    "issues",
    {
      state: "all",
    },
    FULL,
    "subsumed",
  ],
  [
    "exact with labels",
    "issues",
    { labels: ["Bug"] },
    30,
    "issues",
    { labels: ["bug"] },
    FULL,
    "hit",
  ],
  [
    "exact free text",
    "issues",
    { q: "crash on  start" },
    30,
    "issues",
    { q: "crash on start" },
    TRUNC,
    "hit",
  ],
  [
    "exact free text, fully expanded",
    "issues",
    { q: "crash" },
    100,
    "issues",
    { q: "crash" },
    FULL,
    "hit",
  ],
  [
    "exact pulls merged",
    "pulls",
    { state: "merged" },
    30,
    "pulls",
    { state: "merged" },
    FULL,
    "hit",
  ],
  // state
  [
    "all covers open",
    "issues",
    { state: "open" },
    30,
    "issues",
    { state: "all" },
    FULL,
    "subsumed",
  ],
  [
    "all covers closed",
    "issues",
    { state: "closed" },
    30,
    "issues",
    { state: "all" },
    FULL,
    "subsumed",
  ],
  [
    "open does not cover closed",
    "issues",
    { state: "closed" },
    30,
    "issues",
    { state: "open" },
    FULL,
    "miss",
  ],
  [
    "open does not cover all",
    "issues",
    { state: "all" },
    30,
    "issues",
    { state: "open" },
    FULL,
    "miss",
  ],
  [
    "closed does not cover all",
    "issues",
    { state: "all" },
    30,
    "issues",
    { state: "closed" },
    FULL,
    "miss",
  ],
  [
    "pulls closed covers merged",
    "pulls",
    { state: "merged" },
    30,
    "pulls",
    { state: "closed" },
    FULL,
    "subsumed",
  ],
  [
    "pulls all covers merged",
    "pulls",
    { state: "merged" },
    30,
    "pulls",
    { state: "all" },
    FULL,
    "subsumed",
  ],
  [
    "pulls merged does not cover closed",
    "pulls",
    { state: "closed" },
    30,
    "pulls",
    { state: "merged" },
    FULL,
    "miss",
  ],
  [
    "pulls open does not cover merged",
    "pulls",
    { state: "merged" },
    30,
    "pulls",
    { state: "open" },
    FULL,
    "miss",
  ],
  // labels
  ["no labels covers one label", "issues", { labels: ["bug"] }, 30, "issues", {}, FULL, "subsumed"],
  [
    "no labels covers two labels",
    "issues",
    { labels: ["bug", "p1"] },
    30,
    "issues",
    {},
    FULL,
    "subsumed",
  ],
  [
    "label subset covers",
    "issues",
    { labels: ["bug", "p1"] },
    30,
    "issues",
    { labels: ["bug"] },
    FULL,
    "subsumed",
  ],
  [
    "label superset does not cover",
    "issues",
    { labels: ["bug"] },
    30,
    "issues",
    { labels: ["bug", "p1"] },
    FULL,
    "miss",
  ],
  [
    "different label does not cover",
    "issues",
    { labels: ["bug"] },
    30,
    "issues",
    { labels: ["docs"] },
    FULL,
    "miss",
  ],
  [
    "labelled does not cover unlabelled",
    "issues",
    {},
    30,
    "issues",
    { labels: ["bug"] },
    FULL,
    "miss",
  ],
  // people and milestone
  ["unset author covers author", "issues", { author: "ann" }, 30, "issues", {}, FULL, "subsumed"],
  [
    "equal author covers",
    "issues",
    { author: "Ann", labels: ["bug"] },
    30,
    "issues",
    { author: "ann" },
    FULL,
    "subsumed",
  ],
  [
    "other author does not cover",
    "issues",
    { author: "ann" },
    30,
    "issues",
    { author: "bob" },
    FULL,
    "miss",
  ],
  ["author does not cover unset", "issues", {}, 30, "issues", { author: "ann" }, FULL, "miss"],
  [
    "unset assignee covers assignee",
    "issues",
    { assignee: "ann" },
    30,
    "issues",
    {},
    FULL,
    "subsumed",
  ],
  [
    "other assignee does not cover",
    "issues",
    { assignee: "ann" },
    30,
    "issues",
    { assignee: "bob" },
    FULL,
    "miss",
  ],
  ["assignee does not cover unset", "issues", {}, 30, "issues", { assignee: "ann" }, FULL, "miss"],
  [
    "unset milestone covers milestone",
    "issues",
    { milestone: "v2" },
    30,
    "issues",
    {},
    FULL,
    "subsumed",
  ],
  [
    "equal milestone covers",
    "issues",
    { milestone: "v2" },
    30,
    "issues",
    { milestone: "v2", state: "all" },
    FULL,
    "subsumed",
  ],
  [
    "equal milestone, all state covers",
    "issues",
    { milestone: "v2", labels: ["x"] },
    30,
    "issues",
    { milestone: "v2", state: "all" },
    FULL,
    "subsumed",
  ],
  [
    "milestone is case-sensitive",
    "issues",
    { milestone: "V2" },
    30,
    "issues",
    { milestone: "v2" },
    FULL,
    "miss",
  ],
  // truncated never answers a different question
  [
    "truncated all does not cover open",
    "issues",
    { state: "open" },
    5,
    "issues",
    { state: "all" },
    TRUNC,
    "miss",
  ],
  [
    "truncated does not cover labels",
    "issues",
    { labels: ["bug"] },
    5,
    "issues",
    {},
    TRUNC,
    "miss",
  ],
  ["truncated does not cover author", "issues", { author: "ann" }, 1, "issues", {}, TRUNC, "miss"],
  // free text only exact
  ["free text asked, no text stored", "issues", { q: "crash" }, 30, "issues", {}, FULL, "miss"],
  ["free text stored, none asked", "issues", {}, 30, "issues", { q: "crash" }, FULL, "miss"],
  [
    "free text stored, more asked",
    "issues",
    { q: "crash", labels: ["bug"] },
    30,
    "issues",
    { q: "crash" },
    FULL,
    "miss",
  ],
  ["free text differs", "issues", { q: "crash" }, 30, "issues", { q: "Crash" }, FULL, "miss"],
  // kind and repository
  ["issues do not cover pulls", "pulls", {}, 30, "issues", {}, FULL, "miss"],
  ["pulls do not cover issues", "issues", {}, 30, "pulls", {}, FULL, "miss"],
  [
    "merged issues key normalises to closed",
    "issues",
    { state: "merged" },
    30,
    "issues",
    { state: "closed" },
    FULL,
    "hit",
  ],
];

for (const [name, ak, af, limit, sk, sf, shape, expected] of TABLE) {
  Deno.test(`relate: ${name} → ${expected}`, () => {
    const asked = listingAddress("o", "r", ak, af, limit);
    assert.equal(relate(asked, stored(sk, sf, shape)), expected);
  });
}

Deno.test("relate: another repository never answers", () => {
  const asked = listingAddress("o", "r", "issues", { labels: ["bug"] }, 30);
  assert.equal(relate(asked, stored("issues", {}, { ...FULL, repo: "other" })), "miss");
  assert.equal(relate(asked, stored("issues", {}, { ...FULL, owner: "x" })), "miss");
  assert.equal(relate(asked, stored("issues", {}, { ...FULL, owner: "O", repo: "R" })), "subsumed");
});

Deno.test("chooseListing: a hit beats a subsumption, the freshest subsuming source wins", () => {
  const asked = listingAddress("o", "r", "issues", { labels: ["bug"] }, 30);
  const old = stored("issues", { state: "all" }, { ...FULL, fetched: "2026-01-01T00:00:00Z" });
  const fresh = stored("issues", {}, { members: 900, total: 900, fetched: "2026-02-01T00:00:00Z" });
  const small = stored("issues", {}, { members: 10, total: 10, fetched: "2026-01-01T00:00:00Z" });
  assert.equal(chooseListing(asked, [old, fresh]).listing, fresh);
  assert.equal(chooseListing(asked, [fresh, old]).listing, fresh);
  // same fetch time: fewer members
  assert.equal(chooseListing(asked, [old, small]).listing?.member_count, 10);
  const exact = stored("issues", { labels: ["bug"] }, {
    ...TRUNC,
    fetched: "2025-01-01T00:00:00Z",
  });
  const m = chooseListing(asked, [old, fresh, exact]);
  assert.equal(m.outcome, "hit");
  assert.equal(m.listing, exact);
  assert.deepEqual(chooseListing(asked, []), { outcome: "miss", listing: null });
  const trunc = stored("issues", {}, TRUNC);
  assert.deepEqual(chooseListing(asked, [trunc]), { outcome: "miss", listing: null });
});

Deno.test("chooseListing: every member asked — a truncated exact copy yields to a full broader one", () => {
  const asked = listingAddress("o", "r", "issues", { state: "open" }, null);
  const truncExact = stored("issues", { state: "open" }, { members: 30, total: 40 });
  const fullAll = stored("issues", { state: "all" }, { members: 60, total: 60 });
  for (const order of [[truncExact, fullAll], [fullAll, truncExact]]) {
    const m = chooseListing(asked, order);
    assert.equal(m.outcome, "subsumed");
    assert.equal(m.listing, fullAll);
  }
  assert.deepEqual(chooseListing(asked, [truncExact]), { outcome: "miss", listing: null });
  // With a limit the truncated exact copy holds, it is the exact answer.
  const limited = listingAddress("o", "r", "issues", { state: "open" }, 30);
  assert.equal(chooseListing(limited, [fullAll, truncExact]).listing, truncExact);
});

function member(over: Partial<ListingMember>): ListingMember {
  return {
    position: 0,
    address: "github:o/r#1",
    number: 1,
    kind: "issue",
    title: "t",
    state: "open",
    author: "ann",
    labels: ["bug", "p1"],
    assignees: ["bob"],
    milestone: "v2",
    updated_at: "2026-01-01T00:00:00Z",
    comment_count: 0,
    ...over,
  };
}

// [name, asked filters, member fields, expected]
const MEMBERS: [string, FilterInput, Partial<ListingMember>, boolean][] = [
  ["open matches open", { state: "open" }, {}, true],
  ["open rejects closed", { state: "open" }, { state: "closed" }, false],
  ["open rejects merged", { state: "open" }, { state: "merged", kind: "pull_request" }, false],
  ["closed matches closed", { state: "closed" }, { state: "closed" }, true],
  ["closed includes merged", { state: "closed" }, { state: "merged", kind: "pull_request" }, true],
  ["closed rejects open", { state: "closed" }, {}, false],
  ["merged matches merged", { state: "merged" }, { state: "merged", kind: "pull_request" }, true],
  ["merged rejects closed", { state: "merged" }, { state: "closed", kind: "pull_request" }, false],
  ["all matches open", { state: "all" }, {}, true],
  ["all matches closed", { state: "all" }, { state: "closed" }, true],
  ["one label present", { labels: ["bug"] }, {}, true],
  ["all labels present", { labels: ["p1", "bug"] }, {}, true],
  ["label case-insensitive", { labels: ["bug"] }, { labels: ["Bug"] }, true],
  ["one label missing", { labels: ["bug", "docs"] }, {}, false],
  ["no labels on member", { labels: ["bug"] }, { labels: [] }, false],
  ["author equal", { author: "Ann" }, {}, true],
  ["author differs", { author: "bob" }, {}, false],
  ["author unknown", { author: "ann" }, { author: null }, false],
  ["assignee present", { assignee: "bob" }, { assignees: ["carol", "Bob"] }, true],
  ["assignee absent", { assignee: "bob" }, { assignees: [] }, false],
  ["milestone equal", { milestone: "v2" }, {}, true],
  ["milestone differs", { milestone: "v3" }, {}, false],
  ["milestone missing", { milestone: "v2" }, { milestone: null }, false],
  [
    "everything at once",
    { state: "open", labels: ["bug"], author: "ann", assignee: "bob", milestone: "v2" },
    {},
    true,
  ],
];

for (const [name, filters, over, expected] of MEMBERS) {
  Deno.test(`memberMatches: ${name} → ${expected}`, () => {
    assert.equal(memberMatches(normalizeFilters(filters), member(over)), expected);
  });
}
