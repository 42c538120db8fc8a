/**
 * The REST client and the anonymous REST source (no token): plain `fetch`
 * with `If-None-Match` revalidation, `Link` pagination, the `X-RateLimit-*`
 * budget read from every response (no request is sent once it is spent), and
 * 301s of renamed repositories and transferred issues followed by hand so
 * every hop is counted.
 *
 * Public only: GitHub answers an anonymous caller 404 for anything private, so
 * all the anonymous source receives is public; where a response carries
 * `private`/`visibility` (repositories), it is checked anyway. Without a token
 * an issue costs two requests (the issue, then its comments when it has any);
 * cross-references and closing references need GraphQL and are not collected.
 *
 * @example
 * ```ts
 * import { RestClient, RestSource } from "./rest.ts";
 * const source = new RestSource(new RestClient({ apiUrl, token: null, limiter }));
 * const items = await source.items("denoland", "deno", [1]);
 * ```
 * @module
 */

import { itemAddress, repositoryAddress } from "../address/mod.ts";
import type { Comment, ItemResource, ListingAddress, RepositoryResource } from "../types.ts";
import { resourceBase } from "./map.ts";
import { RestBudgets, type RestResource, restResource } from "./rest_budget.ts";
import { arr, type Decoded } from "./decode.ts";
import {
  labelNames,
  RestComment,
  RestFile,
  RestIssue,
  RestIssuePlace,
  RestPull,
  RestReadme,
  RestRepo,
  RestReviewComment,
  RestSearch,
} from "./rest_types.ts";
import {
  AuthError,
  isNetworkError,
  isTransientStatus,
  keptBack,
  type Limiter,
  RateLimitedError,
  RESERVE_REACHED,
  type RetryPolicy,
  scrub,
  timedFetch,
  TransientError,
  withRetries,
} from "./http.ts";
import {
  alone,
  type Budget,
  type ChangedHead,
  type Fetched,
  type ListedMember,
  type ListedPage,
  type ListingPage,
  type RateResource,
  type Revalidated,
  type Source,
  type StoredHead,
  UnavailableError,
} from "./source.ts";

/** One REST response, body parsed. */
export interface RestResponse {
  status: number;
  json: unknown;
  etag: string | null;
  /** The `rel="next"` page, if any. */
  next: string | null;
}

/** How to reach GitHub's REST API. */
export interface RestOptions {
  apiUrl: string;
  token: string | null;
  limiter: Limiter;
  retry?: RetryPolicy;
  timeoutMs?: number;
  /** The fraction of the hour's budget never spent (see `keptBack`; default none). */
  reserve?: number;
}

/** Where a 301 led (or the place itself, answering 200), or why nothing was found. */
export type Located =
  | { status: "moved"; owner: string; repo: string; number: number }
  | { status: "not_found" }
  | { status: "not_public" }
  /** Neither there nor gone: GitHub answered another status. */
  | { status: "failed"; message: string };

/** 404 and 410 say a thing is gone; only they do. */
function isGone(status: number): boolean {
  return status === 404 || status === 410;
}

/** What an answer that is neither 200 nor gone says, for a Touch's detail. */
function unexpected(status: number): string {
  return `GitHub REST answered HTTP ${status}`;
}

/** The `rel="next"` URL of a `Link` header. */
export function nextLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return null;
}

/** The last two path segments of a `…/repos/OWNER/REPO` URL. */
function ownerRepoOf(repositoryUrl: string): { owner: string; repo: string } {
  const parts = new URL(repositoryUrl).pathname.split("/").filter((p) => p !== "");
  return { owner: parts[parts.length - 2], repo: parts[parts.length - 1] };
}

/** A REST client with the rate budgets, conditional requests and counted redirects. */
export class RestClient {
  readonly #options: RestOptions;
  readonly #fetch: typeof fetch;
  /** Requests sent (each redirect hop and retry counts). */
  requests = 0;
  /** Each budget as last reported. */
  readonly budgets = new RestBudgets();
  /** The first request of each budget not yet known, which the others wait for. */
  readonly #firstAnswer = new Map<RestResource, Promise<void>>();
  readonly #inFlight = new Map<RestResource, number>();

