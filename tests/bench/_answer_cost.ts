/**
 * What an answer costs a model's context, against what the same facts cost
 * written plainly: the data the `answer` benchmark and `tests/answer_cost_test.ts`
 * share, and two reference renderings of it, both written from the stored
 * Resources (never from rgraph's answer):
 *
 * - {@link plain}: the plainest rendering, one fact a line (`name: value`),
 *   each comment as its author line, its time line and its text, each
 *   listing member as one tab-separated line — what an answer cannot be much
 *   cheaper than without losing a fact.
 * - {@link ghLike}: an approximation of what `gh` prints for the same data
 *   when piped (not a terminal), after its documented formats: `gh issue view
 *   --comments` (`title:\t…` lines, `--`, the body, then per comment `author:`,
 *   `association:`, `edited:`, `status:`, `--`, its text, `--`), `gh pr view
 *   --comments` with `gh pr diff --name-only` for the files, `gh issue list`
 *   (`number\tSTATE\ttitle\tlabels\tupdated`) and `gh repo view` (`name:`,
 *   `description:`, `--`, the README). Approximate: gh is not run here (GitHub
 *   is out of reach), and gh shows no review comments with `pr view`.
 *
 * @module
 */

import type {
  Comment,
  IssueResource,
  ListingMember,
  PullRequestResource,
  RepositoryResource,
} from "../../lib/types.ts";
import type { Store } from "../../lib/store/contract.ts";
import { issue, pull, repository, seedListing } from "../fixtures_memory.ts";

/** A small deterministic generator, so every run measures the same text. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  "the planner crashes when a nested MATCH has an OPTIONAL clause and the index is missing " +
  "I can reproduce this on v2.15 with the docker image, see the stack trace below; " +
  "thanks for the report, could you share the query plan? a fix is in review " +
  "this also happens after restart `CALL db.indexes()` returns nothing works for me now"
).split(" ");

/** Text of about `n` characters, drawn from {@link WORDS}, with the odd line break. */
function words(next: () => number, n: number): string {
  let out = "";
  while (out.length < n) {
    const w = WORDS[Math.floor(next() * WORDS.length)];
    out += out === "" ? w : `${next() < 0.06 ? "\n" : " "}${w}`;
  }
  return out;
}

const AUTHORS = ["ann", "bob-the-builder", "carol", "dmitri", "gitbuda", "antejavor"];
const LABELS = ["bug", "feature", "docs", "priority/high", "area/planner", "good first issue"];

function at(base: string, minutes: number): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString().replace(".000Z", "Z");
}

/**
 * Comments as a long GitHub thread has them: mostly short (a line or two,
 * about 130 bytes on average, as the threads measured for issue 29), a few long.
 */
function thread(seed: number, n: number, prefix: string): Comment[] {
  const next = random(seed);
  return Array.from({ length: n }, (_, i) => {
    const long = next() < 0.05;
    const size = long ? 600 + Math.floor(next() * 900) : 30 + Math.floor(next() * 170);
    return {
      node_id: `${prefix}_${i + 1}`,
      author: AUTHORS[Math.floor(next() * AUTHORS.length)],
      created_at: at("2025-06-01T10:00:00Z", 17 + i * 43),
      body: words(next, size),
    };
  });
}

/** The 250-comment issue thread. */
export function longThread(owner: string, repo: string, n = 250): IssueResource {
  const cs = thread(29, n, `IC_cost_${n}`);
  return {
    ...issue(owner, repo, 4242, {
      title: "Planner crashes on nested OPTIONAL MATCH after upgrading to v2.15",
      labels: ["bug", "area/planner", "priority/high"],
      assignees: ["gitbuda"],
      milestone: "v2.16",
      body: words(random(7), 900),
    }),
    comments: cs,
    comment_count: cs.length,
  };
}

/** The pull request with 150 changed files, a short conversation and review comments on files. */
export function widePull(owner: string, repo: string): PullRequestResource {
  const next = random(150);
  const dirs = ["src/query/plan", "src/storage/v2", "tests/e2e/planner", "src/utils", "docs/ref"];
  const files = Array.from({ length: 150 }, (_, i) => {
    const dir = dirs[Math.floor(next() * dirs.length)];
    return `${dir}/${words(next, 8).replace(/\W+/g, "_")}_${i}.${next() < 0.7 ? "cpp" : "hpp"}`;
  });
  const base = pull(owner, repo, 4300, {
    title: "Rewrite the planner's rule for nested OPTIONAL MATCH",
    labels: ["feature", "area/planner"],
    body: words(random(8), 700),
    files,
  });
  const reviews = thread(151, 8, "PRRC_cost").map((c, i) => ({ ...c, path: files[i * 11] }));
  const cs = thread(152, 4, "IC_cost_pr");
  return { ...base, comments: cs, comment_count: cs.length, review_comments: reviews };
}

