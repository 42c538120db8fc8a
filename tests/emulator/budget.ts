/**
 * Rate-limit buckets: GitHub's primary limits, one bucket per caller and
 * resource (REST core, search, GraphQL points), reset hourly.
 *
 * @example
 * ```ts
 * const b = newBucket(60, 3600);
 * charge(b, 1); // true until 60 have been used
 * ```
 * @module
 */

/** One caller's budget for one resource. */
export interface Bucket {
  limit: number;
  used: number;
  /** Epoch seconds when the bucket refills. */
  resetAt: number;
  /** Length of a window in seconds. */
  window: number;
}

/** A full bucket of `limit` points per `window` seconds. */
export function newBucket(limit: number, window = 3600): Bucket {
  return { limit, used: 0, resetAt: Math.floor(Date.now() / 1000) + window, window };
}

/** Refills the bucket if its window has passed. */
function refresh(b: Bucket): void {
  const now = Math.floor(Date.now() / 1000);
  if (now >= b.resetAt) {
    b.used = 0;
    b.resetAt = now + b.window;
  }
}

/** Takes `points` from the bucket; false (and nothing taken) if it lacks them. */
export function charge(b: Bucket, points: number): boolean {
  refresh(b);
  if (b.used + points > b.limit) return false;
  b.used += points;
  return true;
}

/** The `X-RateLimit-*` headers of a bucket. */
export function rateHeaders(b: Bucket, resource: string): Record<string, string> {
  return {
    "x-ratelimit-limit": String(b.limit),
    "x-ratelimit-remaining": String(Math.max(0, b.limit - b.used)),
    "x-ratelimit-reset": String(b.resetAt),
    "x-ratelimit-used": String(b.used),
    "x-ratelimit-resource": resource,
  };
}
