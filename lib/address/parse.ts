/**
 * The Address parser: which public Resources a tool call reads or a prompt
 * names. Pure — the one fact from outside, a directory's git remote, comes in
 * through {@link ParseContext.repoOfCwd}.
 *
 * The generic layer here knows harness tools (shell, web fetch, anything
 * else), shell grammar, curl/wget and URLs in prose; each
 * {@link PlatformAdapter} decides which of those name its Resources.
 *
 * Listing limits record what the agent saw: `gh … list` without `-L` → 30
 * (gh's default), REST lists → `per_page` or 30, `--paginate` → `null`
 * (every page), github.com list pages → 25, MCP list/search tools → `perPage`
 * or 30. A search (`?q=` on a list page, `gh search`, `search/issues`, the MCP
 * search tools, `list_issues` without `state`) matches every state unless the
 * query names one, so its key says `state=all`.
 *
 * @example
 * ```ts
 * import { addressesFromToolCall } from "./parse.ts";
 * const ctx = { cwd: "/w/app", githubLogin: null, repoOfCwd: () => ({ owner: "o", repo: "r" }) };
 * addressesFromToolCall({ tool: "Bash", input: { command: "gh issue view 5 --comments" } }, ctx);
 * // [{ kind: "item", key: "github:o/r#5", … }]
 * ```
 * @module
 */

import type { Address } from "../types.ts";
import { MAX_ADDRESS_CHARS } from "./key.ts";
import type { ParseContext, PlatformAdapter, ShellCommand, ToolCall } from "./platform.ts";
import { github } from "./github/mod.ts";
import { fetchedUrls } from "./fetch.ts";
import { shellCommands } from "./shell.ts";
import { afterLocationChange, readsAsPosix } from "./powershell.ts";
import { urlsInText } from "./text.ts";

export type { ParseContext, PlatformAdapter, ShellCommand, ToolCall } from "./platform.ts";

/** Every platform the parser knows, in the order they are asked. */
const ADAPTERS: readonly PlatformAdapter[] = [github];

/** Shell tools across harnesses (compared lowercased). */
const SHELL_TOOLS = new Set([
  "bash",
  "shell",
  "local_shell",
  "exec_command",
  "shell_command",
  "run_shell_command",
  "run_terminal_cmd",
  "run_terminal_command", // Grok Build (capture: fixtures/payloads/grok)
  "terminal",
]);
/** PowerShell tools (Copilot CLI on Windows): read only where PowerShell and POSIX agree. */
const POWERSHELL_TOOLS = new Set(["powershell"]);
/** Web fetch tools across harnesses (compared lowercased). */
const FETCH_TOOLS = new Set(["webfetch", "web_fetch", "fetch", "fetch_url", "read_url"]);

/** A tool input as an object, a string or an argv list; JSON strings are decoded. */
function decode(input: unknown): unknown {
  if (typeof input !== "string") return input;
  const t = input.trimStart();
  if (!t.startsWith("{") && !t.startsWith("[")) return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** The shell script a shell tool runs: a string, or an argv list run as is. */
function shellInput(input: unknown): { script: string } | { argv: string[] } | null {
  const v = decode(input);
  if (typeof v === "string") return { script: v };
  const list = (x: unknown) =>
    Array.isArray(x) && x.length > 0 && x.every((s) => typeof s === "string");
  if (list(v)) return { argv: v as string[] };
  if (typeof v !== "object" || v === null) return null;
  const o = v as Record<string, unknown>;
  const cmd = o.command ?? o.cmd;
  if (typeof cmd === "string") return { script: cmd };
  if (list(cmd)) return { argv: cmd as string[] };
  return null;
}

/** The directory a shell tool call runs in: its own `workdir`/`cwd` argument, else the session's. */
function workdir(input: unknown, ctx: ParseContext): string | null {
  const v = decode(input);
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const dir = o.workdir ?? o.cwd ?? o.directory ?? o.dir_path;
    if (typeof dir === "string" && dir.startsWith("/")) return dir;
  }
  return ctx.cwd;
}

function fromShell(input: unknown, ctx: ParseContext, powershell = false): Address[] {
  const shell = shellInput(input);
  if (!shell) return [];
  const cwd = workdir(input, ctx);
  let commands: ShellCommand[];
  if ("script" in shell && powershell) {
    if (!readsAsPosix(shell.script)) return [];
    commands = afterLocationChange(shellCommands(shell.script, cwd));
  } else if ("script" in shell) commands = shellCommands(shell.script, cwd);
  else {
    // An argv list is exec'd directly; `bash -lc "…"` inside it is still a script.
    const words = shell.argv.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
    commands = shellCommands(words, cwd);
  }
  const out: Address[] = [];
  for (const cmd of commands) {
    const urls = fetchedUrls(cmd.argv, cmd.opaque);
    for (const adapter of ADAPTERS) {
      out.push(...adapter.fromCommand(cmd, ctx));
      for (const url of urls) {
        const a = adapter.fromUrl(url, ctx);
        if (a) out.push(a);
      }
    }
  }
  return out;
}

