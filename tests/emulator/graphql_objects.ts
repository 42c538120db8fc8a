/**
 * Schema-shaped objects for the emulator's GraphQL resolvers: scalar fields
 * are properties, fields with arguments are functions `(args) => value`
 * (graphql-js's default resolver calls them), and every object carries
 * `__typename` so unions and interfaces resolve. Connections are Relay
 * slices with opaque cursors.
 *
 * @example
 * ```ts
 * const r = new Renderer(ds, "rgraph-tester");
 * const repo = r.repo(ds.repo("lumendb", "lumen")!.repo);
 * repo.issues({ first: 10 }).totalCount;
 * ```
 * @module
 */

import type {
  CommentRec,
  CrossRefRec,
  Dataset,
  ItemRec,
  RepoRec,
  ReviewThreadRec,
} from "./dataset.ts";
import { pseudoSha } from "./dataset.ts";
import { type ItemFilter, type ItemOrder, selectItems } from "./select.ts";
import { type Failure, type Faults, INTERNAL_MESSAGE } from "./faults.ts";

/** An error GitHub reports with a `type` (NOT_FOUND, RATE_LIMITED, …). */
export class GitHubGraphqlError extends Error {
  constructor(readonly type: string, message: string) {
    super(message);
  }
}

const WEB = "https://github.com";

// ---------------------------------------------------------------- connections

/** Relay pagination arguments. */
export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const encodeCursor = (i: number) => btoa(`cursor:v2:${i}`);

function decodeCursor(c: string): number {
  let text = "";
  try {
    text = atob(c);
  } catch { /* reported below */ }
  const m = text.match(/^cursor:v2:(\d+)$/);
  if (!m) {
    throw new GitHubGraphqlError(
      "INVALID_CURSOR_ARGUMENTS",
      `\`${c}\` does not appear to be a valid cursor.`,
    );
  }
  return Number(m[1]);
}

/** A Relay connection over `list`, sliced by first/after/last/before. */
export function connection<T>(
  list: T[],
  args: PageArgs,
  node: (t: T) => unknown,
  extra: object = {},
) {
  let start = 0;
  let end = list.length;
  if (args.after) start = Math.max(start, decodeCursor(args.after) + 1);
  if (args.before) end = Math.min(end, decodeCursor(args.before));
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  if (end < start) end = start;
  let nodes: unknown[] | null = null;
  const all = () => (nodes ??= list.slice(start, end).map(node));
  return {
    ...extra,
    totalCount: list.length,
    pageInfo: {
      hasNextPage: end < list.length,
      hasPreviousPage: start > 0,
      startCursor: end > start ? encodeCursor(start) : null,
      endCursor: end > start ? encodeCursor(end - 1) : null,
    },
    nodes: all,
    edges: () => all().map((n, i) => ({ cursor: encodeCursor(start + i), node: n })),
  };
}

// ---------------------------------------------------------------- objects

/** Renders the records as schema-shaped objects for one request. */
export class Renderer {
  /** Set when an injected fault fails the whole request (see `faults.ts`). */
  failure: Failure | null = null;

  constructor(readonly ds: Dataset, readonly viewer: string, readonly faults?: Faults) {}

  actor(login: string | null) {
    if (!login) return null;
    const u = this.ds.user(login);
    const url = u.kind === "Bot" ? `${WEB}/apps/${login}` : `${WEB}/${login}`;
    return {
      __typename: u.kind,
      id: u.nodeId,
      databaseId: u.databaseId,
      login,
      name: null,
      url,
      resourcePath: new URL(url).pathname,
      avatarUrl: `https://avatars.githubusercontent.com/u/${u.databaseId}?v=4`,
    };
  }

