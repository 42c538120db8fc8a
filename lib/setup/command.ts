/**
 * The command line a harness runs to reach rgraph, and how rgraph recognises
 * its own entries in a harness's config. The invocation itself (binary or
 * `deno run … main.ts`, or `--command`) is `lib/invocation.ts`'s. Absolute
 * paths make hooks work whatever directory and PATH a harness uses.
 *
 * @example
 * ```ts
 * import { hookCommand, invocation } from "./command.ts";
 * const inv = invocation({ execPath: "/usr/local/bin/rgraph", mainUrl: "file:///src/main.ts" });
 * hookCommand(inv, "copilot", "preToolUse"); // "/usr/local/bin/rgraph hook copilot --event preToolUse"
 * ```
 * @module
 */

import { type Invocation, isRgraphExecutable, shellQuote, shellSplit } from "../invocation.ts";

export {
  DENO_FLAGS,
  type Invocation,
  invocation,
  type Origin,
  shellQuote,
  shellSplit,
} from "../invocation.ts";

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
  return words.some((w) => isRgraphExecutable(w) || /(^|\/)main\.ts$/.test(w));
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
