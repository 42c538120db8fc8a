/**
 * Where each harness keeps its hook and MCP configuration, and what rgraph
 * writes there. Pure: paths are computed from the given directories and
 * environment, and every edit is a function from file text to file text.
 *
 * | harness | hooks (project / user) | MCP (project / user) |
 * |---|---|---|
 * | claude-code | `.claude/settings.json` / `~/.claude/settings.json` | `.mcp.json` / `~/.claude.json` |
 * | codex | `.codex/hooks.json` / `$CODEX_HOME/hooks.json` | `.codex/config.toml` / `$CODEX_HOME/config.toml` |
 * | copilot | `.github/hooks/rgraph.json` / `$COPILOT_HOME/hooks/rgraph.json` | `.github/mcp.json` / `$COPILOT_HOME/mcp-config.json` |
 * | cursor | `.cursor/hooks.json` / `~/.cursor/hooks.json` | `.cursor/mcp.json` / `~/.cursor/mcp.json` |
 * | opencode | `.opencode/plugins/rgraph.js` / `~/.config/opencode/plugins/rgraph.js` | `opencode.json` / `~/.config/opencode/opencode.json` |
 * | gemini | `.gemini/settings.json` / `~/.gemini/settings.json` | the same file |
 * | grok | `.grok/hooks/rgraph.json` / `$GROK_HOME/hooks/rgraph.json` | `.grok/config.toml` / `$GROK_HOME/config.toml` |
 *
 * @example
 * ```ts
 * import { targetsFor } from "./harnesses.ts";
 * const targets = targetsFor("cursor", {
 *   scope: "project", dir: "/repo", home: "/home/me", env: {}, invocation: { argv: ["/bin/rgraph"], config: null },
 *   pluginSource: "",
 * });
 * targets.map((t) => t.path); // ["/repo/.cursor/hooks.json", "/repo/.cursor/mcp.json"]
 * ```
 * @module
 */

import {
  hookCommand,
  type Invocation,
  isRgraphHook,
  isRgraphServer,
  isRgraphSessionEnd,
  mcpCommand,
  rgraphArgv,
  sessionEndCommand,
} from "./command.ts";
import {
  gated,
  GATED_EVENTS,
  type MatcherHarness,
  matchesEveryTool,
  PRE_TOOL_EVENT,
  PRE_TOOL_MATCHER,
  ungated,
} from "./dispatch.ts";
import { removeOurs, sameJson, syncList, syncMember, valueAt } from "./formats/mod.ts";
import { parseJsonc, toValue } from "./formats/mod.ts";
import { ensureKey, parseToml, removeMarked, removeTable, syncTable } from "./formats/mod.ts";
import { HARNESS_NAMES, type HarnessName } from "../types.ts";

/** The harnesses `rgraph install` knows: every one rgraph hooks into, in the README's order. */
export const HARNESS_IDS = HARNESS_NAMES;
export type HarnessId = HarnessName;

/** Where an install goes: the project directory, or the user's home. */
export type Scope = "project" | "user";

/** What a plan for one harness depends on. */
export interface Context {
  scope: Scope;
  /** The project directory (used for `project` scope). */
  dir: string;
  home: string;
  /** Environment variables that move a harness's home (CODEX_HOME, COPILOT_HOME, GROK_HOME, XDG_CONFIG_HOME). */
  env: Record<string, string | undefined>;
  invocation: Invocation;
  /** The OpenCode plugin's source as shipped (`lib/install/opencode_plugin.js`). */
  pluginSource: string;
}

/** Hook timeout in seconds: a hook answers in milliseconds; a stuck one must not hold the agent. */
const HOOK_TIMEOUT_S = 5;

/**
 * The largest timeout (seconds) a harness accepts for an event, where it caps
 * one: Codex 0.171.0 clamps SessionEnd hooks to 3 s and prints an error item
 * in every session when more is configured. The session-end command returns
 * at once (the Sweep runs in a process of its own), so the cap costs nothing.
 */