  repo(r: RepoRec) {
    const url = `${WEB}/${r.owner}/${r.name}`;
    const items = () => r.items.values();
    return {
      __typename: "Repository",
      id: r.nodeId,
      databaseId: r.databaseId,
      name: r.name,
      nameWithOwner: `${r.owner}/${r.name}`,
      owner: {
        __typename: "Organization",
        id: `O_kgDO${r.owner}`,
        login: r.owner,
        url: `${WEB}/${r.owner}`,
        resourcePath: `/${r.owner}`,
      },
      url,
      resourcePath: `/${r.owner}/${r.name}`,
      description: r.description,
      homepageUrl: null,
      stargazerCount: r.stars,
      forkCount: r.forks,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      pushedAt: r.pushedAt,
      visibility: r.visibility,
      isPrivate: r.visibility === "PRIVATE",
      isArchived: r.archived,
      isFork: false,
      isMirror: false,
      isTemplate: false,
      isDisabled: false,
      isLocked: false,
      isEmpty: false,
      hasIssuesEnabled: true,
      primaryLanguage: {
        __typename: "Language",
        id: `L_${r.language}`,
        name: r.language,
        color: "#dea584",
      },
      defaultBranchRef: {
        __typename: "Ref",
        id: `REF_${r.nodeId}`,
        name: r.defaultBranch,
        prefix: "refs/heads/",
      },
      issueOrPullRequest: ({ number }: { number: number }) =>
        this.itemOr(
          r,
          number,
          null,
          `Could not resolve to an issue or pull request with the number of ${number}.`,
        ),
      issue: ({ number }: { number: number }) =>
        this.itemOr(
          r,
          number,
          "issue",
          `Could not resolve to an Issue with the number of ${number}.`,
        ),
      pullRequest: ({ number }: { number: number }) =>
        this.itemOr(
          r,
          number,
          "pull",
          `Could not resolve to a PullRequest with the number of ${number}.`,
        ),
      issues: (a: PageArgs & IssuesArgs) => this.items(items(), "issue", a),
      pullRequests: (a: PageArgs & IssuesArgs) => this.items(items(), "pull", a),
      labels: (a: PageArgs) =>
        connection(r.labels, a, (l) => ({
          __typename: "Label",
          id: l.nodeId,
          name: l.name,
          color: l.color,
          description: l.description,
        })),
      milestones: (a: PageArgs) => connection(r.milestones, a, (m) => this.milestone(r, m.number)),
      milestone: ({ number }: { number: number }) => this.milestone(r, number),
      object: ({ expression }: { expression?: string }) => this.object(r, expression ?? ""),
    };
  }

  milestone(r: RepoRec, number: number | null) {
    const m = r.milestones.find((x) => x.number === number);
    if (!m) return null;
    return {
      __typename: "Milestone",
      id: m.nodeId,
      number: m.number,
      title: m.title,
      state: m.open ? "OPEN" : "CLOSED",
      closed: !m.open,
      url: `${WEB}/${r.owner}/${r.name}/milestone/${m.number}`,
    };
  }

  /** `object(expression:)`: `HEAD:` (the root tree) or `HEAD:<README name>` (its blob). */
  object(r: RepoRec, expression: string) {
    const m = expression.match(/^([^:]+):(.*)$/);
    if (!m || ![r.defaultBranch, "HEAD"].includes(m[1])) return null;
    if (m[2] === "") return this.tree(r);
    if (!r.readme || m[2] !== r.readme.name) return null;
    const text = r.readme.text;
    const oid = pseudoSha(text);
    return {
      __typename: "Blob",
      id: `B_${r.nodeId}_${oid.slice(0, 8)}`,
      oid,
      abbreviatedOid: oid.slice(0, 7),
      byteSize: new TextEncoder().encode(text).length,
      isBinary: false,
      isTruncated: false,
      text,
      commitUrl: `${WEB}/${r.owner}/${r.name}/commit/${oid}`,
      commitResourcePath: `/${r.owner}/${r.name}/commit/${oid}`,
      repository: () => this.repo(r),
    };
  }