  constructor(options: RestOptions) {
    this.#options = options;
    this.#fetch = timedFetch(options.timeoutMs);
  }

  /**
   * Whether the budget of `resource` (less its requests already in flight)
   * is spent until its reset, down to what this client keeps back.
   */
  exhausted(resource: RestResource = "core"): boolean {
    const { remaining, limit, reset } = this.budgets.seen(resource);
    const floor = keptBack(limit, this.#options.reserve ?? 0);
    return remaining !== null && remaining - (this.#inFlight.get(resource) ?? 0) <= floor &&
      (reset === null || reset * 1000 > Date.now());
  }

  /** The error for a request not sent: its budget is spent, or only the reserve is left. */
  #spent(resource: RestResource): RateLimitedError {
    const { remaining } = this.budgets.seen(resource);
    const resetAt = this.budgets.get(resource).resetAt;
    return remaining !== null && remaining - (this.#inFlight.get(resource) ?? 0) > 0
      ? new RateLimitedError(resetAt, RESERVE_REACHED, resource)
      : new RateLimitedError(resetAt, undefined, resource);
  }

  /**
   * Learns every budget before a large piece of work, if no response has
   * told the core one yet. `GET /rate_limit` does not count against any
   * budget (it is still counted in {@link requests}).
   */
  async learnBudget(): Promise<void> {
    if (this.budgets.seen("core").remaining !== null) return;
    this.requests++;
    try {
      const res = await this.#fetch(`${this.#options.apiUrl}/rate_limit`, {
        headers: this.#headers(null),
      });
      const body = await res.json().catch(() => null);
      if (res.ok) {
        this.budgets.note(res.headers, "core");
        this.budgets.learn(body);
      }
    } catch {
      // Unknown until the first real response: the work goes ahead one request at a time.
    }
  }

