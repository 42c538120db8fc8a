/**
 * The store: where Resources, Listings and Touches live. The embedded SQLite
 * file by default, the shared graph store when `[store] url` is set.
 * - `contract.ts` — the {@link Store} every implementation keeps;
 * - `sqlite/` — the embedded store (SQLite);
 * - `graph/` — the graph store and the outbox that feeds it;
 * - `declared.ts` — the edges a Resource declares, which both stores draw.
 *
 * The graph store (and the Bolt driver behind it) is imported only when one
 * is used, so commands on the embedded store, and the hook, never load it.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/mod.ts";
 * import { openStore } from "./mod.ts";
 * const store = await openStore(loadConfig());
 * await store.close();
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import type { ForgetCounts, ForgetQuery, Store } from "./contract.ts";
import type { GraphSync, GraphTarget, MigrateCounts } from "./graph/mod.ts";
import { drainSpool, openEmbeddedStore } from "./sqlite/mod.ts";

export {
  type Edge,
  type ForgetCounts,
  type ForgetQuery,
  IdentityRequiredError,
  type LeaseHeld,
  type MemoryEntry,
  type MemoryPage,
  type MemoryQuery,
  type MemoryStats,
  newestFetchFirst,
  type ResourceHead,
  type ResourceWrite,
  type Settlement,
  type Store,
  StoreUnavailableError,
  type TouchQuery,
  UnsupportedStoreError,
  type UserStats,
} from "./contract.ts";
export { forgetParams } from "./rules.ts";
export {
  drainSpool,
  openEmbeddedStore,
  SCHEMA_VERSION,
  SqliteStore,
  type StoreFault,
  StoreFaultError,
  type SweepSignal,
} from "./sqlite/mod.ts";
export { referenceKey } from "./declared.ts";
export { hasCredentials, isLoopback, printableUrl, transportOf } from "./bolt_url.ts";
export { LoginMismatchError } from "./login.ts";
export type {
  GraphSync,
  GraphTarget,
  MigrateCounts,
  ServerReport as GraphServerReport,
} from "./graph/mod.ts";

/**
 * The store the config names: the graph store at `store.url`, else SQLite at
 * `store.path`; either way, what hooks kept in the spool is recorded first.
 * With a graph store, `sync` says what the command needs brought in step
 * first (see {@link GraphSync}): a command that reads only the user's
 * Touches passes `outbox`, and leaves the local index alone.
 */
export async function openStore(
  config: Config,
  options: { sync?: GraphSync } = {},
): Promise<Store> {
  if (config.store.url !== null) {
    const { openGraphStore } = await import("./graph/mod.ts");
    return await openGraphStore(config, options);
  }
  const store = openEmbeddedStore(config.store.path);
  // What hooks kept back while the store was busy is recorded before anything reads it.
  await drainSpool(store);
  return store;
}

/**
 * With a graph store, sends the Touches hooks recorded locally since it was
 * opened on to the server (see `graph/open.ts`); the embedded store has no
 * outbox (0). Throws {@link StoreUnavailableError} when the server is down.
 */
export async function sendOutbox(store: Store): Promise<number> {
  if (store.kind !== "graph") return 0;
  const graph = await import("./graph/mod.ts");
  return await graph.sendOutbox(store as InstanceType<typeof graph.GraphStore>);
}

/**
 * With a graph store, the last time this machine's local index was synced
 * with it, and how many changed Resources and Listings that sync read from
 * the server (0: the server had not changed); `null` with the embedded store
 * or before the first sync. Reads the local file only.
 */
export async function localIndexSync(
  config: Config,
): Promise<{ server: string; at: string; read: number } | null> {
  if (config.store.url === null) return null;
  const local = openEmbeddedStore(config.store.path);
  try {
    const mark = await local.indexMark();
    return mark === null ? null : { server: mark.server, ...mark.last };
  } finally {
    await local.close();
  }
}

/** `rgraph migrate`: copies the embedded store at `path` into the graph store at `target`. */
export async function migrateToGraph(
  path: string,
  userId: string,
  target: GraphTarget,
  options: { sharedLogin: boolean },
): Promise<MigrateCounts> {
  const graph = await import("./graph/mod.ts");
  return await graph.migrateToGraph(path, userId, target, options);
}

/**
 * `rgraph forget`: deletes `userId`'s Touches that `query` selects from the
 * configured store — with a graph store, from the hooks' outbox and from the
 * server (see `graph/open.ts`). `dryRun` finds them and deletes nothing.
 */
export async function forgetTouches(
  config: Config,
  userId: string,
  query: ForgetQuery,
  options: { dryRun?: boolean } = {},
): Promise<ForgetCounts> {
  if (config.store.url !== null) {
    const graph = await import("./graph/mod.ts");
    return await graph.forgetEverywhere(config, userId, query, options);
  }
  const store = openEmbeddedStore(config.store.path);
  try {
    // Touches a hook kept in the spool are the user's too: recorded first, forgotten with the rest.
    await drainSpool(store);
    const touches = await store.forgetTouches(userId, query, options);
    return { touches, local: touches.length, shared: null };
  } finally {
    await store.close();
  }
}
