/**
 * The command line a harness runs to reach rgraph, and how rgraph recognises
 * its own entries in a harness's config.
 *
 * The invocation itself (the compiled binary, or `deno run … main.ts`, or
 * `--command`) is `lib/invocation.ts`'s. Absolute paths make hooks work
 * whatever directory and PATH a harness uses.
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

import {
  type HookBundleRef,
  type Invocation,
  isRgraphExecutable,
  rgraphArgv,
  shellQuote,
  shellSplit,
} from "../invocation.ts";
import { ungated } from "./dispatch.ts";

export {
  DENO_FLAGS,
  type HookBundleRef,
  type Invocation,
  invocation,
  type Origin,
  rgraphArgv,
  shellQuote,
  shellSplit,
} from "../invocation.ts";

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

const line = (words: string[]) => words.map(shellQuote).join(" ");

function hookWords(harness: string, event?: string): string[] {
  return ["hook", harness, ...(event ? ["--event", event] : [])];
}

/** The bundled hook's argv for these words (the invocation must have a bundle). */
function bundledArgv(inv: Invocation & { bundle: HookBundleRef }, words: string[]): string[] {
  const { deno, entry } = inv.bundle;
  return rgraphArgv({ argv: [deno, "run", ...BUNDLE_FLAGS, entry], config: inv.config }, words);
}

/**
 * The shell command of a hook: `<invocation> --config C hook <harness>
 * [--event NAME]`, run through the bundle when install built one.
 */
export function hookCommand(inv: Invocation, harness: string, event?: string): string {
  const words = hookWords(harness, event);
  const normal = line(rgraphArgv(inv, words));
  if (!inv.bundle) return normal;
  const fast = line(bundledArgv({ ...inv, bundle: inv.bundle }, words));
  return `test -f ${shellQuote(inv.bundle.entry)} && exec ${fast} || exec ${normal}`;
}

/**
 * What the shell runs for {@link hookCommand}, as an argv to start without a
 * shell: the bundle's command when install built one and `bundleExists`
 * says its file is there, else the normal command.
 *
 * @example
 * ```ts
 * import { hookArgv } from "./command.ts";
 * hookArgv({ argv: ["/usr/local/bin/rgraph"], config: "/c.toml" }, "codex", undefined, () => false);
 * // ["/usr/local/bin/rgraph", "--config", "/c.toml", "hook", "codex"]
 * ```
 */
export function hookArgv(
  inv: Invocation,
  harness: string,
  event: string | undefined,
  bundleExists: (entry: string) => boolean,
): string[] {
  const words = hookWords(harness, event);
  return inv.bundle && bundleExists(inv.bundle.entry)
    ? bundledArgv({ ...inv, bundle: inv.bundle }, words)
    : rgraphArgv(inv, words);
}

/** The MCP server's command and arguments. */
export function mcpCommand(inv: Invocation): { command: string; args: string[] } {
  const [command, ...args] = rgraphArgv(inv, ["serve-mcp"]);
  return { command, args };
}

/**
 * The shell command a harness runs when a session ends:
 * `<invocation> --config C sweep --background` (an automatic Sweep in a
 * process of its own; never `rgraph hook`, which stays off the network).
 */
export function sessionEndCommand(inv: Invocation): string {
  return line(rgraphArgv(inv, ["sweep", "--background"]));
}

const BUNDLE_ENTRY = /\/hook-bundle\/[^/]+\/hook_bundled\.js$/;

function runsRgraph(words: string[]): boolean {
  return words.some((w) =>
    isRgraphExecutable(w) || /(^|\/)main\.ts$/.test(w) || BUNDLE_ENTRY.test(w)
  );
}

/** Whether `words` is `<prefix> hook <harness> [--event NAME]` with a prefix that runs rgraph. */
function isHookWords(words: string[], harness: string, inv?: Invocation): boolean {
  let i = words.length - 2;
  if (words[i] === "--event") i -= 2;
  if (words[i] !== "hook" || words[i + 1] !== harness) return false;
  return startsRgraph(words.slice(0, i), inv);
}

/** Whether `prefix` starts rgraph: this install's own invocation, or any rgraph binary, `main.ts` or bundle. */
function startsRgraph(prefix: string[], inv?: Invocation): boolean {
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
 * {@link hookCommand} writes, either of them behind Copilot's tool gate
 * (`dispatch.ts`).
 */
export function isRgraphHook(command: unknown, harness: string, inv?: Invocation): boolean {
  if (typeof command !== "string") return false;
  const inner = ungated(command);
  if (inner !== null) return isRgraphHook(inner, harness, inv);
  const words = shellSplit(command);
  const ops = operators(command);
  if (words[0] === "test" && words[1] === "-f" && words[3] === "&&" && words[4] === "exec") {
    const or = words.indexOf("||");
    return ops.join(" ") === "&& ||" && BUNDLE_ENTRY.test(words[2]) && words[or + 1] === "exec" &&
      isHookWords(words.slice(5, or), harness) && isHookWords(words.slice(or + 2), harness, inv);
  }
  return ops.length === 0 && isHookWords(words, harness, inv);
}

/** Whether a hook command is rgraph's session-end command ({@link sessionEndCommand}). */
export function isRgraphSessionEnd(command: unknown, inv?: Invocation): boolean {
  if (typeof command !== "string" || operators(command).length > 0) return false;
  const words = shellSplit(command);
  const i = words.length - 2;
  return words[i] === "sweep" && words[i + 1] === "--background" &&
    startsRgraph(words.slice(0, i), inv);
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