const TIMEOUT_CAP_S: Partial<Record<HarnessId, Record<string, number>>> = {
  codex: { SessionEnd: 3 },
};

/** The timeout (seconds) rgraph writes for `harness`'s `event`. */
export function hookTimeout(harness: HarnessId, event: string): number {
  return Math.min(HOOK_TIMEOUT_S, TIMEOUT_CAP_S[harness]?.[event] ?? HOOK_TIMEOUT_S);
}

/** One file rgraph manages for a harness. */
export interface Target {
  path: string;
  what: "hooks" | "mcp" | "plugin" | "features";
  /** JSON with comments allowed (Gemini settings, opencode.jsonc). */
  format: "json" | "jsonc" | "toml" | "js";
  /** The file's new text after installing (text `null`: the file is absent). */
  install(text: string | null): string;
  /** The file's text after uninstalling. */
  uninstall(text: string): string;
  /** True when what is left is only what rgraph writes into a file it creates: the file can go. */
  leftover(text: string): boolean;
  /**
   * Hooks: the installed command per event (null where missing), and the events where rgraph's
   * entry runs on every tool (an older install's: a reinstall narrows it); MCP: the server argv.
   */
  inspect(
    text: string,
  ): { hooks?: Record<string, string | null>; everyTool?: string[]; server?: string[] | null };
  /** Other files that may hold this config instead; the first that exists is used. */
  alternates?: Target[];
}

/**
 * The event each harness fires when a session ends (Codex since 0.145.0):
 * rgraph's entry there is {@link sessionEndCommand}, which starts an
 * automatic Sweep and returns at once. OpenCode's plugin does the same on
 * `session.idle`.
 */
export const SESSION_END_EVENT: Record<Exclude<HarnessId, "opencode">, string> = {
  "claude-code": "SessionEnd",
  codex: "SessionEnd",
  copilot: "sessionEnd",
  cursor: "sessionEnd",
  gemini: "SessionEnd",
  grok: "SessionEnd",
};

/**
 * The events rgraph hooks, per harness (OpenCode uses its plugin instead):
 * `rgraph hook` on each, then the session's end (see {@link SESSION_END_EVENT}).
 */
export const HOOK_EVENTS: Record<Exclude<HarnessId, "opencode">, string[]> = {
  "claude-code": ["SessionStart", "UserPromptSubmit", "PreToolUse", "SessionEnd"],
  codex: ["SessionStart", "UserPromptSubmit", "PreToolUse", "SessionEnd"],
  copilot: ["sessionStart", "userPromptSubmitted", "preToolUse", "sessionEnd"],
  // Only the shell and MCP events: Cursor's preToolUse fires for every tool (see dispatch.ts).
  cursor: [
    "sessionStart",
    "beforeSubmitPrompt",
    "beforeShellExecution",
    "beforeMCPExecution",
    "sessionEnd",
  ],
  gemini: ["SessionStart", "BeforeAgent", "BeforeTool", "SessionEnd"],
  grok: ["SessionStart", "UserPromptSubmit", "PreToolUse", "SessionEnd"],
};

/**
 * Events an older rgraph hooked that install now leaves alone: install
 * removes rgraph's entries there, and doctor reports one left as a hook
 * that runs on every tool. (Cursor's preToolUse fires for every tool, and
 * its shell and MCP calls come on their own events as well.)
 */
export const RETIRED_EVENTS: Partial<Record<Exclude<HarnessId, "opencode">, string[]>> = {
  cursor: ["preToolUse"],
};

/**
 * The `--event` a hook command of `harness` passes for `event`: Copilot's
 * payloads do not name their event, so its commands do; other harnesses' do.
 */
export function eventArgument(harness: HarnessId, event: string): string | undefined {
  return harness === "copilot" ? event : undefined;
}

