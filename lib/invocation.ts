/**
 * The command line that starts rgraph, from wherever it runs: what a harness
 * config names (`lib/install/`), and what rgraph runs to start itself again
 * (the background Sweeps of `serve-mcp` and of the session-end command). A
 * module of its own, depending on nothing, so the commands that start
 * Sweeps load none of setup.
 *
 * From a compiled binary (`deno task compile`, the executable is named
 * `rgraph`) it is that binary by absolute path. From a checkout (or a
 * `deno install -g` shim) it is `deno run <permissions> <abs>/main.ts`, with
 * the same permissions `deno task rgraph` grants; `--command` replaces either
 * (e.g. `--command rgraph` when rgraph is on every harness's PATH). Every
 * command names the config file with `--config` ({@link rgraphArgv}): a
 * harness may pass its commands too little of the environment for
 * `RGRAPH_CONFIG` to reach them.
 *
 * @example
 * ```ts
 * import { invocation } from "./invocation.ts";
 * invocation({ execPath: "/usr/local/bin/rgraph", mainUrl: "file:///src/main.ts" }).argv;
 * // ["/usr/local/bin/rgraph"]
 * ```
 * @module
 */

/** The bundled hook `rgraph install` builds: the Deno that runs it and its entry file. */
export interface HookBundleRef {
  deno: string;
  entry: string;
}

/** How harnesses start rgraph. */
export interface Invocation {
  /** The argv that starts rgraph, before its global options and subcommand. */
  argv: string[];
  /** The config file every command names (absolute); null leaves it to the environment. */
  config: string | null;
  /** The bundled hook, for hook commands; absent where there is none (compiled binary, --command). */
  bundle?: HookBundleRef;
}

/** The permissions harness-run rgraph gets from a checkout (the hook revokes `net` itself). */
export const DENO_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
  "--quiet",
];

/** Where rgraph runs from: the executable and the entry module. */
export interface Origin {
  execPath: string;
  mainUrl: string;
  /** A `--command` override, split like a shell would. */
  override?: string;
  /** The config file to name (absolute). */
  config?: string | null;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Whether `path` names a compiled rgraph (an executable named `rgraph`). */
export function isRgraphExecutable(path: string): boolean {
  return /^rgraph(\.exe)?$/.test(basename(path));
}

/** The invocation for this origin: the override, the compiled binary, or `deno run … main.ts`. */
export function invocation(origin: Origin): Invocation {
  const config = origin.config ?? null;
  if (origin.override !== undefined) {
    const argv = shellSplit(origin.override);
    if (argv.length === 0) throw new Error("--command is empty");
    return { argv, config };
  }
  if (isRgraphExecutable(origin.execPath)) return { argv: [origin.execPath], config };
  const main = origin.mainUrl.startsWith("file:")
    ? decodeURIComponent(new URL(origin.mainUrl).pathname)
    : origin.mainUrl;
  return { argv: [origin.execPath, "run", ...DENO_FLAGS, main], config };
}

/** The words of one rgraph command: the invocation, `--config`, then `words`. */
export function rgraphArgv(inv: Invocation, words: string[]): string[] {
  return [...inv.argv, ...(inv.config === null ? [] : ["--config", inv.config]), ...words];
}

const SAFE = /^[A-Za-z0-9_\/.:=@%+,-]+$/;

/** One shell word: as is when safe, else single-quoted. */
export function shellQuote(word: string): string {
  return SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Splits a command line into words (single and double quotes, backslash escapes). */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      cur = (cur ?? "") + line.slice(i + 1, close < 0 ? line.length : close);
      i = close < 0 ? line.length : close;
    } else if (c === '"') {
      cur ??= "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        cur += line[i] === "\\" && i + 1 < line.length ? line[++i] : line[i];
      }
    } else if (c === "\\" && i + 1 < line.length) {
      cur = (cur ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (cur !== null) words.push(cur);
      cur = null;
    } else cur = (cur ?? "") + c;
  }
  if (cur !== null) words.push(cur);
  return words;
}
