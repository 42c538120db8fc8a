/**
 * The emulator's fixture dataset: a deterministic, generated GitHub world
 * around a graph database project, built to honour `FACTS`.
 *
 * The records here are the emulator's own storage model (mutable: tests add
 * comments and edit issues); `graphql.ts` and `rest.ts` render them in
 * GitHub's shapes.
 *
 * @example
 * ```ts
 * const ds = buildDataset();
 * const repo = ds.repo("lumendb", "lumen")!.repo;
 * console.log(repo.items.size);
 * ```
 * @module
 */

import { FACTS } from "./facts.ts";
import {
  AREAS,
  BOT,
  issueBody,
  type IssueKind,
  LOGINS,
  MAINTAINERS,
  readmeText,
  remark,
  Rng,
  sourcePaths,
  title,
} from "./text.ts";

/** A GitHub account. */
export interface UserRec {
  login: string;
  databaseId: number;
  nodeId: string;
  kind: "User" | "Bot";
}

/** A repository label. */
export interface LabelRec {
  name: string;
  color: string;
  description: string;
  nodeId: string;
  databaseId: number;
}

/** A repository milestone. */
export interface MilestoneRec {
  number: number;
  title: string;
  open: boolean;
  nodeId: string;
  databaseId: number;
}

/** An issue comment, or a pull request review comment (with `path`/`line`). */
export interface CommentRec {
  databaseId: number;
  nodeId: string;
  author: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  path?: string;
  line?: number;
}

/** A review thread on a pull request. */
export interface ReviewThreadRec {
  nodeId: string;
  path: string;
  line: number;
  isResolved: boolean;
  comments: CommentRec[];
}

/** A changed file of a pull request. */
export interface FileRec {
  path: string;
  additions: number;
  deletions: number;
  changeType: "ADDED" | "MODIFIED" | "DELETED" | "RENAMED";
}

/** A cross-reference: `source` mentions `target`; shown on the target's timeline. */
export interface CrossRefRec {
  nodeId: string;
  databaseId: number;
  source: ItemRec;
  target: ItemRec;
  actor: string;
  willCloseTarget: boolean;
  createdAt: string;
}

/** Pull-request-only fields. */
export interface PullRec {
  merged: boolean;
  mergedAt: string | null;
  baseRefName: string;
  headRefName: string;
  isDraft: boolean;
  files: FileRec[];
  reviewThreads: ReviewThreadRec[];
  closes: ItemRec[];
}

/** An issue or a pull request (they share one number sequence). */
export interface ItemRec {
  kind: "issue" | "pull";
  repo: RepoRec;
  number: number;
  databaseId: number;
  nodeId: string;
  title: string;
  body: string;
  author: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  /** Pull requests: OPEN, CLOSED or MERGED; issues: OPEN or CLOSED. */
  state: "OPEN" | "CLOSED" | "MERGED";
  stateReason: "COMPLETED" | "NOT_PLANNED" | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  comments: CommentRec[];
  /** Cross-references TO this item, oldest first. */
  timeline: CrossRefRec[];
  pull: PullRec | null;
}

/** What a number that no longer holds an item answers. */
export type Tombstone = { kind: "deleted" } | { kind: "transferred"; to: ItemRec };

/** A repository. */
export interface RepoRec {
  databaseId: number;
  nodeId: string;
  owner: string;
  name: string;
  oldNames: string[];
  description: string;
  stars: number;
  forks: number;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  visibility: "PUBLIC" | "PRIVATE";
  archived: boolean;
  language: string;
  defaultBranch: string;
  readme: { name: string; text: string } | null;
  labels: LabelRec[];
  milestones: MilestoneRec[];
  items: Map<number, ItemRec>;
  gone: Map<number, Tombstone>;
}

/** The whole world, with lookups. */
export interface Dataset {
  repos: RepoRec[];
  users: Map<string, UserRec>;
  /** Finds a repository by owner/name (case-insensitive), following renames. */
  repo(owner: string, name: string): { repo: RepoRec; renamed: boolean } | null;
  repoById(databaseId: number): RepoRec | null;
  /** Every node by global id: repositories, items, comments. */
  nodes: Map<string, NodeRef>;
  /** A user record, created on demand for logins seen only in tests. */
  user(login: string): UserRec;
  /** The next database id for new records (comments added by tests). */
  nextId(): number;
  /** A timestamp later than every time in the dataset and not before the clock. */
  tick(): string;
}

