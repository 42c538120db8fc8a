/**
 * Opening the shared graph store as a command does: connect, then bring the
 * hooks' outbox and the local index in step with the server (`outbox.ts`),
 * then keep that index in step with the store's own writes. This module owns
 * the composition, so the store (`store.ts`) and the sync (`outbox.ts`) do
 * not import each other.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../../config/mod.ts";
 * import { openGraphStore } from "./open.ts";
 * const store = await openGraphStore(loadConfig()); // [store] url = "bolt://127.0.0.1:7687"
 * await store.getResource("github:memgraph/memgraph#123");
 * await store.close();
 * ```
 * @module
 */

import type { Config } from "../../config/mod.ts";
import { UserError } from "../../errors.ts";
import type { Touch } from "../../types.ts";
import { type ForgetCounts, type ForgetQuery, StoreUnavailableError } from "../contract.ts";
import { drainSpool, openEmbeddedStore, type SqliteStore } from "../sqlite/mod.ts";
import { connectGraph } from "./connect.ts";
import type { GraphStore, GraphTarget } from "./store.ts";
import { copyToGraph, drainOutbox, type MigrateCounts, syncStores } from "./outbox.ts";
import { storeLog } from "./store_log.ts";
import {
  loginMismatch,
  LoginMismatchError,
  type LoginRefusal,
  SHARED_LOGIN_QUERY,
} from "../login.ts";

/**
 * Connects to the graph store `[store] url` names, as the configured user;
 * nodes it cannot read are logged to `store.log` in the data directory.
 */
async function connectConfigured(config: Config): Promise<GraphStore> {
  if (config.store.url === null) throw new StoreUnavailableError("no [store] url is configured");
  const store = await connectGraph(
    {
      url: config.store.url,
      user: config.store.user,
      password: config.store.password,
      database: config.store.database,
    },
    { leaseUser: config.identity.user_id, onSkip: storeLog(config.data_dir) },
  );
  return await asIdentity(store, config.identity.user_id, config);
}

/**
 * Why `store`'s login may not act as `userId` (see {@link loginMismatch}), or
 * null; asks the server whether its team shares one login only when that
 * matters.
 */
async function loginRefusal(
  store: GraphStore,
  userId: string | null,
  configShared: boolean,
): Promise<LoginRefusal | null> {
  const facts = { login: store.login, userId, configShared, serverShared: false };
  if (loginMismatch(facts) === null && !configShared) return null;
  const [row] = await store.cypher(SHARED_LOGIN_QUERY);
  return loginMismatch({ ...facts, serverShared: row?.shared === true });
}

/** `store`, or a refusal (closing it) when its login may not act as `userId`. */
async function asIdentity(
  store: GraphStore,
  userId: string | null,
  config: Config,
): Promise<GraphStore> {
  let why: LoginRefusal | null;
  try {
    why = await loginRefusal(store, userId, config.store.shared_login);
  } catch (e) {
    await store.close();
    throw e;
  }
  if (why === null) return store;
  await store.close();
  throw new LoginMismatchError(store.login!, why, config.file);
}

/**
 * How much of the sync a command opening the graph store runs: `index`
 * moves the hooks' outbox into the graph store and refreshes the local index
 * (commands that read what is stored, and leave the hooks' Nudge up to date
 * for the team's latest); `outbox` only moves the outbox (commands that read
 * the user's Touches); `none` neither.
 */
export type GraphSync = "index" | "outbox" | "none";

/**
 * Opens the graph store `[store] url` names, as the configured user (whose
 * pending Touches alone a Sweep through it leases), running the `sync`
 * asked (see {@link GraphSync}); unless `none`, it then keeps the local
 * index in step with its own writes.
 */
