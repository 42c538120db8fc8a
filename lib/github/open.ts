/**
 * Opens the GitHub source for a Sweep: GraphQL when a token is configured (or
 * `gh` supplies one for the configured host), anonymous REST otherwise. All
 * requests of one source share one bound on requests in flight.
 *
 * @example
 * ```ts
 * import { openSource } from "./open.ts";
 * const source = await openSource(config.github);
 * source.mode; // "graphql" | "rest"
 * ```
 * @module
 */

import { GraphqlClient } from "./graphql.ts";
import { GraphqlSource } from "./graphql_source.ts";
import { Limiter, type RetryPolicy } from "./http.ts";
import { RestClient, RestSource } from "./rest.ts";
import type { Source } from "./source.ts";
import { type GithubConfig, resolveToken } from "./token.ts";

/** Knobs for {@link openSource}. */
export interface SourceOptions {
  /**
   * Requests in flight at once. GitHub allows 100 concurrent requests but
   * penalises bursts (2,000 GraphQL points a minute); 4 keeps a Sweep far
   * inside that while overlapping latency.
   */
  concurrency?: number;
  retry?: RetryPolicy;
  /**
   * The fraction of the hour's budget no request may spend (an automatic
   * Sweep keeps 0.1 for the agent); none by default.
   */
  reserve?: number;
}

/** The source for `[github]`. */
export async function openSource(
  github: GithubConfig,
  options: SourceOptions = {},
): Promise<Source> {
  const limiter = new Limiter(options.concurrency ?? 4);
  const token = await resolveToken(github);
  const rest = (t: string | null) =>
    new RestClient({
      apiUrl: github.api_url,
      token: t,
      limiter,
      retry: options.retry,
      reserve: options.reserve,
    });
  if (token) {
    const client = new GraphqlClient({
      url: github.graphql_url,
      token,
      limiter,
      retry: options.retry,
      reserve: options.reserve,
    });
    return new GraphqlSource(client, rest(token));
  }
  return new RestSource(rest(null));
}