/**
 * The command `rgraph install` writes for one hook event of `harness`: the
 * session-end command on the event that ends a session, `rgraph hook` on
 * every other.
 *
 * @example
 * ```ts
 * hookEntryCommand("codex", "SessionEnd", { argv: ["/bin/rgraph"], config: "/c.toml" });
 * // "/bin/rgraph --config /c.toml sweep --background"
 * ```
 */
export function hookEntryCommand(
  harness: Exclude<HarnessId, "opencode">,
  event: string,
  inv: Invocation,
): string {
  if (event === SESSION_END_EVENT[harness]) return sessionEndCommand(inv);
  const command = hookCommand(inv, harness, eventArgument(harness, event));
  // A tool hook starts Deno only for a call that can read GitHub (dispatch.ts).
  return GATED_EVENTS[harness].includes(event) ? gated(harness, command) : command;
}

/**
 * What an rgraph before this one wrote for `event` where the entry changed
 * only in what it dispatches (a tool hook without its gate): still rgraph's
 * own, to be upgraded, never a stranger's entry.
 */
export function ungatedEntryCommand(
  harness: Exclude<HarnessId, "opencode">,
  event: string,
  inv: Invocation,
): string | null {
  return ungated(hookEntryCommand(harness, event, inv));
}

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function join(...parts: string[]): string {
  return parts.join("/").replace(/\/+/g, "/");
}

/** Parse check that turns a syntax error into a message naming the format. */
function parsed(text: string, format: "json" | "jsonc"): unknown {
  return toValue(parseJsonc(text, format === "jsonc"));
}

/** How one harness writes a hook entry. */
interface HookStyle {
  /** Claude-style `{matcher?, hooks: [handler]}` groups, or bare handlers (Cursor, Copilot). */
  grouped: boolean;
  /** The handler running `command` on `event`, with `timeout` seconds ({@link hookTimeout}). */
  handler(command: string, timeout: number): Json;
  /** The command field of a handler. */
  commandKey: "command" | "bash";
  /** The group's `matcher` on `event` (grouped styles): only tools that can read GitHub. */
  matcher?: (event: string) => string | undefined;
  /** What rgraph writes into a file it creates, before its entries (`{"version": 1}`). */
  scaffold: Json;
}

function hooksTarget(
  path: string,
  harness: Exclude<HarnessId, "opencode">,
  format: "json" | "jsonc",
  style: HookStyle,
  inv: Invocation,
): Target {
  const jsonc = format === "jsonc";
  const events = HOOK_EVENTS[harness];
  const command = (event: string) => hookEntryCommand(harness, event, inv);
  const ourHandler = (v: unknown) => {
    if (!isObj(v)) return false;
    const c = v[style.commandKey];
    return isRgraphHook(c, harness, inv) || isRgraphSessionEnd(c, inv);
  };
  const ourGroup = (v: unknown) =>
    isObj(v) && Array.isArray(v.hooks) && v.hooks.length > 0 && v.hooks.every(ourHandler);
  const ourEntry = style.grouped ? ourGroup : ourHandler;
  const entry = (event: string): Json => {
    const handler = style.handler(command(event), hookTimeout(harness, event));
    if (!style.grouped) return handler;
    const matcher = style.matcher?.(event);
    return matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] };
  };
  return {
    path,
    what: "hooks",
    format,
    install(text) {
      let t = text ?? JSON.stringify(style.scaffold, null, 2) + "\n";
      parsed(t, format);
      for (const event of events) {
        t = syncList(
          t,
          jsonc,
          ["hooks", event],
          [entry(event)],
          ourEntry,
          style.grouped ? ourHandler : undefined,
        );
      }
      for (const event of RETIRED_EVENTS[harness] ?? []) {
        if (listHas(t, event)) t = syncList(t, jsonc, ["hooks", event], [], ourEntry, ourHandler);
      }
      return t;
    },
    uninstall(text) {
      parsed(text, format);
      return removeOurs(text, jsonc, (v) => ourEntry(v) || ourHandler(v));
    },
    leftover: (text) => onlyScaffold(text, jsonc, style.scaffold),
    inspect(text) {
      const doc = parsed(text, format);
      const listOf = (event: string): unknown[] => {
        const list = isObj(doc) && isObj(doc.hooks) ? doc.hooks[event] : undefined;
        return Array.isArray(list) ? list : [];
      };
      const handlersOf = (event: string) =>
        listOf(event).flatMap((e) =>
          style.grouped ? (isObj(e) && Array.isArray(e.hooks) ? e.hooks : []) : [e]
        );
      const hooks: Record<string, string | null> = {};
      for (const event of events) {
        const found = handlersOf(event).find(ourHandler) as Json | undefined;
        hooks[event] = found ? String(found[style.commandKey]) : null;
      }
      const everyTool = [
        ...new Set([
          ...events.filter((event) =>
            style.matcher?.(event) !== undefined &&
            listOf(event).some((g) => isObj(g) && ourGroup(g) && matchesEveryTool(g.matcher))
          ),
          ...events.filter((event) => {
            const c = hooks[event];
            return c !== null && c !== command(event) && ungated(command(event)) === c;
          }),
          ...(RETIRED_EVENTS[harness] ?? []).filter((event) => handlersOf(event).some(ourHandler)),
        ]),
      ];
      return { hooks, everyTool };
    },
  };
}

