/**
 * `rgraph migrate --to <bolt-url> [--user U] [--password P] [--database D] [--json]`:
 * copies the embedded store's Resources, Listings and the configured user's
 * own Touches into a graph store (Memgraph or Neo4j), so a person who started
 * alone can join a team. Idempotent: a second run changes nothing. Then set
 * `[store] url` in the config file to use the graph store.
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config.ts";
import { UsageError, UserError } from "../lib/errors.ts";
import { migrateToGraph, printableUrl } from "../lib/store/mod.ts";

const SPEC = {
  name: "migrate",
  summary: "Copy the embedded store (Resources, Listings, your Touches) into a graph store",
  usage: "rgraph migrate --to <bolt-url> [--user U] [--password P] [--database D] [--json]",
  options: {
    to: { type: "string", arg: "URL", help: "the graph store's Bolt URL (bolt://host:7687)" },
    user: { type: "string", arg: "U", help: "graph store user (default: [store] user)" },
    password: {
      type: "string",
      arg: "P",
      help: "graph store password (default: [store] password)",
    },
    database: { type: "string", arg: "D", help: "database name (default: [store] database)" },
    json: { type: "boolean", help: "print the counts as JSON" },
  },
} as const;

const BOLT = /^(bolt|neo4j)(\+s|\+ssc)?:\/\/[^\s/]+/;

/** Runs `rgraph migrate`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  if (parsed.positionals.length) {
    throw new UsageError(`rgraph migrate: unexpected argument '${parsed.positionals[0]}'`);
  }
  const to = parsed.values.to;
  if (!to) throw new UsageError("rgraph migrate: --to <bolt-url> is required");
  if (!BOLT.test(to)) {
    throw new UsageError(`rgraph migrate: --to takes a Bolt URL such as bolt://127.0.0.1:7687`);
  }
  const config = loadConfig();
  const userId = requireUserId(config);
  try {
    await Deno.stat(config.store.path);
  } catch {
    throw new UserError(
      `rgraph migrate: no embedded store at ${config.store.path}: nothing to copy`,
    );
  }
  const counts = await migrateToGraph(config.store.path, userId, {
    url: to,
    user: parsed.values.user ?? config.store.user,
    password: parsed.values.password ?? config.store.password,
    database: parsed.values.database ?? config.store.database,
  });
  if (parsed.values.json) {
    console.log(JSON.stringify({ to: printableUrl(to), ...counts }));
  } else {
    console.log(
      `migrated to ${
        printableUrl(to)
      }: ${counts.resources} resources, ${counts.listings} listings, ` +
        `${counts.touches} touches (${counts.new_touches} new); ` +
        `set [store] url = "${printableUrl(to)}" in ${config.file} to use it`,
    );
  }
  return 0;
}
