/**
 * Reading the graph as it is, whoever wrote it. The Context Graph family's
 * other writers (the upstream Python package, a team's own tools) share
 * rgraph's labels without rgraph's bookkeeping: an issue without `kind`,
 * `owner` or `repo`, an upper-case `state`, `changed_files` for `files`, a
 * Listing without `filters`. Each node is read field by field into rgraph's
 * record: what is derivable is derived (the kind from the labels; owner,
 * repository, number and a Listing's filters from its key), a value with one
 * obvious reading is read so (a digit string as a number, `'true'` as a
 * boolean, a date-time value as ISO text, an upper-case state), and a node
 * whose content is still incomplete or of the wrong type is not read at all:
 * the decoder returns `null` and says why through `skip`, and callers treat
 * the node as absent (a Resource is fetched afresh, a comment is left out
 * of its thread, a Touch out of the list). Pure: no I/O.
 *
 * @example
 * ```ts
 * import { decodeResource } from "./decode.ts";
 * const r = decodeResource(
 *   { labels: ["Resource", "Issue"], properties: { address: "github:o/r#5", state: "OPEN", … } },
 *   [],
 *   (what, why) => console.log(`skipped ${what}: ${why}`),
 * );
 * r?.kind; // "issue"
 * ```
 * @module
 */

import { parseKey } from "../../address/mod.ts";
import type {
  Comment,
  ItemResource,
  Listing,
  ListingMember,
  Resource,
  ResourceKind,
  Touch,
} from "../../types.ts";
import { headOf, type IndexHead, type ResourceHead } from "../contract.ts";

type Props = Record<string, unknown>;

/** A node as the driver gives it. */
export interface GraphNode {
  labels: readonly string[];
  properties: Props;
}

/** Told about every node that could not be read: what it is and why. */
export type Skip = (what: string, why: string) => void;

/** Why a node cannot be read; caught at the top of each decoder. */
class Unreadable extends Error {}

function fail(why: string): never {
  throw new Unreadable(why);
}

/** A field of a node, read by the rules in the module comment. */
class Fields {
  constructor(readonly props: Props) {}

  /** Whether the node has `key`, or said it holds null (rgraph's `null_keys`). */
  has(key: string): boolean {
    const nulls = this.props.null_keys;
    return this.props[key] !== undefined && this.props[key] !== null ||
      (Array.isArray(nulls) && nulls.includes(key));
  }

  text(key: string): string {
    const v = this.optText(key);
    return v ?? fail(`no ${key}`);
  }

  optText(key: string): string | null {
    const v = this.props[key];
    if (v === undefined || v === null) return null;
    return typeof v === "string" ? v : fail(`${key} is not text`);
  }

  time(key: string): string {
    return this.optTime(key) ?? fail(`no ${key}`);
  }

  optTime(key: string): string | null {
    const v = this.props[key];
    if (v === undefined || v === null) return null;
    return isoTime(v) ?? fail(`${key} is not a time`);
  }

  optInt(key: string): number | null {
    const v = this.props[key];
    if (v === undefined || v === null) return null;
    return wholeNumber(v) ?? fail(`${key} is not a whole number`);
  }

  int(key: string, fallback?: number): number {
    return this.optInt(key) ?? fallback ?? fail(`no ${key}`);
  }

  optBool(key: string): boolean | null {
    const v = this.props[key];
    if (v === undefined || v === null) return null;
    if (typeof v === "boolean") return v;
    if (v === "true" || v === "false") return v === "true";
    return fail(`${key} is not true or false`);
  }

  /** A list of text; absent is empty. The first of `keys` the node has is read. */
  texts(...keys: string[]): string[] {
    const key = keys.find((k) => this.props[k] !== undefined && this.props[k] !== null);
    if (key === undefined) return [];
    const v = this.props[key];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
      return fail(`${key} is not a list of text`);
    }
    return [...v];
  }

  /** One of `allowed`, compared without case (GitHub's enums are upper case). */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const v = this.text(key).toLowerCase();
    return (allowed as readonly string[]).includes(v) ? v as T : fail(`${key} is ${v}`);
  }
}

/**
 * A time as ISO 8601 UTC text, from text or a date-time value; null for
 * anything else. GitHub's and rgraph's own form is kept as it is; any other
 * (an offset, no zone: read as UTC, as the family's writers record UTC) is
 * rewritten in it, so times compare as text.
 */
