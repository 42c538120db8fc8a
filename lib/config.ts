/**
 * The config file: one TOML file, named by `rgraph --config PATH` or
 * `RGRAPH_CONFIG`, or found at `$XDG_CONFIG_HOME/rgraph/config.toml` (else
 * `~/.config/rgraph/config.toml`). The environment only picks *which* file
 * and where defaults live; every value comes from the file.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * const config = loadConfig();
 * config.store.path; // "/home/me/.local/share/rgraph/rgraph.db" by default
 * ```
 * @module
 */

import { parse } from "smol-toml";
import { UserError } from "./errors.ts";
import { configPath, defaultDataDir, home } from "./config_path.ts";

export { configPath, defaultDataDir };

/** The resolved configuration. */
export interface Config {
  /** The file the values came from (whether or not it exists). */
  file: string;
  exists: boolean;
  /**
   * The data directory: the folder of the embedded database (`store.path`),
   * where the hook's log and memory-read notes live. Derived from the file,
   * so a hook and an MCP server started with different environments (Codex
   * passes its children almost none) agree on it.
   */
  data_dir: string;
  identity: {
    user_id: string | null;
    /** The user's GitHub login: resolves `@me` in listing filters. */
    github_login: string | null;
  };
  store: {
    /** The embedded database file (also the hooks' outbox when a graph store is used). */
    path: string;
    /** A Bolt URL of a shared graph store (Memgraph or Neo4j); null means embedded only. */
    url: string | null;
    user: string | null;
    password: string | null;
    database: string | null;
  };
  github: {
    token: string | null;
    api_url: string;
    graphql_url: string;
  };
}

/** A config file that exists but cannot be used. */
export class ConfigError extends UserError {
  constructor(file: string, detail: string) {
    super(`config ${file}: ${detail}`);
    this.name = "ConfigError";
  }
}

type Table = Record<string, unknown>;

function section(file: string, doc: Table, name: string): Table {
  const v = doc[name];
  if (v === undefined) return {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new ConfigError(file, `[${name}] must be a table`);
  }
  return v as Table;
}

function str(file: string, t: Table, sec: string, key: string): string | null {
  const v = t[key];
  if (v === undefined) return null;
  if (typeof v !== "string") throw new ConfigError(file, `${sec}.${key} must be a string`);
  return v.trim() === "" ? null : v;
}

/**
 * The store file as an absolute path: `~/` means the home directory. A
 * relative path is refused, since it would give every working directory (every
 * hook's cwd) a memory of its own.
 */
function storePath(file: string, path: string | null): string | null {
  if (path === null) return null;
  if (path.startsWith("~/")) return `${home()}/${path.slice(2)}`;
  if (!path.startsWith("/")) {
    throw new ConfigError(file, `[store] path must be absolute or start with ~/ (got "${path}")`);
  }
  return path;
}

/** Parses config text; `file` names it in errors. Pure apart from reading defaults from the environment. */
export function parseConfig(text: string | null, file: string): Config {
  let doc: Table = {};
  if (text !== null) {
    try {
      // A byte-order mark (Windows editors write one) is not TOML, but it is not the user's mistake either.
      doc = parse(text.replace(/^\uFEFF/, "")) as Table;
    } catch (e) {
      const first = String((e as Error).message ?? e).split("\n")[0];
      throw new ConfigError(file, `not valid TOML: ${first}`);
    }
  }
  const identity = section(file, doc, "identity");
  const store = section(file, doc, "store");
  const github = section(file, doc, "github");
  const path = storePath(file, str(file, store, "store", "path")) ??
    `${defaultDataDir()}/rgraph.db`;
  const apiUrl = (str(file, github, "github", "api_url") ?? "https://api.github.com").replace(
    /\/+$/,
    "",
  );
  return {
    file,
    exists: text !== null,
    data_dir: path.slice(0, path.lastIndexOf("/")) || "/",
    identity: {
      user_id: str(file, identity, "identity", "user_id"),
      github_login: str(file, identity, "identity", "github_login"),
    },
    store: {
      path,
      url: str(file, store, "store", "url"),
      user: str(file, store, "store", "user"),
      password: str(file, store, "store", "password"),
      database: str(file, store, "store", "database"),
    },
    github: {
      token: str(file, github, "github", "token"),
      api_url: apiUrl,
      graphql_url: str(file, github, "github", "graphql_url") ?? `${apiUrl}/graphql`,
    },
  };
}

/** Reads and parses the config file; a missing file means defaults. */
export function loadConfig(file: string = configPath()): Config {
  let text: string | null = null;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      throw new ConfigError(file, `cannot read: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  return parseConfig(text, file);
}

/** The configured user id, or a clear error (reads of Touches fail closed). */
export function requireUserId(config: Config): string {
  if (!config.identity.user_id) {
    throw new UserError(
      `no identity configured: set [identity] user_id in ${config.file}`,
    );
  }
  return config.identity.user_id;
}
