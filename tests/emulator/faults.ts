/**
 * Failures the emulator injects for chosen issues and pull requests, shaped
 * as GitHub's: an error attached to one item's node (the rest of the answer
 * stands, as GitHub returns `data` with `errors` carrying `type`, `path` and
 * `message`), or a whole request that fails because it asks for the item.
 *
 * @example
 * ```ts
 * gh.faultItem("o", "r", 7, { kind: "node", type: "INTERNAL" }, 1); // once
 * gh.faultItem("o", "r", 9, { kind: "request", failure: "graphql-timeout" }); // always
 * ```
 * @module
 */

/**
 * How an injected failure answers a whole request: an HTTP status; GitHub's
 * GraphQL timeout error (HTTP 200); a connection dropped mid-body (`reset`);
 * or no answer until the client gives up or the emulator closes (`hang`).
 */
export type Failure = number | "graphql-timeout" | "reset" | "hang";

/** A failure GitHub has on one item. */
export type ItemFault =
  /**
   * GraphQL: the item's node is null and an error names its path. `type`
   * omitted: an untyped error, as GitHub sends some. REST answers as usual.
   */
  | { kind: "node"; type?: string; message?: string }
  /** Every request that asks for the item (GraphQL or REST) fails as a whole. */
  | { kind: "request"; failure: Failure };

/** GitHub's wording for an internal failure it attaches to one node. */
export const INTERNAL_MESSAGE = "An internal error occurred while resolving this field.";

/** The faults of one emulator, by item. */
export class Faults {
  readonly #items = new Map<string, { fault: ItemFault; left: number }>();

  static #key(owner: string, repo: string, number: number): string {
    return `${owner.toLowerCase()}/${repo.toLowerCase()}#${number}`;
  }

  /** The next `times` requests asking for the item meet `fault` (default: every one). */
  set(owner: string, repo: string, number: number, fault: ItemFault, times = Infinity): void {
    this.#items.set(Faults.#key(owner, repo, number), { fault, left: times });
  }

  /** The fault a request asking for the item meets now, if any (using up one of its times). */
  take(owner: string, repo: string, number: number): ItemFault | null {
    const key = Faults.#key(owner, repo, number);
    const f = this.#items.get(key);
    if (!f) return null;
    if (--f.left <= 0) this.#items.delete(key);
    return f.fault;
  }

  clear(): void {
    this.#items.clear();
  }
}

/** `/repos/OWNER/REPO/issues/N…` and `/repos/OWNER/REPO/pulls/N…`: the item a REST path asks for. */
export function restItem(path: string): { owner: string; repo: string; number: number } | null {
  const m = /^\/repos\/([^/]+)\/([^/]+)\/(?:issues|pulls)\/(\d+)(?:\/|$)/.exec(path);
  return m
    ? { owner: decodeURIComponent(m[1]), repo: decodeURIComponent(m[2]), number: Number(m[3]) }
    : null;
}
