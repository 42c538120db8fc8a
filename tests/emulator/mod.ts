/**
 * A local GitHub emulator for rgraph's tests and benchmark: GraphQL (GitHub's
 * published schema over a fixture dataset) and the REST endpoints of the
 * anonymous fallback, with GitHub's auth, rate limits, ETags, redirects and
 * error shapes, on `127.0.0.1` and a free port.
 *
 * @example
 * ```ts
 * import { startEmulator } from "./tests/emulator/mod.ts";
 * const gh = await startEmulator({ latencyMs: 0 });
 * const res = await fetch(gh.graphqlUrl, {
 *   method: "POST",
 *   headers: { authorization: `bearer ${gh.token}` },
 *   body: JSON.stringify({ query: "{ viewer { login } }" }),
 * });
 * console.log(await res.json(), gh.requests());
 * await gh.close();
 * ```
 * @module
 */

import { FACTS } from "./facts.ts";
import { buildDataset, type Dataset } from "./dataset.ts";
import * as mutate from "./mutate.ts";
import type { IssuePatch } from "./mutate.ts";
import { runGraphql } from "./graphql.ts";
import { newBucket, rateHeaders } from "./budget.ts";
import { handleRest, type RestCaller } from "./rest.ts";
import { githubSchema } from "./schema.ts";
import { type Failure, Faults, type ItemFault, restItem } from "./faults.ts";

export type { IssuePatch } from "./mutate.ts";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Delay before every answer, in milliseconds (default 0). */
  latencyMs?: number;
  /** Anonymous REST requests per hour (default 60, GitHub's). */
  anonymousLimit?: number;
  /** Authenticated REST requests per hour (default 5000). */
  restLimit?: number;
  /** GraphQL points per hour (default 5000). */
  graphqlLimit?: number;
  /** The one valid token (default `FACTS.token`, "test-token"). */
  token?: string;
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /**
   * Run a few full-depth queries before listening, so the first real
   * request does not pay for the JIT warming up (benchmarks; default false).
   */
  warm?: boolean;
  /**
   * Requests in flight at once before GitHub's secondary limit answers 403
   * with `retry-after` (default 100, GitHub's documented ceiling).
   */
  maxConcurrent?: number;
}

/** Requests served since start or the last {@link Emulator.resetCounts}. 304s and injected failures count. */
export interface RequestCounts {
  graphql: number;
  rest: number;
  total: number;
  /** REST answers that were 304 Not Modified. */
  notModified: number;
  /** The most requests that were in flight at once. */
  peakConcurrent: number;
}

export type { Failure, ItemFault } from "./faults.ts";

