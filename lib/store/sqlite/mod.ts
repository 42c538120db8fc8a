/**
 * The embedded store: one SQLite file (`node:sqlite`), the default store and,
 * with a shared graph store configured, the hooks' outbox and local index.
 * The hook imports this face directly: it always writes to the local file,
 * whatever store is configured, and must never load the Bolt driver, so the
 * contract it keeps is named here too.
 *
 * @example
 * ```ts
 * import { openEmbeddedStore } from "./mod.ts";
 * const store = openEmbeddedStore("/home/me/.local/share/rgraph/rgraph.db");
 * await store.close();
 * ```
 * @module
 */

export { openEmbeddedStore, type OpenOptions, SqliteStore, type SweepSignal } from "./store.ts";
export { type StoreFault, StoreFaultError } from "./faults.ts";
export { drainSpool, spoolDir, spoolTouches } from "./spool.ts";
export { SCHEMA_VERSION } from "./schema.ts";
export type { IndexMark, IndexUpdate } from "./local_index.ts";
export type { Store } from "../contract.ts";