  tree(r: RepoRec) {
    const manifest = { Rust: "Cargo.toml", Python: "pyproject.toml" }[r.language] ?? "package.json";
    const entries: [string, "blob" | "tree"][] = [
      [".github", "tree"],
      ["LICENSE", "blob"],
      [manifest, "blob"],
      ...(r.readme ? [[r.readme.name, "blob"] as [string, "blob"]] : []),
      ["docs", "tree"],
      [r.language === "Rust" ? "crates" : "src", "tree"],
    ];
    const oid = pseudoSha(`${r.nodeId}:tree`);
    return {
      __typename: "Tree",
      id: `T_${r.nodeId}`,
      oid,
      abbreviatedOid: oid.slice(0, 7),
      commitUrl: `${WEB}/${r.owner}/${r.name}/commit/${oid}`,
      commitResourcePath: `/${r.owner}/${r.name}/commit/${oid}`,
      repository: () => this.repo(r),
      entries: entries.map(([name, type]) => ({
        __typename: "TreeEntry",
        name,
        nameRaw: btoa(name),
        path: name,
        pathRaw: btoa(name),
        type,
        mode: type === "tree" ? 16384 : 33188,
        oid: pseudoSha(`${r.nodeId}:${name}`),
        extension: name.includes(".") && !name.startsWith(".")
          ? name.slice(name.lastIndexOf("."))
          : null,
        isGenerated: false,
        lineCount: null,
        size: 0,
        language: null,
        submodule: null,
        object:
          () => (type === "blob" && name === r.readme?.name
            ? this.object(r, `HEAD:${name}`)
            : null),
      })),
    };
  }

  itemOr(r: RepoRec, number: number, kind: ItemRec["kind"] | null, message: string) {
    const fault = this.faults?.take(r.owner, r.name, number);
    if (fault?.kind === "node") {
      throw new GitHubGraphqlError(fault.type ?? "", fault.message ?? INTERNAL_MESSAGE);
    }
    if (fault?.kind === "request") {
      this.failure = fault.failure;
      throw new GitHubGraphqlError("", "the whole request fails");
    }
    const it = r.items.get(number);
    if (!it || (kind && it.kind !== kind)) throw new GitHubGraphqlError("NOT_FOUND", message);
    return this.item(it);
  }

  items(all: Iterable<ItemRec>, kind: ItemRec["kind"], a: PageArgs & IssuesArgs) {
    const f = a.filterBy ?? {};
    const filter: ItemFilter = {
      kinds: [kind],
      states: intersect(a.states ?? undefined, f.states ?? undefined),
      labelsAny: a.labels ?? undefined,
      baseRefName: a.baseRefName ?? undefined,
      headRefName: a.headRefName ?? undefined,
      since: f.since ?? undefined,
      author: f.createdBy ?? undefined,
      assignee: f.assignee === null ? "none" : f.assignee,
      mentioned: f.mentioned ?? undefined,
      // An explicit `milestone: null` means "no milestone" (GitHub's IssueFilters doc).
      milestone: f.milestoneNumber != null
        ? milestoneArg(f.milestoneNumber, "number")
        : f.milestone != null
        ? milestoneArg(f.milestone, "databaseId")
        : f.milestone === null
        ? { kind: "none" }
        : undefined,
    };
    if (f.labels?.length) filter.labelsAll = f.labels;
    const field = a.orderBy?.field ?? "CREATED_AT";
    const order: ItemOrder = {
      field: field === "UPDATED_AT" ? "updated" : field === "COMMENTS" ? "comments" : "created",
      direction: a.orderBy?.direction === "DESC" ? "desc" : "asc",
    };
    return connection(selectItems(all, filter, order), a, (it) => this.member(it));
  }

  /** An item as a list's member: a node fault set on it fails that node alone (null, with an error). */
  member(it: ItemRec) {
    const fault = this.faults?.take(it.repo.owner, it.repo.name, it.number);
    if (fault?.kind === "node") {
      // A rejected list element: graphql-js nulls that node and names its path in `errors`.
      return Promise.reject(
        new GitHubGraphqlError(fault.type ?? "", fault.message ?? INTERNAL_MESSAGE),
      );
    }
    return this.item(it);
  }

