/**
 * Where rgraph's config file is: named on the command line (`rgraph --config
 * PATH <command>`, what every command `rgraph install` writes carries, since
 * harnesses such as Codex pass their hooks and MCP servers almost no
 * environment), else by `RGRAPH_CONFIG`, else the XDG default. Kept apart
 * from `../load.ts` (which parses the file with an npm TOML parser) so the
 * hook can find its files without loading that parser.
 *
 * @example
 * ```ts
 * import { configPath, defaultDataDir, takeConfigOption } from "./mod.ts";
 * takeConfigOption(["--config", "/etc/rgraph.toml", "hook", "codex"]); // ["hook", "codex"]
 * configPath(); // "/etc/rgraph.toml"
 * defaultDataDir(); // "/home/me/.local/share/rgraph"
 * ```
 * @module
 */

import { UsageError } from "../../errors.ts";
import { privateDir } from "../../host/mod.ts";

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

/** The file `--config` named for this process, if it did. */
let named: string | undefined;

/**
 * Reads rgraph's global `--config PATH` (or `--config=PATH`) from the front
 * of `args` and returns the rest; from then on {@link configPath} is that
 * file, made absolute against the working directory. Throws a usage error
 * when the option has no value.
 */
export function takeConfigOption(args: string[]): string[] {
  const [first, ...rest] = args;
  let path: string | undefined;
  if (first === "--config") {
    path = rest.shift();
  } else if (first?.startsWith("--config=")) path = first.slice("--config=".length);
  else return args;
  if (!path) throw new UsageError("rgraph: --config needs the path of a config file");
  named = absolute(path);
  return rest;
}

/** `path` made absolute against the working directory. */
function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

/**
 * The config file's absolute path: `--config`, else `RGRAPH_CONFIG`, else the
 * XDG default.
 */
export function configPath(): string {
  return named ?? absolute(
    env("RGRAPH_CONFIG") ?? `${env("XDG_CONFIG_HOME") ?? `${home()}/.config`}/rgraph/config.toml`,
  );
}

/** The default data directory: `$XDG_DATA_HOME/rgraph` (else `~/.local/share/rgraph`). */
export function defaultDataDir(): string {
  return `${env("XDG_DATA_HOME") ?? `${home()}/.local/share`}/rgraph`;
}

/**
 * The data directory `dir` (the folder of the store), created 0700 or
 * verified: another user's, or one group or others may write, is refused
 * with `UnsafePathError` (`private_files.ts`). rgraph's default one is also
 * narrowed to 0700 when others may read it (an older rgraph made it 0755);
 * a folder `[store] path` names keeps the mode its owner gave it.
 *
 * @example
 * ```ts
 * import { defaultDataDir, privateDataDir } from "./mod.ts";
 * privateDataDir(defaultDataDir()); // "/home/me/.local/share/rgraph", now 0700
 * ```
 */
export function privateDataDir(dir: string): string {
  return privateDir(dir, { narrow: dir === defaultDataDir() });
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
