/**
 * The payload shape most harnesses share (Claude Code's, which Codex, Gemini
 * CLI, Grok Build and Copilot CLI's VS Code–compatible form follow with their
 * own event names and casing), and the additional-context outputs: Claude
 * Code's `hookSpecificOutput.additionalContext` (Codex and Gemini CLI take it
 * too) and Copilot CLI's flat `additionalContext`.
 *
 * @module
 */

import {
  type HarnessAdapter,
  type HarnessName,
  type HookEvent,
  IGNORED,
  type ParseOptions,
  type PresentedTool,
  type ToolStartEvent,
} from "./event.ts";
import {
  asRecord,
  eventKey,
  field,
  fingerprint,
  idFingerprint,
  type Json,
  stamp,
  str,
  toolArgs,
} from "./payload.ts";

/** Which event names (compared with {@link eventKey}) mean what, for one harness. */
export interface EventNames {
  sessionStart: string[];
  prompt: string[];
  toolStart: string[];
}

/** The event name a payload carries, else the one given with `--event`. */
export function eventName(p: Json, opts: ParseOptions): string {
  return eventKey(str(p, "hook_event_name", "hookEventName") ?? opts.event);
}

/** The session id under any of the spellings harnesses use. */
function sessionOf(p: Json): string | null {
  return str(p, "session_id", "sessionId");
}

/** The working directory: `cwd`, else Grok's `workspaceRoot`, else Cursor's first workspace root. */
export function cwdOf(p: Json): string | null {
  const direct = str(p, "cwd", "workspaceRoot", "workspace_root");
  if (direct) return direct;
  const roots = field(p, "workspace_roots", "workspaceRoots");
  return Array.isArray(roots) && typeof roots[0] === "string" && roots[0] !== "" ? roots[0] : null;
}

/**
 * A tool-start event from its parts. Its fingerprint comes from the tool-call
 * id when there is one, else from the content (with `timestamp`).
 */
export function toolStart(
  p: Json,
  session: string | null,
  tool: string,
  input: unknown,
  timestamp: string | null,
  toolUseId: string | null = str(p, "tool_use_id", "toolUseId", "tool_call_id", "toolCallId"),
): ToolStartEvent {
  return {
    type: "tool_start",
    session_id: session,
    cwd: cwdOf(p),
    tool_name: tool,
    tool_input: input,
    tool_use_id: toolUseId,
    agent_id: str(p, "agent_id", "agentId"),
    fingerprint: toolUseId === null
      ? fingerprint(session, tool, input, timestamp)
      : idFingerprint(session, toolUseId),
  };
}

/**
 * Parses a Claude-style payload: `session_id`, `cwd`, `prompt`, `tool_name`,
 * `tool_input`, `tool_use_id`, `agent_id` (camelCase accepted too), with
 * `names` saying which event names mean what.
 */
function parseStandard(payload: unknown, opts: ParseOptions, names: EventNames): HookEvent {
  const p = asRecord(payload);
  if (!p) return IGNORED;
  const key = eventName(p, opts);
  const session = sessionOf(p);
  if (names.sessionStart.includes(key)) {
    return { type: "session_start", session_id: session, cwd: cwdOf(p) };
  }
  if (names.prompt.includes(key)) {
    const prompt = str(p, "prompt");
    if (!prompt) return IGNORED;
    return {
      type: "user_prompt",
      session_id: session,
      cwd: cwdOf(p),
      prompt,
      agent_id: str(p, "agent_id", "agentId"),
    };
  }
  if (names.toolStart.includes(key)) {
    const tool = str(p, "tool_name", "toolName");
    if (!tool) return IGNORED;
    const input = toolArgs(field(p, "tool_input", "toolInput", "toolArgs", "tool_args"));
    return toolStart(p, session, tool, input, stamp(p, "timestamp"));
  }
  return IGNORED;
}

/**
 * How a harness takes context for the model that decides nothing (no
 * `permissionDecision`, no `continue`):
 * - `hookSpecificOutput`: `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`
 *   (Claude Code, Codex, Gemini CLI);
 * - `flat`: `{"additionalContext":…}` (Copilot CLI: it passes this form from
 *   sessionStart and preToolUse to the model and ignores the other).
 */
export type ContextFormat = "hookSpecificOutput" | "flat";

/** `text` as context for the model in `format`, answering `hookEventName`. */
export function additionalContext(
  format: ContextFormat,
  hookEventName: string,
  text: string,
): string {
  return format === "flat"
    ? JSON.stringify({ additionalContext: text })
    : JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: text } });
}

/** Which of rgraph's lines a harness takes as additional context, and in which form. */
export interface ContextChannels {
  sessionHint: boolean;
  nudge: boolean;
  format: ContextFormat;
}

/**
 * An adapter for a harness with Claude-style payloads: `names` says which of
 * its events mean what, `tool` how it presents rgraph's tool (`pluginTool`:
 * when rgraph is its plugin, where that differs), `channels` where it
 * accepts additional context.
 */
export function standardAdapter(
  name: HarnessName,
  names: EventNames,
  tool: PresentedTool,
  channels: ContextChannels,
  pluginTool?: PresentedTool,
): HarnessAdapter {
  return {
    name,
    resourceTool: tool,
    ...(pluginTool ? { pluginTool } : {}),
    parse: (payload, opts) => parseStandard(payload, opts, names),
    renderSessionHint: (text) =>
      channels.sessionHint ? additionalContext(channels.format, "SessionStart", text) : null,
    renderNudge: (text) =>
      channels.nudge ? additionalContext(channels.format, "PreToolUse", text) : null,
  };
}
