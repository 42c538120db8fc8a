/**
 * The shared graph store (Memgraph or Neo4j over Bolt), loaded only when
 * `[store] url` is set: importing this brings the Bolt driver. `store.ts` is
 * the store, composed of one module per concern over one connection
 * (`connection.ts`, opened by `connect.ts`), `outbox.ts` moves the hooks' outbox, `index_sync.ts` keeps the
 * local index in step by the change stamp (`changes.ts`), `open.ts` composes
 * them as commands open the store, `model.ts` is the Context Graph family's
 * model and `cypher.ts` the statements the concern modules share,
 * `decode.ts` reads nodes whoever wrote them (`store_log.ts` logs those it
 * cannot), `server.ts` tells the servers and their versions apart,
 * `schema.ts` sets the schema up once per server, `retry.ts` says which
 * failures a transaction is run again for.
 *
 * @example
 * ```ts
 * import { openGraphStore } from "./mod.ts";
 * const store = await openGraphStore(config);
 * await store.close();
 * ```
 * @module
 */

export { connectGraph } from "./connect.ts";
export {
  type BoltCounts,
  type GraphOptions,
  GraphStore,
  type GraphTarget,
  type ServerReport,
} from "./store.ts";
export { MINIMUM_VERSION, type ServerIdentity, serverName } from "./server.ts";
export type { SchemaState } from "./schema.ts";
export { type MigrateCounts, type SyncReport } from "./outbox.ts";
export {
  forgetEverywhere,
  type GraphSync,
  migrateToGraph,
  openGraphStore,
  sendOutbox,
} from "./open.ts";
