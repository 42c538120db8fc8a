/**
 * The config file: one TOML file, named by `rgraph --config PATH` or
 * `RGRAPH_CONFIG`, or found at `$XDG_CONFIG_HOME/rgraph/config.toml` (else
 * `~/.config/rgraph/config.toml`). The environment only picks *which* file
 * and where defaults live; every value comes from the file.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./load.ts";
 * const config = loadConfig();
 * config.store.path; // "/home/me/.local/share/rgraph/rgraph.db" by default
 * ```
 * @module
 */

import { parse } from "smol-toml";
import { registerSecret, UserError } from "../errors.ts";
import { configPath, defaultDataDir, home, normalPath } from "./paths/mod.ts";
import { HARNESS_NAMES, type HarnessName } from "../types.ts";

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
    /**
     * The graph store's login is the whole team's, not this user's: rgraph
     * then does not require the login to match `[identity] user_id` (see
     * SECURITY.md: with one login, Touches are private by convention only).
     */
    shared_login: boolean;
  };
  github: {
    token: string | null;
    api_url: string;
    graphql_url: string;
  };
  sweep: {
    /** Sweep by itself: in the background while `serve-mcp` runs, and when a session ends. */
    auto: boolean;
    /** How long no new Touch must arrive before a background Sweep starts (a burst is one Sweep). */
    debounce_ms: number;
  };
  /** What hooks may record (`[capture]`). */
  capture: CapturePolicy;
}

/**
 * What hooks may record, from `[capture]`. Hooks read it from their config
 * cache, so every field is plain JSON.
 */
export interface CapturePolicy {
  /**
   * Directories whose sessions record nothing: absolute, `~` expanded, in
   * {@link normalPath}'s spelling. Symlinks are resolved when compared.
   */
  exclude_paths: string[];
  /** Harnesses whose hooks record nothing. */
  exclude_harnesses: HarnessName[];
  /** Tool names, lowercased: a call of one (compared ignoring case) records nothing. */
  exclude_tools: string[];
  /** `false`: prompts are never scanned, so there are no PROMPTED Touches. */
  prompts: boolean;
}

/** `[sweep] debounce_seconds` when the file does not say. */
export const DEFAULT_DEBOUNCE_SECONDS = 15;

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

function bool(file: string, t: Table, sec: string, key: string, fallback: boolean): boolean {
  const v = t[key];
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") throw new ConfigError(file, `${sec}.${key} must be true or false`);
  return v;
}

function seconds(file: string, t: Table, sec: string, key: string, fallback: number): number {
  const v = t[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) {
    throw new ConfigError(file, `${sec}.${key} must be a number of seconds above 0`);
  }
  return v;
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

const CAPTURE_KEYS = ["exclude_paths", "exclude_harnesses", "exclude_tools", "prompts"];

/** A list of non-empty strings, or the empty list when absent. */
function strings(file: string, t: Table, sec: string, key: string): string[] {
  const v = t[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.trim() === "")) {
    throw new ConfigError(file, `${sec}.${key} must be a list of non-empty strings`);
  }
  return v as string[];
}

/**
 * `[capture]`. Unknown keys are refused rather than ignored: a misspelt
 * exclusion that silently excludes nothing is the mistake this section
 * exists to prevent.
 */