export function isoTime(v: unknown): string | null {
  // A date-time value prints as ISO text, a named zone after it in brackets.
  const text = typeof v === "string" ? v : isTemporal(v) ? String(v).replace(/\[.*\]$/, "") : null;
  if (text === null) return null;
  if (typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(text)) return text;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(text) || !text.includes("T") ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** A whole number, or a digit string read as one; null for anything else. */
export function wholeNumber(v: unknown): number | null {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return null;
}

/** A date-time value of the driver (`DateTime`, `LocalDateTime`, `Date`): it prints as ISO text. */
function isTemporal(v: unknown): boolean {
  return typeof v === "object" && v !== null && "year" in v && "month" in v && "day" in v;
}

/** The Resource Kind a node's labels name, or why they name none. */
function kindOf(labels: readonly string[]): ResourceKind {
  const kinds = ([["Repository", "repository"], ["Issue", "issue"], [
    "PullRequest",
    "pull_request",
  ]] as const).filter(([label]) => labels.includes(label)).map(([, kind]) => kind);
  if (kinds.length === 1) return kinds[0];
  return fail(kinds.length ? `labels name ${kinds.length} kinds` : "labels name no kind");
}

/**
 * How a node is named in a skip: a Resource or Listing by address (or key)
 * and node id, a Touch by its id alone (what it touched is its user's
 * business), never by content.
 */
function nameOf(label: string, p: Props): string {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (label === "Touch") return `Touch ${text(p.id) ?? "without an id"}`;
  const at = text(p.address) ?? text(p.key);
  const id = text(p.node_id);
  return `${label}${at ? ` ${at}` : ""}${id ? ` (node ${id})` : ""}`;
}

function guard<T>(what: () => string, skip: Skip, read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof Unreadable)) throw e;
    skip(what(), e.message);
    return null;
  }
}

/** The Resource's own fields, without comments: the part a head and a Listing member need. */
function resourceFields(node: GraphNode): Resource {
  const f = new Fields(node.properties);
  const kind = kindOf(node.labels);
  const address = f.text("address");
  const a = parseKey(address);
  if (a === null || a.key !== address || (a.kind === "repository") !== (kind === "repository")) {
    fail(`address ${address} is not a ${kind === "repository" ? "repository" : "item"} key`);
  }
  const base = {
    node_id: f.text("node_id"),
    address,
    owner: a.owner,
    repo: a.repo,
    url: f.optText("url") ?? "",
    fetched_at: f.time("fetched_at"),
    updated_at: f.time("updated_at"),
    ...(f.has("etag") ? { etag: f.optText("etag") } : {}),
  };
  if (kind === "repository") {
    return {
      kind,
      ...base,
      url: base.url || `https://github.com/${a.owner}/${a.repo}`,
      description: f.optText("description"),
      readme: f.optText("readme"),
      readme_path: f.optText("readme_path"),
      stars: f.int("stars", 0),
      pushed_at: f.optTime("pushed_at"),
    };
  }
  const number = (a as { number: number }).number;
  const item = {
    ...base,
    url: base.url ||
      `https://github.com/${a.owner}/${a.repo}/${kind === "issue" ? "issues" : "pull"}/${number}`,
    number,
    title: f.text("title"),
    body: f.optText("body") ?? fail("no body"),
    author: f.optText("author"),
    labels: f.texts("labels"),
    assignees: f.texts("assignees"),
    milestone: f.optText("milestone"),
    created_at: f.time("created_at"),
    closed_at: f.optTime("closed_at"),
    comment_count: f.int("comment_count", 0),
    comments: [],
    referenced_by: f.texts("referenced_by", "referenced_by_urls"),
  };
  if (kind === "issue") return { ...item, kind, state: f.oneOf("state", ["open", "closed"]) };
  const state = f.oneOf("state", ["open", "closed", "merged"]);
  return {
    ...item,
    kind,
    state,
    merged: f.optBool("merged") ?? state === "merged",
    base_ref: f.optText("base_ref"),
    files: f.texts("files", "changed_files"),
    review_comments: [],
    closes: f.texts("closes", "closes_urls"),
  };
}

/** One comment, with where it goes: which thread, and its place in it. */
function commentOf(node: GraphNode): { comment: Comment; review: boolean; order: number | null } {
  const f = new Fields(node.properties);
  const comment: Comment = {
    node_id: f.text("node_id"),
    author: f.optText("author"),
    created_at: f.time("created_at"),
    body: f.optText("body") ?? fail("no body"),
  };
  if (f.has("updated_at")) comment.updated_at = f.optTime("updated_at");
  if (f.has("path")) comment.path = f.optText("path");
  return { comment, review: f.optBool("review") ?? false, order: f.optInt("position") };
}

/**
 * A Resource from its node and its comment nodes; `null` (and a `skip`) when
 * the node cannot be read. A comment that cannot be read is left out of the
 * thread (with its own `skip`); one of another writer comes in the order of
 * its time, as it carries no position.
 */
export function decodeResource(
  node: GraphNode,
  comments: GraphNode[],
  skip: Skip,
): Resource | null {
  const r = guard(() => nameOf("Resource", node.properties), skip, () => resourceFields(node));
  if (r === null || r.kind === "repository") return r;
  const read = comments.flatMap((c) => {
    const one = guard(
      () => `Comment ${String(c.properties.node_id ?? "?")} of ${r.address}`,
      skip,
      () => commentOf(c),
    );
    return one === null ? [] : [one];
  });
  const thread = (review: boolean) =>
    read.filter((c) => c.review === review).sort((x, y) =>
      (x.order ?? Infinity) - (y.order ?? Infinity) ||
      cmp(x.comment.created_at, y.comment.created_at) || cmp(x.comment.node_id, y.comment.node_id)
    ).map((c) => c.comment);
  const item = r as ItemResource;
  item.comments = thread(false);
  if (item.kind === "pull_request") item.review_comments = thread(true);
  return item;
}

