/**
 * The config values the hook uses, without loading the TOML parser on every
 * tool call. Loading `config.ts` pulls in smol-toml (an npm package: Deno
 * resolves the npm snapshot for it) and parsing runs cold code; together that
 * was ~6 ms of CPU per hook, about a quarter of its cost over a bare
 * `deno run`.
 *
 * So the file is parsed by `config.ts` only when it changed: the values the
 * hook needs are kept in `<data_dir>/hook-config.json` under a key made of
 * the file's path, the data directory and what `stat` says of the file
 * (device, inode, size, modification and change times) — never its text,
 * nor any hash of it, which would let anyone holding the cache test guesses
 * at a token or password. Any edit, `chmod` or replacement changes the
 * change time. A file changed in the last {@link RACY_MS} ms is not cached
 * (as git treats a "racily clean" index entry): a second edit within the
 * timestamps' granularity could leave the same times (Deno gives the change
 * time in whole seconds). The cache
 * holds identity, the store path and the capture policy only — never a
 * token or a password — and anything unexpected (no cache, another key, a
 * corrupt file, a data directory that is not private, a file that cannot be
 * written) falls back to parsing, so it can make the hook slower, never
 * wrong.
 *
 * @example
 * ```ts
 * import { loadHookConfig } from "./hook_config.ts";
 * const config = await loadHookConfig();
 * config.identity.user_id; // "alice"
 * ```
 * @module
 */

import type * as ConfigModule from "../config/mod.ts";
import type { Config } from "../config/mod.ts";
import { configPath, defaultDataDir, privateDataDir } from "../config/paths/mod.ts";
import { checkPrivateDir, writePrivateFile } from "../host/mod.ts";

/** What the hook reads from the config: who records, into which store, and what it may record. */
export type HookConfig = Pick<Config, "file" | "data_dir" | "identity" | "capture"> & {
  store: Pick<Config["store"], "path">;
};

/**
 * Part of the cache key: bumped whenever {@link HookConfig} gains a field, so
 * a cache written by an older rgraph (without it) is parsed again, never
 * used with the field missing.
 */
const CACHE_FORMAT = 3;

/** A config file modified this recently is parsed, not cached: see the module doc. */
export const RACY_MS = 2_000;

interface CacheFile {
  key: string;
  config: HookConfig;
}

/** The part of `config.ts` the hook needs when the file changed. */
type ConfigParser = Pick<typeof ConfigModule, "loadConfig">;

// Specifier built at run time: a literal one makes Deno resolve the npm
// package while loading the hook's module graph, which is the cost avoided.
let configParser = (): Promise<ConfigParser> =>
  import(new URL("../config/load.ts", import.meta.url).href);

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
function writeCache(dataDir: string, cache: CacheFile): void {
  try {
    privateDataDir(dataDir);
    writePrivateFile(hookConfigCachePath(dataDir), JSON.stringify(cache));
  } catch {
    // Not writable, or not private: the next hook parses again.
  }
}

/**
 * Whether the cache in `dataDir` may be read and written: the folder is not
 * there yet (the write makes it 0700), or is ours and others cannot write it.
 */
function cacheTrusted(dataDir: string): boolean {
  try {
    checkPrivateDir(dataDir);
    return true;
  } catch {
    return false;
  }
}

/**
 * The cache key of the config file `file` as it is now, `"absent"` in it
 * when there is none; `null` when it cannot be examined, or changed too
 * recently to be told apart from a next edit.
 */
function cacheKey(file: string, dataDir: string, now: number): string | null {
  let seen: (number | null)[] | "absent";
  try {
    const s = Deno.statSync(file);
    const mtime = s.mtime?.getTime() ?? null;
    const ctime = s.ctime?.getTime() ?? null;
    if (mtime === null || now - Math.max(mtime, ctime ?? mtime) < RACY_MS) return null;
    seen = [s.dev, s.ino, s.size, mtime, ctime];
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return null;
    seen = "absent";
  }
  return JSON.stringify([CACHE_FORMAT, file, dataDir, seen]);
}

/**
 * The hook's config values from `file` (default: {@link configPath}), the same
 * as `loadConfig(file)` gives. Throws `ConfigError` for a file that cannot be
 * read or parsed, as `loadConfig` does. `now` (a clock in ms) decides
 * whether the file changed too recently to be cached.
 */
export async function loadHookConfig(
  file: string = configPath(),
  now: number = Date.now(),
): Promise<HookConfig> {
  const dataDir = defaultDataDir();
  const key = cacheKey(file, dataDir, now);
  const trusted = key !== null && cacheTrusted(dataDir);
  if (trusted) {
    const cached = readCache(hookConfigCachePath(dataDir), key);
    if (cached) return cached;
  }
  const { loadConfig } = await configParser();
  const full = loadConfig(file);
  const config: HookConfig = {
    file: full.file,
    data_dir: full.data_dir,
    identity: { user_id: full.identity.user_id, github_login: full.identity.github_login },
    store: { path: full.store.path },
    capture: full.capture,
  };
  if (trusted) writeCache(dataDir, { key, config });
  return config;
}