/** Whether `text` has a `hooks.<event>` member. */
function listHas(text: string, event: string): boolean {
  const doc = toValue(parseJsonc(text, true));
  return isObj(doc) && isObj(doc.hooks) && Object.hasOwn(doc.hooks, event);
}

/** The grouped style of a matcher harness: its tool hook's group carries the narrow matcher. */
function matched(style: HookStyle, harness: MatcherHarness): HookStyle {
  return {
    ...style,
    matcher: (e) => e === PRE_TOOL_EVENT[harness] ? PRE_TOOL_MATCHER[harness] : undefined,
  };
}

/**
 * True when a JSON document is exactly the scaffold rgraph writes into a file
 * it creates (`{}`, `{"version": 1}`…): the file is rgraph's to delete.
 */
function onlyScaffold(text: string, jsonc: boolean, scaffold: Json): boolean {
  return sameJson(toValue(parseJsonc(text, jsonc)), scaffold);
}

function mcpJsonTarget(
  path: string,
  format: "json" | "jsonc",
  container: (text: string | null) => string[],
  server: Json,
  scaffold: Json = {},
): Target {
  const jsonc = format === "jsonc";
  const ours = (v: unknown, key: string | null) =>
    key === "rgraph" && isObj(v) && isRgraphServer(serverArgv(v));
  return {
    path,
    what: "mcp",
    format,
    install(text) {
      const t = text ?? JSON.stringify(scaffold, null, 2) + "\n";
      parsed(t, format);
      return syncMember(t, jsonc, container(text), "rgraph", server);
    },
    uninstall(text) {
      parsed(text, format);
      return removeOurs(text, jsonc, ours);
    },
    leftover: (text) => onlyScaffold(text, jsonc, scaffold),
    inspect(text) {
      parsed(text, format);
      const v = valueAt(text, jsonc, [...container(text), "rgraph"]);
      return { server: isObj(v) ? serverArgv(v) : null };
    },
  };
}

/** An MCP server entry's argv: `command` (a string, or OpenCode's list) then `args`. */
function serverArgv(v: Json): string[] {
  const cmd = Array.isArray(v.command) ? v.command : [v.command];
  const args = Array.isArray(v.args) ? v.args : [];
  return [...cmd, ...args].map(String);
}

