/**
 * The emulator's REST endpoints (the anonymous fallback's surface): GitHub's
 * JSON shapes, `ETag`/`If-None-Match` → 304, `Link` pagination,
 * `X-RateLimit-*` headers and budgets, 301 for renamed repositories and
 * transferred issues, 404 for missing or hidden repositories, 410 for the
 * deleted issue.
 *
 * @example
 * ```ts
 * const res = handleRest(ds, req, new URL(req.url), caller, "http://127.0.0.1:4000");
 * ```
 * @module
 */

import { type CommentRec, type Dataset, type ItemRec, pseudoSha, type RepoRec } from "./dataset.ts";
import { type Bucket, charge, rateHeaders } from "./budget.ts";
import { type ItemFilter, type ItemOrder, parseSearch, search, selectItems } from "./select.ts";

/** Who is calling, and the buckets their requests are charged to. */
export type RestCaller =
  | { kind: "anonymous"; core: Bucket; search: Bucket }
  | { kind: "token"; token: string; core: Bucket; search: Bucket };

const WEB = "https://github.com";
const DOCS = "https://docs.github.com/rest";
const JSON_TYPE = "application/json; charset=utf-8";

/** A REST answer before conditional-request handling. */
interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Raw text instead of JSON (README with the raw media type). */
  raw?: string;
  lastModified?: string;
}

const notFound = (): Answer => ({
  status: 404,
  body: { message: "Not Found", documentation_url: DOCS, status: "404" },
});

function moved(location: string): Answer {
  return {
    status: 301,
    body: { message: "Moved Permanently", url: location, documentation_url: DOCS },
    headers: { location },
  };
}

// ---------------------------------------------------------------- JSON shapes

/** The API links every repository carries, by field: each under the repository's URL. */
const REPO_LINKS: [string, string][] = [
  ["archive_url", "{archive_format}{/ref}"],
  ["assignees_url", "assignees{/user}"],
  ["blobs_url", "git/blobs{/sha}"],
  ["branches_url", "branches{/branch}"],
  ["collaborators_url", "collaborators{/collaborator}"],
  ["comments_url", "comments{/number}"],
  ["commits_url", "commits{/sha}"],
  ["compare_url", "compare/{base}...{head}"],
  ["contents_url", "contents/{+path}"],
  ["contributors_url", "contributors"],
  ["deployments_url", "deployments"],
  ["downloads_url", "downloads"],
  ["events_url", "events"],
  ["forks_url", "forks"],
  ["git_commits_url", "git/commits{/sha}"],
  ["git_refs_url", "git/refs{/sha}"],
  ["git_tags_url", "git/tags{/sha}"],
  ["hooks_url", "hooks"],
  ["issue_comment_url", "issues/comments{/number}"],
  ["issue_events_url", "issues/events{/number}"],
  ["issues_url", "issues{/number}"],
  ["keys_url", "keys{/key_id}"],
  ["labels_url", "labels{/name}"],
  ["languages_url", "languages"],
  ["merges_url", "merges"],
  ["milestones_url", "milestones{/number}"],
  ["notifications_url", "notifications{?since,all,participating}"],
  ["pulls_url", "pulls{/number}"],
  ["releases_url", "releases{/id}"],
  ["stargazers_url", "stargazers"],
  ["statuses_url", "statuses/{sha}"],
  ["subscribers_url", "subscribers"],
  ["subscription_url", "subscription"],
  ["tags_url", "tags"],
  ["teams_url", "teams"],
  ["trees_url", "git/trees{/sha}"],
];

/** `_links` as GitHub writes them: each `{href}`. */
function links(hrefs: Record<string, string>): Record<string, { href: string }> {
  return Object.fromEntries(Object.entries(hrefs).map(([k, href]) => [k, { href }]));
}

class Shapes {
  constructor(readonly ds: Dataset, readonly api: string) {}

  /** A `simple-user`: an account with every URL GitHub's description requires of one. */
  private account(login: string, id: number, nodeId: string, type: string, html: string) {
    const url = `${this.api}/users/${encodeURIComponent(login)}`;
    return {
      login,
      id,
      node_id: nodeId,
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: "",
      url,
      html_url: html,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type,
      site_admin: false,
    };
  }

