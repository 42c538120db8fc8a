/**
 * Cursor. Every payload has `hook_event_name`, `conversation_id` (the
 * session), `generation_id` and `workspace_roots`. Events used:
 * - `beforeShellExecution` (`command`, `cwd`) → tool `Shell` with `{command}`;
 * - `beforeMCPExecution` (`tool_name` without a server prefix, `tool_input`
 *   as an object or JSON string, and the server's `url` or `command`) → tool
 *   `mcp__<server>__<tool>`, the server named from that url/command
 *   (`github`, `rgraph`, else `cursor`), so MCP tools read the same in every
 *   harness;
 * - `preToolUse` (newer versions: `tool_name` such as `Shell` or
 *   `MCP:<tool>`, `tool_input`, `tool_use_id` when given);
 * - `beforeSubmitPrompt` (`prompt`); `sessionStart`.
 *
 * The fingerprint is always the call's content (session, bare tool name,
 * input, `generation_id`), never its id: `preToolUse` and the older
 * before-shell/MCP events both fire for one call on new versions, and only
 * `preToolUse` carries `tool_use_id`, so this is what records the pair once.
 * (A `preToolUse` MCP call names no server; the `beforeMCPExecution` of the
 * same call is the one that reads as a GitHub MCP tool.)
 *
 * Output: `sessionStart` takes `{"additional_context": …}`. The before-tool
 * outputs are permission decisions (`permission`, `user_message`,
 * `agent_message`); printing any would decide the call, so there is no Nudge.
 *
 * @module
 */

import {
  type HarnessAdapter,
  type HookEvent,
  IGNORED,
  type ParseOptions,
  type ToolStartEvent,
} from "./event.ts";
import { asRecord, field, fingerprint, type Json, str, toolArgs } from "./payload.ts";
import { cwdOf, eventName, toolStart } from "./standard.ts";

function serverOf(p: Json): string {
  const named = str(p, "server", "server_name");
  if (named) return named;
  const where = `${str(p, "url") ?? ""} ${str(p, "command") ?? ""}`;
  if (/rgraph/i.test(where)) return "rgraph";
  if (/github/i.test(where)) return "github";
  return "cursor";
}

/** `MCP:tool` (preToolUse naming) → `mcp__cursor__tool`. */
function preToolName(tool: string): string {
  return tool.startsWith("MCP:") ? `mcp__cursor__${tool.slice(4)}` : tool;
}

function shellInput(input: unknown): unknown {
  const r = asRecord(input);
  return r && typeof r.command === "string" ? { command: r.command } : input;
}

/** A tool start fingerprinted by content, whichever Cursor event reported it. */
function cursorTool(
  p: Json,
  session: string | null,
  generation: string | null,
  tool: string,
  input: unknown,
): ToolStartEvent {
  const bare = tool.slice(tool.lastIndexOf("__") + 2);
  return {
    ...toolStart(p, session, tool, input, generation),
    fingerprint: fingerprint(session, bare, input, generation),
  };
}

function parse(payload: unknown, opts: ParseOptions): HookEvent {
  const p = asRecord(payload);
  if (!p) return IGNORED;
  const session = str(p, "conversation_id", "session_id", "sessionId");
  const generation = str(p, "generation_id");
  switch (eventName(p, opts)) {
    case "sessionstart":
      return { type: "session_start", session_id: session, cwd: cwdOf(p) };
    case "beforesubmitprompt": {
      const prompt = str(p, "prompt");
      return prompt
        ? { type: "user_prompt", session_id: session, cwd: cwdOf(p), prompt, agent_id: null }
        : IGNORED;
    }
    case "beforeshellexecution": {
      const command = str(p, "command");
      return command ? cursorTool(p, session, generation, "Shell", { command }) : IGNORED;
    }
    case "beforemcpexecution": {
      const tool = str(p, "tool_name");
      if (!tool) return IGNORED;
      const input = toolArgs(field(p, "tool_input"));
      return cursorTool(p, session, generation, `mcp__${serverOf(p)}__${tool}`, input);
    }
    case "pretooluse": {
      const tool = str(p, "tool_name");
      if (!tool) return IGNORED;
      const name = preToolName(tool);
      const input = toolArgs(field(p, "tool_input"));
      return cursorTool(p, session, generation, name, name === "Shell" ? shellInput(input) : input);
    }
    default:
      return IGNORED;
  }
}

/** The Cursor adapter. */
export const cursor: HarnessAdapter = {
  name: "cursor",
  // Not verified: Cursor has no installable binary to run here.
  resourceTool: { name: "resource" },
  parse,
  renderSessionHint: (text) => JSON.stringify({ additional_context: text }),
  renderNudge: () => null,
};
