/**
 * The command line a harness runs to reach rgraph, and how rgraph recognises
 * its own entries in a harness's config.
 *
 * From a compiled binary (`deno task compile`, the executable is named
 * `rgraph`) harnesses run that binary by absolute path. From a checkout (or a
 * `deno install -g` shim) they run `deno run <permissions> <abs>/main.ts`,
 * with the same permissions `deno task rgraph` grants; `--command` replaces
 * either (e.g. `--command rgraph` when rgraph is on every harness's PATH).
 * Absolute paths make hooks work whatever directory and PATH a harness uses.
 *
 * Every command names the config file (`--config /abs/config.toml`): Codex
 * gives its hooks and MCP servers only PATH, HOME, LANG, TERM and USER, and
 * Gemini CLI strips unknown variables under CI, so `RGRAPH_CONFIG` and
 * `XDG_*` cannot be relied on to reach them. {@link rgraphArgv} is the one
 * place a command's words are put together; every command install writes
 * (hooks, MCP server, plugin, and any later one) goes through it.
 *
 * Where install built a hook bundle for speed, a hook command runs it when
 * its file exists and the normal command otherwise (`test -f B && exec … ||
 * exec …`), so a deleted data directory never breaks a hook; the bundle falls
 * back to the normal command itself when rgraph changed since it was built.
 *
 * @example
 * ```ts
 * import { hookCommand, invocation } from "./command.ts";
 * const inv = invocation({
 *   execPath: "/usr/local/bin/rgraph", mainUrl: "file:///src/main.ts", config: "/home/me/.config/rgraph/config.toml",
 * });
 * hookCommand(inv, "copilot", "preToolUse");
 * // "/usr/local/bin/rgraph --config /home/me/.config/rgraph/config.toml hook copilot --event preToolUse"
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

/**
 * How the bundled hook runs: no deno.json or lockfile to read (it has no
 * imports to resolve), no network at all, and `run` only to start the normal
 * command when the bundle is stale (the hook revokes it otherwise). V8
 * compiles every function at load (`--no-lazy`), so Deno's code cache holds
 * them all and a hook deserializes its code instead of compiling it on first
 * call (measured: ~3 ms of a 10 ms hook).
 */
export const BUNDLE_FLAGS = [
  "--no-config",
  "--no-lock",
  "--v8-flags=--no-lazy",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
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

/** The invocation for this origin: the override, the compiled binary, or `deno run … main.ts`. */
export function invocation(origin: Origin): Invocation {
  const config = origin.config ?? null;
  if (origin.override !== undefined) {
    const argv = shellSplit(origin.override);
    if (argv.length === 0) throw new Error("--command is empty");
    return { argv, config };
  }
  if (/^rgraph(\.exe)?$/.test(basename(origin.execPath))) {
    return { argv: [origin.execPath], config };
  }
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

const line = (words: string[]) => words.map(shellQuote).join(" ");

/**
 * The shell command of a hook: `<invocation> --config C hook <harness>
 * [--event NAME]`, run through the bundle when install built one.
 */
export function hookCommand(inv: Invocation, harness: string, event?: string): string {
  const words = ["hook", harness, ...(event ? ["--event", event] : [])];
  const normal = line(rgraphArgv(inv, words));
  if (!inv.bundle) return normal;
  const { deno, entry } = inv.bundle;
  const fast = line(
    rgraphArgv({ argv: [deno, "run", ...BUNDLE_FLAGS, entry], config: inv.config }, words),
  );
  return `test -f ${shellQuote(entry)} && exec ${fast} || exec ${normal}`;
}

/** The MCP server's command and arguments. */
export function mcpCommand(inv: Invocation): { command: string; args: string[] } {
  const [command, ...args] = rgraphArgv(inv, ["serve-mcp"]);
  return { command, args };
}

/** A bundled hook's entry file (`<data dir>/hook-bundle/<checkout>/hook_bundled.js`). */
const BUNDLE_ENTRY = /\/hook-bundle\/[^/]+\/hook_bundled\.js$/;

function runsRgraph(words: string[]): boolean {
  return words.some((w) =>
    /^rgraph(\.exe)?$/.test(basename(w)) || /(^|\/)main\.ts$/.test(w) || BUNDLE_ENTRY.test(w)
  );
}

/** Whether `words` is `<prefix> hook <harness> [--event NAME]` with a prefix that runs rgraph. */
function isHookWords(words: string[], harness: string, inv?: Invocation): boolean {
  let i = words.length - 2;
  if (words[i] === "--event") i -= 2;
  if (words[i] !== "hook" || words[i + 1] !== harness) return false;
  const prefix = words.slice(0, i);
  const ownArgv = inv && rgraphArgv(inv, []);
  const own = ownArgv !== undefined && ownArgv.length === prefix.length &&
    ownArgv.every((w, k) => w === prefix[k]);
  return own || runsRgraph(prefix);
}

/**
 * Whether a hook command is one rgraph installed for `harness`: it runs rgraph
 * (a binary named `rgraph`, a `main.ts` or a hook bundle), or starts with
 * this install's own invocation, and ends with `hook <harness>` and an
 * optional `--event NAME` — plain, or as the bundle-or-normal pair
 * {@link hookCommand} writes.
 */
export function isRgraphHook(command: unknown, harness: string, inv?: Invocation): boolean {
  if (typeof command !== "string") return false;
  const words = shellSplit(command);
  const ops = operators(command);
  if (words[0] === "test" && words[1] === "-f" && words[3] === "&&" && words[4] === "exec") {
    const or = words.indexOf("||");
    return ops.join(" ") === "&& ||" && BUNDLE_ENTRY.test(words[2]) && words[or + 1] === "exec" &&
      isHookWords(words.slice(5, or), harness) && isHookWords(words.slice(or + 2), harness, inv);
  }
  return ops.length === 0 && isHookWords(words, harness, inv);
}

/** The shell operators (`;`, `&&`, `|`, `$(`, …) outside quotes in a command line, in order. */
function operators(line: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") i++;
    else if (c === "'") i = line.indexOf("'", i + 1) < 0 ? line.length : line.indexOf("'", i + 1);
    else if (c === '"') {
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\") i++;
        else if (line[i] === "`" || (line[i] === "$" && line[i + 1] === "(")) out.push(line[i]);
      }
    } else if ((c === "&" || c === "|") && line[i + 1] === c) out.push(c + line[++i]);
    else if (";&|<>`\n".includes(c) || (c === "$" && line[i + 1] === "(")) out.push(c);
  }
  return out;
}

/** Whether an MCP server's argv (command then args) starts rgraph's `serve-mcp`. */
export function isRgraphServer(argv: unknown[]): boolean {
  const words = argv.filter((w): w is string => typeof w === "string");
  return words.at(-1) === "serve-mcp" && words.length === argv.length;
}

/**
 * The config file a command names with `--config` (the last one, as rgraph
 * reads it), or null when it names none.
 */
export function configNamed(words: string[]): string | null {
  const at = words.lastIndexOf("--config");
  return at >= 0 && at + 1 < words.length ? words[at + 1] : null;
}