function capturePolicy(file: string, t: Table): CapturePolicy {
  for (const key of Object.keys(t)) {
    if (!CAPTURE_KEYS.includes(key)) {
      throw new ConfigError(
        file,
        `[capture] has no key '${key}' (known: ${CAPTURE_KEYS.join(", ")})`,
      );
    }
  }
  const paths = strings(file, t, "capture", "exclude_paths").map((p) => {
    const path = p.trim();
    if (path === "~" || path.startsWith("~/")) return normalPath(`${home()}/${path.slice(1)}`);
    if (!path.startsWith("/")) {
      throw new ConfigError(
        file,
        `capture.exclude_paths entries must be absolute or start with ~/ (got "${p}")`,
      );
    }
    return normalPath(path);
  });
  const harnesses = strings(file, t, "capture", "exclude_harnesses").map((h) => {
    const name = h.trim().toLowerCase();
    if (!(HARNESS_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError(
        file,
        `capture.exclude_harnesses: unknown harness "${h}" (known: ${HARNESS_NAMES.join(", ")})`,
      );
    }
    return name as HarnessName;
  });
  const prompts = t.prompts ?? true;
  if (typeof prompts !== "boolean") {
    throw new ConfigError(file, "capture.prompts must be true or false");
  }
  return {
    exclude_paths: [...new Set(paths)],
    exclude_harnesses: [...new Set(harnesses)],
    exclude_tools: [
      ...new Set(strings(file, t, "capture", "exclude_tools").map((x) => x.trim().toLowerCase())),
    ],
    prompts,
  };
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
  const capture = capturePolicy(file, section(file, doc, "capture"));
  const sweep = section(file, doc, "sweep");
  const path = storePath(file, str(file, store, "store", "path")) ??
    `${defaultDataDir()}/rgraph.db`;
  const apiUrl = (str(file, github, "github", "api_url") ?? "https://api.github.com").replace(
    /\/+$/,
    "",
  );
  const config: Config = {
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
      shared_login: bool(file, store, "store", "shared_login", false),
    },
    github: {
      token: str(file, github, "github", "token"),
      api_url: apiUrl,
      graphql_url: str(file, github, "github", "graphql_url") ?? `${apiUrl}/graphql`,
    },
    capture,
    sweep: {
      auto: bool(file, sweep, "sweep", "auto", true),
      debounce_ms: 1000 *
        seconds(file, sweep, "sweep", "debounce_seconds", DEFAULT_DEBOUNCE_SECONDS),
    },
  };
  // From here on no message shows them, whatever the driver or GitHub quotes back.
  const login = userInfo(config.store.url);
  registerSecret(
    config.store.password,
    config.github.token,
    login,
    login?.slice(login.indexOf(":") + 1),
  );
  return config;
}

/** What a URL holds between `://` and its last `@` (`user:password`), or null. */
function userInfo(url: string | null): string | null {
  const start = url?.indexOf("://") ?? -1;
  const at = url?.lastIndexOf("@") ?? -1;
  return url && start >= 0 && at > start ? url.slice(start + 3, at) : null;
}

/** The byte offset where `bytes` stop being UTF-8 (only called once a strict decode has failed). */
function firstInvalidByte(bytes: Uint8Array): number {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < bytes.length; i++) {
    try {
      decoder.decode(bytes.subarray(i, i + 1), { stream: true });
    } catch {
      return i;
    }
  }
  return bytes.length - 1; // a sequence cut off by the end of the file
}

/**
 * The config file's text. Strict: a lossy decode would turn bad bytes into
 * U+FFFD and record Touches under a mangled user id, so bytes that are not
 * UTF-8 are an error naming the line they are on.
 */
function decodeConfig(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    const line = bytes.subarray(0, at).filter((b) => b === 0x0a).length + 1;
    throw new ConfigError(file, `not valid UTF-8 (line ${line}): save it as UTF-8 text`);
  }
}

/** Reads and parses the config file; a missing file means defaults. */
export function loadConfig(file: string = configPath()): Config {
  let bytes: Uint8Array | null = null;
  try {
    bytes = Deno.readFileSync(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      throw new ConfigError(file, `cannot read: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  return parseConfig(bytes === null ? null : decodeConfig(bytes, file), file);
}

/** The configured user id, or a clear error (reads of Touches fail closed). */
export function requireUserId(config: Config): string {
  if (!config.identity.user_id) {
    // A newcomer's first command meets this before any config exists: say what creates one
    // (install and the plugin write a first config only where there is none).
    const creates = config.exists ? "" : " (it does not exist yet: 'rgraph install <harness>' " +
      "or rgraph's harness plugin writes it with your login name)";
    throw new UserError(
      `no identity configured: set [identity] user_id in ${config.file}${creates}`,
    );
  }
  return config.identity.user_id;
}
