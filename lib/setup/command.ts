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
 * @example
 * ```ts
 * import { hookCommand, invocation } from "./command.ts";
 * const inv = invocation({ execPath: "/usr/local/bin/rgraph", mainUrl: "file:///src/main.ts" });
 * hookCommand(inv, "copilot", "preToolUse"); // "/usr/local/bin/rgraph hook copilot --event preToolUse"
 * ```
 * @module
 */

/** The argv that starts rgraph (before its subcommand). */
export interface Invocation {
  argv: string[];
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
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The invocation for this origin: the override, the compiled binary, or `deno run … main.ts`. */
export function invocation(origin: Origin): Invocation {
  if (origin.override !== undefined) {
    const argv = shellSplit(origin.override);
    if (argv.length === 0) throw new Error("--command is empty");
    return { argv };
  }
  if (/^rgraph(\.exe)?$/.test(basename(origin.execPath))) return { argv: [origin.execPath] };
  const main = origin.mainUrl.startsWith("file:")
    ? decodeURIComponent(new URL(origin.mainUrl).pathname)
    : origin.mainUrl;
  return { argv: [origin.execPath, "run", ...DENO_FLAGS, main] };
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

/** The shell command of a hook: `<invocation> hook <harness> [--event NAME]`. */
export function hookCommand(inv: Invocation, harness: string, event?: string): string {
  const argv = [...inv.argv, "hook", harness, ...(event ? ["--event", event] : [])];
  return argv.map(shellQuote).join(" ");
}

/**
 * The shell command a harness runs when a session ends:
 * `<invocation> sweep --background` (an automatic Sweep in a process of its
 * own; never `rgraph hook`, which stays off the network).
 */
export function sessionEndCommand(inv: Invocation): string {
  return [...inv.argv, "sweep", "--background"].map(shellQuote).join(" ");
}

/** The MCP server's command and arguments. */
export function mcpCommand(inv: Invocation): { command: string; args: string[] } {
  return { command: inv.argv[0], args: [...inv.argv.slice(1), "serve-mcp"] };
}

function runsRgraph(words: string[]): boolean {
  return words.some((w) => /^rgraph(\.exe)?$/.test(basename(w)) || /(^|\/)main\.ts$/.test(w));
}

/** Whether `prefix` starts rgraph: this install's own invocation, or any rgraph binary or `main.ts`. */
function startsRgraph(prefix: string[], inv?: Invocation): boolean {
  const own = inv !== undefined && inv.argv.length === prefix.length &&
    inv.argv.every((w, k) => w === prefix[k]);
  return own || runsRgraph(prefix);
}

/**
 * Whether a hook command is one rgraph installed for `harness`: it runs rgraph
 * (a binary named `rgraph` or a `main.ts`), or starts with this install's own
 * invocation, and ends with `hook <harness>` and an optional `--event NAME`.
 */
export function isRgraphHook(command: unknown, harness: string, inv?: Invocation): boolean {
  if (typeof command !== "string") return false;
  const words = shellSplit(command);
  let i = words.length - 2;
  if (words[i] === "--event") i -= 2;
  if (words[i] !== "hook" || words[i + 1] !== harness) return false;
  return startsRgraph(words.slice(0, i), inv);
}

/** Whether a hook command is rgraph's session-end command ({@link sessionEndCommand}). */
export function isRgraphSessionEnd(command: unknown, inv?: Invocation): boolean {
  if (typeof command !== "string") return false;
  const words = shellSplit(command);
  const i = words.length - 2;
  return words[i] === "sweep" && words[i + 1] === "--background" &&
    startsRgraph(words.slice(0, i), inv);
}

/** Whether an MCP server's argv (command then args) starts rgraph's `serve-mcp`. */
export function isRgraphServer(argv: unknown[]): boolean {
  const words = argv.filter((w): w is string => typeof w === "string");
  return words.at(-1) === "serve-mcp" && words.length === argv.length;
}