  user(login: string | null) {
    if (!login) return null;
    const u = this.ds.user(login);
    const rest = u.kind === "Bot" ? `${login}[bot]` : login;
    const html = u.kind === "Bot" ? `${WEB}/apps/${login}` : `${WEB}/${login}`;
    return this.account(rest, u.databaseId, u.nodeId, u.kind, html);
  }

  repo(r: RepoRec) {
    const open = [...r.items.values()].filter((i) => i.state === "OPEN").length;
    const base = `${this.api}/repos/${r.owner}/${r.name}`;
    return {
      id: r.databaseId,
      node_id: r.nodeId,
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      private: r.visibility === "PRIVATE",
      visibility: r.visibility.toLowerCase(),
      owner: this.account(
        r.owner,
        90_000_000 + r.owner.length,
        `O_kgDO${r.owner}`,
        "Organization",
        `${WEB}/${r.owner}`,
      ),
      html_url: `${WEB}/${r.owner}/${r.name}`,
      description: r.description,
      fork: false,
      url: base,
      ...Object.fromEntries(REPO_LINKS.map(([k, tail]) => [k, `${base}/${tail}`])),
      git_url: `git://github.com/${r.owner}/${r.name}.git`,
      ssh_url: `git@github.com:${r.owner}/${r.name}.git`,
      clone_url: `${WEB}/${r.owner}/${r.name}.git`,
      svn_url: `${WEB}/${r.owner}/${r.name}`,
      mirror_url: null,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      pushed_at: r.pushedAt,
      homepage: null,
      size: 4096,
      stargazers_count: r.stars,
      watchers_count: r.stars,
      watchers: r.stars,
      forks_count: r.forks,
      forks: r.forks,
      open_issues_count: open,
      open_issues: open,
      language: r.language,
      license: null,
      default_branch: r.defaultBranch,
      archived: r.archived,
      disabled: false,
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      network_count: r.forks,
      subscribers_count: Math.ceil(r.stars / 10),
      topics: ["graph-database", "cypher"],
    };
  }

  private label(r: RepoRec, name: string) {
    const l = r.labels.find((x) => x.name === name);
    return {
      id: l?.databaseId ?? 0,
      node_id: l?.nodeId ?? "",
      url: `${this.api}/repos/${r.owner}/${r.name}/labels/${encodeURIComponent(name)}`,
      name,
      color: l?.color ?? "ededed",
      default: false,
      description: l?.description ?? null,
    };
  }

  private milestone(r: RepoRec, number: number | null) {
    const m = r.milestones.find((x) => x.number === number);
    if (!m) return null;
    const url = `${this.api}/repos/${r.owner}/${r.name}/milestones/${m.number}`;
    const items = [...r.items.values()].filter((i) => i.milestone === m.number);
    return {
      url,
      html_url: `${WEB}/${r.owner}/${r.name}/milestone/${m.number}`,
      labels_url: `${url}/labels`,
      id: m.databaseId,
      node_id: m.nodeId,
      number: m.number,
      title: m.title,
      description: null,
      creator: this.user(r.owner),
      open_issues: items.filter((i) => i.state === "OPEN").length,
      closed_issues: items.filter((i) => i.state !== "OPEN").length,
      state: m.open ? "open" : "closed",
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      closed_at: m.open ? null : r.updatedAt,
      due_on: null,
    };
  }