  /** Request headers; the token only ever goes to the configured API's origin. */
  #headers(etag: string | null, url: string = this.#options.apiUrl): Record<string, string> {
    const h: Record<string, string> = {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "rgraph",
    };
    const ours = new URL(url).origin === new URL(this.#options.apiUrl).origin;
    if (this.#options.token && ours) h.authorization = `bearer ${this.#options.token}`;
    if (etag) h["if-none-match"] = etag;
    return h;
  }

  /**
   * GETs `path` (relative to the API, or an absolute `Link` URL), following
   * up to three redirects. 304/404/410 come back as statuses; throws
   * {@link RateLimitedError}, {@link AuthError} or {@link TransientError}.
   */
  get(path: string, etag: string | null = null): Promise<RestResponse & { url: string }> {
    return withRetries(() => this.#get(path, etag), this.#options.retry);
  }

  async #get(path: string, etag: string | null): Promise<RestResponse & { url: string }> {
    // Until the first response tells a budget, its requests go one at a time,
    // so a nearly spent budget is never overrun by a burst.
    const resource = restResource(this.#options.apiUrl, this.#url(path));
    const unknown = () => this.budgets.seen(resource).remaining === null;
    const first = this.#firstAnswer.get(resource);
    if (unknown() && first) await first;
    let answered: (() => void) | null = null;
    if (unknown() && !this.#firstAnswer.has(resource)) {
      this.#firstAnswer.set(resource, new Promise<void>((r) => (answered = r)));
    }
    try {
      return await this.#send(path, etag, resource);
    } finally {
      (answered as (() => void) | null)?.();
    }
  }

  #url(path: string): string {
    return /^https?:/.test(path) ? path : `${this.#options.apiUrl}${path}`;
  }

  async #send(
    path: string,
    etag: string | null,
    resource: RestResource,
  ): Promise<RestResponse & { url: string }> {
    let url = this.#url(path);
    const inFlight = (d: number) =>
      this.#inFlight.set(resource, (this.#inFlight.get(resource) ?? 0) + d);
    for (let hop = 0; hop < 4; hop++) {
      if (this.exhausted(resource)) throw this.#spent(resource);
      const res = await this.#options.limiter.run(async () => {
        if (this.exhausted(resource)) throw this.#spent(resource);
        this.requests++;
        inFlight(1);
        try {
          const r = await this.#fetch(url, {
            headers: this.#headers(etag, url),
            redirect: "manual",
          });
          this.budgets.note(r.headers, resource);
          return r;
        } catch (e) {
          if (isNetworkError(e)) {
            throw new TransientError(
              scrub(`GitHub REST: ${(e as Error).message}`, this.#options.token),
            );
          }
          throw e;
        } finally {
          inFlight(-1);
        }
      });
      const status = res.status;
      if (status === 301 || status === 302 || status === 307 || status === 308) {
        await res.body?.cancel();
        const location = res.headers.get("location");
        if (!location) throw new Error(`GitHub REST ${status} without a Location`);
        url = new URL(location, url).toString();
        continue;
      }
      const text = await res.text().catch(() => "");
      if (status === 401) throw new AuthError(status);
      const spent = this.budgets.seen(resource).remaining === 0;
      if ((status === 403 || status === 429) && (spent || res.headers.has("retry-after"))) {
        throw new RateLimitedError(this.budgets.get(resource).resetAt, undefined, resource);
      }
      if (isTransientStatus(status)) {
        throw new TransientError(`GitHub REST HTTP ${status}`, { answered: true });
      }
      let json: unknown = null;
      if (status === 200 && text !== "") {
        try {
          json = JSON.parse(text);
        } catch {
          throw new TransientError("GitHub REST answered with a truncated body");
        }
      }
      return {
        status,
        json,
        etag: res.headers.get("etag"),
        next: nextLink(res.headers.get("link")),
        url,
      };
    }
    throw new Error("GitHub REST: too many redirects");
  }

  /** Where an issue number lives now (a transferred issue's 301, a renamed repository's). */
  async locateItem(owner: string, repo: string, number: number): Promise<Located> {
    const res = await this.get(`/repos/${enc(owner)}/${enc(repo)}/issues/${number}`);
    if (isGone(res.status)) return { status: "not_found" };
    if (res.status !== 200) return { status: "failed", message: unexpected(res.status) };
    const issue = RestIssuePlace(res.json, "issue");
    return { status: "moved", ...ownerRepoOf(issue.repository_url), number: issue.number };
  }

  /** Where a repository lives now (a renamed repository's 301). */
  async locateRepository(owner: string, repo: string): Promise<Located> {
    const res = await this.get(`/repos/${enc(owner)}/${enc(repo)}`);
    if (isGone(res.status)) return { status: "not_found" };
    if (res.status !== 200) return { status: "failed", message: unexpected(res.status) };
    const r = RestRepo(res.json, "repository");
    if (!isPublic(r)) return { status: "not_public" };
    const [o, n] = r.full_name.split("/");
    return { status: "moved", owner: o, repo: n, number: 0 };
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

function isPublic(r: { private: boolean; visibility: string | null }): boolean {
  return !r.private && (r.visibility === null || r.visibility === "public");
}

function comment(
  c: Decoded<typeof RestComment> | Decoded<typeof RestReviewComment>,
): Comment {
  const out: Comment = {
    node_id: c.node_id,
    author: c.user?.login ?? null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    body: c.body ?? "",
  };
  if ("path" in c) out.path = c.path;
  return out;
}

function decodeBase64(text: string): string {
  const bin = atob(text.replace(/\s+/g, ""));
  return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
}

function restHead(i: RestIssue): ChangedHead {
  const merged = i.pull_request?.merged_at != null;
  return {
    number: i.number,
    kind: i.pull_request ? "pull_request" : "issue",
    updated_at: i.updated_at,
    state: merged ? "merged" : i.state === "open" ? "open" : "closed",
    author: i.user?.login ?? null,
    labels: labelNames(i.labels),
    assignees: (i.assignees ?? []).map((a) => a.login),
    milestone: i.milestone?.title ?? null,
  };
}

/**
 * Requests reading a listed issue whole costs beyond its list page: its
 * comment pages; a pull request also needs `/pulls/N` and (at least) a page
 * each of files and review comments.
 */
function memberRequests(i: RestIssue): number {
  const comments = Math.ceil(i.comments / 100);
  return i.pull_request ? comments + 3 : comments;
}

/** Does a REST issue satisfy the filters `/issues` cannot express? */
function matchesRest(a: ListingAddress, i: RestIssue): boolean {
  const h = restHead(i);
  const f = a.filters;
  if ((a.listing === "issues") !== (h.kind === "issue")) return false;
  if (f.state === "merged" && h.state !== "merged") return false;
  if (f.milestone && h.milestone?.toLowerCase() !== f.milestone.toLowerCase()) return false;
  return true;
}

/** The anonymous REST implementation of {@link Source}. */
export class RestSource implements Source {
  readonly mode = "rest";
  constructor(readonly client: RestClient) {}

  requests(): number {
    return this.client.requests;
  }

  learnBudget(): Promise<void> {
    return this.client.learnBudget();
  }

  readonly main = "core";

  budget(resource: RateResource = "core"): Budget {
    return resource === "graphql"
      ? { remaining: null, limit: null, resetAt: null }
      : this.client.budgets.get(resource);
  }

  budgets(): Partial<Record<RateResource, Budget>> {
    return this.client.budgets.all();
  }

  affordable(estimate: number, resource: RateResource = "core"): boolean {
    const { limit } = this.budget(resource);
    return limit === null || estimate <= limit;
  }

  /**
   * All pages of a list (comments, files, review comments), following
   * `Link`: the whole list or a throw, never the pages read before one
   * failed. A page GitHub answers with anything but 200 (after retries)
   * fails the thing the list belongs to, which is then not stored.
   */
  async #all<T>(
    path: string,
    what: string,
    decoder: (v: unknown, p: string) => T,
  ): Promise<T[]> {
    const out: T[] = [];
    let next: string | null = path;
    for (let page = 1; next; page++) {
      const res: RestResponse = await this.client.get(next);
      if (res.status !== 200) {
        throw new TransientError(
          `${unexpected(res.status)} for page ${page} of its ${what}: not read to its end`,
          { answered: true },
        );
      }
      out.push(...arr(decoder)(res.json, next));
      next = res.next;
    }
    return out;
  }

  /** Completes an issue (or pull request) from its `/issues/N` JSON. */
  async #complete(issue: RestIssue, etag: string | null, fetchedAt: string): Promise<ItemResource> {
    const { owner, repo } = ownerRepoOf(issue.repository_url);
    const base = `/repos/${enc(owner)}/${enc(repo)}`;
    const comments = issue.comments > 0
      ? (await this.#all(
        `${base}/issues/${issue.number}/comments?per_page=100`,
        "comments",
        RestComment,
      )).map(comment)
      : [];
    const address = itemAddress(owner, repo, issue.number);
    const item = {
      ...resourceBase(address, {
        node_id: issue.node_id,
        url: issue.html_url,
        fetched_at: fetchedAt,
        updated_at: issue.updated_at,
        etag,
      }),
      number: issue.number,
      title: issue.title,
      body: issue.body ?? "",
      author: issue.user?.login ?? null,
      labels: labelNames(issue.labels),
      assignees: (issue.assignees ?? []).map((a) => a.login),
      milestone: issue.milestone?.title ?? null,
      created_at: issue.created_at,
      closed_at: issue.closed_at,
      comment_count: issue.comments,
      comments,
      referenced_by: [],
    };
    if (!issue.pull_request) {
      return { ...item, kind: "issue", state: issue.state === "open" ? "open" : "closed" };
    }
    const [pull, files, reviews] = await Promise.all([
      this.client.get(`${base}/pulls/${issue.number}`),
      this.#all(
        `${base}/pulls/${issue.number}/files?per_page=100`,
        "changed files",
        RestFile,
      ),
      this.#all(
        `${base}/pulls/${issue.number}/comments?per_page=100`,
        "review comments",
        RestReviewComment,
      ),
    ]);
    if (pull.status !== 200) {
      throw new TransientError(`${unexpected(pull.status)} for the pull request`, {
        answered: true,
      });
    }
    const p = RestPull(pull.json, "pull");
    const merged = p.merged;
    return {
      ...item,
      kind: "pull_request",
      state: merged ? "merged" : issue.state === "open" ? "open" : "closed",
      merged,
      base_ref: p.base.ref,
      files: files.map((f) => f.filename),
      review_comments: reviews.map(comment),
      closes: [],
    };
  }

  /** A Listing member completed, or a throw naming it (its Listing is then not stored). */
  async #member(issue: RestIssue, fetchedAt: string): Promise<ItemResource> {
    try {
      return await this.#complete(issue, null, fetchedAt);
    } catch (e) {
      if (!(e instanceof TransientError)) throw e;
      const { owner, repo } = ownerRepoOf(issue.repository_url);
      throw new TransientError(
        `member ${itemAddress(owner, repo, issue.number).key}: ${e.message}`,
        {
          answered: e.answered,
          cause: e,
        },
      );
    }
  }

  /** One item; a failure of GitHub's on it (after retries) is its own, not its neighbours'. */
  #item(owner: string, repo: string, stored: StoredHead): Promise<Revalidated<ItemResource>> {
    return alone(() => this.#itemOnce(owner, repo, stored));
  }

  async #itemOnce(
    owner: string,
    repo: string,
    stored: StoredHead,
  ): Promise<Revalidated<ItemResource>> {
    const fetchedAt = new Date().toISOString();
    const path = `/repos/${enc(owner)}/${enc(repo)}/issues/${stored.number}`;
    const res = await this.client.get(path, stored.etag);
    if (res.status === 304) return { status: "unchanged" };
    if (isGone(res.status)) return { status: "not_found" };
    if (res.status !== 200) {
      return { status: "failed", message: unexpected(res.status), counts: true };
    }
    const issue = RestIssue(res.json, "issue");
    // Without an ETag (a Listing's member) the issue's own answer shows whether it changed:
    // its comments are read only when it did.
    if (stored.updated_at !== "" && issue.updated_at === stored.updated_at) {
      return { status: "unchanged" };
    }
    return { status: "ok", value: await this.#complete(issue, res.etag, fetchedAt) };
  }

  async items(
    owner: string,
    repo: string,
    numbers: number[],
  ): Promise<Map<number, Fetched<ItemResource>>> {
    const stored = numbers.map((number) => ({ number, updated_at: "", etag: null }));
    return await this.revalidateItems(owner, repo, stored) as Map<number, Fetched<ItemResource>>;
  }

  async revalidateItems(
    owner: string,
    repo: string,
    stored: StoredHead[],
  ): Promise<Map<number, Revalidated<ItemResource>>> {
    const out = new Map<number, Revalidated<ItemResource>>();
    await Promise.all(stored.map(async (s) => out.set(s.number, await this.#item(owner, repo, s))));
    return out;
  }

  repository(
    owner: string,
    repo: string,
    stored: { updated_at: string; etag: string | null } | null,
  ): Promise<Revalidated<RepositoryResource>> {
    return alone(() => this.#repository(owner, repo, stored));
  }

  async #repository(
    owner: string,
    repo: string,
    stored: { updated_at: string; etag: string | null } | null,
  ): Promise<Revalidated<RepositoryResource>> {
    const fetchedAt = new Date().toISOString();
    const res = await this.client.get(`/repos/${enc(owner)}/${enc(repo)}`, stored?.etag ?? null);
    if (res.status === 304) return { status: "unchanged" };
    if (isGone(res.status)) return { status: "not_found" };
    if (res.status !== 200) {
      return { status: "failed", message: unexpected(res.status), counts: true };
    }
    const r: RestRepo = RestRepo(res.json, "repository");
    if (!isPublic(r)) return { status: "not_public" };
    const [o, n] = r.full_name.split("/");
    const readmeRes = await this.client.get(`/repos/${enc(o)}/${enc(n)}/readme`);
    // 404 says there is no README; any other answer leaves it unknown, so nothing is stored.
    if (readmeRes.status !== 200 && !isGone(readmeRes.status)) {
      throw new TransientError(`${unexpected(readmeRes.status)} for its README`, {
        answered: true,
      });
    }
    const readme = readmeRes.status === 200 ? RestReadme(readmeRes.json, "readme") : null;
    const address = repositoryAddress(o, n);
    const updated = r.pushed_at !== null && r.pushed_at > r.updated_at ? r.pushed_at : r.updated_at;
    return {
      status: "ok",
      value: {
        kind: "repository",
        ...resourceBase(address, {
          node_id: r.node_id,
          url: r.html_url,
          fetched_at: fetchedAt,
          updated_at: updated,
          etag: res.etag,
        }),
        description: r.description,
        readme: readme && readme.encoding === "base64" ? decodeBase64(readme.content) : null,
        readme_path: readme?.path ?? null,
        stars: r.stargazers_count,
        pushed_at: r.pushed_at,
      },
    };
  }

  /** The `/issues` (or search) URL of a Listing's first page. */
  #listUrl(a: ListingAddress, since: string | null): string {
    const f = a.filters;
    const base = `/repos/${enc(a.owner)}/${enc(a.repo)}`;
    if (f.q) {
      const parts = [`repo:${a.owner}/${a.repo}`, a.listing === "issues" ? "is:issue" : "is:pr"];
      if (f.state !== "all") parts.push(f.state === "merged" ? "is:merged" : `is:${f.state}`);
      for (const l of f.labels) parts.push(`label:"${l}"`);
      if (f.author) parts.push(`author:${f.author}`);
      if (f.assignee) parts.push(`assignee:${f.assignee}`);
      if (f.milestone) parts.push(`milestone:"${f.milestone}"`);
      parts.push(f.q);
      return `/search/issues?q=${enc(parts.join(" "))}&sort=updated&order=desc&per_page=100`;
    }
    const p = new URLSearchParams({ sort: "updated", direction: "desc", per_page: "100" });
    p.set("state", since ? "all" : f.state === "merged" ? "closed" : f.state);
    if (!since) {
      if (f.labels.length) p.set("labels", f.labels.join(","));
      if (f.author) p.set("creator", f.author);
      if (f.assignee) p.set("assignee", f.assignee);
    } else {
      p.set("since", since);
    }
    return `${base}/issues?${p}`;
  }

  async *listedPages(address: ListingAddress, limit: number): AsyncGenerator<ListedPage> {
    let next: string | null = this.#listUrl(address, null);
    let fetched = 0;
    while (next && fetched < limit) {
      const fetchedAt = new Date().toISOString();
      const res: RestResponse = await this.client.get(next);
      if (res.status !== 200) throw new UnavailableError("not_found");
      const search = address.filters.q !== undefined;
      const raw = search ? RestSearch(res.json, "search") : null;
      // A search GitHub cut short would be stored as if it were every match.
      if (raw?.incomplete_results) {
        throw new TransientError("GitHub's search ran out of time: its results are incomplete", {
          answered: true,
        });
      }
      const matching = (raw ? raw.items : arr(RestIssue)(res.json, "issues"))
        .filter((i) => matchesRest(address, i));
      const page = matching.slice(0, limit - fetched);
      const members = page.map((issue, i): ListedMember => {
        const { owner, repo } = ownerRepoOf(issue.repository_url);
        return {
          position: fetched + i,
          address: itemAddress(owner, repo, issue.number).key,
          updated_at: issue.updated_at,
          requests: memberRequests(issue),
          complete: () => this.#member(issue, fetchedAt),
        };
      });
      fetched += page.length;
      next = res.next;
      // `/issues` gives no total. Matches cut off by the limit are counted
      // (the Listing is then not fully expanded); past the last page nothing
      // else matches, otherwise at least one more item may.
      const known = fetched + matching.length - page.length;
      const total = raw ? raw.total_count : next === null || known > fetched ? known : known + 1;
      yield { members, totalCount: total };
    }
  }

  async *listingPages(address: ListingAddress, limit: number): AsyncGenerator<ListingPage> {
    for await (const page of this.listedPages(address, limit)) {
      // Every member whole, or the page fails: a member GitHub failed on is never left out.
      const items = await Promise.all(page.members.map((m) => m.complete()));
      yield { items, positions: page.members.map((m) => m.position), totalCount: page.totalCount };
    }
  }

  async listingChanges(
    address: ListingAddress,
    since: string,
  ): Promise<{ totalCount: number | null; changed: ChangedHead[] } | null> {
    if (address.filters.q !== undefined) return null;
    const changed: ChangedHead[] = [];
    let next: string | null = this.#listUrl(address, since);
    while (next) {
      const res: RestResponse = await this.client.get(next);
      if (res.status !== 200) throw new UnavailableError("not_found");
      changed.push(...arr(RestIssue)(res.json, "issues").map(restHead));
      next = res.next;
    }
    return { totalCount: null, changed }; // REST has no count: the Sweep derives it
  }
}
