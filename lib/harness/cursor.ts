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
 * Without a tool-call id the fingerprint uses `generation_id`, so the same
 * command seen by both `beforeShellExecution` and `preToolUse` in one
 * generation is recorded once.
 *
 * Output: `sessionStart` takes `{"additional_context": …}`. The before-tool
 * outputs are permission decisions (`permission`, `user_message`,
 * `agent_message`); printing any would decide the call, so there is no Nudge.
 *
 * @module
 */

import { type HarnessAdapter, type HookEvent, IGNORED, type ParseOptions } from "./event.ts";
import { asRecord, field, type Json, str, toolArgs } from "./payload.ts";
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
      return command ? toolStart(p, session, "Shell", { command }, generation) : IGNORED;
    }
    case "beforemcpexecution": {
      const tool = str(p, "tool_name");
      if (!tool) return IGNORED;
      const input = toolArgs(field(p, "tool_input"));
      return toolStart(p, session, `mcp__${serverOf(p)}__${tool}`, input, generation);
    }
    case "pretooluse": {
      const tool = str(p, "tool_name");
      if (!tool) return IGNORED;
      const name = preToolName(tool);
      const input = toolArgs(field(p, "tool_input"));
      return toolStart(p, session, name, name === "Shell" ? shellInput(input) : input, generation);
    }
    default:
      return IGNORED;
  }
}

/** The Cursor adapter. */
export const cursor: HarnessAdapter = {
  name: "cursor",
  parse,
  renderSessionHint: (text) => JSON.stringify({ additional_context: text }),
  renderNudge: () => null,
};