  issue(it: ItemRec) {
    const r = it.repo;
    const base = `${this.api}/repos/${r.owner}/${r.name}`;
    const isPull = it.kind === "pull";
    return {
      url: `${base}/issues/${it.number}`,
      repository_url: base,
      labels_url: `${base}/issues/${it.number}/labels{/name}`,
      comments_url: `${base}/issues/${it.number}/comments`,
      events_url: `${base}/issues/${it.number}/events`,
      timeline_url: `${base}/issues/${it.number}/timeline`,
      html_url: `${WEB}/${r.owner}/${r.name}/${isPull ? "pull" : "issues"}/${it.number}`,
      id: it.databaseId,
      node_id: it.nodeId,
      number: it.number,
      title: it.title,
      user: this.user(it.author),
      labels: it.labels.map((l) => this.label(r, l)),
      state: it.state === "OPEN" ? "open" : "closed",
      state_reason: it.stateReason?.toLowerCase() ?? null,
      locked: false,
      assignee: this.user(it.assignees[0] ?? null),
      assignees: it.assignees.map((a) => this.user(a)),
      milestone: this.milestone(r, it.milestone),
      comments: it.comments.length,
      created_at: it.createdAt,
      updated_at: it.updatedAt,
      closed_at: it.closedAt,
      author_association: "CONTRIBUTOR",
      body: it.body,
      ...(isPull
        ? {
          draft: it.pull!.isDraft,
          pull_request: {
            url: `${base}/pulls/${it.number}`,
            html_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}`,
            diff_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}.diff`,
            patch_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}.patch`,
            merged_at: it.pull!.mergedAt,
          },
        }
        : {}),
    };
  }

  pull(it: ItemRec) {
    const r = it.repo;
    const p = it.pull!;
    const base = `${this.api}/repos/${r.owner}/${r.name}`;
    const sha = pseudoSha(`${it.nodeId}:head`);
    return {
      url: `${base}/pulls/${it.number}`,
      id: it.databaseId,
      node_id: it.nodeId,
      html_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}`,
      issue_url: `${base}/issues/${it.number}`,
      comments_url: `${base}/issues/${it.number}/comments`,
      review_comments_url: `${base}/pulls/${it.number}/comments`,
      number: it.number,
      state: it.state === "OPEN" ? "open" : "closed",
      locked: false,
      title: it.title,
      user: this.user(it.author),
      body: it.body,
      labels: it.labels.map((l) => this.label(r, l)),
      milestone: this.milestone(r, it.milestone),
      assignees: it.assignees.map((a) => this.user(a)),
      created_at: it.createdAt,
      updated_at: it.updatedAt,
      closed_at: it.closedAt,
      merged_at: p.mergedAt,
      merge_commit_sha: p.merged ? pseudoSha(`${it.nodeId}:merge`) : null,
      draft: p.isDraft,
      commits_url: `${base}/pulls/${it.number}/commits`,
      review_comment_url: `${base}/pulls/comments{/number}`,
      statuses_url: `${base}/statuses/${sha}`,
      diff_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}.diff`,
      patch_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}.patch`,
      assignee: this.user(it.assignees[0] ?? null),
      auto_merge: null,
      mergeable: null,
      mergeable_state: "unknown",
      merged_by: p.merged ? this.user(r.owner) : null,
      maintainer_can_modify: false,
      head: {
        label: `${r.owner}:${p.headRefName}`,
        ref: p.headRefName,
        sha,
        user: this.user(it.author),
        repo: this.repo(r),
      },
      base: {
        label: `${r.owner}:${p.baseRefName}`,
        ref: p.baseRefName,
        sha: pseudoSha(`${r.nodeId}:base`),
        user: this.user(r.owner),
        repo: this.repo(r),
      },
      _links: links({
        self: `${base}/pulls/${it.number}`,
        html: `${WEB}/${r.owner}/${r.name}/pull/${it.number}`,
        issue: `${base}/issues/${it.number}`,
        comments: `${base}/issues/${it.number}/comments`,
        review_comments: `${base}/pulls/${it.number}/comments`,
        review_comment: `${base}/pulls/comments{/number}`,
        commits: `${base}/pulls/${it.number}/commits`,
        statuses: `${base}/statuses/${sha}`,
      }),
      author_association: "CONTRIBUTOR",
      merged: p.merged,
      comments: it.comments.length,
      review_comments: p.reviewThreads.reduce((n, t) => n + t.comments.length, 0),
      commits: 1 + (it.number % 5),
      additions: p.files.reduce((n, f) => n + f.additions, 0),
      deletions: p.files.reduce((n, f) => n + f.deletions, 0),
      changed_files: p.files.length,
    };
  }