/** What the store keeps about a Resource without its comments; `null` when it cannot be read. */
export function decodeHead(node: GraphNode, skip: Skip): ResourceHead | null {
  const r = guard(() => nameOf("Resource", node.properties), skip, () => resourceFields(node));
  return r === null ? null : headOf(r);
}

/**
 * A head for the local index from a change row (`changes.ts`: the node's
 * labels and head properties, and its aliases); `null` when it cannot be
 * read (a node whose address another writer released is no head either).
 * Nothing is reported: a node is named as unreadable when it is read whole.
 */
export function decodeIndexHead(row: Props): IndexHead | null {
  const f = new Fields(row);
  const labels = Array.isArray(row.labels) ? row.labels.map(String) : [];
  return guard(() => nameOf("Resource", row), () => {}, () => {
    const kind = kindOf(labels);
    const address = f.text("address");
    const a = parseKey(address);
    if (a === null || a.key !== address || (a.kind === "repository") !== (kind === "repository")) {
      fail(`address ${address} is not a ${kind === "repository" ? "repository" : "item"} key`);
    }
    return {
      node_id: f.text("node_id"),
      kind,
      address,
      title: kind === "repository" ? null : f.text("title"),
      fetched_at: f.time("fetched_at"),
      updated_at: f.time("updated_at"),
      etag: f.optText("etag"),
      aliases: f.texts("aliases").filter((k) => k !== address),
    };
  });
}

/** A Listing's member at `position`; `null` when its node cannot be read as an item. */
export function decodeMember(position: number, node: GraphNode, skip: Skip): ListingMember | null {
  const r = guard(() => nameOf("Resource", node.properties), skip, () => resourceFields(node));
  if (r === null) return null;
  if (r.kind === "repository") {
    skip(nameOf("Resource", node.properties), "a repository is no Listing member");
    return null;
  }
  return {
    position,
    address: r.address,
    number: r.number,
    kind: r.kind,
    title: r.title,
    state: r.state,
    author: r.author,
    labels: r.labels,
    assignees: r.assignees,
    milestone: r.milestone,
    updated_at: r.updated_at,
    comment_count: r.comment_count,
  };
}

/**
 * A Listing from its node: what it lists comes from its key (another
 * writer's `labels=` keys are no rgraph key, so those Listings cannot be read).
 */
export function decodeListing(props: Props, skip: Skip): Listing | null {
  return guard(() => nameOf("Listing", props), skip, () => {
    const f = new Fields(props);
    const key = f.text("key");
    const a = parseKey(key);
    if (a === null || a.kind !== "listing" || a.key !== key) fail("key is no rgraph Listing key");
    return {
      key,
      owner: a.owner,
      repo: a.repo,
      listing: a.listing,
      filters: a.filters,
      limit: f.optInt("limit"),
      total_count: f.int("total_count"),
      member_count: f.int("member_count"),
      fully_expanded: f.optBool("fully_expanded") ?? fail("no fully_expanded"),
      fetched_at: f.time("fetched_at"),
    };
  });
}

const PROVENANCES = ["FETCHED", "PROMPTED"] as const;
/** What a Touch names (`search`: a search of memory, see lib/serve/search.ts). */
const ADDRESS_KINDS = ["repository", "item", "listing", "search"] as const;
const STATUSES = ["pending", "resolved", "unresolved", "served"] as const;
const OUTCOMES = ["hit", "subsumed", "miss"] as const;
const REASONS = ["not_found", "not_public", "rate_limited", "unparseable", "unavailable"] as const;

/** A Touch from its node; `null` when a field it needs is missing or of another type. */
export function decodeTouch(props: Props, skip: Skip): Touch | null {
  return guard(() => nameOf("Touch", props), skip, () => {
    const f = new Fields(props);
    const exact = <T extends string>(key: string, allowed: readonly T[], optional = false) => {
      const v = optional ? f.optText(key) : f.text(key);
      if (v === null) return null;
      return (allowed as readonly string[]).includes(v) ? v as T : fail(`${key} is ${v}`);
    };
    const text = (key: string) => f.optText(key);
    return {
      session_id: text("session_id"),
      tool_name: text("tool_name"),
      tool_use_id: text("tool_use_id"),
      agent_id: text("agent_id"),
      harness: text("harness"),
      target: text("target"),
      detail: text("detail"),
      settled_at: text("settled_at"),
      id: f.text("id"),
      user_id: f.text("user_id"),
      provenance: exact("provenance", PROVENANCES)!,
      address: f.text("address"),
      kind: exact("kind", ADDRESS_KINDS)!,
      limit: f.optInt("asked_limit"),
      recorded_at: f.text("recorded_at"),
      dedup_key: f.text("dedup_key"),
      status: exact("status", STATUSES)!,
      outcome: exact("outcome", OUTCOMES, true),
      reason: exact("reason", REASONS, true),
      failures: f.int("failures", 0),
    } as Touch;
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