function tomlMcpTarget(
  path: string,
  server: { command: string; args: string[] },
  codexFeature: boolean,
): Target {
  const table = "mcp_servers.rgraph";
  return {
    path,
    what: "mcp",
    format: "toml",
    install(text) {
      let t = text ?? "";
      parseToml(t);
      if (codexFeature) t = ensureKey(t, "features", "hooks", true, ["codex_hooks"]).text;
      return syncTable(t, table, server);
    },
    uninstall(text) {
      const doc = parseToml(text);
      const mcp = isObj(doc.mcp_servers) ? doc.mcp_servers.rgraph : undefined;
      let t = isObj(mcp) && isRgraphServer(serverArgv(mcp)) ? removeTable(text, table) : text;
      if (codexFeature) t = removeMarked(t);
      parseToml(t);
      return t;
    },
    leftover: (text) => text.trim() === "",
    inspect(text) {
      const doc = parseToml(text);
      const mcp = isObj(doc.mcp_servers) ? doc.mcp_servers.rgraph : undefined;
      return { server: isObj(mcp) ? serverArgv(mcp) : null };
    },
  };
}

/** The plugin file with the command it runs set to this install's invocation. */
export function pluginText(source: string, inv: Invocation): string {
  const line = /^const RGRAPH_COMMAND = .*$/m;
  if (!line.test(source)) throw new Error("the shipped OpenCode plugin has no RGRAPH_COMMAND line");
  return source.replace(
    line,
    `const RGRAPH_COMMAND = ${
      JSON.stringify(rgraphArgv(inv, []))
    }; // rgraph-command (rewritten by \`rgraph install\`)`,
  );
}

function pluginTarget(path: string, source: string, inv: Invocation): Target {
  const text = pluginText(source, inv);
  const argvOf = (t: string): string[] | null => {
    const m = /^const RGRAPH_COMMAND = (\[.*\]);/m.exec(t);
    try {
      return m ? JSON.parse(m[1]) : null;
    } catch {
      return null;
    }
  };
  return {
    path,
    what: "plugin",
    format: "js",
    install: () => text,
    uninstall: (t) => argvOf(t) === null ? t : "",
    leftover: (t) => t === "",
    inspect: (t) => ({ server: argvOf(t) }),
  };
}

/** The directory a harness keeps its user config in, honouring its override variable. */
function homeOf(ctx: Context, variable: string | null, fallback: string): string {
  const v = variable ? ctx.env[variable] : undefined;
  return v && v.trim() !== "" ? v : join(ctx.home, fallback);
}

const CLAUDE_STYLE: HookStyle = {
  grouped: true,
  handler: (command, timeout) => ({ type: "command", command, timeout }),
  commandKey: "command",
  scaffold: {},
};

/**
 * The files rgraph manages for `harness` in this context, in the order they
 * are written. Throws `MergeError`/`SyntaxError` only from the returned
 * targets' functions, never here.
 */