function fromFetch(input: unknown, ctx: ParseContext): Address[] {
  const v = decode(input);
  let urls: string[] = [];
  if (typeof v === "string") urls = urlsInText(v);
  else if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.url === "string") urls = [o.url];
    else if (Array.isArray(o.urls)) urls = o.urls.filter((u): u is string => typeof u === "string");
    else if (typeof o.prompt === "string") urls = urlsInText(o.prompt); // Gemini's web_fetch
  }
  const out: Address[] = [];
  for (const raw of urls) {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
    for (const adapter of ADAPTERS) {
      const a = adapter.fromUrl(url, ctx);
      if (a) out.push(a);
    }
  }
  return out;
}

/** True when a listing still names the viewer as `@me`, which would mean someone else to each reader. */
const namesViewer = (a: Address) =>
  a.kind === "listing" && (a.filters.author === "@me" || a.filters.assignee === "@me");

/**
 * Keeps the first Address of each key. Adapters resolve `@me` themselves;
 * this last gate keeps one they missed out of the store, and one whose key
 * is longer than {@link MAX_ADDRESS_CHARS}.
 */
function unique(addresses: Address[]): Address[] {
  const seen = new Set<string>();
  return addresses.filter((a) =>
    !namesViewer(a) && a.key.length <= MAX_ADDRESS_CHARS && !seen.has(a.key) && !!seen.add(a.key)
  );
}

/**
 * Whether `tool` (lowercased) is a web fetch: a harness's own fetch tool, or
 * an MCP fetch tool under the harness's naming — `mcp__<server>__fetch`
 * (Claude Code, Codex) or Gemini CLI's `mcp_<server>_fetch` (single
 * underscores, so the server part is whatever lies between).
 */
function isFetchTool(tool: string): boolean {
  if (FETCH_TOOLS.has(tool)) return true;
  if (tool.startsWith("mcp__")) {
    const sep = tool.lastIndexOf("__");
    return sep > "mcp_".length && FETCH_TOOLS.has(tool.slice(sep + 2));
  }
  return tool.startsWith("mcp_") &&
    [...FETCH_TOOLS].some((f) => tool.endsWith(`_${f}`) && tool.length > `mcp__${f}`.length);
}

/**
 * The Addresses a tool call reads (FETCHED Touches): shell commands, web
 * fetches, platform tools. Write operations and unknown tools give `[]`.
 * Never throws.
 *
 * @example
 * ```ts
 * addressesFromToolCall({ tool: "WebFetch", input: { url: "https://github.com/o/r/pull/3/files" } }, ctx);
 * // [item github:o/r#3]
 * ```
 */
export function addressesFromToolCall(call: ToolCall, ctx: ParseContext): Address[] {
  if (typeof call?.tool !== "string") return [];
  const tool = call.tool.toLowerCase();
  if (SHELL_TOOLS.has(tool)) return unique(fromShell(call.input, ctx));
  if (POWERSHELL_TOOLS.has(tool)) return unique(fromShell(call.input, ctx, true));
  if (isFetchTool(tool)) {
    return unique(fromFetch(call.input, ctx));
  }
  const input = decode(call.input);
  return unique(ADAPTERS.flatMap((a) => a.fromToolCall({ tool: call.tool, input }, ctx)));
}

/**
 * The Addresses a prompt names (PROMPTED Touches), each once, in order.
 *
 * @example
 * ```ts
 * addressesFromPrompt("look at memgraph/memgraph#12 and https://github.com/o/r", ctx).map((a) => a.key);
 * // ["github:memgraph/memgraph#12", "github:o/r"]
 * ```
 */
export function addressesFromPrompt(text: string, ctx: ParseContext): Address[] {
  if (typeof text !== "string") return [];
  return unique(ADAPTERS.flatMap((a) => a.fromText(text, ctx)));
}

/**
 * One Address from what a person or model typed to name it: a URL,
 * `owner/repo#N`, `owner/repo`, a canonical key or a command line such as
 * `gh issue list -R o/r --label bug`. Null when it names nothing.
 *
 * @example
 * ```ts
 * parseAddress("gh pr view 7 -R o/r", ctx)?.key; // "github:o/r#7"
 * parseAddress("github:o/r/issues?label=bug", ctx)?.key; // "github:o/r/issues?label=bug&state=open"
 * ```
 */
export function parseAddress(text: string, ctx: ParseContext): Address | null {
  // Too long to be one: refused before any parser reads it (see MAX_ADDRESS_CHARS).
  if (typeof text !== "string" || text.length > MAX_ADDRESS_CHARS) return null;
  for (const adapter of ADAPTERS) {
    const a = adapter.parseOne(text, ctx);
    if (a) return unique([a])[0] ?? null;
  }
  return unique(fromShell(text, ctx))[0] ?? null;
}
