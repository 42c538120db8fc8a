/**
 * The config values the hook uses, without loading the TOML parser on every
 * tool call. Loading `config.ts` pulls in smol-toml (an npm package: Deno
 * resolves the npm snapshot for it) and parsing runs cold code; together that
 * was ~6 ms of CPU per hook, about a quarter of its cost over a bare
 * `deno run`.
 *
 * So the file is parsed by `config.ts` only when its text changes: the values
 * the hook needs are kept in `<data_dir>/hook-config.json` under a hash of the
 * file's path, its text and the data directory, and any later hook that reads
 * the same text takes them from there. The cache holds identity, the store
 * path and the capture policy only — never a token or a password — and
 * anything unexpected (no
 * cache, another key, a corrupt file, a file that cannot be written) falls
 * back to parsing, so it can make the hook slower, never wrong.
 *
 * @example
 * ```ts
 * import { loadHookConfig } from "./hook_config.ts";
 * const config = await loadHookConfig();
 * config.identity.user_id; // "alice"
 * ```
 * @module
 */

import type * as ConfigModule from "../config.ts";
import type { Config } from "../config.ts";
import { configPath, defaultDataDir } from "../config_path.ts";
import { sha256Hex } from "../digest.ts";

/** What the hook reads from the config: who records, into which store, and what it may record. */
export type HookConfig = Pick<Config, "file" | "data_dir" | "identity" | "capture"> & {
  store: Pick<Config["store"], "path">;
};

/**
 * Part of the cache key: bumped whenever {@link HookConfig} gains a field, so
 * a cache written by an older rgraph (without it) is parsed again, never
 * used with the field missing.
 */
const CACHE_FORMAT = 2;

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

interface CacheFile {
  key: string;
  config: HookConfig;
}

/** The part of `config.ts` the hook needs when the file changed. */
type ConfigParser = Pick<typeof ConfigModule, "loadConfig" | "parseConfig">;

// Specifier built at run time: a literal one makes Deno resolve the npm
// package while loading the hook's module graph, which is the cost avoided.
let configParser = (): Promise<ConfigParser> =>
  import(new URL("../config.ts", import.meta.url).href);

/**
 * Where the TOML parser comes from when the config file changed. The hook
 * bundle `rgraph install` builds has no `config.ts` beside it: its entry
 * passes a literal import, which the bundler turns into a chunk loaded only
 * then.
 */
export function useConfigParser(load: () => Promise<ConfigParser>): void {
  configParser = load;
}

/** The cache file in `dataDir`. */
export function hookConfigCachePath(dataDir: string): string {
  return `${dataDir}/hook-config.json`;
}

function readCache(path: string, key: string): HookConfig | null {
  try {
    const cached = JSON.parse(Deno.readTextFileSync(path)) as CacheFile;
    return cached.key === key && typeof cached.config?.store?.path === "string"
      ? cached.config
      : null;
  } catch {
    return null;
  }
}

/** Replaces the cache in one rename, so a concurrent hook reads the old file or the new one. */
function writeCache(path: string, cache: CacheFile): void {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(tmp, JSON.stringify(cache));
    Deno.renameSync(tmp, path);
  } catch {
    // Not writable: the next hook parses again.
    try {
      Deno.removeSync(tmp);
    } catch {
      // Never written.
    }
  }
}

/**
 * The hook's config values from `file` (default: {@link configPath}), the same
 * as `loadConfig(file)` gives. Throws `ConfigError` for a file that cannot be
 * read or parsed, as `loadConfig` does.
 */
export async function loadHookConfig(file: string = configPath()): Promise<HookConfig> {
  const dataDir = defaultDataDir();
  let text: string | null = null;
  let readError = false;
  try {
    // Strict, as loadConfig decodes: bytes that are not UTF-8 must not reach
    // the cache as U+FFFD (they would record Touches under a mangled user id).
    text = STRICT_UTF8.decode(Deno.readFileSync(file));
  } catch (e) {
    readError = !(e instanceof Deno.errors.NotFound);
  }
  const key = sha256Hex(JSON.stringify([CACHE_FORMAT, file, text, dataDir]));
  const cachePath = hookConfigCachePath(dataDir);
  if (!readError) {
    const cached = readCache(cachePath, key);
    if (cached) return cached;
  }
  const { loadConfig, parseConfig } = await configParser();
  // A file that cannot be read or is not UTF-8 is reported the way loadConfig reports it.
  const full = readError ? loadConfig(file) : parseConfig(text, file);
  const config: HookConfig = {
    file: full.file,
    data_dir: full.data_dir,
    identity: { user_id: full.identity.user_id, github_login: full.identity.github_login },
    store: { path: full.store.path },
    capture: full.capture,
  };
  writeCache(cachePath, { key, config });
  return config;
}