export function targetsFor(harness: HarnessId, ctx: Context): Target[] {
  const inv = ctx.invocation;
  const { command, args } = mcpCommand(inv);
  const project = ctx.scope === "project";
  const base = ctx.dir;
  switch (harness) {
    case "claude-code": {
      const style = matched(CLAUDE_STYLE, harness);
      return [
        hooksTarget(
          join(project ? base : ctx.home, ".claude/settings.json"),
          harness,
          "json",
          style,
          inv,
        ),
        mcpJsonTarget(
          project ? join(base, ".mcp.json") : join(ctx.home, ".claude.json"),
          "json",
          () => ["mcpServers"],
          { command, args },
        ),
      ];
    }
    case "codex": {
      const dir = project ? join(base, ".codex") : homeOf(ctx, "CODEX_HOME", ".codex");
      return [
        hooksTarget(join(dir, "hooks.json"), harness, "json", matched(CLAUDE_STYLE, harness), inv),
        tomlMcpTarget(join(dir, "config.toml"), { command, args }, true),
      ];
    }
    case "copilot": {
      const dir = project ? join(base, ".github") : homeOf(ctx, "COPILOT_HOME", ".copilot");
      const style: HookStyle = {
        grouped: false,
        handler: (bash, timeoutSec) => ({ type: "command", bash, timeoutSec }),
        commandKey: "bash",
        scaffold: { version: 1 },
      };
      return [
        hooksTarget(join(dir, "hooks/rgraph.json"), harness, "json", style, inv),
        mcpJsonTarget(
          join(dir, project ? "mcp.json" : "mcp-config.json"),
          "json",
          () => ["mcpServers"],
          { type: "local", command, args, tools: ["*"] },
        ),
      ];
    }
    case "cursor": {
      const dir = join(project ? base : ctx.home, ".cursor");
      // Cursor's timeout unit is not documented: its default applies.
      const style: HookStyle = {
        grouped: false,
        handler: (c) => ({ command: c }),
        commandKey: "command",
        scaffold: { version: 1 },
      };
      return [
        hooksTarget(join(dir, "hooks.json"), harness, "json", style, inv),
        mcpJsonTarget(join(dir, "mcp.json"), "json", () => ["mcpServers"], { command, args }),
      ];
    }
    case "opencode": {
      const dir = project ? base : join(homeOf(ctx, "XDG_CONFIG_HOME", ".config"), "opencode");
      const plugins = project ? join(base, ".opencode/plugins") : join(dir, "plugins");
      return [
        pluginTarget(join(plugins, "rgraph.js"), ctx.pluginSource, inv),
        opencodeConfigTarget(dir, rgraphArgv(inv, ["serve-mcp"])),
      ];
    }
    case "gemini": {
      const path = join(project ? base : ctx.home, ".gemini/settings.json");
      const style: HookStyle = matched({
        grouped: true,
        handler: (c, timeout) => ({
          type: "command",
          command: c,
          name: "rgraph",
          timeout: timeout * 1000,
        }),
        commandKey: "command",
        scaffold: {},
      }, harness);
      return [
        hooksTarget(path, harness, "jsonc", style, inv),
        mcpJsonTarget(path, "jsonc", () => ["mcpServers"], { command, args }),
      ];
    }
    case "grok": {
      const dir = project ? join(base, ".grok") : homeOf(ctx, "GROK_HOME", ".grok");
      return [
        hooksTarget(
          join(dir, "hooks/rgraph.json"),
          harness,
          "json",
          matched(CLAUDE_STYLE, harness),
          inv,
        ),
        tomlMcpTarget(join(dir, "config.toml"), { command, args }, false),
      ];
    }
  }
}

/**
 * OpenCode's config: `opencode.jsonc` when the user has one, else
 * `opencode.json`; servers under `mcp.servers` when the file already uses that
 * (OpenCode 2) layout, else directly under `mcp`.
 */
function opencodeConfigTarget(dir: string, argv: string[]): Target {
  const json = join(dir, "opencode.json");
  const target = (path: string, format: "json" | "jsonc") =>
    mcpJsonTarget(
      path,
      format,
      (text) => {
        if (text === null) return ["mcp"];
        const mcp = valueAt(text, format === "jsonc", ["mcp"]);
        return isObj(mcp) && isObj(mcp.servers) ? ["mcp", "servers"] : ["mcp"];
      },
      { type: "local", command: argv, enabled: true },
      { $schema: "https://opencode.ai/config.json" },
    );
  const plain = target(json, "json");
  const withComments = target(join(dir, "opencode.jsonc"), "jsonc");
  // Which file applies is decided by what exists; `resolveAlternates` picks it.
  return { ...plain, alternates: [withComments] };
}

/** Targets that may live in one of several files: the first that exists wins, else the first. */
export function resolveAlternates(target: Target, exists: (path: string) => boolean): Target {
  return [target, ...target.alternates ?? []].find((t) => exists(t.path)) ?? target;
}
