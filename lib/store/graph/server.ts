/**
 * Which graph server answers, its version, and whether rgraph runs on it.
 *
 * - Neo4j: `CALL dbms.components()` names the kernel, its version and edition.
 * - Memgraph: `SHOW VERSION` (an auto-commit query; Memgraph ≥ 2.2.0; under
 *   auth it needs the STATS privilege). Its Bolt agent never carries the
 *   version, and can be set to announce anything, so it only hints the kind.
 *
 * Oldest versions rgraph runs on, from the constructs its statements use:
 * Memgraph 2.3.0 (`FOREACH`; the Bolt 4.3 handshake neo4j-driver 6 needs
 * came in 2.1.0), Neo4j 4.4 (`CREATE CONSTRAINT … IF NOT EXISTS FOR … REQUIRE`).
 *
 * @example
 * ```ts
 * import { identify, refusal } from "./server.ts";
 * const server = await identify(agent, (q) => autoCommit(q));
 * refusal(server); // null, or why rgraph will not use it
 * ```
 * @module
 */

import { firstLine } from "../../errors.ts";
import type { Dialect } from "./model.ts";

/** The server rgraph is talking to. */
export interface ServerIdentity {
  kind: Dialect;
  /** As the server reports it (`5.26.18`, `3.4.0+12~abc`); null when it did not say. */
  version: string | null;
  /** Neo4j's edition (`community`, `enterprise`); null for Memgraph. */
  edition: string | null;
  /** Why the version is not known, when it is not. */
  unknown: string | null;
  /** When the version is not known but is older than this one. */
  olderThan: string | null;
}

/** The oldest version of each server rgraph runs on. */
export const MINIMUM_VERSION: Readonly<Record<Dialect, string>> = {
  memgraph: "2.3.0",
  neo4j: "4.4.0",
};

const NAMES: Readonly<Record<Dialect, string>> = { memgraph: "Memgraph", neo4j: "Neo4j" };

/** One statement on its own (auto-commit), its rows as plain objects. */
export type AutoCommit = (query: string) => Promise<Record<string, unknown>[]>;

/**
 * Asks the server what it is. The agent is the Bolt server agent (Memgraph
 * names itself there unless told otherwise); `run` sends one statement.
 */
export async function identify(agent: string, run: AutoCommit): Promise<ServerIdentity> {
  if (!/memgraph/i.test(agent)) {
    let kernel: Record<string, unknown> | undefined;
    try {
      const rows = await run(
        "CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition",
      );
      kernel = rows.find((r) => /neo4j/i.test(String(r.name)));
    } catch {
      // Only Neo4j has dbms.components().
    }
    if (kernel !== undefined) {
      const versions = Array.isArray(kernel.versions) ? kernel.versions : [];
      const version = typeof versions[0] === "string" ? versions[0] : null;
      return {
        kind: "neo4j",
        version,
        edition: typeof kernel.edition === "string" ? kernel.edition : null,
        unknown: version === null ? "dbms.components() named no version" : null,
        olderThan: null,
      };
    }
  }
  const memgraph = { kind: "memgraph" as const, edition: null, olderThan: null };
  try {
    const rows = await run("SHOW VERSION");
    const version = rows[0]?.version;
    return typeof version === "string"
      ? { ...memgraph, version, unknown: null }
      : { ...memgraph, version: null, unknown: "SHOW VERSION gave no version" };
  } catch (e) {
    const why = firstLine(e);
    if (/not authori[sz]ed/i.test(why)) {
      return {
        ...memgraph,
        version: null,
        unknown: "this user may not run SHOW VERSION (Memgraph's STATS privilege)",
      };
    }
    // Memgraph learnt SHOW VERSION in 2.2.0: an older one does not parse it.
    return {
      ...memgraph,
      version: null,
      unknown: `SHOW VERSION failed: ${why}`,
      olderThan: "2.2.0",
    };
  }
}

/**
 * The login the server says this connection is, from `SHOW CURRENT USER`
 * (Neo4j 4.2+, Community and Enterprise, no privilege needed; Memgraph
 * 2.18+); null when the server has no logins to tell (Neo4j with auth
 * disabled answers no row, Memgraph without users a null) or cannot say
 * (an older Memgraph does not parse the statement).
 *
 * @example
 * ```ts
 * await currentLogin(run); // "alice" (connected as alice), or null
 * ```
 */
export async function currentLogin(run: AutoCommit): Promise<string | null> {
  try {
    const [row] = await run("SHOW CURRENT USER");
    const login = row?.user ?? row?.username ?? Object.values(row ?? {})[0];
    return typeof login === "string" && login !== "" ? login : null;
  } catch {
    return null;
  }
}

/** The leading `X.Y.Z` of a version (`3.4.0+12~abc` is 3.4.0); null when there is none. */
export function parseVersion(text: string): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** Whether version `a` comes before version `b` (both `X.Y.Z`). */
export function isOlder(a: string, b: string): boolean {
  const x = parseVersion(a), y = parseVersion(b);
  if (x === null || y === null) return false;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** How the server is named in messages: `Memgraph 3.4.0`, `Neo4j 5.26.18 (community)`. */
export function serverName(s: ServerIdentity): string {
  const edition = s.edition ? ` (${s.edition})` : "";
  return `${NAMES[s.kind]} ${s.version ?? "(version unknown)"}${edition}`;
}

/** Why rgraph will not use this server (it is older than rgraph supports), or null. */
export function refusal(s: ServerIdentity): string | null {
  const minimum = MINIMUM_VERSION[s.kind];
  const tooOld = s.version !== null
    ? isOlder(s.version, minimum)
    : s.olderThan !== null && !isOlder(minimum, s.olderThan);
  if (!tooOld) return null;
  const found = s.version !== null
    ? `${NAMES[s.kind]} ${s.version}`
    : `${NAMES[s.kind]} older than ${s.olderThan}`;
  return `${found} is older than ${
    NAMES[s.kind]
  } ${minimum}, the oldest rgraph runs on: upgrade the server`;
}

/**
 * A short reason for a failed connection, from the driver's message (which
 * runs to several sentences of advice about encryption settings).
 *
 * @example
 * ```ts
 * unreachableReason("Failed to connect to server. Please ensure … Caused by: connect ECONNREFUSED 127.0.0.1:7687");
 * // "connection refused"
 * ```
 */
export function unreachableReason(message: string): string {
  const known: [RegExp, string][] = [
    [/ECONNREFUSED/, "connection refused"],
    [/ETIMEDOUT|timed out|timeout/i, "connection timed out"],
    [/ENOTFOUND|EAI_AGAIN/, "host not found"],
    [/ECONNRESET|closed by the server/i, "connection reset"],
    [/unauthori[sz]ed|authentication/i, "authentication failed: check [store] user and password"],
  ];
  for (const [pattern, reason] of known) if (pattern.test(message)) return reason;
  const first = message.split("\n")[0].split(". Please ensure")[0].trim();
  return first.length > 160 ? `${first.slice(0, 159)}…` : first;
}
