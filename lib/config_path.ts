/**
 * Where rgraph's config file and data live, from the environment alone. Kept
 * apart from `config.ts` (which parses the file with an npm TOML parser) so
 * the hook can find its files without loading that parser.
 *
 * @example
 * ```ts
 * import { configPath, defaultDataDir } from "./config_path.ts";
 * configPath(); // "/home/me/.config/rgraph/config.toml" unless RGRAPH_CONFIG names another
 * defaultDataDir(); // "/home/me/.local/share/rgraph"
 * ```
 * @module
 */

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The user's home directory (`HOME`), `/` when unset. */
export function home(): string {
  return env("HOME") ?? "/";
}

/** The config file path: `RGRAPH_CONFIG`, else the XDG default. */
export function configPath(): string {
  return env("RGRAPH_CONFIG") ??
    `${env("XDG_CONFIG_HOME") ?? `${home()}/.config`}/rgraph/config.toml`;
}

/** The default data directory: `$XDG_DATA_HOME/rgraph` (else `~/.local/share/rgraph`). */
export function defaultDataDir(): string {
  return `${env("XDG_DATA_HOME") ?? `${home()}/.local/share`}/rgraph`;
}

/**
 * An absolute path in one spelling: `.` and empty segments dropped, `..`
 * applied, no trailing slash (except `/` itself). Lexical only — symlinks are
 * the caller's to resolve — so it needs no file system.
 *
 * @example
 * ```ts
 * normalPath("/work//client-x/./src/../"); // "/work/client-x"
 * ```
 */
export function normalPath(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}
