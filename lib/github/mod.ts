/**
 * The GitHub source: what the Sweep fetches through. GraphQL (octokit) when
 * a token is configured, anonymous REST otherwise, both behind one
 * {@link Source} interface; responses are decoded at the boundary
 * (`decode.ts`, `types.ts`), so schema drift fails loudly.
 *
 * @example
 * ```ts
 * import { openSource } from "./mod.ts";
 * const source = await openSource(config.github);
 * source.mode; // "graphql" | "rest"
 * ```
 * @module
 */

export { openSource, type SourceOptions } from "./open.ts";
export {
  type Budget,
  type ChangedHead,
  type Fetched,
  type ListedMember,
  type ListedPage,
  type ListingPage,
  type RateResource,
  type RepositoryAlong,
  type Revalidated,
  type Source,
  type StoredHead,
  UnavailableError,
} from "./source.ts";
export {
  AuthError,
  keptBack,
  Limiter,
  RateLimitedError,
  type RetryPolicy,
  TransientError,
} from "./http.ts";
export { itemPoints, listingPoints } from "./queries.ts";
