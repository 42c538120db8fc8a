/**
 * The GraphQL client: `@octokit/graphql` pointed at `[github] graphql_url`
 * (GitHub Enterprise Server users set it beside `api_url`), with the bound on
 * requests in flight, retries for transient failures, the rate budget read
 * from each response's `rateLimit`, and a count of requests made.
 *
 * @example
 * ```ts
 * import { GraphqlClient } from "./graphql.ts";
 * const client = new GraphqlClient({ url: config.github.graphql_url, token, limiter });
 * const { data, errors } = await client.query(itemsByNumber("o", "r", [1]));
 * ```
 * @module
 */

import { graphql, GraphqlResponseError } from "@octokit/graphql";
import { optional } from "./decode.ts";
import {
  AuthError,
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
import type { Query } from "./queries.ts";
import { RateLimit } from "./types.ts";

/** One entry of a GraphQL response's `errors`. */
export interface GqlError {
  type?: string;
  message: string;
  path?: (string | number)[];
}

/** A response: data (possibly partial) and the errors that came with it. */
export interface GqlResult {
  data: Record<string, unknown>;
  errors: GqlError[];
}

/** How to reach GitHub's GraphQL API. */
export interface GraphqlOptions {
  url: string;
  token: string;
  limiter: Limiter;
  retry?: RetryPolicy;
  /** Per-request time limit (GitHub itself stops a query after 10 s). */
  timeoutMs?: number;
  /** The fraction of the hour's points never spent (see `keptBack`; default none). */
  reserve?: number;
}

type Gql = typeof graphql;

/** Recognises GitHub's answer to a query that ran past its 10-second limit. */
function isTimeout(errors: GqlError[]): boolean {
  return errors.some((e) => /timeout|timed out|something went wrong/i.test(e.message));
}

/** GitHub's first error, with its type, on one line. */
function errorText(errors: GqlError[]): string {
  const e = errors[0];
  if (!e) return "the query failed";
  return `${e.type ? `${e.type}: ` : ""}${e.message.split("\n")[0]}`;
}

/** A GraphQL client with retries, a request count and the last known rate budget. */
export class GraphqlClient {
  readonly #gql: Gql;
  readonly #options: GraphqlOptions;
  /** Requests sent (each retry counts: it is a request GitHub saw). */
  requests = 0;
  /** The budget as of the last response. */
  rate: RateLimit | null = null;

  constructor(options: GraphqlOptions) {
    this.#options = options;
    // baseUrl is set to the GraphQL URL itself: @octokit/graphql rewrites
    // requests to `<host>/api/graphql` when baseUrl ends in /api/v3, which
    // would ignore a GHES user's explicit graphql_url.
    this.#gql = graphql.defaults({
      baseUrl: options.url,
      url: options.url,
      headers: { authorization: `bearer ${options.token}` },
      request: { fetch: timedFetch(options.timeoutMs) },
    });
  }

  /**
   * Whether the known budget is spent, down to what this client keeps back
   * (so no request should be sent until `resetAt`).
   */
  exhausted(): boolean {
    const r = this.rate;
    return r !== null && r.remaining <= keptBack(r.limit, this.#options.reserve ?? 0) &&
      Date.parse(r.resetAt) > Date.now();
  }

  /**
   * Sends one query. Given as a function of the attempt number, a retry can
   * send a smaller query (a page that timed out is asked again at half the size).
   * Throws {@link RateLimitedError}, {@link AuthError}, or {@link TransientError}
   * after the last retry.
   */
  query(q: Query | ((attempt: number) => Query), retry?: RetryPolicy): Promise<GqlResult> {
    return withRetries(
      (attempt) => this.#once(typeof q === "function" ? q(attempt) : q),
      retry ?? this.#options.retry,
    );
  }

  async #once(q: Query): Promise<GqlResult> {
    if (this.exhausted()) {
      const r = this.rate!;
      throw new RateLimitedError(
        r.resetAt,
        r.remaining > 0 ? RESERVE_REACHED : undefined,
        "graphql",
      );
    }
    const token = this.#options.token;
    return await this.#options.limiter.run(async () => {
      this.requests++;
      try {
        const data = await this.#gql(q.query, q.variables) as Record<string, unknown>;
        this.#noteRate(data);
        return { data, errors: [] };
      } catch (e) {
        if (e instanceof GraphqlResponseError) {
          const errors = (e.errors ?? []) as GqlError[];
          const data = (e.data ?? null) as Record<string, unknown> | null;
          if (data) this.#noteRate(data);
          if (errors.some((x) => x.type === "RATE_LIMITED")) {
            throw new RateLimitedError(this.rate?.resetAt ?? null, undefined, "graphql");
          }
          if (isTimeout(errors)) {
            throw new TransientError(
              scrub(`GitHub GraphQL: ${errors[0]?.message ?? "the query timed out"}`, token),
              { answered: true },
            );
          }
          // No data at all: the query itself was refused (invalid for GitHub's schema), a bug of ours.
          if (data === null && e.data === undefined) {
            throw new Error(scrub(`GitHub GraphQL error: ${errors[0]?.message}`, token));
          }
          // `data: null`: the query ran and failed as a whole (INTERNAL, an unknown type): retried.
          if (data === null) {
            throw new TransientError(scrub(`GitHub GraphQL: ${errorText(errors)}`, token), {
              answered: true,
            });
          }
          return { data, errors };
        }
        throw this.#httpError(e);
      }
    });
  }

  #noteRate(data: Record<string, unknown>): void {
    const rate = optional(RateLimit)(data.rateLimit, "rateLimit");
    if (rate) this.rate = rate;
  }

  #httpError(e: unknown): Error {
    const token = this.#options.token;
    const err = e as {
      status?: number;
      message?: string;
      response?: { headers?: Record<string, string> };
    };
    const status = typeof err.status === "number" ? err.status : 0;
    const headers = err.response?.headers ?? {};
    if (status === 401) return new AuthError(status);
    if (
      (status === 403 || status === 429) &&
      (headers["x-ratelimit-remaining"] === "0" || headers["retry-after"] !== undefined)
    ) {
      const reset = headers["x-ratelimit-reset"];
      return new RateLimitedError(
        reset ? new Date(Number(reset) * 1000).toISOString() : null,
        undefined,
        "graphql",
      );
    }
    const message = scrub(String(err.message ?? e), token);
    if (status === 0 || isTransientStatus(status)) {
      // octokit reports a network failure as status 500 without a response.
      const answered = err.response !== undefined;
      return new TransientError(
        answered ? `GitHub GraphQL HTTP ${status}: ${message}` : `GitHub GraphQL: ${message}`,
        { answered },
      );
    }
    return new Error(`GitHub GraphQL HTTP ${status}: ${message}`);
  }
}
