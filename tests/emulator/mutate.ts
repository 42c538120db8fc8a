/**
 * Changes tests make to the emulator's world while it runs, each with the
 * side effects GitHub has: a new comment, an edit or a state change bumps
 * the item's `updatedAt`; a rename keeps the repository's id and leaves the
 * old name resolving; a transfer gives the issue a new number and a new node
 * id and leaves a redirect behind; a deletion leaves 410 Gone.
 *
 * @example
 * ```ts
 * const ds = buildDataset();
 * addComment(ds, "lumendb", "lumen", 3, "Still happening.", "felix-braun");
 * const to = transferIssue(ds, "lumendb", "lumen", 3, "lumendb", "lumen-py"); // new number
 * ```
 * @module
 */

import { type Dataset, type ItemRec, nodeId, type RepoRec } from "./dataset.ts";

/** Changes {@link editIssue} can make; each bumps `updatedAt`. */
export interface IssuePatch {
  title?: string;
  body?: string;
  state?: "OPEN" | "CLOSED";
  labels?: string[];
  assignees?: string[];
}

function repoOf(ds: Dataset, owner: string, repo: string): RepoRec {
  const found = ds.repo(owner, repo);
  if (!found) throw new Error(`emulator: no repository ${owner}/${repo}`);
  return found.repo;
}

function itemOf(ds: Dataset, owner: string, repo: string, number: number): ItemRec {
  const item = repoOf(ds, owner, repo).items.get(number);
  if (!item) throw new Error(`emulator: no item ${owner}/${repo}#${number}`);
  return item;
}

/** Adds a comment as the item's newest; returns the comment's node id. */
export function addComment(
  ds: Dataset,
  owner: string,
  repo: string,
  number: number,
  body: string,
  author = "zoe-whitfield",
): string {
  const item = itemOf(ds, owner, repo, number);
  const databaseId = ds.nextId();
  const at = ds.tick();
  ds.user(author);
  const comment = {
    databaseId,
    nodeId: nodeId("IC", item.repo.databaseId, databaseId),
    author,
    body,
    createdAt: at,
    updatedAt: at,
  };
  item.comments.push(comment);
  item.updatedAt = at;
  ds.nodes.set(comment.nodeId, { type: "IssueComment", comment, item });
  return comment.nodeId;
}

/** Edits an issue or pull request in place. */
export function editIssue(
  ds: Dataset,
  owner: string,
  repo: string,
  number: number,
  patch: IssuePatch,
): void {
  const item = itemOf(ds, owner, repo, number);
  const at = ds.tick();
  if (patch.title !== undefined) item.title = patch.title;
  if (patch.body !== undefined) item.body = patch.body;
  if (patch.labels !== undefined) item.labels = [...patch.labels];
  if (patch.assignees !== undefined) item.assignees = [...patch.assignees];
  if (patch.state !== undefined && patch.state !== item.state) {
    item.state = patch.state;
    item.closedAt = patch.state === "CLOSED" ? at : null;
    item.stateReason = patch.state === "CLOSED" && item.kind === "issue" ? "COMPLETED" : null;
  }
  item.updatedAt = at;
}

/** Renames a repository; the old name keeps resolving (GraphQL) and redirecting (REST). */
export function renameRepo(ds: Dataset, owner: string, name: string, newName: string): void {
  const repo = repoOf(ds, owner, name);
  if (ds.repo(owner, newName) && ds.repo(owner, newName)!.repo !== repo) {
    throw new Error(`emulator: ${owner}/${newName} already exists`);
  }
  if (!repo.oldNames.includes(repo.name)) repo.oldNames.push(repo.name);
  repo.oldNames = repo.oldNames.filter((n) => n.toLowerCase() !== newName.toLowerCase());
  repo.name = newName;
  repo.updatedAt = ds.tick();
}

/**
 * Moves an issue to another repository: it takes the next number there and
 * a new node id (its old id stops resolving); its old location redirects.
 * References to it follow it. Returns the new number.
 */
export function transferIssue(
  ds: Dataset,
  owner: string,
  repo: string,
  number: number,
  toOwner: string,
  toRepo: string,
): number {
  const from = repoOf(ds, owner, repo);
  const to = repoOf(ds, toOwner, toRepo);
  const item = itemOf(ds, owner, repo, number);
  if (item.kind !== "issue") throw new Error("emulator: only issues can be transferred");
  const newNumber = Math.max(0, ...to.items.keys(), ...to.gone.keys()) + 1;
  ds.nodes.delete(item.nodeId);
  from.items.delete(number);
  from.gone.set(number, { kind: "transferred", to: item });
  item.repo = to;
  item.number = newNumber;
  item.databaseId = ds.nextId();
  item.nodeId = nodeId("I", to.databaseId, item.databaseId);
  item.updatedAt = ds.tick();
  to.items.set(newNumber, item);
  ds.nodes.set(item.nodeId, { type: "Item", item });
  return newNumber;
}

/** Deletes an issue: REST 410 Gone, GraphQL NOT_FOUND, its node id gone. */
export function deleteIssue(ds: Dataset, owner: string, repo: string, number: number): void {
  const r = repoOf(ds, owner, repo);
  const item = itemOf(ds, owner, repo, number);
  ds.nodes.delete(item.nodeId);
  for (const c of item.comments) ds.nodes.delete(c.nodeId);
  // GitHub drops the cross-reference events a deleted issue was the source of.
  for (const other of ds.repos.flatMap((x) => [...x.items.values()])) {
    other.timeline = other.timeline.filter((e) => e.source !== item);
  }
  r.items.delete(number);
  r.gone.set(number, { kind: "deleted" });
}