  comment(it: ItemRec, c: CommentRec) {
    const r = it.repo;
    return {
      url: `${this.api}/repos/${r.owner}/${r.name}/issues/comments/${c.databaseId}`,
      html_url: `${this.issue(it).html_url}#issuecomment-${c.databaseId}`,
      issue_url: `${this.api}/repos/${r.owner}/${r.name}/issues/${it.number}`,
      id: c.databaseId,
      node_id: c.nodeId,
      user: this.user(c.author),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      author_association: "CONTRIBUTOR",
      body: c.body,
    };
  }

  reviewComments(it: ItemRec) {
    const r = it.repo;
    const sha = pseudoSha(`${it.nodeId}:head`);
    return it.pull!.reviewThreads.flatMap((t) =>
      t.comments.map((c, i) => ({
        url: `${this.api}/repos/${r.owner}/${r.name}/pulls/comments/${c.databaseId}`,
        pull_request_review_id: c.databaseId + 7,
        id: c.databaseId,
        node_id: c.nodeId,
        diff_hunk: `@@ -${t.line},6 +${t.line},7 @@`,
        path: t.path,
        commit_id: sha,
        original_commit_id: sha,
        user: this.user(c.author),
        body: c.body,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
        html_url: `${WEB}/${r.owner}/${r.name}/pull/${it.number}#discussion_r${c.databaseId}`,
        pull_request_url: `${this.api}/repos/${r.owner}/${r.name}/pulls/${it.number}`,
        author_association: "CONTRIBUTOR",
        _links: links({
          self: `${this.api}/repos/${r.owner}/${r.name}/pulls/comments/${c.databaseId}`,
          html: `${WEB}/${r.owner}/${r.name}/pull/${it.number}#discussion_r${c.databaseId}`,
          pull_request: `${this.api}/repos/${r.owner}/${r.name}/pulls/${it.number}`,
        }),
        line: t.line,
        original_line: t.line,
        side: "RIGHT",
        ...(i > 0 ? { in_reply_to_id: t.comments[0].databaseId } : {}),
      }))
    ).sort((a, b) => a.id - b.id);
  }

  files(it: ItemRec) {
    const r = it.repo;
    return it.pull!.files.map((f) => {
      const sha = pseudoSha(`${it.nodeId}:${f.path}`);
      return {
        sha,
        filename: f.path,
        status: {
          ADDED: "added",
          MODIFIED: "modified",
          DELETED: "removed",
          RENAMED: "renamed",
        }[f.changeType],
        additions: f.additions,
        deletions: f.deletions,
        changes: f.additions + f.deletions,
        blob_url: `${WEB}/${r.owner}/${r.name}/blob/${sha}/${f.path}`,
        raw_url: `${WEB}/${r.owner}/${r.name}/raw/${sha}/${f.path}`,
        contents_url: `${this.api}/repos/${r.owner}/${r.name}/contents/${f.path}?ref=${sha}`,
      };
    });
  }

  /** Cross-reference events; those from private repositories only for `canSeePrivate` callers. */
  timeline(it: ItemRec, canSeePrivate: boolean) {
    const visible = it.timeline.filter((e) =>
      canSeePrivate || e.source.repo.visibility === "PUBLIC"
    );
    return visible.map((e) => ({
      event: "cross-referenced",
      actor: this.user(e.actor),
      created_at: e.createdAt,
      updated_at: e.createdAt,
      source: {
        type: "issue",
        issue: { ...this.issue(e.source), repository: this.repo(e.source.repo) },
      },
    }));
  }
}

// ---------------------------------------------------------------- routing helpers

function pageParams(url: URL, max = 100): { perPage: number; page: number } {
  const perPage = Math.min(max, Math.max(1, Number(url.searchParams.get("per_page") ?? 30) || 30));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  return { perPage, page };
}

