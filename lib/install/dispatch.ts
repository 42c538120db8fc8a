/**
 * Which tool calls each harness hands to rgraph's hook: only those that can
 * read GitHub — the shell, the web fetch tool and every MCP tool (a GitHub
 * MCP server under whatever name the user gave it, fetch servers, and
 * rgraph's own `resource`, whose call the hook notes for the Cache Read).
 * Every other call (Read, Edit, Grep, Glob, TodoWrite, Task…) starts no
 * process at all: a hook run costs a Deno start, and a session makes
 * hundreds of such calls. A subagent's calls are dispatched by the same
 * rules, so its `gh` still reaches the hook.
 *
 * Each harness is narrowed in its own terms:
 * - Claude Code, Codex, Gemini CLI, Grok Build: a PreToolUse/BeforeTool
 *   `matcher` ({@link PRE_TOOL_MATCHER}), an anchored regular expression;
 * - Cursor: only its shell and MCP events (`beforeShellExecution`,
 *   `beforeMCPExecution`), never `preToolUse`, which fires for every tool;
 * - Copilot CLI, whose hooks have no matcher: a POSIX `sh` test of the
 *   payload's `toolName` before Deno starts ({@link COPILOT_GATE});
 * - OpenCode: its plugin decides in-process (`opencode_plugin.js`, the
 *   same rule as {@link dispatches}).
 *
 * The names come from the address parser's tool sets (`lib/address/parse.ts`),
 * as each harness spells them; `dispatch_test.ts` checks every tool the
 * parser reads passes and the usual others do not.
 *
 * @example
 * ```ts
 * import { dispatches } from "./dispatch.ts";
 * dispatches("claude-code", "Bash"); // true
 * dispatches("claude-code", "mcp__plugin_rgraph_rgraph__resource"); // true
 * dispatches("claude-code", "Edit"); // false
 * ```
 * @module
 */

import type { HarnessName } from "../types.ts";

/** The harnesses whose tool hook takes a matcher. */
export type MatcherHarness = "claude-code" | "codex" | "gemini" | "grok";

/**
 * The matcher of rgraph's tool hook per harness. Anchored: Claude Code and
 * Codex read a matcher with any character besides letters, digits and `|`
 * as an unanchored regular expression, so `Bash` alone would also take
 * `BashOutput`.
 */
export const PRE_TOOL_MATCHER: Readonly<Record<MatcherHarness, string>> = {
  // Plugin MCP tools are `mcp__plugin_<plugin>_<server>__<tool>`: `mcp__.*` takes them too.
  "claude-code": "^(Bash|WebFetch|mcp__.*)$",
  // `exec_command` reaches hooks as `Bash`; older versions named the shell `shell`/`local_shell`.
  codex: "^(Bash|shell|local_shell|exec_command|shell_command|mcp__.*)$",
  // Gemini names MCP tools `mcp_<server>_<tool>` (verified with 0.61.0).
  gemini: "^(run_shell_command|web_fetch|mcp_.*)$",
  // Grok's fetch and MCP naming are unverified (no binary to run): anything that may be one.
  grok:
    "^(run_terminal_command|run_terminal_cmd|Bash|bash|WebFetch|web_fetch|fetch|.*(mcp|__|github|rgraph|fetch).*)$",
};

/** The event each matcher harness's tool hook is on. */
export const PRE_TOOL_EVENT: Readonly<Record<MatcherHarness, string>> = {
  "claude-code": "PreToolUse",
  codex: "PreToolUse",
  gemini: "BeforeTool",
  grok: "PreToolUse",
};

/**
 * The events of a tool call whose hook command sits behind the gate
 * ({@link gated}), per harness (OpenCode's plugin makes the same test
 * in-process). Not Cursor's `beforeMCPExecution`: its payload names the tool
 * bare (`resource`) and the server only by its command or URL, so the
 * gate's text test could miss rgraph's own tool; MCP calls are few.
 */
export const GATED_EVENTS: Readonly<Record<Exclude<HarnessName, "opencode">, string[]>> = {
  "claude-code": ["PreToolUse"],
  codex: ["PreToolUse"],
  gemini: ["BeforeTool"],
  grok: ["PreToolUse"],
  copilot: ["preToolUse"],
  cursor: ["beforeShellExecution"],
};

/** Copilot CLI's tools that may read GitHub, as `case` patterns: MCP tools are `<server>-<tool>`. */
export const COPILOT_TOOLS = ["bash", "powershell", "web_fetch", "*-*"] as const;

