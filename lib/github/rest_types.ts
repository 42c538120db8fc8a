/**
 * The REST answers rgraph reads, decoded as GitHub's REST description
 * (`@octokit/openapi`, `api.github.com`) allows them — no stricter: a field
 * the description marks nullable may be null, one it does not require may be
 * missing, and an issue's labels may be plain strings. `tests/openapi_test.ts`
 * checks every decoder here against the description's response schema of
 * each endpoint rgraph calls.
 *
 * @example
 * ```ts
 * import { labelNames, RestIssue } from "./rest_types.ts";
 * const issue = RestIssue(json, "issue");
 * labelNames(issue.labels); // ["bug"]
 * ```
 * @module
 */

import {
  arr,
  bool,
  type Decoded,
  type Decoder,
  nullable,
  num,
  obj,
  optional,
  str,
} from "./decode.ts";

/** `nullable-simple-user`: a deleted account is null. */
const User = nullable(obj({ login: str }));

/** A label as `issue` describes it: its name as a plain string, or an object whose `name` is optional. */
const Label: Decoder<string | null> = (v, p) =>
  typeof v === "string" ? v : optional(str)(obj({ name: optional(str) })(v, p).name, `${p}.name`);

/** The names of labels decoded by {@link RestIssue} (a label object without a name has none). */
export function labelNames(labels: (string | null)[]): string[] {
  return labels.filter((l): l is string => l !== null);
}

/** `full-repository` (`GET /repos/{owner}/{repo}`). */
export const RestRepo = obj({
  node_id: str,
  full_name: str,
  html_url: str,
  private: bool,
  visibility: optional(str),
  description: nullable(str),
  stargazers_count: num,
  // Required by the description, yet null for a repository nothing was ever pushed to.
  pushed_at: optional(str),
  updated_at: str,
});
export type RestRepo = Decoded<typeof RestRepo>;

/**
 * `issue` (`GET /repos/{owner}/{repo}/issues[/{n}]`) and
 * `issue-search-result-item` (`GET /search/issues`): `body` is optional and
 * nullable, `assignees` optional (and nullable in search results).
 */
export const RestIssue = obj({
  node_id: str,
  number: num,
  title: str,
  body: optional(str),
  state: str,
  html_url: str,
  repository_url: str,
  user: User,
  labels: arr(Label),
  assignees: optional(arr(obj({ login: str }))),
  milestone: nullable(obj({ title: str })),
  comments: num,
  created_at: str,
  updated_at: str,
  closed_at: nullable(str),
  pull_request: optional(obj({ merged_at: optional(str) })),
});
export type RestIssue = Decoded<typeof RestIssue>;

/** `GET /search/issues`: the issues matching, and how many do in all. */
export const RestSearch = obj({
  total_count: num,
  /** GitHub ran out of time: the items are some of the matches, not all of them. */
  incomplete_results: bool,
  items: arr(RestIssue),
});

/** `issue-comment` (`GET …/issues/{n}/comments`): `body` is optional. */
export const RestComment = obj({
  node_id: str,
  user: User,
  created_at: str,
  updated_at: str,
  body: optional(str),
});

/** `pull-request-review-comment` (`GET …/pulls/{n}/comments`): on a file's line. */
export const RestReviewComment = obj({
  node_id: str,
  user: User,
  created_at: str,
  updated_at: str,
  body: str,
  path: str,
});

/** `pull-request` (`GET …/pulls/{n}`), as far as rgraph reads it. */
export const RestPull = obj({ merged: bool, merged_at: nullable(str), base: obj({ ref: str }) });

/** `diff-entry` (`GET …/pulls/{n}/files`). */
export const RestFile = obj({ filename: str });

/** `content-file` (`GET …/readme`). */
export const RestReadme = obj({ path: str, content: str, encoding: str });

/** Where an issue lives, from `issue` (a transferred issue's, after the 301). */
export const RestIssuePlace = obj({ number: num, repository_url: str });
