/**
 * Every GraphQL document the Sweep sends, built from one set of selections so
 * an issue fetched by number, as a listing member or as a search hit has the
 * same shape. Every value is a variable (never spliced into the text); only
 * alias names and the number of aliased fields vary.
 *
 * Page sizes (the node limit is 500,000 per query, see `estimateNodes`):
 * - an issue at full depth is at most 1 + 100 labels + 20 assignees +
 *   100 comments + 100 cross-references = 321 nodes (a reference's
 *   `repository` is an object, not a connection: it adds no node), so 100 issues a page is
 *   ~32,000 nodes and costs 4-5 points — the cap is `first: 100`, not the node limit;
 * - a pull request adds 100 files, 100 review threads × 100 comments and
 *   100 closing references: ~10,600 nodes, so 40 a page (~425,000 nodes) is
 *   the most that fits; mixed pages (search, items by number) use 40 too.
 * GitHub's 10-second limit is handled at run time: a page that times out is
 * retried at half the size (see `lib/github/graphql.ts`).
 *
 * @example
 * ```ts
 * import { itemsByNumber } from "./queries.ts";
 * const { query, variables } = itemsByNumber("denoland", "deno", [1, 2]);
 * variables; // { owner: "denoland", name: "deno", n0: 1, n1: 2 }
 * ```
 * @module
 */

import type { ListingAddress, ListingKind } from "../types.ts";

/** Members per page of an issues listing at full depth. */
const ISSUE_PAGE = 100;
/** Members per page of a pull request (or mixed) listing at full depth. */
export const PULL_PAGE = 40;
/** Items per batched by-number query (mixed issues and pull requests). */
export const ITEM_BATCH = 40;
/** Items per batched `updatedAt` probe (a few nodes each). */
export const PROBE_BATCH = 100;
/** Continuations (threads longer than one page) per request. */
export const CONTINUATION_BATCH = 40;

const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const COMMENT = "id author { login } createdAt updatedAt body";
const RATE = "rateLimit { cost limit remaining resetAt }";
const REPO_HEAD = "id nameWithOwner visibility";
/** A referenced issue or pull request: where it is, and whether it may be stored. */
const REF = "url repository { visibility }";

/** The body of each nested connection, shared by full queries and continuations. */
const CONN = {
  comments: `totalCount ${PAGE_INFO} nodes { ${COMMENT} }`,
  // Each reference carries its repository's visibility: a mention from a
  // private repository the token can see must not be stored on public items.
  timelineItems: `${PAGE_INFO} nodes { ... on CrossReferencedEvent { source { ` +
    `... on Issue { ${REF} } ... on PullRequest { ${REF} } } } }`,
  files: `${PAGE_INFO} nodes { path }`,
  reviewThreads: `${PAGE_INFO} nodes { id path comments(first: 100) { ${PAGE_INFO} ` +
    `nodes { ${COMMENT} path } } }`,
  threadComments: `${PAGE_INFO} nodes { ${COMMENT} path }`,
  closingIssuesReferences: `${PAGE_INFO} nodes { ${REF} }`,
} as const;

const TIMELINE_ARGS = "itemTypes: [CROSS_REFERENCED_EVENT]";

const ITEM_COMMON = `id number title body url createdAt updatedAt closedAt
  author { login }
  repository { ${REPO_HEAD} }
  labels(first: 100) { nodes { name } }
  assignees(first: 20) { nodes { login } }
  milestone { title }
  comments(first: 100) { ${CONN.comments} }
  timelineItems(first: 100, ${TIMELINE_ARGS}) { ${CONN.timelineItems} }`;

// `state` is aliased per type: spread side by side on a union, the two
// fields would conflict (IssueState! vs PullRequestState!).
const ISSUE_FRAGMENT = `
fragment IssueFull on Issue { ${ITEM_COMMON} issueState: state }`;
const PULL_FRAGMENT = `
fragment PullFull on PullRequest { ${ITEM_COMMON}
  pullState: state merged baseRefName
  files(first: 100) { ${CONN.files} }
  reviewThreads(first: 100) { ${CONN.reviewThreads} }
  closingIssuesReferences(first: 100) { ${CONN.closingIssuesReferences} }
}`;

