/**
 * A store opened on first use, for a long-lived server (`rgraph serve-mcp`):
 * a shared graph store that is down must not stop the server from starting,
 * and must not make every call wait for a connection attempt either. While
 * the store cannot be reached, calls fail fast with the last
 * {@link StoreUnavailableError} and a new attempt is made only once a backoff
 * (doubling from `minRetryMs` up to `maxRetryMs`) has passed.
 *
 * @example
 * ```ts
 * import { StoreConnection } from "./connection.ts";
 * import { openStore } from "../store/mod.ts";
 * const conn = new StoreConnection(() => openStore(config));
 * const n = await conn.use((store) => store.recordTouches([]));
 * await conn.close();
 * ```
 * @module
 */

import { type Store, StoreUnavailableError } from "../store/mod.ts";

/** Backoff and clock for {@link StoreConnection}; tests pass a fake clock. */
export interface ConnectionOptions {
  /** Wait after the first failure before trying again. Default 1 s. */
  minRetryMs?: number;
  /** Longest wait between attempts. Default 30 s. */
  maxRetryMs?: number;
  now?: () => number;
}

/** Opens a store lazily and re-opens it after the shared store was lost. */
export class StoreConnection {
  readonly #open: () => Promise<Store>;
  readonly #minRetryMs: number;
  readonly #maxRetryMs: number;
  readonly #now: () => number;
  #store: Promise<Store> | null = null;
  #failure: { error: StoreUnavailableError; retryAt: number; waitMs: number } | null = null;

  constructor(open: () => Promise<Store>, options: ConnectionOptions = {}) {
    this.#open = open;
    this.#minRetryMs = options.minRetryMs ?? 1_000;
    this.#maxRetryMs = options.maxRetryMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  /** A connection to a store that is already open (the embedded store opens eagerly). */
  static of(store: Store, options: ConnectionOptions = {}): StoreConnection {
    const conn = new StoreConnection(() => Promise.resolve(store), options);
    conn.#store = Promise.resolve(store);
    return conn;
  }

  /**
   * Runs `work` on the store, opening it first if needed. Throws
   * {@link StoreUnavailableError} without trying while a backoff runs; a
   * store lost during `work` is closed so the next attempt re-opens it (which
   * drains the hooks' outbox again).
   */
  async use<T>(work: (store: Store) => Promise<T>): Promise<T> {
    const failure = this.#failure;
    if (failure !== null && this.#now() < failure.retryAt) throw failure.error;
    // Concurrent first calls share one attempt.
    const opening = this.#store ??= this.#open();
    let store: Store;
    try {
      store = await opening;
    } catch (e) {
      if (this.#store === opening) this.#store = null;
      throw this.#failed(e);
    }
    try {
      const out = await work(store);
      this.#failure = null;
      return out;
    } catch (e) {
      if (e instanceof StoreUnavailableError && this.#store === opening) {
        this.#store = null;
        await store.close().catch(() => {});
      }
      throw this.#failed(e);
    }
  }

  /** Records an unreachable store for the backoff; passes any error through. */
  #failed(e: unknown): unknown {
    if (!(e instanceof StoreUnavailableError)) return e;
    const waitMs = this.#failure === null
      ? this.#minRetryMs
      : Math.min(this.#failure.waitMs * 2, this.#maxRetryMs);
    this.#failure = { error: e, retryAt: this.#now() + waitMs, waitMs };
    return e;
  }

  /** Closes the store if one is open. */
  async close(): Promise<void> {
    const opening = this.#store;
    this.#store = null;
    if (opening === null) return;
    try {
      await (await opening).close();
    } catch {
      // It never opened: nothing to close.
    }
  }
}
