/**
 * Opening the graph store's connection: the Bolt driver made, the server
 * identified and refused when too old, its schema set up, and a failure to
 * reach it (a refused TLS certificate named) told as one line with the way out.
 *
 * @example
 * ```ts
 * import { connectGraph } from "./connect.ts";
 * const store = await connectGraph({ url: "bolt://127.0.0.1:7687", user: null, password: null, database: null });
 * await store.close();
 * ```
 * @module
 */

import neo4j, { type Driver } from "neo4j-driver";
import { StoreUnavailableError, UnsupportedStoreError } from "../contract.ts";
import { firstLine } from "../../errors.ts";
import { printableUrl } from "../bolt_url.ts";
import { retrying } from "./retry.ts";
import { certificateProblem } from "./tls.ts";
import { currentLogin, identify, MINIMUM_VERSION, refusal, serverName } from "./server.ts";
import { ensureSchema, type SchemaSession } from "./schema.ts";
import {
  bolt,
  type GraphTarget,
  inTransaction,
  isUnreachable,
  type Params,
  rowsOf,
  unreachable,
} from "./connection.ts";
import { type GraphOptions, GraphStore } from "./store.ts";

/**
 * {@link unreachable}, naming the certificate when TLS verification is what
 * failed (`bolt+s`, `neo4j+s`), with the way out: `+ssc` encrypts without
 * verifying, for a self-signed server the team trusts.
 */
async function unreachableAtConnect(url: string, e: unknown): Promise<StoreUnavailableError> {
  const message = String((e as Error)?.message ?? e);
  if (!/^(bolt|neo4j)\+s:/i.test(url) || !/certificate/i.test(message)) return unreachable(url, e);
  const problem = await certificateProblem(url);
  const what = problem ?? "not trusted";
  return new StoreUnavailableError(
    `${printableUrl(url)}: its TLS certificate was refused: ${what}; give the server a ` +
      `certificate this system trusts, or use ${
        printableUrl(url).replace(/\+s:/i, "+ssc:")
      } to encrypt without verifying it`,
    e,
  );
}

/**
 * Connects to a graph server, finds out which one it is and refuses one
 * older than rgraph runs on, and makes sure the schema is set up. Throws
 * {@link StoreUnavailableError} when the server cannot be reached, and
 * {@link UnsupportedStoreError} when it is too old or its schema cannot be
 * set up.
 */
export async function connectGraph(
  target: GraphTarget,
  options: GraphOptions = {},
): Promise<GraphStore> {
  const auth = target.user !== null
    ? neo4j.auth.basic(target.user, target.password ?? "")
    : undefined;
  let driver: Driver;
  try {
    driver = neo4j.driver(target.url, auth, {
      disableLosslessIntegers: true,
      connectionTimeout: 5000,
      connectionAcquisitionTimeout: 10_000,
      userAgent: "rgraph",
    });
  } catch (e) {
    throw unreachable(target.url, e);
  }
  const where = printableUrl(target.url);
  try {
    const info = await driver.getServerInfo({ database: target.database ?? undefined });
    const session = driver.session({ database: target.database ?? undefined });
    try {
      const run = async (q: string, p: Params = {}) =>
        rowsOf(await session.run(q, bolt(p) as Params));
      const server = await identify(info.agent ?? "", run);
      const refused = refusal(server);
      if (refused !== null) {
        throw new UnsupportedStoreError(
          `${where}: ${refused}`,
          `upgrade the server to ${
            serverName({ ...server, version: MINIMUM_VERSION[server.kind], edition: null })
          } or later`,
        );
      }
      const setup: SchemaSession = {
        run,
        write: (q, p = {}) =>
          retrying(() =>
            inTransaction(session, async (tx) => rowsOf(await tx.run(q, bolt(p) as Params)))
          ),
      };
      try {
        await ensureSchema(setup, server);
      } catch (e) {
        if (isUnreachable(e)) throw e;
        throw new UnsupportedStoreError(
          `${where}: its schema could not be set up: ${firstLine(e)}`,
          "check that the user may create indexes and constraints on the server",
          e,
        );
      }
      return new GraphStore(driver, target, server, options, await currentLogin(run));
    } finally {
      await session.close();
    }
  } catch (e) {
    await driver.close();
    if (e instanceof UnsupportedStoreError) throw e;
    // Any other server-side refusal here (authentication, unknown database) also means no shared store.
    if (isUnreachable(e) || e instanceof neo4j.Neo4jError) {
      throw await unreachableAtConnect(target.url, e);
    }
    throw e;
  }
}