/** Both full-depth fragments, for documents whose nodes may be either kind. */
const FRAGMENTS = ISSUE_FRAGMENT + PULL_FRAGMENT;

/**
 * A repository's own fields with its README. GraphQL has no README field:
 * the root tree's entry names come back with `$readme` (`HEAD:README.md`);
 * when the README has another name, {@link readmeBlob} fetches it in a
 * second request. Plain fields and objects, no connection: adding them to a
 * query costs no point.
 */
const REPO_FIELDS = `url description stargazerCount pushedAt updatedAt
    root: object(expression: "HEAD:") { ... on Tree { entries { name type } } }
    readme: object(expression: $readme) { ... on Blob { text } }`;

/** The path {@link REPO_FIELDS} asks for first. */
const README_EXPRESSION = "HEAD:README.md";

/** What a document asking for the repository along declares and supplies. */
function alongRepository(withRepository: boolean, vars: Record<string, unknown>) {
  if (!withRepository) return { decl: "", fields: "" };
  vars.readme = README_EXPRESSION;
  return { decl: ", $readme: String!", fields: REPO_FIELDS };
}

const HEAD_FIELDS = `number updatedAt state
  author { login }
  labels(first: 100) { nodes { name } }
  assignees(first: 20) { nodes { login } }
  milestone { title }`;

/** A query and its variables, ready for the GraphQL client. */
export interface Query {
  query: string;
  variables: Record<string, unknown>;
}

/**
 * Full items by number from one repository, aliased `i0`, `i1`, … in the
 * order given (`issueOrPullRequest`: an `/issues/N` that is a pull request
 * comes back as one); with `withRepository`, the repository's own fields
 * and README come in the same request.
 */
export function itemsByNumber(
  owner: string,
  name: string,
  numbers: number[],
  withRepository = false,
): Query {
  const vars: Record<string, unknown> = { owner, name };
  const decl = numbers.map((n, i) => {
    vars[`n${i}`] = n;
    return `$n${i}: Int!`;
  });
  const fields = numbers.map((_, i) =>
    `i${i}: issueOrPullRequest(number: $n${i}) { __typename ...IssueFull ...PullFull }`
  );
  const along = alongRepository(withRepository, vars);
  return {
    query: `query ItemsByNumber($owner: String!, $name: String!, ${decl.join(", ")}${along.decl}) {
  ${RATE}
  repository(owner: $owner, name: $name) { ${REPO_HEAD} ${along.fields} ${fields.join("\n    ")} }
}${FRAGMENTS}`,
    variables: vars,
  };
}

/** The cheap revalidation probe: `id` and `updatedAt` of many items of one repository. */
export function probeItems(owner: string, name: string, numbers: number[]): Query {
  const vars: Record<string, unknown> = { owner, name };
  const decl = numbers.map((n, i) => {
    vars[`n${i}`] = n;
    return `$n${i}: Int!`;
  });
  const fields = numbers.map((_, i) =>
    `i${i}: issueOrPullRequest(number: $n${i}) { __typename ` +
    `... on Issue { id updatedAt } ... on PullRequest { id updatedAt } }`
  );
  return {
    query: `query ProbeItems($owner: String!, $name: String!, ${decl.join(", ")}) {
  ${RATE}
  repository(owner: $owner, name: $name) { ${REPO_HEAD} ${fields.join("\n    ")} }
}`,
    variables: vars,
  };
}

/** A repository with its README (see {@link REPO_FIELDS}). */
export function repository(owner: string, name: string): Query {
  return {
    query: `query Repository($owner: String!, $name: String!, $readme: String!) {
  ${RATE}
  repository(owner: $owner, name: $name) { ${REPO_HEAD} ${REPO_FIELDS} }
}`,
    variables: { owner, name, readme: README_EXPRESSION },
  };
}