/**
 * What the payload of every tool call that can read GitHub holds, as `case`
 * patterns: `gh` as a word (the only command the parser reads), `github` in
 * any case (every URL it reads, every GitHub MCP server's tool name), or
 * rgraph's own `resource` tool under any harness's naming (`isMemoryRead`). A shell command that is none of
 * these (`ls`, `git status`, `deno test`) names nothing on GitHub.
 * {@link mentionsGitHub} is the same test in JavaScript.
 */
export const READ_PATTERNS = [
  "*[!A-Za-z0-9_-]gh[!A-Za-z0-9_-]*",
  "*[Gg][Ii][Tt][Hh][Uu][Bb]*",
  "*rgraph[_:-]resource*",
  "*rgraph__resource*",
] as const;

/** {@link READ_PATTERNS} as one regular expression (case-sensitive, like `case`). */
const READ_RE =
  /[^A-Za-z0-9_-]gh[^A-Za-z0-9_-]|[Gg][Ii][Tt][Hh][Uu][Bb]|rgraph[_:-]resource|rgraph__resource/;

/**
 * Whether a tool call's payload text may name something on GitHub: the test
 * the installed commands' gate makes in `sh` ({@link READ_PATTERNS}), for
 * the OpenCode plugin's twin of it and the benchmarks.
 */
export function mentionsGitHub(text: string): boolean {
  return READ_RE.test(text);
}

/**
 * The `sh` words in front of a tool hook's command: the payload is read and
 * the call ends there unless it {@link READ_PATTERNS | mentions GitHub} —
 * and, for Copilot CLI, whose hooks have no matcher, unless its `toolName`
 * (cut out with parameter expansions) is one of {@link COPILOT_TOOLS}. Else
 * the payload goes on to rgraph on its standard input. No process starts
 * for the test; a payload without a camelCase `toolName` (the snake_case
 * form) passes the name test: a needless hook run costs time, a skipped
 * read a Touch. A `"toolName"` inside the arguments is escaped
 * (`\"toolName\"`), so only the payload's own key matches.
 */
function gate(copilot: boolean): string {
  const toolTest = copilot
    ? `t=\${p#*'"toolName"'}; t=\${t#*'"'}; case $p in *'"toolName"'*) case \${t%%'"'*} in ` +
      `${COPILOT_TOOLS.join("|")}) ;; *) exit 0;; esac;; esac; `
    : "";
  // /bin/cat by its path: the harness runs this in the project, where PATH may find the project's.
  return `p=$(/bin/cat); ${toolTest}case $p in ${READ_PATTERNS.join("|")}) ;; *) exit 0;; esac; ` +
    `printf '%s\\n' "$p" | `;
}
const GATES = [gate(true), gate(false)];

/** `command`, the tool hook of `harness`, behind its gate. */
export function gated(harness: HarnessName, command: string): string {
  return `${gate(harness === "copilot")}{ ${command}; }`;
}

/** The command inside a {@link gated} one, or null when `command` is not gated. */
export function ungated(command: string): string | null {
  const g = GATES.find((g) => command.startsWith(`${g}{ `));
  return g !== undefined && command.endsWith("; }") ? command.slice(g.length + 2, -3) : null;
}

/** A matcher that selects every tool: `*`, empty, or none (Claude Code, Codex, Gemini, Grok). */
export function matchesEveryTool(matcher: unknown): boolean {
  return matcher === undefined || matcher === null || matcher === "" || matcher === "*";
}

/** `sh` glob `pattern` (only `*` is special in {@link COPILOT_TOOLS}) against `name`. */
function globMatches(pattern: string, name: string): boolean {
  const re = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${re}$`).test(name);
}

/** OpenCode's built-in tools have no `_`; its MCP tools are `<server>_<tool>`. */
const OPENCODE_TOOLS = new Set(["bash", "webfetch"]);

/**
 * Whether `harness`, configured as `rgraph install` and the plugins
 * configure it, starts rgraph's hook for a call of `tool` (as the harness
 * names it in the payload). Cursor's shell and MCP calls come on events of
 * their own, so its tool name is `Shell` or `mcp__<server>__<tool>` here.
 */
export function dispatches(harness: HarnessName, tool: string): boolean {
  switch (harness) {
    case "copilot":
      return COPILOT_TOOLS.some((p) => globMatches(p, tool));
    case "opencode":
      return OPENCODE_TOOLS.has(tool) || tool.includes("_");
    case "cursor":
      return tool === "Shell" || tool.startsWith("mcp__");
    default:
      return new RegExp(PRE_TOOL_MATCHER[harness]).test(tool);
  }
}