  item(it: ItemRec) {
    const r = it.repo;
    const isPull = it.kind === "pull";
    const url = `${WEB}/${r.owner}/${r.name}/${isPull ? "pull" : "issues"}/${it.number}`;
    const base = {
      __typename: isPull ? "PullRequest" : "Issue",
      id: it.nodeId,
      databaseId: it.databaseId,
      fullDatabaseId: String(it.databaseId),
      number: it.number,
      title: it.title,
      body: it.body,
      bodyText: it.body,
      bodyHTML: `<p>${escapeHtml(it.body)}</p>`,
      url,
      resourcePath: new URL(url).pathname,
      permalink: url,
      state: it.state,
      stateReason: it.stateReason,
      closed: it.state !== "OPEN",
      locked: false,
      activeLockReason: null,
      author: this.actor(it.author),
      authorAssociation: it.author === "mara-okafor" ? "OWNER" : "CONTRIBUTOR",
      createdAt: it.createdAt,
      updatedAt: it.updatedAt,
      publishedAt: it.createdAt,
      lastEditedAt: null,
      closedAt: it.closedAt,
      includesCreatedEdit: false,
      createdViaEmail: false,
      repository: () => this.repo(r),
      milestone: () => this.milestone(r, it.milestone),
      labels: (a: PageArgs) =>
        connection(it.labels, a, (name) => {
          const l = r.labels.find((x) => x.name === name);
          return {
            __typename: "Label",
            id: l?.nodeId ?? `LA_${name}`,
            name,
            color: l?.color ?? "ededed",
          };
        }),
      assignees: (a: PageArgs) => connection(it.assignees, a, (login) => this.actor(login)),
      comments: (a: PageArgs & { orderBy?: { field: string; direction: string } | null }) => {
        // Stored oldest first; IssueCommentOrder's only field is UPDATED_AT.
        const list = a.orderBy
          ? [...it.comments].sort((x, y) =>
            (a.orderBy!.direction === "DESC" ? -1 : 1) *
            (x.updatedAt.localeCompare(y.updatedAt) || x.databaseId - y.databaseId)
          )
          : it.comments;
        return connection(list, a, (c) => this.comment(it, c, url));
      },
      timelineItems: (a: PageArgs & { itemTypes?: string[] | null; since?: string | null }) => {
        const wanted = !a.itemTypes || a.itemTypes.includes("CROSS_REFERENCED_EVENT");
        const list = wanted ? it.timeline.filter((e) => !a.since || e.createdAt >= a.since) : [];
        return connection(list, a, (e) => this.crossRef(e), {
          filteredCount: list.length,
          pageCount: list.length,
          updatedAt: it.updatedAt,
        });
      },
    };
    if (!isPull) return base;
    const p = it.pull!;
    return {
      ...base,
      merged: p.merged,
      mergedAt: p.mergedAt,
      isDraft: p.isDraft,
      baseRefName: p.baseRefName,
      headRefName: p.headRefName,
      additions: p.files.reduce((n, f) => n + f.additions, 0),
      deletions: p.files.reduce((n, f) => n + f.deletions, 0),
      changedFiles: p.files.length,
      files: (a: PageArgs) =>
        connection(
          p.files,
          a,
          (f) => ({ __typename: "PullRequestChangedFile", ...f, viewerViewedState: "UNVIEWED" }),
        ),
      reviewThreads: (a: PageArgs) =>
        connection(p.reviewThreads, a, (t) => this.thread(it, t, url)),
      closingIssuesReferences: (a: PageArgs) => connection(p.closes, a, (x) => this.item(x)),
    };
  }

  comment(it: ItemRec, c: CommentRec, itemUrl: string) {
    return {
      __typename: "IssueComment",
      id: c.nodeId,
      databaseId: c.databaseId,
      fullDatabaseId: String(c.databaseId),
      author: this.actor(c.author),
      authorAssociation: "CONTRIBUTOR",
      body: c.body,
      bodyText: c.body,
      bodyHTML: `<p>${escapeHtml(c.body)}</p>`,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      publishedAt: c.createdAt,
      lastEditedAt: c.updatedAt === c.createdAt ? null : c.updatedAt,
      includesCreatedEdit: c.updatedAt !== c.createdAt,
      createdViaEmail: false,
      isMinimized: false,
      minimizedReason: null,
      url: `${itemUrl}#issuecomment-${c.databaseId}`,
      resourcePath: `${new URL(itemUrl).pathname}#issuecomment-${c.databaseId}`,
      issue: () => (it.kind === "issue" ? this.item(it) : null),
      pullRequest: () => (it.kind === "pull" ? this.item(it) : null),
      repository: () => this.repo(it.repo),
    };
  }

