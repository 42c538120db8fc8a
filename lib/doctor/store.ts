/**
 * `rgraph doctor`'s checks of the store and the GitHub token.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import type { Config } from "../config/mod.ts";
import {
  type GraphServerReport,
  isLoopback,
  LoginMismatchError,
  MEMGRAPH_SEARCH_FIX,
  printableUrl,
  SCHEMA_VERSION,
  type Store,
  StoreFaultError,
  transportOf,
  UnsupportedStoreError,
  type UserStats,
} from "../store/mod.ts";
import { firstLine } from "../errors.ts";
import { formatSize } from "../host/mod.ts";
import { type Check, fail, ok, warn } from "./check.ts";

/** The store as doctor names it: the graph store's URL without its credentials, else the file. */
function storeName(config: Config): string {
  return config.store.url === null ? config.store.path : printableUrl(config.store.url);
}

/**
 * The store: reachable, its schema, its size; with an identity, also the
 * user's counts that the automatic-sweep check reads (or why they could not
 * be read), from the same store handle: doctor opens the store once.
 */
export async function storeChecks(
  config: Config,
): Promise<{ checks: Check[]; stats: UserStats | Error | null }> {
  const user = config.identity.user_id;
  let stats: UserStats | Error | null = null;
  const checks = await storeChecksWith(config, async (store) => {
    if (user) {
      stats = await store.userStats(user).catch((e) =>
        e instanceof Error ? e : new Error(String(e))
      );
    }
  });
  return { checks, stats: stats ?? (user ? new Error("the store could not be opened") : null) };
}

async function storeChecksWith(
  config: Config,
  alsoRead: (store: Store) => Promise<void>,
): Promise<Check[]> {
  const out: Check[] = [];
  if (config.store.url === null) {
    const version = schemaOnDisk(config.store.path);
    if (version !== null && version > SCHEMA_VERSION) {
      return [
        fail(
          "store schema",
          `${config.store.path} has schema v${version}, newer than this rgraph (v${SCHEMA_VERSION})`,
          "upgrade rgraph",
        ),
      ];
    }
  }
  try {
    const { openStore } = await import("../store/mod.ts");
    const store = await openStore(config, { sync: "outbox" });
    try {
      const m = await store.memoryStats();
      const where = storeName(config);
      const resources = Object.values(m.resources).reduce((a, b) => a + b, 0);
      out.push(
        ok(
          "store",
          `${where} (${store.kind}; ${resources} resources, ${m.comments} comments; ${
            m.size_bytes === null ? "size unknown" : formatSize(m.size_bytes)
          })`,
        ),
      );
      if (store.kind === "sqlite") out.push(ok("store schema", `v${SCHEMA_VERSION} (current)`));
      else {
        out.push(...graphChecks(await serverReport(store)));
        out.push(loginCheck((store as Store & { login: string | null }).login, config));
      }
      await alsoRead(store);
    } finally {
      await store.close();
    }
  } catch (e) {
    const where = storeName(config);
    if (e instanceof StoreFaultError) return [...out, fail("store", e.problem, e.fix)];
    if (e instanceof LoginMismatchError) {
      out.push(fail("store login", `${config.file}: ${e.refusal.problem}`, e.refusal.fix));
      return [...out, transportCheck(config.store.url!), await writableCheck(config.store.path)];
    }
    if (e instanceof UnsupportedStoreError) {
      return [...out, fail("store", e.message, e.fix), await writableCheck(config.store.path)];
    }
    out.push(
      fail(
        "store",
        `${where}: ${firstLine(e)}`,
        config.store.url
          ? `start the graph store at ${where} or fix [store] url/user/password in ${config.file}`
          : `make ${where} writable or set [store] path in ${config.file}`,
      ),
    );
    if (config.store.url === null) return out;
  }
  if (config.store.url !== null) out.push(transportCheck(config.store.url));
  out.push(await writableCheck(config.store.path));
  return out;
}

/**
 * Who the graph server says this connection is, against `[identity]
 * user_id`: the login is what keeps one user's Touches from another
 * rgraph user (see SECURITY.md).
 */
function loginCheck(login: string | null, config: Config): Check {
  if (login === null) {
    return warn(
      "store login",
      "the server names no login (authentication off, or a server too old to say): " +
        "every rgraph user of it can read and forget every Touch",
      "enable authentication on the server and give each person a login of their own ([store] user)",
    );
  }
  if (config.store.shared_login) {
    return warn(
      "store login",
      `'${login}', shared by the team (the server says so, and [store] shared_login): Touches are private by convention only`,
      "give each person a login of their own ([store] user), and remove the server's RgraphSetting and [store] shared_login",
    );
  }
  return ok("store login", `'${login}', the same as [identity] user_id`);
}