/** One blob of a repository by path at HEAD (a README with an unusual name). */
export function readmeBlob(owner: string, name: string, path: string): Query {
  return {
    query: `query ReadmeBlob($owner: String!, $name: String!, $expr: String!) {
  ${RATE}
  repository(owner: $owner, name: $name) { ${REPO_HEAD} readme: object(expression: $expr) { ... on Blob { text } } }
}`,
    variables: { owner, name, expr: `HEAD:${path}` },
  };
}

/** The cheap repository probe (revalidation). */
export function probeRepository(owner: string, name: string): Query {
  return {
    query: `query ProbeRepository($owner: String!, $name: String!) {
  ${RATE}
  repository(owner: $owner, name: $name) { ${REPO_HEAD} updatedAt pushedAt }
}`,
    variables: { owner, name },
  };
}

/** How a Listing is paged: the repository connection when its filters allow, else search. */
export type ListingPlan =
  | {
    via: "issues";
    states: string[] | null;
    labels: string[] | null;
    filterBy: Record<string, string>;
  }
  | { via: "pullRequests"; states: string[] | null; labels: string[] | null }
  | { via: "search"; q: string; kind: ListingKind };

/**
 * Chooses how to page a Listing. The repository connections are used when
 * they can express the filters exactly: their `labels` argument matches ANY
 * label (not all), and pull requests have no author/assignee/milestone filter,
 * so those cases go through search, which matches GitHub's web UI.
 */
export function planListing(a: ListingAddress): ListingPlan {
  const f = a.filters;
  const oneLabel = f.labels.length <= 1;
  if (a.listing === "issues" && oneLabel && !f.milestone && !f.q) {
    const filterBy: Record<string, string> = {};
    if (f.assignee) filterBy.assignee = f.assignee;
    if (f.author) filterBy.createdBy = f.author;
    return {
      via: "issues",
      states: f.state === "all" ? null : [f.state === "open" ? "OPEN" : "CLOSED"],
      labels: f.labels.length ? f.labels : null,
      filterBy,
    };
  }
  if (a.listing === "pulls" && oneLabel && !f.milestone && !f.q && !f.author && !f.assignee) {
    const states = { open: ["OPEN"], closed: ["CLOSED", "MERGED"], merged: ["MERGED"], all: null }[
      f.state
    ];
    return { via: "pullRequests", states, labels: f.labels.length ? f.labels : null };
  }
  return { via: "search", q: searchQuery(a), kind: a.listing };
}