  thread(it: ItemRec, t: ReviewThreadRec, prUrl: string) {
    return {
      __typename: "PullRequestReviewThread",
      id: t.nodeId,
      path: t.path,
      line: t.line,
      originalLine: t.line,
      startLine: null,
      originalStartLine: null,
      diffSide: "RIGHT",
      startDiffSide: null,
      isResolved: t.isResolved,
      isOutdated: false,
      isCollapsed: t.isResolved,
      subjectType: "LINE",
      viewerCanReply: false,
      viewerCanResolve: false,
      viewerCanUnresolve: false,
      pullRequest: () => this.item(it),
      repository: () => this.repo(it.repo),
      comments: (a: PageArgs) =>
        connection(t.comments, a, (c) => ({
          ...this.comment(it, c, prUrl),
          __typename: "PullRequestReviewComment",
          path: t.path,
          line: t.line,
          originalLine: t.line,
          diffHunk: `@@ -${t.line},6 +${t.line},7 @@`,
          outdated: false,
          state: "SUBMITTED",
          url: `${prUrl}#discussion_r${c.databaseId}`,
          resourcePath: `${new URL(prUrl).pathname}#discussion_r${c.databaseId}`,
        })),
    };
  }

  crossRef(e: CrossRefRec) {
    const targetUrl =
      `${WEB}/${e.target.repo.owner}/${e.target.repo.name}/issues/${e.target.number}`;
    return {
      __typename: "CrossReferencedEvent",
      id: e.nodeId,
      actor: this.actor(e.actor),
      createdAt: e.createdAt,
      referencedAt: e.createdAt,
      isCrossRepository: e.source.repo !== e.target.repo,
      willCloseTarget: e.willCloseTarget,
      source: () => this.item(e.source),
      target: () => this.item(e.target),
      url: `${targetUrl}#ref-${e.databaseId}`,
      resourcePath: `${new URL(targetUrl).pathname}#ref-${e.databaseId}`,
    };
  }

  node(id: string) {
    const ref = this.ds.nodes.get(id);
    if (!ref) {
      return new GitHubGraphqlError(
        "NOT_FOUND",
        `Could not resolve to a node with the global id of '${id}'`,
      );
    }
    switch (ref.type) {
      case "Repository":
        return this.repo(ref.repo);
      case "Item":
        return this.item(ref.item);
      case "IssueComment":
        return this.comment(ref.item, ref.comment, this.item(ref.item).url);
      case "PullRequestReviewComment": {
        const t = ref.item.pull!.reviewThreads.find((x) => x.comments.includes(ref.comment))!;
        const url = this.item(ref.item).url;
        const conn = this.thread(ref.item, t, url).comments({ first: 100 });
        return (conn.nodes() as { id: string }[]).find((c) => c.id === id) ?? null;
      }
      case "PullRequestReviewThread":
        return this.thread(ref.item, ref.thread, this.item(ref.item).url);
      case "User":
        return this.actor(ref.user.login);
    }
  }
}

interface IssuesArgs {
  states?: string[] | null;
  labels?: string[] | null;
  orderBy?: { field?: string; direction?: string } | null;
  baseRefName?: string | null;
  headRefName?: string | null;
  filterBy?: {
    since?: string | null;
    labels?: string[] | null;
    states?: string[] | null;
    assignee?: string | null;
    createdBy?: string | null;
    mentioned?: string | null;
    milestone?: string | null;
    milestoneNumber?: string | null;
  } | null;
}

function intersect(a?: string[], b?: string[]): ItemRec["state"][] | undefined {
  const both = a && b ? a.filter((x) => b.includes(x)) : a ?? b;
  return both as ItemRec["state"][] | undefined;
}

function milestoneArg(v: string, numeric: "number" | "databaseId"): ItemFilter["milestone"] {
  if (v === "*") return { kind: "any" };
  if (v.toLowerCase() === "none") return { kind: "none" };
  return numeric === "number"
    ? { kind: "number", number: Number(v) }
    : { kind: "databaseId", id: Number(v) };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