export async function openGraphStore(
  config: Config,
  options: { sync?: GraphSync } = {},
): Promise<GraphStore> {
  const sync = options.sync ?? "index";
  if (sync === "none") return await connectConfigured(config);
  // The local outbox opens, and the hooks' spool joins it, while the server is reached.
  const connecting = connectConfigured(config);
  let local: SqliteStore | null = null;
  try {
    local = openEmbeddedStore(config.store.path);
    await drainSpool(local);
  } catch (e) {
    await local?.close();
    await connecting.then((s) => s.close(), () => {});
    throw e;
  }
  let store: GraphStore;
  try {
    store = await connecting;
  } catch (e) {
    await local.close();
    throw e;
  }
  try {
    await syncStores(local, store, sync === "index");
  } catch (e) {
    await local.close();
    await store.close();
    throw e;
  }
  store.attachLocalIndex(local);
  return store;
}

/**
 * Sends what hooks recorded since the store opened (the spool, then the
 * outbox) on to the graph store, without refreshing the local index: what a
 * long-running reader (`rgraph view`) does to show a session's new Touches
 * as they arrive. Returns how many Touches were sent; 0 without a local index.
 *
 * @example
 * ```ts
 * const store = await openGraphStore(config);
 * await sendOutbox(store); // 0 when no hook recorded anything since
 * ```
 */
export async function sendOutbox(store: GraphStore): Promise<number> {
  const local = store.localIndex;
  if (local === null) return 0;
  await drainSpool(local);
  return await drainOutbox(local, store);
}

/**
 * `rgraph migrate`: copies the embedded store at `path` (its Resources,
 * Listings and `userId`'s Touches) into the graph store at `target`, whose
 * login must be `userId`'s unless the server says the team shares one and
 * `sharedLogin` acknowledges it (see {@link loginMismatch}).
 */
export async function migrateToGraph(
  path: string,
  userId: string,
  target: GraphTarget,
  options: { sharedLogin: boolean },
): Promise<MigrateCounts> {
  const local = openEmbeddedStore(path);
  try {
    const graph = await connectGraph(target, { leaseUser: userId });
    try {
      // The Touches copied become userId's on the server: the login must be theirs too.
      const why = await loginRefusal(graph, userId, options.sharedLogin);
      if (why !== null) throw new UserError(`${why.problem}: ${why.fix}`);
      return await copyToGraph(local, graph, userId);
    } finally {
      await graph.close();
    }
  } finally {
    await local.close();
  }
}

/**
 * `rgraph forget` with a graph store: `userId`'s Touches that `query`
 * selects go from the local outbox (sent or not yet) and then from the
 * server (which also holds those recorded elsewhere). The outbox is not
 * drained first, so a Touch not sent yet never reaches the server. When the
 * server cannot be reached, the outbox is forgotten all the same and the
 * error says to run the forget again.
 */
export async function forgetEverywhere(
  config: Config,
  userId: string,
  query: ForgetQuery,
  options: { dryRun?: boolean },
): Promise<ForgetCounts> {
  let graph: GraphStore | null = null;
  let down: StoreUnavailableError | null = null;
  try {
    graph = await connectConfigured(config);
  } catch (e) {
    if (!(e instanceof StoreUnavailableError) || options.dryRun) throw e;
    down = e;
  }
  const local = openEmbeddedStore(config.store.path);
  try {
    // Touches a hook kept in the spool are the user's too: recorded first, forgotten with the rest.
    await drainSpool(local);
    const here = await local.forgetTouches(userId, query, options);
    let there: Touch[];
    try {
      if (graph === null) throw down;
      there = await graph.forgetTouches(userId, query, options);
    } catch (e) {
      if (!(e instanceof StoreUnavailableError) || options.dryRun) throw e;
      throw new UserError(
        `${here.length} ${here.length === 1 ? "Touch was" : "Touches were"} forgotten from ` +
          `the local outbox, but ${e.message}: ` +
          "run the same forget again once it is back to forget the shared store's",
      );
    }
    // One event has a local and a shared copy (same dedup key); the shared one is current.
    const byEvent = new Map<string, Touch>();
    for (const t of [...here, ...there]) byEvent.set(t.dedup_key, t);
    const touches = [...byEvent.values()].sort((a, b) =>
      a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : 0
    );
    return { touches, local: here.length, shared: there.length };
  } finally {
    await local.close();
    await graph?.close();
  }
}