/** Members of the open-issues listing: realistic titles, a few labels, comment counts. */
export function listingItems(owner: string, repo: string, n = 689): IssueResource[] {
  const next = random(689);
  return Array.from({ length: n }, (_, i) => {
    const labels = LABELS.filter(() => next() < 0.22);
    return {
      ...issue(owner, repo, 10_000 - i * 3, {
        title: words(next, 25 + Math.floor(next() * 55)).replaceAll("\n", " "),
        labels,
        updated_at: at("2026-01-01T00:00:00Z", Math.floor(next() * 400_000)),
        comments: 0,
      }),
      comment_count: Math.floor(next() * 40),
    };
  });
}

/** The repository with an 8,000-character README. */
export function readmeRepo(owner: string, repo: string): RepositoryResource {
  return repository(owner, repo, `# ${repo}\n\n${words(random(9), 8_000)}`);
}

/** Stores the four subjects under `owner/repo`; returns the addresses to ask. */
export async function seedSubjects(store: Store, owner: string, repo: string) {
  const members = listingItems(owner, repo);
  await store.putResources([
    { resource: longThread(owner, repo) },
    { resource: widePull(owner, repo) },
    { resource: readmeRepo(owner, repo) },
    ...members.map((resource) => ({ resource })),
  ]);
  await seedListing(store, owner, repo, "issues", { state: "open" }, members.map((m) => m.number));
}

const line = (name: string, value: string | number | null) => `${name}: ${value ?? ""}`;

/** The plainest rendering of an issue or pull request, one fact a line. */
export function plainItem(r: IssueResource | PullRequestResource): string {
  const out = [
    line("key", r.address),
    line("url", r.url),
    line("title", r.title),
    line("state", r.state),
    line("author", r.author),
    line("labels", r.labels.join(", ")),
    line("assignees", r.assignees.join(", ")),
    line("milestone", r.milestone),
    line("created_at", r.created_at),
    line("closed_at", r.closed_at),
    line("updated_at", r.updated_at),
    line("fetched_at", r.fetched_at),
  ];
  if (r.kind === "pull_request") {
    out.push(line("merged", String(r.merged)), line("base", r.base_ref), "files:", ...r.files);
  }
  out.push("body:", r.body);
  const all = [...r.comments, ...(r.kind === "pull_request" ? r.review_comments : [])];
  for (const c of all) {
    out.push(line("author", c.author), line("created_at", c.created_at));
    if (c.path) out.push(line("path", c.path));
    out.push(c.body);
  }
  return out.join("\n");
}

/** The plainest rendering of a listing: its facts, then one tab-separated line per member. */
export function plainListing(key: string, fetchedAt: string, members: ListingMember[]): string {
  return [
    line("key", key),
    line("fetched_at", fetchedAt),
    line("total", members.length),
    ...members.map((m) =>
      [m.number, m.state, m.title, m.labels.join(", "), m.updated_at, m.comment_count].join("\t")
    ),
  ].join("\n");
}

/** The plainest rendering of a repository with its README. */
export function plainRepository(r: RepositoryResource): string {
  return [
    line("key", r.address),
    line("url", r.url),
    line("description", r.description),
    line("stars", r.stars),
    line("pushed_at", r.pushed_at),
    line("updated_at", r.updated_at),
    line("fetched_at", r.fetched_at),
    line("readme", r.readme_path),
    r.readme ?? "",
  ].join("\n");
}

/** About what `gh issue view --comments` (or `gh pr view --comments` and `gh pr diff --name-only`) prints piped. */
export function ghItem(r: IssueResource | PullRequestResource): string {
  const tab = (name: string, value: string | number | null) => `${name}:\t${value ?? ""}`;
  const out = [
    tab("title", r.title),
    tab("state", r.state.toUpperCase()),
    tab("author", r.author),
    tab("labels", r.labels.join(", ")),
    tab("comments", r.comments.length),
    tab("assignees", r.assignees.join(", ")),
    tab("projects", ""),
    tab("milestone", r.milestone),
    tab("number", r.number),
  ];
  if (r.kind === "pull_request") {
    out.push(
      tab("url", r.url),
      tab("additions", 0),
      tab("deletions", 0),
      tab("auto-merge", "disabled"),
    );
  }
  out.push("--", r.body);
  for (const c of r.comments) {
    out.push(
      tab("author", c.author),
      tab("association", "none"),
      tab("edited", "false"),
      tab("status", "none"),
      "--",
      c.body,
      "--",
    );
  }
  if (r.kind === "pull_request") out.push(...r.files);
  return out.join("\n");
}

/** About what `gh issue list` prints piped: number, STATE, title, labels, updated. */
export function ghListing(members: ListingMember[]): string {
  return members.map((m) =>
    [m.number, m.state.toUpperCase(), m.title, m.labels.join(", "), m.updated_at].join("\t")
  ).join("\n");
}

/** About what `gh repo view` prints piped. */
export function ghRepository(r: RepositoryResource): string {
  return [`name:\t${r.owner}/${r.repo}`, `description:\t${r.description ?? ""}`, "--", r.readme]
    .join("\n");
}

/** UTF-8 bytes of `text`. */
export const bytes = (text: string) => new TextEncoder().encode(text).length;