/** One page of `list` plus the `Link` header GitHub would send (URLs under `linkBase`). */
function paginate<T>(list: T[], url: URL, linkBase: string): { page: T[]; link: string | null } {
  const { perPage, page } = pageParams(url);
  const last = Math.max(1, Math.ceil(list.length / perPage));
  const slice = list.slice((page - 1) * perPage, page * perPage);
  const at = (p: number) => {
    const q = new URLSearchParams(url.searchParams);
    q.set("page", String(p));
    return `<${linkBase}?${q}>`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`${at(page - 1)}; rel="prev"`);
  if (page < last) rels.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) rels.push(`${at(1)}; rel="first"`);
  return { page: slice, link: rels.length ? rels.join(", ") : null };
}

/** One page of `list`, shaped by `shape` (only the page is shaped: lists can be long). */
function listAnswer<T>(list: T[], url: URL, linkBase: string, shape: (t: T) => unknown): Answer {
  const { page, link } = paginate(list, url, linkBase);
  return { status: 200, body: page.map(shape), headers: link ? { link } : {} };
}

function issueFilter(url: URL): ItemFilter {
  const q = url.searchParams;
  const state = q.get("state") ?? "open";
  const f: ItemFilter = {
    states: state === "all" ? undefined : state === "closed" ? ["CLOSED", "MERGED"] : ["OPEN"],
  };
  const labels = q.get("labels");
  if (labels) f.labelsAll = labels.split(",").map((l) => l.trim()).filter(Boolean);
  if (q.get("since")) f.since = normaliseTime(q.get("since")!);
  if (q.get("creator")) f.author = q.get("creator")!;
  if (q.get("assignee")) f.assignee = q.get("assignee")!;
  if (q.get("mentioned")) f.mentioned = q.get("mentioned")!;
  const m = q.get("milestone");
  if (m) {
    f.milestone = m === "*"
      ? { kind: "any" }
      : m === "none"
      ? { kind: "none" }
      : { kind: "number", number: Number(m) };
  }
  return f;
}

function issueOrder(url: URL, defaultField: ItemOrder["field"] = "created"): ItemOrder {
  const sort = url.searchParams.get("sort");
  const field = sort === "updated" || sort === "comments" || sort === "created"
    ? sort
    : defaultField;
  return { field, direction: url.searchParams.get("direction") === "asc" ? "asc" : "desc" };
}

/** `since` values compare as strings against `…Z` times: normalise to whole-second UTC. */
function normaliseTime(s: string): string {
  const t = Date.parse(s);
  return Number.isNaN(t) ? s : new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function wantsRaw(req: Request): boolean {
  return /application\/vnd\.github(\.v3)?\.raw/.test(req.headers.get("accept") ?? "");
}

function base64Lines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return (btoa(bin).match(/.{1,60}/g) ?? []).join("\n") + "\n";
}

// ---------------------------------------------------------------- routes

