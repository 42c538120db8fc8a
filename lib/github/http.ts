/**
 * What both GitHub clients share: a bound on requests in flight, retries with
 * backoff for transient failures, and the errors the Sweep tells apart.
 *
 * @example
 * ```ts
 * import { Limiter, withRetries } from "./http.ts";
 * const limiter = new Limiter(4);
 * const text = await withRetries(() => limiter.run(() => fetch(url).then((r) => r.text())));
 * ```
 * @module
 */

import { redact } from "../errors.ts";

/**
 * The budgets GitHub keeps apart (`X-RateLimit-Resource`, GraphQL's
 * `rateLimit`): REST requests (`core`), REST searches (`search`, by the
 * minute) and GraphQL points. Spending one never spends another.
 */
export type RateResource = "core" | "search" | "graphql";

/** One of GitHub's budgets, as last reported. */
export interface Budget {
  remaining: number | null;
  limit: number | null;
  resetAt: string | null;
}

/** One budget of `resource` is spent: the work that needs it waits for a later run. */
export class RateLimitedError extends Error {
  constructor(
    readonly resetAt: string | null,
    detail = "GitHub rate limit reached",
    readonly resource: RateResource = "core",
  ) {
    super(
      `${detail}${resource === "core" ? "" : ` (${resource})`}${
        resetAt ? ` (resets ${resetAt})` : ""
      }`,
    );
    this.name = "RateLimitedError";
  }
}

/**
 * The part of an hour's budget (`limit` requests or points) a source keeps
 * back: `reserve` is the fraction (0.1 keeps the last 10% for the agent).
 */
export function keptBack(limit: number | null, reserve: number): number {
  return limit === null || reserve <= 0 ? 0 : Math.ceil(limit * reserve);
}

/** Why a source with a reserve stops before GitHub would. */
export const RESERVE_REACHED = "only the part of GitHub's hourly budget kept for the agent is left";

/** A failure worth retrying: 5xx, timeouts, connection resets, GraphQL execution timeouts. */
export class TransientError extends Error {
  /**
   * GitHub answered, with an error (a 5xx, a query that failed or timed out
   * on its side), as opposed to no answer at all (the network failed): only
   * an answer says something about what was asked for.
   */
  readonly answered: boolean;
  constructor(message: string, options?: { cause?: unknown; answered?: boolean }) {
    // GitHub's own words, which may quote what it was sent: the token stays out.
    super(redact(message), options);
    this.name = "TransientError";
    this.answered = options?.answered ?? false;
  }
}

/** GitHub refused the credentials (bad or expired token): no Touch is at fault. */
export class AuthError extends Error {
  constructor(status: number) {
    super(`GitHub refused the token (HTTP ${status}); check [github] token or 'gh auth status'`);
    this.name = "AuthError";
  }
}

/** Runs at most `max` tasks at once (GitHub's secondary limits punish bursts). */
export class Limiter {
  #active = 0;
  #queue: (() => void)[] = [];
  constructor(readonly max: number) {}

  /** Runs `task` when a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) await new Promise<void>((r) => this.#queue.push(r));
    this.#active++;
    try {
      return await task();
    } finally {
      this.#active--;
      this.#queue.shift()?.();
    }
  }
}

/** How retries back off. */
export interface RetryPolicy {
  attempts: number;
  baseMs: number;
}

/** Four tries, 0.4 s, 0.8 s, 1.6 s apart (plus jitter). */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 400 };

/** One try: for a request that is itself the retry of a failed one (a half of a failed batch). */
export const ONE_TRY: RetryPolicy = { attempts: 1, baseMs: 0 };

/**
 * Runs `task`, retrying on {@link TransientError} with exponential backoff;
 * `task` is given the attempt number, so a retry may ask for less (a smaller
 * GraphQL page after a timeout). `policy` undefined means {@link DEFAULT_RETRY}.
 * The last transient error is rethrown: the caller gives its Touches back as pending.
 */
export async function withRetries<T>(
  task: (attempt: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await task(attempt);
    } catch (e) {
      if (!(e instanceof TransientError) || attempt + 1 >= policy.attempts) throw e;
      const delay = policy.baseMs * 2 ** attempt * (1 + Math.random() * 0.25);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** True for an HTTP status worth retrying. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408;
}

/**
 * Replaces every occurrence of `secret` in `text`, and every secret the
 * process holds (`redact`): error messages never carry the token.
 */
export function scrub(text: string, secret: string | null): string {
  return redact(secret ? text.split(secret).join("[token]") : text);
}

/** A fetch that gives up after `ms` (a hung connection is a transient failure, not a hang). */
export function timedFetch(ms = 30_000): typeof fetch {
  return (input, init = {}) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
}

/** Whether a thrown fetch error is a network failure or timeout (retryable). */
export function isNetworkError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return e.name === "TypeError" || e.name === "AbortError" || e.name === "TimeoutError" ||
    e.name === "ConnectionReset" || e.name === "ConnectionRefused" || e.name === "Interrupted";
}
