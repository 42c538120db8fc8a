/**
 * Typed GraphQL responses, decoded where they enter rgraph: every field the
 * queries in `queries.ts` select is checked here, so schema drift throws a
 * {@link SchemaDriftError} naming the field instead of storing half a Resource.
 *
 * @example
 * ```ts
 * import { decode } from "./decode.ts";
 * import { ItemNode } from "./types.ts";
 * const item = decode(ItemNode, json.data.repository.i0, "repository.i0");
 * item.__typename; // "Issue" | "PullRequest"
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
  oneOf,
  optional,
  str,
} from "./decode.ts";

export { SchemaDriftError } from "./decode.ts";

/** `rateLimit { cost remaining resetAt }`. */
export const RateLimit = obj({ cost: num, limit: num, remaining: num, resetAt: str });
export type RateLimit = Decoded<typeof RateLimit>;

/** `pageInfo { hasNextPage endCursor }`. */
const PageInfo = obj({ hasNextPage: bool, endCursor: nullable(str) });
export type PageInfo = Decoded<typeof PageInfo>;

/** A connection's page: nodes (null entries dropped) and where the next page starts. */
export interface Page<T> {
  pageInfo: PageInfo;
  nodes: T[];
  totalCount: number | null;
}

/** A connection of `node`s; `totalCount` only where the query asks for it. */
export function connection<T>(node: Decoder<T>): Decoder<Page<T>> {
  const shape = obj({ pageInfo: PageInfo, nodes: arr(nullable(node)), totalCount: optional(num) });
  return (v, p) => {
    const c = shape(v, p);
    return { ...c, nodes: c.nodes.filter((n): n is T => n !== null) };
  };
}

/** A list of nodes without paging (labels, assignees: bounded by GitHub). */
function nodes<T>(node: Decoder<T>): Decoder<T[]> {
  const shape = obj({ nodes: arr(nullable(node)) });
  return (v, p) => shape(v, p).nodes.filter((n): n is T => n !== null);
}

const Actor = nullable(obj({ login: str }));
const Visibility = oneOf("PUBLIC", "PRIVATE", "INTERNAL");

/** The repository fields every query selects: identity and visibility. */
export const RepoHead = obj({
  id: str,
  nameWithOwner: str,
  visibility: Visibility,
});
export type RepoHead = Decoded<typeof RepoHead>;

const commentFields = { id: str, author: Actor, createdAt: str, updatedAt: str, body: str };

/** An issue comment. */
export const CommentNode = obj(commentFields);
export type CommentNode = Decoded<typeof CommentNode>;

/** A pull request review comment (carries its file path). */
export const ReviewCommentNode = obj({ ...commentFields, path: str });
export type ReviewCommentNode = Decoded<typeof ReviewCommentNode>;

/** A referenced issue or pull request and its repository's visibility. */
export const Reference = obj({ url: str, repository: obj({ visibility: Visibility }) });
export type Reference = Decoded<typeof Reference>;

/**
 * A cross-referenced event: the issue or pull request whose text mentioned
 * this one (absent fields: a source type the query does not select).
 */
export const CrossReference = obj({
  source: obj({ url: optional(str), repository: optional(obj({ visibility: Visibility })) }),
});

/** A review thread with its first page of comments. */
export const ReviewThread = obj({
  id: str,
  path: str,
  comments: connection(ReviewCommentNode),
});
export type ReviewThread = Decoded<typeof ReviewThread>;

const itemCommon = {
  id: str,
  number: num,
  title: str,
  body: str,
  url: str,
  createdAt: str,
  updatedAt: str,
  closedAt: nullable(str),
  author: Actor,
  repository: RepoHead,
  labels: nodes(obj({ name: str })),
  assignees: nodes(obj({ login: str })),
  milestone: nullable(obj({ title: str })),
  comments: connection(CommentNode),
  timelineItems: connection(CrossReference),
};

/** An issue at full depth. */
const IssueNode = obj({
  __typename: oneOf("Issue"),
  issueState: oneOf("OPEN", "CLOSED"),
  ...itemCommon,
});
export type IssueNode = Decoded<typeof IssueNode>;

/** A pull request at full depth. */
const PullNode = obj({
  __typename: oneOf("PullRequest"),
  pullState: oneOf("OPEN", "CLOSED", "MERGED"),
  ...itemCommon,
  merged: bool,
  baseRefName: str,
  files: connection(obj({ path: str })),
  reviewThreads: connection(ReviewThread),
  closingIssuesReferences: connection(Reference),
});
export type PullNode = Decoded<typeof PullNode>;

/** `issueOrPullRequest` (or a search hit) at full depth. */
export const ItemNode: Decoder<IssueNode | PullNode> = (v, p) => {
  const t = obj({ __typename: oneOf("Issue", "PullRequest") })(v, p).__typename;
  return t === "Issue" ? IssueNode(v, p) : PullNode(v, p);
};
export type ItemNode = IssueNode | PullNode;

/** The `updatedAt` probe of one item. */
export const ItemProbe = obj({
  __typename: oneOf("Issue", "PullRequest"),
  id: str,
  updatedAt: str,
});
export type ItemProbe = Decoded<typeof ItemProbe>;

/** What a `since` revalidation learns of a changed member without fetching it. */
export const ItemHead = obj({
  __typename: oneOf("Issue", "PullRequest"),
  number: num,
  updatedAt: str,
  state: oneOf("OPEN", "CLOSED", "MERGED"),
  author: Actor,
  labels: nodes(obj({ name: str })),
  assignees: nodes(obj({ login: str })),
  milestone: nullable(obj({ title: str })),
});
export type ItemHead = Decoded<typeof ItemHead>;

/** A repository with its README candidates. */
export const RepositoryNode = obj({
  id: str,
  nameWithOwner: str,
  visibility: Visibility,
  url: str,
  description: nullable(str),
  stargazerCount: num,
  pushedAt: nullable(str),
  updatedAt: str,
  root: nullable(obj({ entries: optional(arr(obj({ name: str, type: str }))) })),
  readme: nullable(obj({ text: optional(str) })),
});
export type RepositoryNode = Decoded<typeof RepositoryNode>;

/** The repository probe. */
export const RepositoryProbe = obj({
  id: str,
  nameWithOwner: str,
  visibility: Visibility,
  updatedAt: str,
  pushedAt: nullable(str),
});
