/**
 * Opening the configured store: the embedded SQLite file by default, the
 * shared graph store when `[store] url` is set. The graph store (and the Bolt
 * driver behind it) is imported only when configured, so commands on the
 * embedded store never load it. The hook imports `./sqlite.ts` directly: it
 * always writes to the local file, whatever store is configured.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config.ts";
 * import { openStore } from "./mod.ts";
 * const store = await openStore(loadConfig());
 * await store.close();
 * ```
 * @module
 */

import type { Config } from "../config.ts";
import type { Store } from "./contract.ts";
import { openEmbeddedStore } from "./sqlite.ts";

export { openEmbeddedStore, SqliteStore } from "./sqlite.ts";

/** The store the config names: the graph store at `store.url`, else SQLite at `store.path`. */
export async function openStore(config: Config): Promise<Store> {
  if (config.store.url !== null) {
    const { openGraphStore } = await import("./graph/store.ts");
    return await openGraphStore(config);
  }
  return openEmbeddedStore(config.store.path);
}
