/**
 * Every GraphQL document the Sweep can send is valid against GitHub's
 * published schema (`@octokit/graphql-schema`'s `validate`), and stays inside GitHub's
 * 500,000-node limit at the page sizes `queries.ts` chose.
 */

import assert from "node:assert/strict";
import { validate } from "@octokit/graphql-schema";
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  parse,
  type SelectionSetNode,
} from "graphql";
import { listingAddress } from "../lib/address/key.ts";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import {
  type Continuation,
  CONTINUATION_BATCH,
  continuations,
  ITEM_BATCH,
  itemPoints,
  itemsByNumber,
  listingPage,
  listingPoints,
  listingSince,
  pageSize,
  planListing,
  PROBE_BATCH,
  probeItems,
  probeRepository,
  type Query,
  rateLimitQuery,
  readmeBlob,
  repository,
} from "../lib/github/queries.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const listings = {
  "open issues": listingAddress("o", "r", "issues", {}, 1000),
  "issues with one label, author and assignee": listingAddress("o", "r", "issues", {
    labels: ["bug"],
    author: "a",
    assignee: "b",
  }, 50),
  "issues with two labels (search)": listingAddress("o", "r", "issues", { labels: ["a", "b"] }, 50),
  "issues with free text (search)": listingAddress("o", "r", "issues", { q: "crash on start" }, 50),
  "merged pulls": listingAddress("o", "r", "pulls", { state: "merged" }, 200),
  "pulls by author (search)": listingAddress("o", "r", "pulls", { author: "a" }, 200),
};

const CONTINUATIONS: Continuation[] = [
  { nodeId: "I_1", type: "Issue", field: "comments", after: "c" },
  { nodeId: "I_1", type: "Issue", field: "timelineItems", after: "c" },
  { nodeId: "PR_1", type: "PullRequest", field: "comments", after: "c" },
  { nodeId: "PR_1", type: "PullRequest", field: "files", after: "c" },
  { nodeId: "PR_1", type: "PullRequest", field: "reviewThreads", after: "c" },
  { nodeId: "PR_1", type: "PullRequest", field: "closingIssuesReferences", after: "c" },
  { nodeId: "PRRT_1", type: "PullRequestReviewThread", field: "threadComments", after: "c" },
];

/** Every document, at its largest. */
function documents(): [string, Query][] {
  const out: [string, Query][] = [
    ["items by number (a full batch)", itemsByNumber("o", "r", range(ITEM_BATCH))],
    [
      "items by number with the repository along",
      itemsByNumber("o", "r", range(ITEM_BATCH), true),
    ],
    ["updatedAt probe (a full batch)", probeItems("o", "r", range(PROBE_BATCH))],
    ["repository with README", repository("o", "r")],
    ["README by name", readmeBlob("o", "r", "README.rst")],
    ["repository probe", probeRepository("o", "r")],
    ["the budget alone", rateLimitQuery()],
    [
      "continuations (a full batch of every kind)",
      continuations(range(CONTINUATION_BATCH).map((i) => CONTINUATIONS[i % CONTINUATIONS.length])),
    ],
  ];
  for (const [name, a] of Object.entries(listings)) {
    const plan = planListing(a);
    out.push([`listing page: ${name}`, listingPage(a.owner, a.repo, plan, pageSize(a), "cursor")]);
    out.push([
      `first listing page with the repository along: ${name}`,
      listingPage(a.owner, a.repo, plan, pageSize(a), null, true),
    ]);
    if (plan.via !== "search") {
      out.push([
        `since probe: ${name}`,
        listingSince(a.owner, a.repo, plan, "2026-01-01T00:00:00Z", null),
      ]);
    }
  }
  return out;
}

/**
 * GitHub's node count: each connection's `first` multiplied by the `first`
 * of every connection above it, summed (fragments of both union members
 * counted, so the estimate is an upper bound).
 */