/** How the connection to the graph store travels, as `[store] url` asks. */
function transportCheck(url: string): Check {
  const transport = transportOf(url);
  if (transport === "tls") return ok("store transport", "TLS, the server's certificate verified");
  if (transport === "tls-unverified") {
    return warn(
      "store transport",
      "TLS without verifying the certificate (+ssc): encrypted, but anyone on the path could pose as the server",
      "give the server a certificate this system trusts and use bolt+s:// (or neo4j+s://)",
    );
  }
  if (isLoopback(url)) return ok("store transport", "unencrypted, on this machine only");
  return warn(
    "store transport",
    "unencrypted: the password and every Touch cross the network in the clear",
    "enable TLS on the server and use bolt+s:// (or neo4j+s://) in [store] url",
  );
}

/** The graph server's report; only a graph store has one. */
function serverReport(store: Store): Promise<GraphServerReport> {
  return (store as Store & { serverReport(): Promise<GraphServerReport> }).serverReport();
}

/** Which server the graph store is, against the oldest rgraph runs on, and its schema record. */
function graphChecks(report: GraphServerReport): Check[] {
  const { server, minimum, schema } = report;
  const name = server.kind === "neo4j" ? "Neo4j" : "Memgraph";
  const needs = `rgraph runs on ${name} ${minimum} or later`;
  const edition = server.edition ? ` (${server.edition})` : "";
  const out: Check[] = [
    server.version === null
      ? warn(
        "store server",
        `${name}, version unknown (${server.unknown}); ${needs}`,
        `make sure the server is ${name} ${minimum} or later${
          server.kind === "memgraph" ? ", or grant this user Memgraph's STATS privilege" : ""
        }`,
      )
      : ok("store server", `${name} ${server.version}${edition}; ${needs}`),
  ];
  const applied = schema.applied_at
    ? `applied ${schema.applied_at}${schema.server ? ` on ${schema.server}` : ""}`
    : "not recorded";
  if (!schema.current) {
    out.push(
      warn(
        "store schema",
        `this rgraph's schema (${schema.tag}) is not recorded on the server (last ${applied})`,
        "run any rgraph command against the store to set it up",
      ),
    );
  } else if (schema.degraded.length) {
    // Search: a Memgraph without text search says what to enable (see lib/store/graph/search.ts).
    const noSearch = schema.degraded.some((d) => d.startsWith("text search unavailable"));
    out.push(
      warn(
        "store schema",
        `${schema.tag} ${applied}; ${schema.degraded.join("; ")}`,
        noSearch
          ? `${MEMGRAPH_SEARCH_FIX} (delete the (:RgraphLock {name: 'schema'}) node first)`
          : "remove the duplicate nodes (or the other index on that key) and delete the (:RgraphLock {name: 'schema'}) node, so the next command sets the schema up again",
      ),
    );
  } else out.push(ok("store schema", `${schema.tag} ${applied}, every rule in force`));
  return out;
}

/** How long doctor waits for another process's lock before calling the store locked. */
const PROBE_BUSY_MS = 1000;

/**
 * The local file every hook writes to (the store itself, or a graph store's
 * outbox): a write is tried and rolled back, so a read-only or locked file
 * fails here instead of every hook dropping its Touch.
 */
async function writableCheck(path: string): Promise<Check> {
  const { openEmbeddedStore } = await import("../store/mod.ts");
  try {
    const store = openEmbeddedStore(path, { busyTimeoutMs: PROBE_BUSY_MS });
    try {
      await store.probeWrite();
    } finally {
      await store.close();
    }
    return ok("store writable", `${path} (hooks can record: not read-only, not locked)`);
  } catch (e) {
    if (e instanceof StoreFaultError) return fail("store writable", e.problem, e.fix);
    return fail("store writable", `${path}: ${firstLine(e)}`, `make ${path} writable`);
  }
}

/** The `user_version` of an existing database file, without changing it. */
function schemaOnDisk(path: string): number | null {
  try {
    Deno.statSync(path);
  } catch {
    return null;
  }
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** The GitHub token: present, and (with `online`) accepted by GitHub. */
export async function tokenCheck(config: Config, online: boolean): Promise<Check> {
  const token = config.github.token;
  if (!token) {
    // Not a failure: the sweep works without one, within GitHub's anonymous limit.
    return ok(
      "github token",
      `none: the sweep uses anonymous REST (60 requests an hour); add [github] token to ${config.file} for 5,000`,
    );
  }
  if (!online) return ok("github token", "present (not checked; --online asks GitHub)");
  try {
    const res = await fetch(config.github.graphql_url, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "query { viewer { login } }" }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = await res.json().catch(() => null) as
      | { data?: { viewer?: { login?: string } } }
      | null;
    const login = body?.data?.viewer?.login;
    if (res.ok && login) return ok("github token", `valid (GitHub login ${login})`);
    return fail(
      "github token",
      `rejected by ${config.github.graphql_url} (HTTP ${res.status})`,
      `replace [github] token in ${config.file} with a valid token`,
    );
  } catch (e) {
    return fail(
      "github token",
      `cannot reach ${config.github.graphql_url}: ${firstLine(e)}`,
      "check the network or [github] graphql_url",
    );
  }
}
