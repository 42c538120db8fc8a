/**
 * What a harness hook payload means to rgraph, whichever harness sent it.
 * Each adapter in this folder maps its harness's payload to one
 * {@link HookEvent}; everything rgraph does not use is `ignored`.
 *
 * @module
 */

import type { HarnessName } from "../../types.ts";

/** The harnesses rgraph has an adapter for (the list lives with the shared vocabulary). */
export type { HarnessName };

/** A session began: answer with the session hint where the harness can add context. */
export interface SessionStartEvent {
  type: "session_start";
  session_id: string | null;
  cwd: string | null;
}

/** A person submitted a prompt: its GitHub links become PROMPTED Touches. */
export interface UserPromptEvent {
  type: "user_prompt";
  session_id: string | null;
  cwd: string | null;
  prompt: string;
  agent_id: string | null;
  /**
   * The harness's id of this prompt where it has one (OpenCode's message
   * id): a re-delivered prompt has the same, two prompts of the same text
   * do not. Absent elsewhere: then the prompt's text identifies it.
   */
  prompt_id?: string | null;
}

/** A tool is about to run: GitHub reads become FETCHED Touches (and may get a Nudge). */
export interface ToolStartEvent {
  type: "tool_start";
  session_id: string | null;
  cwd: string | null;
  tool_name: string;
  /** Object, argv list or string, as the harness gave it (JSON-string arguments decoded). */
  tool_input: unknown;
  /** The harness's tool-call id, when it has one (recorded with the Touch). */
  tool_use_id: string | null;
  agent_id: string | null;
  /**
   * What identifies this tool call for dedup: a re-delivered payload yields
   * the same value. Derived from the tool-call id where the harness gives one;
   * otherwise a hash of session, tool, input and the payload's timestamp when
   * present. (Cursor always hashes: its before-shell/MCP and `preToolUse`
   * events both fire for one call, and only one of them carries an id.)
   */
  fingerprint: string;
}

/** Anything rgraph does not act on. */
export interface IgnoredEvent {
  type: "ignored";
}

/** One harness hook payload, as rgraph understands it. */
export type HookEvent = SessionStartEvent | UserPromptEvent | ToolStartEvent | IgnoredEvent;

/** Options for {@link HarnessAdapter.parse}. */
export interface ParseOptions {
  /** The event name from `--event`, for payloads that do not carry one (Copilot CLI). */
  event?: string;
}

/**
 * How a harness presents rgraph's `resource` tool to its model: a tool name
 * (`mcp__rgraph__resource` in Claude Code, `mcp_rgraph_resource` in Gemini
 * CLI), or a tool in a namespace (Codex: `resource` in `mcp__rgraph`). Claude
 * Code defers MCP tools, so its model must ask for the tool by exactly this
 * name; the session hint uses it.
 */
export interface PresentedTool {
  name: string;
  /** The namespace the tool is offered in, where the harness groups tools so. */
  namespace?: string;
}

/** Maps one harness's payloads to events and renders rgraph's lines in its output format. */
export interface HarnessAdapter {
  readonly name: HarnessName;
  /** rgraph's tool as this harness's model sees it (MCP server `rgraph`, as install names it). */
  readonly resourceTool: PresentedTool;
  /**
   * rgraph's tool when rgraph came as this harness's plugin, where the harness
   * names a plugin's servers apart (Claude Code: `mcp__plugin_<plugin>_<server>__<tool>`).
   */
  readonly pluginTool?: PresentedTool;
  /** Never throws: anything unrecognisable is `{ type: "ignored" }`. */
  parse(payload: unknown, opts: ParseOptions): HookEvent;
  /**
   * The session-start output carrying `text` to the model, or `null` where the
   * harness cannot add context at session start.
   */
  renderSessionHint(text: string): string | null;
  /**
   * The pre-tool output adding `text` to the model's context without deciding
   * the call, or `null` where the harness has no such channel.
   */
  renderNudge(text: string, event: ToolStartEvent): string | null;
}

/** The `ignored` event (one shared value). */
export const IGNORED: IgnoredEvent = { type: "ignored" };