function route(ds: Dataset, req: Request, url: URL, caller: RestCaller, api: string): Answer {
  const shapes = new Shapes(ds, api);
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "search" && parts[1] === "issues" && parts.length === 2) {
    const q = url.searchParams.get("q");
    if (!q) {
      return {
        status: 422,
        body: {
          message: "Validation Failed",
          errors: [{ resource: "Search", field: "q", code: "missing" }],
          documentation_url: DOCS,
          status: "422",
        },
      };
    }
    const parsed = parseSearch(q);
    if (url.searchParams.get("sort")) {
      parsed.order = issueOrder(url);
      parsed.order.direction = url.searchParams.get("order") === "asc" ? "asc" : "desc";
    }
    const visible = ds.repos.filter((r) => r.visibility === "PUBLIC" || caller.kind === "token");
    const items = search(visible, parsed).slice(0, 1000);
    const { page, link } = paginate(items, url, `${api}/search/issues`);
    return {
      status: 200,
      body: {
        total_count: items.length,
        incomplete_results: false,
        search_type: "lexical",
        items: page.map((it) => ({ ...shapes.issue(it), score: 1 })),
      },
      headers: link ? { link } : {},
    };
  }
  if (parts[0] === "user" && parts.length === 1) {
    return caller.kind === "token" ? { status: 200, body: shapes.user("rgraph-tester") } : {
      status: 401,
      body: { message: "Requires authentication", documentation_url: DOCS, status: "401" },
    };
  }

  let repo: RepoRec | null = null;
  let rest: string[];
  if (parts[0] === "repos" && parts.length >= 3) {
    const found = ds.repo(parts[1], parts[2]);
    rest = parts.slice(3);
    if (found?.renamed) {
      return moved(
        `${api}/repositories/${found.repo.databaseId}${
          rest.map((p) => `/${p}`).join("")
        }${url.search}`,
      );
    }
    repo = found?.repo ?? null;
  } else if (parts[0] === "repositories" && parts.length >= 2) {
    repo = ds.repoById(Number(parts[1]));
    rest = parts.slice(2);
  } else {
    return notFound();
  }
  if (!repo || (repo.visibility !== "PUBLIC" && caller.kind === "anonymous")) return notFound();
  const linkBase = (suffix: string) => `${api}/repositories/${repo!.databaseId}/${suffix}`;

  const [section, num, sub, ...more] = rest;
  if (more.length) return notFound();
  if (section === undefined) {
    return { status: 200, body: shapes.repo(repo), lastModified: repo.updatedAt };
  }

  if (section === "readme" && num === undefined) {
    const readme = repo.readme;
    if (!readme) return notFound();
    if (wantsRaw(req)) return { status: 200, body: null, raw: readme.text };
    const path = readme.name;
    const sha = pseudoSha(readme.text);
    const contents =
      `${api}/repos/${repo.owner}/${repo.name}/contents/${path}?ref=${repo.defaultBranch}`;
    return {
      status: 200,
      body: {
        type: "file",
        encoding: "base64",
        size: new TextEncoder().encode(readme.text).length,
        name: path,
        path,
        content: base64Lines(readme.text),
        sha,
        url: contents,
        git_url: `${api}/repos/${repo.owner}/${repo.name}/git/blobs/${sha}`,
        html_url: `${WEB}/${repo.owner}/${repo.name}/blob/${repo.defaultBranch}/${path}`,
        download_url:
          `https://raw.githubusercontent.com/${repo.owner}/${repo.name}/${repo.defaultBranch}/${path}`,
        _links: {
          self: contents,
          git: `${api}/repos/${repo.owner}/${repo.name}/git/blobs/${sha}`,
          html: `${WEB}/${repo.owner}/${repo.name}/blob/${repo.defaultBranch}/${path}`,
        },
      },
    };
  }

  if (section === "issues" || section === "pulls") {
    const kindOnly = section === "pulls" ? "pull" : null;
    if (num === undefined) {
      const f = issueFilter(url);
      if (kindOnly) {
        f.kinds = ["pull"];
        const base = url.searchParams.get("base");
        const head = url.searchParams.get("head");
        if (base) f.baseRefName = base;
        if (head) f.headRefName = head.includes(":") ? head.split(":")[1] : head;
      }
      const items = selectItems(repo.items.values(), f, issueOrder(url));
      return listAnswer(
        items,
        url,
        linkBase(section),
        (it) => (kindOnly ? shapes.pull(it) : shapes.issue(it)),
      );
    }
    const n = Number(num);
    if (!Number.isInteger(n) || n <= 0) return notFound();
    const gone = repo.gone.get(n);
    if (gone?.kind === "deleted") {
      return {
        status: 410,
        body: {
          message: "This issue was deleted",
          documentation_url: `${DOCS}/issues/issues#get-an-issue`,
          status: "410",
        },
      };
    }
    if (gone?.kind === "transferred") {
      const to = gone.to;
      return moved(
        `${api}/repositories/${to.repo.databaseId}/${section}/${to.number}${
          sub ? `/${sub}` : ""
        }${url.search}`,
      );
    }
    const it = repo.items.get(n);
    if (!it || (kindOnly && it.kind !== kindOnly)) return notFound();
    const here = `${section}/${n}`;
    if (sub === undefined) {
      return {
        status: 200,
        body: kindOnly ? shapes.pull(it) : shapes.issue(it),
        lastModified: it.updatedAt,
      };
    }
    if (section === "issues" && sub === "comments") {
      const since = url.searchParams.get("since");
      const list = since
        ? it.comments.filter((c) => c.updatedAt >= normaliseTime(since))
        : it.comments;
      return listAnswer(list, url, linkBase(`${here}/comments`), (c) => shapes.comment(it, c));
    }
    if (section === "issues" && sub === "timeline") {
      return listAnswer(
        shapes.timeline(it, caller.kind === "token"),
        url,
        linkBase(`${here}/timeline`),
        (e) => e,
      );
    }
    if (section === "pulls" && sub === "files") {
      return listAnswer(shapes.files(it).slice(0, 3000), url, linkBase(`${here}/files`), (f) => f);
    }
    if (section === "pulls" && sub === "comments") {
      return listAnswer(shapes.reviewComments(it), url, linkBase(`${here}/comments`), (c) => c);
    }
  }
  return notFound();
}

