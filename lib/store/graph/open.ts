/**
 * Opening the shared graph store as a command does: connect, then bring the
 * hooks' outbox and the local index in step with the server (`outbox.ts`),
 * then keep that index in step with the store's own writes. This module owns
 * the composition, so the store (`store.ts`) and the sync (`outbox.ts`) do
 * not import each other.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../../config.ts";
 * import { openGraphStore } from "./open.ts";
 * const store = await openGraphStore(loadConfig()); // [store] url = "bolt://127.0.0.1:7687"
 * await store.getResource("github:memgraph/memgraph#123");
 * await store.close();
 * ```
 * @module
 */

import type { Config } from "../../config.ts";
import { StoreUnavailableError } from "../contract.ts";
import { openEmbeddedStore } from "../sqlite/mod.ts";
import { connectGraph, type GraphStore, type GraphTarget } from "./store.ts";
import { copyToGraph, type MigrateCounts, syncStores } from "./outbox.ts";

/**
 * Opens the graph store `[store] url` names, as the configured user (whose
 * pending Touches alone a Sweep through it leases). Unless `sync` is false,
 * it first moves the hooks' outbox into the graph store and refreshes the
 * local index, then keeps that index in step with its own writes, so every
 * command that opens it leaves the hooks up to date.
 */
export async function openGraphStore(
  config: Config,
  options: { sync?: boolean } = {},
): Promise<GraphStore> {
  if (config.store.url === null) throw new StoreUnavailableError("no [store] url is configured");
  const store = await connectGraph(
    {
      url: config.store.url,
      user: config.store.user,
      password: config.store.password,
      database: config.store.database,
    },
    { leaseUser: config.identity.user_id },
  );
  if (options.sync === false) return store;
  const local = openEmbeddedStore(config.store.path);
  try {
    await syncStores(local, store);
  } catch (e) {
    await local.close();
    await store.close();
    throw e;
  }
  store.attachLocalIndex(local);
  return store;
}

/**
 * `rgraph migrate`: copies the embedded store at `path` (its Resources,
 * Listings and `userId`'s Touches) into the graph store at `target`.
 */
export async function migrateToGraph(
  path: string,
  userId: string,
  target: GraphTarget,
): Promise<MigrateCounts> {
  const local = openEmbeddedStore(path);
  try {
    const graph = await connectGraph(target, { leaseUser: userId });
    try {
      return await copyToGraph(local, graph, userId);
    } finally {
      await graph.close();
    }
  } finally {
    await local.close();
  }
}
