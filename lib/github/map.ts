/**
 * GitHub objects (decoded GraphQL nodes) → rgraph Resources. Pure: the
 * fetched time is passed in.
 *
 * @example
 * ```ts
 * import { itemResource } from "./map.ts";
 * const r = itemResource(node, "2026-01-01T00:00:00Z");
 * r.address; // "github:owner/repo#12", from the repository's current name
 * ```
 * @module
 */

import { itemAddress, repositoryAddress } from "../address/mod.ts";
import type { Comment, ItemResource, RepositoryResource } from "../types.ts";
import type { CommentNode, ItemNode, RepositoryNode, ReviewCommentNode } from "./types.ts";

/** Splits `owner/name` (GitHub's `nameWithOwner`). */
export function splitNameWithOwner(nwo: string): { owner: string; repo: string } {
  const i = nwo.indexOf("/");
  return { owner: nwo.slice(0, i), repo: nwo.slice(i + 1) };
}

function comment(c: CommentNode | ReviewCommentNode): Comment {
  const out: Comment = {
    node_id: c.id,
    author: c.author?.login ?? null,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    body: c.body,
  };
  if ("path" in c) out.path = c.path;
  return out;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** Where a Resource lives and when it was seen: the fields every Resource starts with. */
export interface Seen {
  node_id: string;
  url: string;
  fetched_at: string;
  updated_at: string;
  etag: string | null;
}

/** The identity fields of a Resource at `address` (its current, canonical place). */
export function resourceBase(address: { key: string; owner: string; repo: string }, seen: Seen) {
  return { ...seen, address: address.key, owner: address.owner, repo: address.repo };
}

// GraphQL has no ETags: a GraphQL-fetched Resource is revalidated by its `updatedAt`.
function seenNode(node: { id: string; url: string; updatedAt: string }, fetchedAt: string): Seen {
  return {
    node_id: node.id,
    url: node.url,
    fetched_at: fetchedAt,
    updated_at: node.updatedAt,
    etag: null,
  };
}

/** An issue or pull request (all continuation pages already appended to its connections). */
export function itemResource(node: ItemNode, fetchedAt: string): ItemResource {
  const { owner, repo } = splitNameWithOwner(node.repository.nameWithOwner);
  const address = itemAddress(owner, repo, node.number);
  const base = {
    ...resourceBase(address, seenNode(node, fetchedAt)),
    number: node.number,
    title: node.title,
    body: node.body,
    author: node.author?.login ?? null,
    labels: node.labels.map((l) => l.name),
    assignees: node.assignees.map((a) => a.login),
    milestone: node.milestone?.title ?? null,
    created_at: node.createdAt,
    closed_at: node.closedAt,
    comment_count: node.comments.totalCount ?? node.comments.nodes.length,
    comments: node.comments.nodes.map(comment),
    // A CrossReferencedEvent on this item's timeline has the item that
    // mentions this one as its source (and this one as its target).
    // Only references from public repositories: the token may see private ones.
    referenced_by: unique(
      node.timelineItems.nodes.filter((e) => e.source.repository?.visibility === "PUBLIC")
        .map((e) => e.source.url).filter((u): u is string => u !== null && u !== node.url),
    ),
  };
  if (node.__typename === "Issue") {
    return { ...base, kind: "issue", state: node.issueState === "OPEN" ? "open" : "closed" };
  }
  return {
    ...base,
    kind: "pull_request",
    state: node.merged || node.pullState === "MERGED"
      ? "merged"
      : node.pullState === "OPEN"
      ? "open"
      : "closed",
    merged: node.merged,
    base_ref: node.baseRefName,
    files: unique(node.files.nodes.map((f) => f.path)),
    review_comments: node.reviewThreads.nodes.flatMap((t) => t.comments.nodes.map(comment)),
    closes: unique(
      node.closingIssuesReferences.nodes.filter((r) => r.repository.visibility === "PUBLIC")
        .map((r) => r.url),
    ),
  };
}

/** A repository; `readme` is the README text found (and its path), if any. */
export function repositoryResource(
  node: RepositoryNode,
  readme: { path: string; text: string } | null,
  fetchedAt: string,
): RepositoryResource {
  const { owner, repo } = splitNameWithOwner(node.nameWithOwner);
  const address = repositoryAddress(owner, repo);
  return {
    kind: "repository",
    ...resourceBase(address, seenNode(node, fetchedAt)),
    description: node.description,
    readme: readme?.text ?? null,
    readme_path: readme?.path ?? null,
    stars: node.stargazerCount,
    pushed_at: node.pushedAt,
  };
}

const README = /^readme(\.[a-z0-9]+)?$/i;
/** Preference among README files when a repository has several (GitHub prefers Markdown). */
const PREFERRED = [".md", ".markdown", "", ".rst", ".txt", ".adoc", ".org"];

/** The README file name among a root tree's entries, if any. */
export function readmeName(entries: { name: string; type: string }[]): string | null {
  const found = entries.filter((e) => e.type === "blob" && README.test(e.name)).map((e) => e.name);
  const rank = (n: string) => {
    const ext = n.includes(".") ? n.slice(n.indexOf(".")).toLowerCase() : "";
    const i = PREFERRED.indexOf(ext);
    return i < 0 ? PREFERRED.length : i;
  };
  return found.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0] ?? null;
}