/**
 * Answers one REST request: charges the caller's bucket (anonymous 304s
 * count; authorised 304s are free), routes, and applies `If-None-Match`.
 */
export function handleRest(
  ds: Dataset,
  req: Request,
  url: URL,
  caller: RestCaller,
  api: string,
): Response {
  const isRateLimit = url.pathname === "/rate_limit";
  const isSearch = url.pathname.startsWith("/search/");
  const bucket = isSearch ? caller.search : caller.core;
  const resource = isSearch ? "search" : "core";
  if (isRateLimit) {
    const shape = (b: Bucket) => ({
      limit: b.limit,
      used: b.used,
      remaining: Math.max(0, b.limit - b.used),
      reset: b.resetAt,
    });
    const body = {
      resources: { core: shape(caller.core), search: shape(caller.search) },
      rate: shape(caller.core),
    };
    return new Response(JSON.stringify(body), {
      headers: { "content-type": JSON_TYPE, ...rateHeaders(caller.core, "core") },
    });
  }
  if (!charge(bucket, 1)) {
    const who = caller.kind === "anonymous" ? "127.0.0.1" : "user ID 1";
    const message = caller.kind === "anonymous"
      ? `API rate limit exceeded for ${who}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`
      : `API rate limit exceeded for ${who}.`;
    return new Response(
      JSON.stringify({
        message,
        documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api`,
      }),
      { status: 403, headers: { "content-type": JSON_TYPE, ...rateHeaders(bucket, resource) } },
    );
  }
  const answer = route(ds, req, url, caller, api);
  const text = answer.raw ?? JSON.stringify(answer.body);
  const identity = caller.kind === "token" ? `token:${caller.token}` : "anonymous";
  const etag = `W/"${pseudoSha(`${identity}\n${text}`).slice(0, 32)}"`;
  const headers: Record<string, string> = {
    "content-type": answer.raw !== undefined
      ? "application/vnd.github.raw; charset=utf-8"
      : JSON_TYPE,
    ...answer.headers,
  };
  if (answer.status === 200) {
    headers.etag = etag;
    if (answer.lastModified) headers["last-modified"] = new Date(answer.lastModified).toUTCString();
    if (notModified(req, etag, answer.lastModified)) {
      if (caller.kind === "token") bucket.used--; // authorised 304s are free
      return new Response(null, {
        status: 304,
        headers: { ...headers, ...rateHeaders(bucket, resource) },
      });
    }
  }
  return new Response(text, {
    status: answer.status,
    headers: { ...headers, ...rateHeaders(bucket, resource) },
  });
}

function notModified(req: Request, etag: string, lastModified?: string): boolean {
  const inm = req.headers.get("if-none-match");
  if (inm) {
    const strip = (t: string) => t.trim().replace(/^W\//, "");
    return inm === "*" || inm.split(",").some((t) => strip(t) === strip(etag));
  }
  const ims = req.headers.get("if-modified-since");
  if (ims && lastModified) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Date.parse(lastModified) <= since;
  }
  return false;
}