function quote(v: string): string {
  return /^[^\s"]+$/.test(v) ? v : `"${v.replaceAll('"', "")}"`;
}

/** The search string for a Listing (GitHub's search syntax). */
export function searchQuery(a: ListingAddress): string {
  const f = a.filters;
  const parts = [`repo:${a.owner}/${a.repo}`, a.listing === "issues" ? "is:issue" : "is:pr"];
  if (f.state === "open") parts.push("is:open");
  if (f.state === "closed") parts.push("is:closed");
  if (f.state === "merged") parts.push("is:merged");
  for (const l of f.labels) parts.push(`label:${quote(l)}`);
  if (f.author) parts.push(`author:${quote(f.author)}`);
  if (f.assignee) parts.push(`assignee:${quote(f.assignee)}`);
  if (f.milestone) parts.push(`milestone:${quote(f.milestone)}`);
  parts.push("sort:updated-desc");
  if (f.q) parts.push(f.q);
  return parts.join(" ");
}

/** The page size for a Listing's members at full depth. */
export function pageSize(a: ListingAddress): number {
  return a.listing === "issues" ? ISSUE_PAGE : PULL_PAGE;
}

/**
 * GitHub's price of a query in points: one per hundred connection requests
 * it implies (a connection inside a page of n nodes is n requests), at least
 * one. The Sweep compares these with the hourly budget before it starts work.
 */
function points(requests: number): number {
  return Math.max(1, Math.round(requests / 100));
}

/** Connections inside one issue at full depth: labels, assignees, comments, timeline. */
const ISSUE_CONNECTIONS = 4;
/** A pull request adds files, review threads, closing references, and each of 100 threads' comments. */
const PULL_CONNECTIONS = ISSUE_CONNECTIONS + 3 + 100;

/**
 * Points to fetch `limit` members of a Listing at full depth, page by page
 * (continuations of threads longer than a page come on top).
 *
 * @example
 * ```ts
 * listingPoints(listingAddress("o", "r", "issues", {}, 720), 720); // 32: eight pages of 4
 * ```
 */
export function listingPoints(a: ListingAddress, limit: number): number {
  const size = pageSize(a);
  const per = a.listing === "issues" ? ISSUE_CONNECTIONS : PULL_CONNECTIONS;
  let total = 0;
  for (let left = limit; left > 0; left -= size) total += points(1 + Math.min(size, left) * per);
  return Math.max(1, total);
}

/** Points to fetch `n` items by number (both fragments are priced: GitHub does not know which applies). */
export function itemPoints(n: number): number {
  let total = 0;
  for (let left = n; left > 0; left -= ITEM_BATCH) {
    total += points(1 + Math.min(ITEM_BATCH, left) * (ISSUE_CONNECTIONS + PULL_CONNECTIONS));
  }
  return Math.max(1, total);
}

/** Only the budget (before work too big to start blind). */
export function rateLimitQuery(): Query {
  return { query: `query RateLimit { ${RATE} }`, variables: {} };
}

/**
 * One page of a Listing's members at full depth (`first` may be below the
 * page size); with `withRepository`, the repository's own fields and README
 * come in the same request (a search page asks for the repository beside
 * the search).
 */
export function listingPage(
  owner: string,
  name: string,
  plan: ListingPlan,
  first: number,
  after: string | null,
  withRepository = false,
): Query {
  if (plan.via === "search") {
    // `is:issue`/`is:pr` is in the query, so one fragment covers every hit.
    const [spread, fragment] = plan.kind === "issues"
      ? ["...IssueFull", ISSUE_FRAGMENT]
      : ["...PullFull", PULL_FRAGMENT];
    const vars: Record<string, unknown> = { q: plan.q, first, after };
    const along = alongRepository(withRepository, vars);
    if (withRepository) Object.assign(vars, { owner, name });
    const repoDecl = withRepository ? ", $owner: String!, $name: String!" : "";
    const repo = withRepository
      ? `repository(owner: $owner, name: $name) { ${REPO_HEAD} ${along.fields} }`
      : "";
    return {
      query: `query SearchPage($q: String!, $first: Int!, $after: String${repoDecl}${along.decl}) {
  ${RATE}
  ${repo}
  search(query: $q, type: ISSUE, first: $first, after: $after) {
    issueCount ${PAGE_INFO}
    nodes { __typename ${spread} }
  }
}${fragment}`,
      variables: vars,
    };
  }
  const order = "orderBy: {field: UPDATED_AT, direction: DESC}";
  const vars: Record<string, unknown> = {
    owner,
    name,
    first,
    after,
    states: plan.states,
    labels: plan.labels,
  };
  if (plan.via === "issues") vars.filterBy = plan.filterBy;
  const along = alongRepository(withRepository, vars);
  if (plan.via === "issues") {
    return {
      query:
        `query IssuesPage($owner: String!, $name: String!, $first: Int!, $after: String, $states: [IssueState!], $labels: [String!], $filterBy: IssueFilters${along.decl}) {
  ${RATE}
  repository(owner: $owner, name: $name) {
    ${REPO_HEAD} ${along.fields}
    issues(first: $first, after: $after, ${order}, states: $states, labels: $labels, filterBy: $filterBy) {
      totalCount ${PAGE_INFO}
      nodes { __typename ...IssueFull }
    }
  }
}${ISSUE_FRAGMENT}`,
      variables: vars,
    };
  }
  return {
    query:
      `query PullsPage($owner: String!, $name: String!, $first: Int!, $after: String, $states: [PullRequestState!], $labels: [String!]${along.decl}) {
  ${RATE}
  repository(owner: $owner, name: $name) {
    ${REPO_HEAD} ${along.fields}
    pullRequests(first: $first, after: $after, ${order}, states: $states, labels: $labels) {
      totalCount ${PAGE_INFO}
      nodes { __typename ...PullFull }
    }
  }
}${PULL_FRAGMENT}`,
    variables: vars,
  };
}

/**
 * The `since` revalidation of a repository-connection Listing: the heads of
 * every issue (or pull request) updated since `since`, newest first, plus the
 * Listing's current total. Issues filter on the server (`filterBy.since`);
 * pull requests have no such filter, so the caller stops paging at the first
 * head older than `since`.
 */
export function listingSince(
  owner: string,
  name: string,
  plan: Exclude<ListingPlan, { via: "search" }>,
  since: string,
  after: string | null,
): Query {
  const order = "orderBy: {field: UPDATED_AT, direction: DESC}";
  if (plan.via === "issues") {
    return {
      query:
        `query IssuesSince($owner: String!, $name: String!, $after: String, $since: DateTime!, $states: [IssueState!], $labels: [String!], $filterBy: IssueFilters) {
  ${RATE}
  repository(owner: $owner, name: $name) {
    ${REPO_HEAD}
    count: issues(first: 1, states: $states, labels: $labels, filterBy: $filterBy) { totalCount }
    changed: issues(first: 100, after: $after, ${order}, filterBy: {since: $since}) {
      ${PAGE_INFO} nodes { __typename ${HEAD_FIELDS} }
    }
  }
}`,
      variables: {
        owner,
        name,
        after,
        since,
        states: plan.states,
        labels: plan.labels,
        filterBy: plan.filterBy,
      },
    };
  }
  return {
    query:
      `query PullsSince($owner: String!, $name: String!, $after: String, $states: [PullRequestState!], $labels: [String!]) {
  ${RATE}
  repository(owner: $owner, name: $name) {
    ${REPO_HEAD}
    count: pullRequests(first: 1, states: $states, labels: $labels) { totalCount }
    changed: pullRequests(first: 100, after: $after, ${order}) {
      ${PAGE_INFO} nodes { __typename ${HEAD_FIELDS} }
    }
  }
}`,
    variables: { owner, name, after, states: plan.states, labels: plan.labels },
  };
}

/** A nested connection that can be longer than one page. */
export type ContinuationField =
  | "comments"
  | "timelineItems"
  | "files"
  | "reviewThreads"
  | "threadComments"
  | "closingIssuesReferences";

/** The next page of one nested connection of one node. */
export interface Continuation {
  nodeId: string;
  /** The GraphQL type that owns the connection. */
  type: "Issue" | "PullRequest" | "PullRequestReviewThread";
  field: ContinuationField;
  after: string;
}

function continuationSelection(c: Continuation, i: number): string {
  const field = c.field === "threadComments" ? "comments" : c.field;
  const extra = c.field === "timelineItems" ? `, ${TIMELINE_ARGS}` : "";
  return `c${i}: node(id: $id${i}) { ... on ${c.type} { ${field}(first: 100, after: $a${i}${extra}) { ${
    CONN[c.field]
  } } } }`;
}

/** Next pages of many long threads in one request, aliased `c0`, `c1`, …. */
export function continuations(items: Continuation[]): Query {
  const vars: Record<string, unknown> = {};
  const decl = items.map((c, i) => {
    vars[`id${i}`] = c.nodeId;
    vars[`a${i}`] = c.after;
    return `$id${i}: ID!, $a${i}: String!`;
  });
  return {
    query: `query Continuations(${decl.join(", ")}) {
  ${RATE}
  ${items.map(continuationSelection).join("\n  ")}
}`,
    variables: vars,
  };
}