/** A running emulator. */
export interface Emulator {
  /** Base URL of the REST API, e.g. `http://127.0.0.1:41234`. */
  apiUrl: string;
  /** `${apiUrl}/graphql`. */
  graphqlUrl: string;
  /** The token GraphQL and authenticated REST accept. */
  token: string;
  /** The live dataset (mutations show up in answers at once). */
  dataset: Dataset;
  requests(): RequestCounts;
  /** Every REST request's path and query since start (GitHub's own 301 targets included), in order. */
  restLog(): string[];
  resetCounts(): void;
  setLatency(ms: number): void;
  /** Adds a comment (bumping the item's `updatedAt`); returns its node id. */
  addComment(owner: string, repo: string, number: number, body: string, author?: string): string;
  editIssue(owner: string, repo: string, number: number, patch: IssuePatch): void;
  /** Renames a repository (same id); the old name still resolves and redirects. */
  renameRepo(owner: string, name: string, newName: string): void;
  /** Transfers an issue (new number, new node id, 301 from the old place); returns the new number. */
  transferIssue(
    owner: string,
    repo: string,
    number: number,
    toOwner: string,
    toRepo: string,
  ): number;
  /** Deletes an issue (410 Gone, NOT_FOUND). */
  deleteIssue(owner: string, repo: string, number: number): void;
  /** Refills every rate-limit bucket (as if the hour had passed). */
  resetBudget(): void;
  /** The next `n` requests (of any kind) fail with `failure` (default 502). */
  failNext(n: number, failure?: Failure): void;
  /**
   * The next `times` requests asking for one item (default: all of them)
   * meet `fault`: an error on its node, or the whole request failing.
   */
  faultItem(owner: string, repo: string, number: number, fault: ItemFault, times?: number): void;
  /**
   * The next `times` REST requests whose path matches `path` (default: all
   * of them) fail with `failure`: one page of a thread, a README, a
   * repository, while the rest of what GitHub serves answers as usual.
   */
  faultPath(path: RegExp, failure: Failure, times?: number): void;
  /** Removes every item and path fault. */
  clearFaults(): void;
  close(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=utf-8";

/** Starts an emulator; resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  githubSchema(); // build before the first request so latency figures are not skewed
  const ds = buildDataset();
  const token = options.token ?? FACTS.token;
  let latency = options.latencyMs ?? 0;
  const counts: RequestCounts = {
    graphql: 0,
    rest: 0,
    total: 0,
    notModified: 0,
    peakConcurrent: 0,
  };
  const maxConcurrent = options.maxConcurrent ?? 100;
  let inFlight = 0;
  const closing = Promise.withResolvers<void>();
  const failures: Failure[] = [];
  const faults = new Faults();
  const pathFaults: { path: RegExp; failure: Failure; left: number }[] = [];
  const restLog: string[] = [];
  const makeBuckets = () => ({
    graphql: newBucket(options.graphqlLimit ?? 5000),
    core: newBucket(options.restLimit ?? 5000),
    anonymous: newBucket(options.anonymousLimit ?? 60),
    search: newBucket(30, 60),
    anonymousSearch: newBucket(10, 60),
  });
  let buckets = makeBuckets();
  let requestSeq = 0;

  const handler = async (req: Request): Promise<Response> => {
    inFlight++;
    counts.peakConcurrent = Math.max(counts.peakConcurrent, inFlight);
    try {
      return await answer(req, inFlight > maxConcurrent);
    } finally {
      inFlight--;
    }
  };

  const answer = async (req: Request, overConcurrency: boolean): Promise<Response> => {
    const url = new URL(req.url);
    // GitHub Enterprise Server layout: REST under /api/v3, GraphQL at /api/graphql.
    if (url.pathname.startsWith("/api/v3/")) url.pathname = url.pathname.slice("/api/v3".length);
    const isGraphql = url.pathname === "/graphql" || url.pathname === "/api/graphql";
    counts.total++;
    if (isGraphql) counts.graphql++;
    else counts.rest++;
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const requestId = `EMU${(++requestSeq).toString(16).toUpperCase().padStart(6, "0")}`;
    const common = {
      "x-github-request-id": requestId,
      "x-github-media-type": "github.v3; format=json",
    };
    const failedOrHang = async (failure: Failure): Promise<Response> => {
      if (failure !== "hang") return failed(failure, requestId, common);
      await closing.promise;
      return json(504, { message: "emulator closed while hanging" }, common);
    };
    const failure = failures.shift();
    if (failure !== undefined) return await failedOrHang(failure);
    if (overConcurrency) {
      return json(403, {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID " +
          `${requestId}.`,
        documentation_url:
          "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      }, { ...common, "retry-after": "60" });
    }

    const auth = req.headers.get("authorization")?.match(/^(?:bearer|token)\s+(\S+)\s*$/i);
    const presented = auth?.[1] ?? null;
    if (presented !== null && presented !== token) {
      return json(401, {
        message: "Bad credentials",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      }, common);
    }
    if (isGraphql) {
      if (presented === null) {
        return json(401, {
          message: "This endpoint requires you to be authenticated.",
          documentation_url:
            "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
        }, common);
      }
      if (req.method !== "POST") return json(404, { message: "Not Found" }, common);
      let body: unknown;
      try {
        body = await req.json();
      } catch {
        return json(400, { message: "Problems parsing JSON" }, common);
      }
      const out = await runGraphql(
        ds,
        (body ?? {}) as Record<string, unknown>,
        buckets.graphql,
        FACTS.viewerLogin,
        faults,
      );
      if (out.failure !== undefined) return await failedOrHang(out.failure);
      return json(out.status, out.body, { ...common, ...rateHeaders(buckets.graphql, "graphql") });
    }
    restLog.push(`${url.pathname}${url.search}`);
    const byPath = pathFaults.find((f) => f.path.test(`${url.pathname}${url.search}`));
    if (byPath) {
      if (--byPath.left <= 0) pathFaults.splice(pathFaults.indexOf(byPath), 1);
      return await failedOrHang(byPath.failure);
    }
    const item = restItem(url.pathname);
    const fault = item ? faults.take(item.owner, item.repo, item.number) : null;
    if (fault?.kind === "request") return await failedOrHang(fault.failure);
    const caller: RestCaller = presented === null
      ? { kind: "anonymous", core: buckets.anonymous, search: buckets.anonymousSearch }
      : { kind: "token", token: presented, core: buckets.core, search: buckets.search };
    const res = handleRest(ds, req, url, caller, `${url.protocol}//${url.host}`);
    if (res.status === 304) counts.notModified++;
    for (const [k, v] of Object.entries(common)) res.headers.set(k, v);
    return res;
  };

  if (options.warm) await warmUp(ds);
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => listening.resolve() },
    handler,
  );
  await listening.promise;
  const apiUrl = `http://127.0.0.1:${server.addr.port}`;

  return {
    apiUrl,
    graphqlUrl: `${apiUrl}/graphql`,
    token,
    dataset: ds,
    requests: () => ({ ...counts }),
    restLog: () => [...restLog],
    resetCounts() {
      Object.assign(counts, { graphql: 0, rest: 0, total: 0, notModified: 0, peakConcurrent: 0 });
    },
    setLatency(ms) {
      latency = ms;
    },
    addComment: (owner, repo, number, body, author) =>
      mutate.addComment(ds, owner, repo, number, body, author),
    editIssue: (owner, repo, number, patch) => mutate.editIssue(ds, owner, repo, number, patch),
    renameRepo: (owner, name, newName) => mutate.renameRepo(ds, owner, name, newName),
    transferIssue: (owner, repo, number, toOwner, toRepo) =>
      mutate.transferIssue(ds, owner, repo, number, toOwner, toRepo),
    deleteIssue: (owner, repo, number) => mutate.deleteIssue(ds, owner, repo, number),
    resetBudget() {
      buckets = makeBuckets();
    },
    failNext(n, failure = 502) {
      for (let i = 0; i < n; i++) failures.push(failure);
    },
    faultItem(owner, repo, number, fault, times) {
      faults.set(owner, repo, number, fault, times);
    },
    faultPath(path, failure, times = Infinity) {
      pathFaults.push({ path, failure, left: times });
    },
    clearFaults() {
      faults.clear();
      pathFaults.length = 0;
    },
    async close() {
      closing.resolve();
      await server.shutdown();
    },
  };
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, ...headers },
  });
}

function failed(
  failure: Exclude<Failure, "hang">,
  requestId: string,
  headers: Record<string, string>,
): Response {
  if (failure === "graphql-timeout") {
    return json(200, {
      data: null,
      errors: [{
        message:
          `Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include \`${requestId}\` when reporting this issue.`,
      }],
    }, headers);
  }
  if (failure === "reset") {
    // Headers and a first chunk go out, then the body stream errors: the client sees the
    // connection drop mid-answer. (Deno logs the stream error on stderr; that line is expected.)
    let sent = false;
    const body = new ReadableStream({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"data":'));
          return;
        }
        controller.error(new Error("emulator: injected connection reset (failNext)"));
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": JSON_TYPE, ...headers } });
  }
  return json(failure, { message: failure >= 500 ? "Server Error" : "Error" }, headers);
}

/** The selections a Sweep asks of every issue and pull request. */
const ITEM_FIELDS = `id number title body url createdAt updatedAt closedAt author { login }
  labels(first: 100) { nodes { name } } assignees(first: 20) { nodes { login } } milestone { title }
  comments(first: 100) { totalCount pageInfo { hasNextPage endCursor } nodes { id author { login } body createdAt updatedAt } }
  timelineItems(first: 100, itemTypes: [CROSS_REFERENCED_EVENT]) {
    nodes { ... on CrossReferencedEvent { source { ... on Issue { url } ... on PullRequest { url } } } } }`;

/** A full-depth listing page of issues and of pull requests, like a Sweep's. */
const WARM_QUERY = `query Warm {
  rateLimit { cost remaining }
  repository(owner: "${FACTS.big.owner}", name: "${FACTS.big.name}") {
    id nameWithOwner visibility
    issues(first: 100, orderBy: {field: UPDATED_AT, direction: DESC}) {
      totalCount pageInfo { hasNextPage endCursor } nodes { ...IssueItem }
    }
    pullRequests(first: 40) { nodes { ...PullItem } }
  }
}
fragment IssueItem on Issue { ${ITEM_FIELDS} }
fragment PullItem on PullRequest { ${ITEM_FIELDS} merged baseRefName
  files(first: 100) { nodes { path } }
  reviewThreads(first: 100) { nodes { path comments(first: 100) { nodes { id body path } } } }
  closingIssuesReferences(first: 100) { nodes { url } } }`;

/** Runs {@link WARM_QUERY} a few times outside any budget or count. */
async function warmUp(ds: Dataset): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const out = await runGraphql(
      ds,
      { query: WARM_QUERY },
      newBucket(1_000_000),
      FACTS.viewerLogin,
    );
    if (out.body.errors) {
      throw new Error(`emulator warm-up query failed: ${JSON.stringify(out.body.errors)}`);
    }
    JSON.stringify(out.body);
  }
}