/** What a node id points at. */
export type NodeRef =
  | { type: "Repository"; repo: RepoRec }
  | { type: "Item"; item: ItemRec }
  | { type: "IssueComment"; comment: CommentRec; item: ItemRec }
  | { type: "PullRequestReviewComment"; comment: CommentRec; item: ItemRec }
  | { type: "PullRequestReviewThread"; thread: ReviewThreadRec; item: ItemRec }
  | { type: "User"; user: UserRec };

/** The first second of the dataset's history. */
const START = Date.parse("2023-03-01T09:00:00Z");
/** Nothing in the generated history is later than this. */
const DATASET_END = Date.parse("2026-10-31T18:00:00Z");

const DAY = 86_400_000;

/** ISO 8601 UTC at whole seconds, as GitHub prints it. */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

function b64url(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

/**
 * A node id in GitHub's "next" format: a type prefix, then an opaque
 * base64url payload (GitHub packs the repository id and the record id).
 */
export function nodeId(prefix: string, repoId: number, id?: number): string {
  if (id === undefined) return `${prefix}_kgDO${b64url(u32(repoId))}`;
  return `${prefix}_kwDO${b64url(u32(repoId))}zg${b64url(u32(id))}`;
}

/** A stable 40-hex digest (FNV-1a, widened): an object id for generated blobs. */
export function pseudoSha(text: string): string {
  let out = "";
  for (let round = 0; round < 5; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    out += (h >>> 0).toString(16).padStart(8, "0");
  }
  return out;
}

class Builder {
  rng = new Rng(20240601);
  #id = 1_000_000;
  repos: RepoRec[] = [];
  users = new Map<string, UserRec>();
  refs: { source: ItemRec; target: ItemRec; at: number; actor: string; closes: boolean }[] = [];

  nextId(): number {
    return ++this.#id;
  }

  user(login: string): UserRec {
    let u = this.users.get(login);
    if (!u) {
      const databaseId = this.nextId();
      const kind = login === BOT ? "Bot" : "User";
      u = { login, databaseId, kind, nodeId: nodeId(kind === "Bot" ? "BOT" : "U", databaseId) };
      this.users.set(login, u);
    }
    return u;
  }

  repo(
    owner: string,
    name: string,
    description: string,
    opts: Partial<Pick<RepoRec, "visibility" | "oldNames" | "stars" | "language">> & {
      readme?: string | null;
    } = {},
  ): RepoRec {
    const databaseId = 700_000_000 + this.repos.length * 7919;
    const labels = FACTS.big.labels.map((l, i) => ({
      name: l,
      color: ["d73a4a", "a2eeef", "0075ca", "fbca04", "7057ff", "008672", "d876e3"][i % 7],
      description: l.startsWith("area/") ? `Touches ${l.slice(5)}` : "",
      nodeId: nodeId("LA", databaseId, i + 1),
      databaseId: this.nextId(),
    }));
    const milestones = FACTS.big.milestones.map((m) => ({
      ...m,
      nodeId: nodeId("MI", databaseId, m.number),
      databaseId: this.nextId(),
    }));
    const readmeName = opts.readme === undefined ? "README.md" : opts.readme;
    const r: RepoRec = {
      databaseId,
      nodeId: nodeId("R", databaseId),
      owner,
      name,
      oldNames: opts.oldNames ?? [],
      description,
      stars: opts.stars ?? 40,
      forks: Math.floor((opts.stars ?? 40) / 9),
      createdAt: iso(START - 200 * DAY),
      updatedAt: iso(DATASET_END),
      pushedAt: iso(DATASET_END - 2 * 3600_000),
      visibility: opts.visibility ?? "PUBLIC",
      archived: false,
      language: opts.language ?? "Rust",
      defaultBranch: "main",
      readme: readmeName ? { name: readmeName, text: readmeText(name, description) } : null,
      labels,
      milestones,
      items: new Map(),
      gone: new Map(),
    };
    this.repos.push(r);
    return r;
  }

  /** Comments spread between `from` and `to` (ms), oldest first. */
  comments(repo: RepoRec, n: number, from: number, to: number): CommentRec[] {
    const times = Array.from({ length: n }, () => from + this.rng.next() * (to - from)).sort((
      a,
      b,
    ) => a - b);
    return times.map((t) => {
      const databaseId = this.nextId();
      const author = this.rng.chance(0.05)
        ? BOT
        : this.rng.chance(0.4)
        ? this.rng.pick(MAINTAINERS)
        : this.rng.pick(LOGINS);
      this.user(author);
      const at = iso(t);
      return {
        databaseId,
        nodeId: nodeId("IC", repo.databaseId, databaseId),
        author,
        body: author === BOT
          ? "Benchmarks for this change: no regression above noise."
          : remark(this.rng),
        createdAt: at,
        updatedAt: this.rng.chance(0.1) ? iso(Math.min(t + 3600_000, to)) : at,
      };
    });
  }

  item(
    repo: RepoRec,
    number: number,
    kind: "issue" | "pull",
    created: number,
    spec: {
      state: ItemRec["state"];
      comments?: number;
      issueKind?: IssueKind;
      title?: string;
      labels?: string[];
      /** The area (crate) it is about; random otherwise. */
      crate?: string;
    },
  ): ItemRec {
    const rng = this.rng;
    const databaseId = this.nextId();
    const picked = rng.pick(AREAS);
    const area = AREAS.find((a) => a.crate === spec.crate) ?? picked;
    const component = rng.pick(area.components);
    const issueKind: IssueKind = spec.issueKind ??
      rng.pick([
        "bug",
        "bug",
        "bug",
        "enhancement",
        "enhancement",
        "performance",
        "documentation",
        "question",
      ]);
    const labels = spec.labels ?? [
      ...(kind === "issue" ? [issueKind === "question" ? "question" : issueKind] : []),
      ...(rng.chance(0.85) ? [area.label] : []),
      ...(rng.chance(0.08) ? ["help wanted"] : []),
      ...(issueKind === "bug" && rng.chance(0.1) ? ["regression"] : []),
    ];
    const closed = spec.state !== "OPEN";
    const end = closed ? Math.min(created + rng.int(1, 120) * DAY, DATASET_END) : DATASET_END;
    const nComments = spec.comments ??
      (rng.chance(0.3) ? 0 : rng.chance(0.75) ? rng.int(1, 3) : rng.int(4, 12));
    const author = rng.pick(LOGINS);
    this.user(author);
    const assignees = rng.chance(0.35) ? rng.sample(MAINTAINERS, rng.chance(0.8) ? 1 : 2) : [];
    assignees.forEach((a) => this.user(a));
    const it: ItemRec = {
      kind,
      repo,
      number,
      databaseId,
      nodeId: nodeId(kind === "pull" ? "PR" : "I", repo.databaseId, databaseId),
      title: spec.title ?? title(rng, issueKind, component),
      body: issueBody(rng, issueKind, component),
      author,
      labels: [...new Set(labels)],
      assignees,
      milestone: rng.chance(0.3) ? rng.int(1, 3) : null,
      state: spec.state,
      stateReason: spec.state === "CLOSED" && kind === "issue"
        ? rng.chance(0.8) ? "COMPLETED" : "NOT_PLANNED"
        : null,
      createdAt: iso(created),
      updatedAt: iso(created),
      closedAt: closed ? iso(end) : null,
      comments: this.comments(repo, nComments, created + 60_000, end),
      timeline: [],
      pull: null,
    };
    if (kind === "pull") {
      it.title = spec.title ??
        `${rng.pick(["Fix", "Speed up", "Refactor", "Harden", "Add tests for"])} ${component} ${
          rng.pick(["handling", "edge cases", "hot path", "error paths"])
        }`;
      it.body = `This changes how ${component} handles ${
        rng.pick(["retries", "empty inputs", "large batches", "cancellation"])
      }.\n\nBenchmarks are in the thread below.`;
      const paths = rng.sample(sourcePaths(), rng.int(1, 12));
      it.pull = {
        merged: spec.state === "MERGED",
        mergedAt: spec.state === "MERGED" ? iso(end) : null,
        baseRefName: "main",
        headRefName: `${area.crate}/${
          component.toLowerCase().replace(/[^a-z0-9]+/g, "-")
        }-${number}`,
        isDraft: false,
        files: paths.map((path) => this.file(path)),
        reviewThreads: [],
        closes: [],
      };
      const threads = rng.int(0, 3);
      for (let i = 0; i < threads; i++) {
        it.pull.reviewThreads.push(this.thread(it, rng.pick(paths), created, end));
      }
    }
    repo.items.set(number, it);
    return it;
  }

  file(path: string): FileRec {
    return {
      path,
      additions: this.rng.int(1, 240),
      deletions: this.rng.int(0, 120),
      changeType: this.rng.pick([
        "MODIFIED",
        "MODIFIED",
        "MODIFIED",
        "ADDED",
        "DELETED",
        "RENAMED",
      ]),
    };
  }

  thread(pr: ItemRec, path: string, from: number, to: number): ReviewThreadRec {
    const line = this.rng.int(5, 400);
    const comments = this.comments(pr.repo, this.rng.int(1, 3), from + 3600_000, to).map((c) => ({
      ...c,
      nodeId: nodeId("PRRC", pr.repo.databaseId, c.databaseId),
      author: c.author === BOT ? this.rng.pick(MAINTAINERS) : c.author,
      body: this.rng.pick([
        "Nit: this allocation can move out of the loop.",
        "Can we add a test for the empty case here?",
        "This unwrap will panic on a truncated page.",
        "Why not reuse the existing cursor?",
        "Done, thanks.",
        "Please document the invariant this relies on.",
      ]),
      path,
      line,
    }));
    return {
      nodeId: nodeId("PRRT", pr.repo.databaseId, this.nextId()),
      path,
      line,
      isResolved: this.rng.chance(0.6),
      comments,
    };
  }

  /** Records that `source` mentions `target` (in `text` appended to a body or comment). */
  mention(source: ItemRec, target: ItemRec, text: string, closes = false): void {
    const targetCreated = Date.parse(target.createdAt);
    const candidates = source.comments.filter((c) => Date.parse(c.createdAt) > targetCreated);
    let at: number;
    if (closes || (Date.parse(source.createdAt) > targetCreated && candidates.length === 0)) {
      source.body += `\n\n${text}`;
      at = Math.max(Date.parse(source.createdAt), targetCreated + 60_000);
    } else if (candidates.length > 0) {
      const c = candidates[candidates.length - 1];
      c.body += `\n\n${text}`;
      at = Date.parse(c.createdAt);
    } else {
      // The source is older than the target and has no later comment: say it in a new last comment.
      const last = source.comments.at(-1);
      const from = Math.max(targetCreated + 60_000, last ? Date.parse(last.createdAt) : 0);
      const [c] = this.comments(source.repo, 1, from, from + DAY);
      c.body = text;
      source.comments.push(c);
      at = Date.parse(c.createdAt);
    }
    this.refs.push({ source, target, at, actor: source.author, closes });
  }
}

function ref(source: ItemRec, target: ItemRec): string {
  return source.repo === target.repo
    ? `#${target.number}`
    : `${target.repo.owner}/${target.repo.name}#${target.number}`;
}

/** Builds the dataset. Pure and deterministic: every call returns an equal world. */
export function buildDataset(): Dataset {
  const b = new Builder();
  const rng = b.rng;
  const F = FACTS;

  const big = b.repo(
    F.big.owner,
    F.big.name,
    "A distributed property-graph database with a Cypher query engine, written in Rust.",
    { stars: 4821 },
  );
  const py = b.repo(F.pythonClient.owner, F.pythonClient.name, "Python client for LumenDB.", {
    stars: 312,
    language: "Python",
    readme: F.pythonClient.readme,
  });
  const priv = b.repo(F.private.owner, F.private.name, "Enterprise extensions (internal).", {
    visibility: "PRIVATE",
    readme: "README.md",
  });
  const viz = b.repo(
    F.renamed.owner,
    F.renamed.newName,
    "Graph visualisation for LumenDB query results.",
    {
      oldNames: [F.renamed.oldName],
      stars: 95,
      language: "TypeScript",
      readme: F.renamed.readme,
    },
  );
  b.user(BOT);

  // --- the big repository: numbers 1..lastNumber, created in order ---
  const n = F.big.lastNumber;
  const step = (DATASET_END - 20 * DAY - START) / n;
  const createdAt = (num: number) => START + (num - 1) * step + rng.next() * step * 0.9;
  const special = new Map<
    number,
    { kind: "issue" | "pull"; state: ItemRec["state"]; comments?: number; crate?: string }
  >();
  special.set(F.big.longThread.number, {
    kind: "issue",
    state: "OPEN",
    comments: F.big.longThread.comments,
  });
  for (const t of F.big.otherLongThreads) {
    special.set(t.number, { kind: "issue", state: t.state, comments: t.comments });
  }
  special.set(F.big.exactPageThread.number, {
    kind: "issue",
    state: "OPEN",
    comments: F.big.exactPageThread.comments,
  });
  special.set(F.big.noComments.number, { kind: "issue", state: "OPEN", comments: 0 });
  special.set(F.detailedPull.number, {
    kind: "pull",
    state: "MERGED",
    comments: 6,
    crate: "planner",
  });
  special.set(F.bigPull.number, { kind: "pull", state: "OPEN", comments: 2, crate: "storage" });
  special.set(F.draftPull.number, { kind: "pull", state: "OPEN", comments: 0, crate: "index" });
  special.set(F.closedPull.number, { kind: "pull", state: "CLOSED", comments: 1 });
  for (const num of F.detailedPull.closes) {
    special.set(num, { kind: "issue", state: "CLOSED", comments: 2 });
  }
  // Sources of curated references that must exist as issues.
  for (const r of F.references) {
    if (r.source.repo === F.big.name && !special.has(r.source.number)) {
      special.set(r.source.number, { kind: "issue", state: "OPEN" });
    }
  }
  const reserved = new Set([...special.keys(), F.deleted.number, F.transferred.from.number]);
  const rest = rng.shuffle(
    Array.from({ length: n }, (_, i) => i + 1).filter((x) => !reserved.has(x)),
  );
  const countOf = (kind: "issue" | "pull", state: string) =>
    [...special.values()].filter((s) => s.kind === kind && s.state === state).length;
  const plan: { kind: "issue" | "pull"; state: ItemRec["state"] }[] = [
    ...Array(F.big.pulls.open - countOf("pull", "OPEN")).fill({ kind: "pull", state: "OPEN" }),
    ...Array(F.big.pulls.merged - countOf("pull", "MERGED")).fill({
      kind: "pull",
      state: "MERGED",
    }),
    ...Array(F.big.pulls.closed - countOf("pull", "CLOSED")).fill({
      kind: "pull",
      state: "CLOSED",
    }),
    ...Array(F.big.openIssues - countOf("issue", "OPEN")).fill({ kind: "issue", state: "OPEN" }),
    ...Array(F.big.closedIssues - countOf("issue", "CLOSED")).fill({
      kind: "issue",
      state: "CLOSED",
    }),
  ];
  if (plan.length !== rest.length) {
    throw new Error(`dataset plan mismatch: ${plan.length} vs ${rest.length}`);
  }
  rest.forEach((num, i) => special.set(num, plan[i]));
  // Titles the search phrase must match exactly FACTS.big.searchPhrase.open times, only in open issues.
  const openPlain = rest.filter((num) =>
    special.get(num)!.kind === "issue" && special.get(num)!.state === "OPEN"
  );
  const phraseIssues = new Set(openPlain.slice(0, F.big.searchPhrase.open));
  const goodFirst = new Set(
    openPlain.slice(F.big.searchPhrase.open, F.big.searchPhrase.open + F.big.goodFirstIssue.open),
  );
  const closedPlain = rest.filter((num) =>
    special.get(num)!.kind === "issue" && special.get(num)!.state === "CLOSED"
  );
  closedPlain.slice(0, 12).forEach((num) => goodFirst.add(num));

  let transferredTime = 0;
  for (let num = 1; num <= n; num++) {
    const t = createdAt(num);
    if (num === F.deleted.number) {
      big.gone.set(num, { kind: "deleted" });
      continue;
    }
    if (num === F.transferred.from.number) {
      transferredTime = t;
      continue;
    }
    const s = special.get(num)!;
    const it = b.item(big, num, s.kind, t, {
      state: s.state,
      comments: s.comments,
      crate: s.crate,
      title: phraseIssues.has(num)
        ? rng.pick([
          "Bolt handshake fails with TLS 1.3 clients",
          "Intermittent timeout during Bolt handshake",
          "Bolt handshake rejects protocol version 5.4",
          "Log the negotiated version after the Bolt handshake",
          "Bolt handshake hangs when the server is draining",
        ])
        : undefined,
    });
    if (goodFirst.has(num)) it.labels.push("good first issue");
  }
  const detailed = big.items.get(F.detailedPull.number)!;
  detailed.title = "Planner: cost model v2 with histogram-based selectivity";
  detailed.pull!.headRefName = F.detailedPull.headRefName;
  detailed.pull!.files = sourcePaths().filter((p) => p.includes("/planner/")).slice(
    0,
    F.detailedPull.files,
  ).map(
    (p) => b.file(p),
  );
  detailed.pull!.reviewThreads = detailed.pull!.files.slice(0, F.detailedPull.reviewThreads).map((
    f,
  ) => b.thread(detailed, f.path, Date.parse(detailed.createdAt), Date.parse(detailed.closedAt!)));
  const bigPull = big.items.get(F.bigPull.number)!;
  bigPull.title = "Rename the storage error types across all crates";
  bigPull.pull!.files = sourcePaths().slice(0, F.bigPull.files).map((p) => b.file(p));
  big.items.get(F.draftPull.number)!.pull!.isDraft = true;
  big.items.get(F.draftPull.number)!.title = "WIP: vector index on HNSW";

  // --- the Python client: 12 native issues, then the transferred one as #13 ---
  const pyStep = (DATASET_END - 30 * DAY - (START + 100 * DAY)) / 12;
  for (let num = 1; num <= 12; num++) {
    b.item(py, num, "issue", START + 100 * DAY + (num - 1) * pyStep, {
      state: num <= F.pythonClient.closedIssues ? "CLOSED" : "OPEN",
      issueKind: num % 2 ? "bug" : "question",
      labels: num % 3 ? ["bug", "area/drivers"] : ["question"],
    });
  }
  const moved = b.item(py, F.transferred.to.number, "issue", transferredTime, {
    state: "OPEN",
    issueKind: "bug",
    comments: 4,
    title: "Python driver drops the connection after a leader change",
  });
  big.gone.set(F.transferred.from.number, { kind: "transferred", to: moved });

  // --- the private repository and the renamed one ---
  for (let num = 1; num <= 4; num++) {
    b.item(priv, num, "issue", START + num * 50 * DAY, { state: "OPEN", issueKind: "enhancement" });
  }
  for (let num = 1; num <= 6; num++) {
    b.item(viz, num, "issue", START + 60 * DAY + num * 90 * DAY, {
      state: num === 6 ? "CLOSED" : "OPEN",
      issueKind: num % 2 ? "bug" : "enhancement",
    });
  }

  // --- references: curated ones (FACTS), then background mentions ---
  const find = (r: { owner: string; repo: string; number: number }) => {
    const repo = b.repos.find((x) => x.owner === r.owner && x.name === r.repo)!;
    return repo.items.get(r.number)!;
  };
  for (const r of F.references) {
    const source = find(r.source);
    const target = find(r.target);
    if (r.kind === "closes") {
      source.pull!.closes.push(target);
      b.mention(source, target, `Fixes ${ref(source, target)}.`, true);
    } else {
      b.mention(source, target, `See ${ref(source, target)}.`);
    }
  }
  b.mention(
    priv.items.get(F.private.issueNumber)!,
    find(F.private.mentions),
    `Customer escalation, tracked upstream in ${F.private.mentions.owner}/${F.private.mentions.repo}#${F.private.mentions.number}.`,
  );
  const plainNumbers = [...big.items.keys()].filter((x) =>
    !F.references.some((r) =>
      (r.source.repo === F.big.name && r.source.number === x) ||
      (r.target.repo === F.big.name && r.target.number === x)
    ) && !F.big.otherLongThreads.some((t) => t.number === x) &&
    x !== F.big.exactPageThread.number &&
    x !== F.big.noComments.number && x !== F.bigPull.number && x !== F.draftPull.number &&
    x !== F.closedPull.number
  );
  for (let i = 0; i < 60; i++) {
    const [a, c] = rng.sample(plainNumbers, 2);
    const source = big.items.get(a)!;
    const target = big.items.get(c)!;
    if (
      source.kind === "pull" && target.kind === "issue" && source.pull!.closes.length === 0 &&
      rng.chance(0.5)
    ) {
      source.pull!.closes.push(target);
      b.mention(source, target, `Closes ${ref(source, target)}.`, true);
    } else {
      b.mention(source, target, `Possibly related to ${ref(source, target)}.`);
    }
  }
  for (const r of b.refs) {
    const databaseId = b.nextId();
    r.target.timeline.push({
      nodeId: nodeId("CRE", r.target.repo.databaseId, databaseId),
      databaseId,
      source: r.source,
      target: r.target,
      actor: r.actor,
      willCloseTarget: r.closes,
      createdAt: iso(r.at),
    });
  }

  // --- updatedAt: after every comment and state change, distinct within a repository ---
  for (const repo of b.repos) {
    const items = [...repo.items.values()];
    for (const it of items) {
      it.timeline.sort((x, y) => x.createdAt.localeCompare(y.createdAt));
      const times = [
        Date.parse(it.createdAt) + rng.int(0, 48) * 3600_000,
        ...it.comments.map((c) => Date.parse(c.updatedAt)),
        ...(it.closedAt ? [Date.parse(it.closedAt)] : []),
        ...(it.pull?.reviewThreads.flatMap((t) => t.comments.map((c) => Date.parse(c.createdAt))) ??
          []),
      ];
      it.updatedAt = iso(Math.min(Math.max(...times), DATASET_END));
    }
    items.sort((x, y) => x.updatedAt.localeCompare(y.updatedAt) || x.number - y.number);
    let prev = 0;
    for (const it of items) {
      const t = Math.max(Date.parse(it.updatedAt), prev + 1000);
      it.updatedAt = iso(t);
      prev = t;
    }
  }
  return finish(b);
}

function finish(b: Builder): Dataset {
  const nodes = new Map<string, NodeRef>();
  let latest = DATASET_END;
  for (const repo of b.repos) {
    nodes.set(repo.nodeId, { type: "Repository", repo });
    for (const item of repo.items.values()) {
      nodes.set(item.nodeId, { type: "Item", item });
      for (const comment of item.comments) {
        nodes.set(comment.nodeId, { type: "IssueComment", comment, item });
      }
      for (const t of item.pull?.reviewThreads ?? []) {
        nodes.set(t.nodeId, { type: "PullRequestReviewThread", thread: t, item });
        for (const comment of t.comments) {
          nodes.set(comment.nodeId, { type: "PullRequestReviewComment", comment, item });
        }
      }
      latest = Math.max(latest, Date.parse(item.updatedAt));
    }
  }
  for (const user of b.users.values()) nodes.set(user.nodeId, { type: "User", user });
  const ds: Dataset = {
    repos: b.repos,
    users: b.users,
    nodes,
    repo(owner, name) {
      const o = owner.toLowerCase();
      const nm = name.toLowerCase();
      for (const repo of b.repos) {
        if (repo.owner.toLowerCase() !== o) continue;
        if (repo.name.toLowerCase() === nm) return { repo, renamed: false };
        if (repo.oldNames.some((x) => x.toLowerCase() === nm)) return { repo, renamed: true };
      }
      return null;
    },
    repoById: (id) => b.repos.find((r) => r.databaseId === id) ?? null,
    user: (login) => {
      const u = b.user(login);
      nodes.set(u.nodeId, { type: "User", user: u });
      return u;
    },
    nextId: () => b.nextId(),
    tick() {
      latest = Math.max(latest + 1000, Math.floor(Date.now() / 1000) * 1000);
      return iso(latest);
    },
  };
  return ds;
}
