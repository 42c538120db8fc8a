/**
 * The names and numbers of the emulator's dataset that tests may rely on.
 *
 * These are the design of the dataset: `dataset.ts` builds the data around
 * them (and `tests/emulator_test.ts` checks, through the emulator's own API,
 * that it did), so a test can say `FACTS.big.longThread.number` instead of
 * hard-coding `42`.
 *
 * Behaviour choices where GitHub is undocumented (see also README facts):
 * - GraphQL `repository(old name)` of a renamed repository resolves to the
 *   repository under its new name (GitHub does, with or without `followRenames`).
 * - GraphQL `issue`/`issueOrPullRequest` for a transferred issue's OLD number
 *   answers NOT_FOUND ("Could not resolve to an Issue with the number of N."),
 *   as GitHub is observed to; only REST redirects (301 to
 *   `/repositories/{newRepoId}/issues/{newNumber}`). The transferred issue has a
 *   new number and a new node id in its new repository.
 * - The deleted issue: GraphQL NOT_FOUND, REST 410 Gone.
 * - The private repository is visible to the emulator's token (GraphQL and
 *   REST, `visibility: PRIVATE`) and 404 to anonymous REST: rejecting it is
 *   the client's job.
 * - GraphQL `issues(labels: [a, b])` matches ANY of the labels (GitHub's
 *   behaviour); `filterBy: {labels}`, REST `labels=a,b` and search
 *   `label:a label:b` match ALL.
 * - GraphQL `filterBy.milestone` is a milestone's database id (GitHub's
 *   doc), `milestoneNumber` its number; REST `milestone` its number; search
 *   `milestone:"v1.0"` its title.
 * - Only CROSS_REFERENCED_EVENT timeline items are modelled; asking for other
 *   item types yields an empty connection.
 *
 * @example
 * ```ts
 * import { FACTS } from "./facts.ts";
 * const { owner, name } = FACTS.big;
 * console.log(`${owner}/${name} has ${FACTS.big.openIssues} open issues`);
 * ```
 * @module
 */

/** An item named by owner/repo and number. */
export interface ItemRef {
  owner: string;
  repo: string;
  number: number;
}

/** A cross-reference the dataset contains: `source` mentions `target`. */
export interface ReferencePair {
  source: ItemRef;
  target: ItemRef;
  /** `closes`: the source is a pull request whose closing references include the target. */
  kind: "references" | "closes";
  isCrossRepository: boolean;
}

const BIG = { owner: "lumendb", repo: "lumen" } as const;
const PY = { owner: "lumendb", repo: "lumen-py" } as const;