function estimateNodes(doc: DocumentNode, variables: Record<string, unknown>): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  const walk = (set: SelectionSetNode | undefined, mult: number): number => {
    let total = 0;
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        total += walk(fragments.get(sel.name.value)!.selectionSet, mult);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += walk(sel.selectionSet, mult);
      } else {
        const arg = sel.arguments?.find((a) => a.name.value === "first" || a.name.value === "last");
        let first = 0;
        if (arg?.value.kind === Kind.INT) first = Number(arg.value.value);
        if (arg?.value.kind === Kind.VARIABLE) first = Number(variables[arg.value.name.value]);
        if (arg) total += mult * first;
        total += walk(sel.selectionSet, arg ? mult * first : mult);
      }
    }
    return total;
  };
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
  return walk(op.kind === Kind.OPERATION_DEFINITION ? op.selectionSet : undefined, 1);
}

for (const [name, q] of documents()) {
  Deno.test(`GraphQL document is valid against GitHub's schema: ${name}`, () => {
    // The package's own validator: its schema.json built with buildClientSchema.
    const errors = validate(q.query);
    assert.deepEqual(errors.map((e) => e.message), []);
  });
  Deno.test(`GraphQL document stays inside GitHub's node limit: ${name}`, () => {
    const nodes = estimateNodes(parse(q.query), q.variables);
    assert.ok(nodes <= 500_000, `${nodes} nodes`);
  });
}

Deno.test("every variable a document declares is supplied, and no value is spliced into its text", () => {
  for (const [name, q] of documents()) {
    const doc = parse(q.query);
    const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    assert.ok(op && op.kind === Kind.OPERATION_DEFINITION, name);
    for (const v of op.variableDefinitions ?? []) {
      const required = v.type.kind === Kind.NON_NULL_TYPE;
      if (required) {
        assert.ok(v.variable.name.value in q.variables, `${name}: $${v.variable.name.value}`);
      }
    }
    assert.ok(!q.query.includes('"o"') && !q.query.includes('"r"'), `${name} splices owner/repo`);
  }
});

Deno.test("the estimator counts nested connections multiplicatively (it can fail)", () => {
  const q =
    '{ repository(owner: "o", name: "r") { issues(first: 100) { nodes { comments(first: 100) { totalCount } } } } }';
  assert.equal(estimateNodes(parse(q), {}), 100 + 100 * 100);
});

Deno.test("a full page of pull requests at 100 would break the node limit (why PULL_PAGE is 40)", () => {
  const a = listingAddress("o", "r", "pulls", {}, 1000);
  const q = listingPage("o", "r", planListing(a), 100, null);
  assert.ok(estimateNodes(parse(q.query), q.variables) > 500_000);
});

Deno.test("the Sweep's prices in points are what GitHub's cost rule charges (the emulator's rateLimit.cost)", async () => {
  const gh = await startEmulator();
  try {
    const cost = async (q: Query) => {
      const res = await fetch(gh.graphqlUrl, {
        method: "POST",
        headers: { authorization: `bearer ${gh.token}` },
        body: JSON.stringify(q),
      });
      return (await res.json()).data.rateLimit.cost as number;
    };
    const { owner, name } = FACTS.big;
    for (const listing of ["issues", "pulls"] as const) {
      const a = listingAddress(owner, name, listing, { state: "all" }, 1000);
      const size = pageSize(a);
      const page = await cost(listingPage(owner, name, planListing(a), size, null));
      assert.equal(listingPoints(a, size), page, listing);
      assert.equal(listingPoints(a, 3 * size), 3 * page, listing);
      // The repository brought along adds no connection: the page costs what it did.
      const along = await cost(listingPage(owner, name, planListing(a), size, null, true));
      assert.equal(along, page, `${listing} with the repository along`);
    }
    assert.equal(itemPoints(ITEM_BATCH), await cost(itemsByNumber(owner, name, range(ITEM_BATCH))));
    assert.equal(itemPoints(1), await cost(itemsByNumber(owner, name, [1])));
    assert.equal(itemPoints(1), await cost(itemsByNumber(owner, name, [1], true)));
  } finally {
    await gh.close();
  }
});
