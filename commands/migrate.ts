/**
 * `rgraph migrate --to <bolt-url> [--user U] [--password-stdin] [--database D] [--json]`:
 * copies the embedded store's Resources, Listings and the configured user's
 * own Touches into a graph store (Memgraph or Neo4j), so a person who started
 * alone can join a team. Idempotent: a second run changes nothing. Then set
 * `[store] url` in the config file to use the graph store.
 *
 * The password never travels in the process arguments, which every local
 * user can read (`ps`): it comes from standard input (`--password-stdin`),
 * else `RGRAPH_STORE_PASSWORD`, else `[store] password`. `--password P` and a
 * `--to` URL holding credentials are refused with what to use instead.
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { registerSecret, UsageError, UserError } from "../lib/errors.ts";
import { hasCredentials, migrateToGraph, printableUrl } from "../lib/store/mod.ts";

/** The environment variable migrate reads the graph store's password from. */
export const PASSWORD_ENV = "RGRAPH_STORE_PASSWORD";

const SPEC = {
  name: "migrate",
  summary: "Copy the embedded store (Resources, Listings, your Touches) into a graph store",
  usage: "rgraph migrate --to <bolt-url> [--user U] [--password-stdin] [--database D] [--json]",
  options: {
    to: { type: "string", arg: "URL", help: "the graph store's Bolt URL (bolt://host:7687)" },
    user: { type: "string", arg: "U", help: "graph store user (default: [store] user)" },
    "password-stdin": {
      type: "boolean",
      help:
        `read the graph store password from standard input (default: ${PASSWORD_ENV}, else [store] password)`,
    },
    database: { type: "string", arg: "D", help: "database name (default: [store] database)" },
    json: { type: "boolean", help: "print the counts as JSON" },
  },
  examples: [
    {
      does: "copy into a Memgraph or Neo4j on this machine",
      run: "rgraph migrate --to bolt://127.0.0.1:7687",
    },
    {
      does: "copy into a team's server, the password from a file",
      run:
        "rgraph migrate --to bolt+s://graph.team.example:7687 --user alice --password-stdin < pw.txt",
    },
  ],
} as const;

const BOLT = /^(bolt|neo4j)(\+s|\+ssc)?:\/\/[^\s/]+/;

const WHERE_PASSWORD =
  `pipe it to --password-stdin, set ${PASSWORD_ENV}, or set [store] password in the config file`;

/** The password on standard input, without the line end `echo` or a here-string adds. */
async function passwordFromStdin(): Promise<string> {
  const text = await new Response(Deno.stdin.readable).text();
  const password = text.replace(/\r?\n$/, "");
  if (password === "") throw new UsageError("rgraph migrate: --password-stdin read no password");
  return password;
}

/** Runs `rgraph migrate`. */
export async function main(args: string[]): Promise<number> {
  // Refused before parsing, and without echoing the value: it is a secret already on show.
  if (args.some((a) => a === "--password" || a.startsWith("--password="))) {
    throw new UsageError(
      `rgraph migrate: --password would show the password to every local user (ps lists process arguments): ${WHERE_PASSWORD}`,
    );
  }
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return 0;
  if (parsed.positionals.length) {
    throw new UsageError(`rgraph migrate: unexpected argument '${parsed.positionals[0]}'`);
  }
  const to = parsed.values.to;
  if (!to) throw new UsageError("rgraph migrate: --to <bolt-url> is required");
  if (hasCredentials(to)) {
    throw new UsageError(
      `rgraph migrate: --to must not hold credentials (ps lists process arguments): give ${
        printableUrl(to)
      }, the user with --user, and the password: ${WHERE_PASSWORD}`,
    );
  }
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
  const password = parsed.values["password-stdin"]
    ? await passwordFromStdin()
    : Deno.env.get(PASSWORD_ENV) || config.store.password;
  registerSecret(password);
  const counts = await migrateToGraph(config.store.path, userId, {
    url: to,
    user: parsed.values.user ?? config.store.user,
    password,
    database: parsed.values.database ?? config.store.database,
  }, { sharedLogin: config.store.shared_login });
  const where = printableUrl(to);
  if (parsed.values.json) {
    console.log(JSON.stringify({ to: where, ...counts }));
  } else {
    console.log(
      `migrated to ${where}: ${counts.resources} resources, ${counts.listings} listings, ` +
        `${counts.touches} touches (${counts.new_touches} new); ` +
        `set [store] url = "${where}" in ${config.file} to use it`,
    );
  }
  return 0;
}