/** Everything tests may name. */
export const FACTS = {
  /** The emulator's default token. */
  token: "test-token",
  /** The login the token belongs to (`viewer`). */
  viewerLogin: "rgraph-tester",
  /** The big repository: a graph database project. */
  big: {
    owner: BIG.owner,
    name: BIG.repo,
    nameWithOwner: `${BIG.owner}/${BIG.repo}`,
    /** Issue/PR numbers run 1..lastNumber (shared sequence). */
    lastNumber: 1000,
    openIssues: 720,
    closedIssues: 196,
    /** Open / merged / closed-unmerged pull requests. */
    pulls: { open: 22, merged: 50, closed: 10 },
    /** The longest thread: an open issue. */
    longThread: { number: 42, comments: 300 },
    /** Other threads longer than one page. `number: 311` is closed. */
    otherLongThreads: [
      { number: 7, comments: 150, state: "OPEN" },
      { number: 311, comments: 120, state: "CLOSED" },
    ],
    /** An open issue with exactly 100 comments (one full page, no more). */
    exactPageThread: { number: 77, comments: 100 },
    /** An open issue with no comments. */
    noComments: { number: 3 },
    /** README.md exists, so `object(expression: "HEAD:README.md")` finds it. */
    readme: "README.md",
    /** Labels present in the repository. */
    labels: [
      "bug",
      "enhancement",
      "documentation",
      "performance",
      "good first issue",
      "help wanted",
      "question",
      "regression",
      "area/query-planner",
      "area/storage",
      "area/replication",
      "area/bolt",
      "area/cypher",
      "area/indexing",
      "area/cli",
      "area/drivers",
    ],
    /** Milestones (title, number, open?). */
    milestones: [
      { number: 1, title: "v0.9", open: false },
      { number: 2, title: "v1.0", open: true },
      { number: 3, title: "v1.1", open: true },
    ],
    /** A label carried by exactly `open` open issues (and some closed ones). */
    goodFirstIssue: { label: "good first issue", open: 37 },
    /** Free text in the titles of exactly `open` open issues (and nowhere else). */
    searchPhrase: { text: "bolt handshake", open: 5 },
  },
  /** The pull request with files, review threads and closing references. */
  detailedPull: {
    ...BIG,
    number: 610,
    state: "MERGED",
    baseRefName: "main",
    headRefName: "planner/cost-model-v2",
    files: 9,
    reviewThreads: 4,
    /** Issues it closes (closingIssuesReferences), all in lumendb/lumen. */
    closes: [118, 245],
  },
  /** A pull request with more changed files than one page holds. */
  bigPull: { ...BIG, number: 612, state: "OPEN", files: 130 },
  /** A draft pull request. */
  draftPull: { ...BIG, number: 615, state: "OPEN", isDraft: true },
  /** A closed, unmerged pull request. */
  closedPull: { ...BIG, number: 618, state: "CLOSED" },
  /** Curated cross-references (the dataset has more, generated). */
  references: [
    // issue -> PR (the issue mentions the PR; the event is on the PR's timeline)
    {
      source: { ...BIG, number: 118 },
      target: { ...BIG, number: 610 },
      kind: "references",
      isCrossRepository: false,
    },
    // PR -> issue, closing
    {
      source: { ...BIG, number: 610 },
      target: { ...BIG, number: 118 },
      kind: "closes",
      isCrossRepository: false,
    },
    {
      source: { ...BIG, number: 610 },
      target: { ...BIG, number: 245 },
      kind: "closes",
      isCrossRepository: false,
    },
    // issue -> issue
    {
      source: { ...BIG, number: 42 },
      target: { ...BIG, number: 7 },
      kind: "references",
      isCrossRepository: false,
    },
    {
      source: { ...BIG, number: 7 },
      target: { ...BIG, number: 42 },
      kind: "references",
      isCrossRepository: false,
    },
    // cross-repository, both ways
    {
      source: { ...PY, number: 4 },
      target: { ...BIG, number: 42 },
      kind: "references",
      isCrossRepository: true,
    },
    {
      source: { ...BIG, number: 612 },
      target: { ...PY, number: 2 },
      kind: "references",
      isCrossRepository: true,
    },
  ] as ReferencePair[],
  /** A small repository whose README is not README.md. */
  pythonClient: {
    owner: PY.owner,
    name: PY.repo,
    nameWithOwner: `${PY.owner}/${PY.repo}`,
    readme: "README.rst",
    /** Numbers 1..13; #13 is the issue transferred in (open). */
    openIssues: 10,
    closedIssues: 3,
  },
  /** A private repository: the token sees it; anonymous REST gets 404. */
  private: {
    owner: "lumendb",
    name: "lumen-enterprise",
    issueNumber: 1,
    /**
     * Its issue #1 mentions this public issue, so the public issue's timeline
     * shows a cross-reference from private content (to the token's viewer
     * only; anonymous REST timelines leave it out, as GitHub does).
     */
    mentions: { ...BIG, number: 42 },
  },
  /** A renamed repository: the old name still resolves (GraphQL) or redirects (REST 301). */
  renamed: {
    owner: "lumendb",
    oldName: "graphviz-lumen",
    newName: "lumen-viz",
    /** Its only README is named `README` (no extension). */
    readme: "README",
    issueNumber: 1,
  },
  /** An issue transferred from lumendb/lumen to lumendb/lumen-py. */
  transferred: {
    from: { ...BIG, number: 555 },
    to: { ...PY, number: 13 },
  },
  /** A deleted issue: REST 410, GraphQL NOT_FOUND. */
  deleted: { ...BIG, number: 404 },
  /** A number beyond the last issue: plain NOT_FOUND / 404. */
  missing: { ...BIG, number: 5000 },
  /** A repository that does not exist. */
  missingRepo: { owner: "lumendb", name: "no-such-repo" },
} as const;
