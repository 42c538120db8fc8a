/**
 * GitHub's REST budgets, one per resource: every response's `X-RateLimit-*`
 * headers describe the budget its `X-RateLimit-Resource` names (`core` for
 * most requests, `search` for `/search/…`, which refills by the minute), and
 * `GET /rate_limit` describes them all. A search answer never says anything
 * about the core budget, and the other way round.
 *
 * @example
 * ```ts
 * import { RestBudgets, restResource } from "./rest_budget.ts";
 * const budgets = new RestBudgets();
 * budgets.note(response.headers, restResource(apiUrl, url));
 * budgets.get("core").remaining; // 59
 * ```
 * @module
 */

import type { Budget, RateResource } from "./http.ts";

/** The REST budgets rgraph spends. */
export type RestResource = Extract<RateResource, "core" | "search">;

/** One budget as the headers say it: `reset` in epoch seconds. */
interface Seen {
  remaining: number | null;
  limit: number | null;
  reset: number | null;
}

/** The budget a request to `url` (under `apiUrl`) spends. */
export function restResource(apiUrl: string, url: string): RestResource {
  const path = url.startsWith(apiUrl) ? url.slice(apiUrl.length) : new URL(url).pathname;
  return path.startsWith("/search/") ? "search" : "core";
}

function isRestResource(v: string | null): v is RestResource {
  return v === "core" || v === "search";
}

function finite(v: unknown): number | null {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/** What one client has heard of each REST budget. */
export class RestBudgets {
  readonly #seen = new Map<RestResource, Seen>();

  /** The budget of `resource` (reset in epoch seconds; all null until reported). */
  seen(resource: RestResource): Seen {
    return this.#seen.get(resource) ?? { remaining: null, limit: null, reset: null };
  }

  /** The budget of `resource` as the Sweep reads it. */
  get(resource: RestResource): Budget {
    const s = this.seen(resource);
    return {
      remaining: s.remaining,
      limit: s.limit,
      resetAt: s.reset === null ? null : new Date(s.reset * 1000).toISOString(),
    };
  }

  /** Every budget reported so far. */
  all(): Partial<Record<RestResource, Budget>> {
    return Object.fromEntries([...this.#seen.keys()].map((r) => [r, this.get(r)]));
  }

  /**
   * Reads a response's headers into the budget they describe: the one
   * `X-RateLimit-Resource` names, else `asked` (the budget the request
   * spends). Headers of a budget rgraph does not spend are ignored.
   */
  note(headers: Headers, asked: RestResource): void {
    const named = headers.get("x-ratelimit-resource");
    const resource = named === null ? asked : named;
    if (!isRestResource(resource)) return;
    const remaining = finite(headers.get("x-ratelimit-remaining"));
    const limit = finite(headers.get("x-ratelimit-limit"));
    const reset = finite(headers.get("x-ratelimit-reset"));
    // An answer without the headers (some errors) says nothing of any budget.
    if (remaining === null && limit === null && reset === null) return;
    const before = this.seen(resource);
    this.#seen.set(resource, {
      remaining: remaining ?? before.remaining,
      limit: limit ?? before.limit,
      reset: reset ?? before.reset,
    });
  }

  /** Reads `GET /rate_limit`'s body: `{resources: {core: {limit, remaining, reset}, search: …}}`. */
  learn(body: unknown): void {
    const resources = (body as { resources?: Record<string, unknown> } | null)?.resources;
    if (typeof resources !== "object" || resources === null) return;
    for (const [name, v] of Object.entries(resources)) {
      if (!isRestResource(name) || typeof v !== "object" || v === null) continue;
      const r = v as Record<string, unknown>;
      this.#seen.set(name, {
        remaining: finite(r.remaining),
        limit: finite(r.limit),
        reset: finite(r.reset),
      });
    }
  }
}
