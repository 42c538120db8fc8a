/**
 * OpenCode has no command hooks; rgraph's plugin (`lib/install/opencode_plugin.js`, written
 * as `.opencode/plugins/rgraph.js` by `rgraph install`) runs `rgraph hook opencode`
 * with a payload of rgraph's own design on standard input:
 *
 * ```jsonc
 * // before a tool runs (plugin hook `tool.execute.before`)
 * {"event": "tool.execute.before", "session_id": "ses_…", "call_id": "call_…",
 *  "tool": "bash", "args": {"command": "gh issue view 5"}, "cwd": "/repo"}
 * // a prompt (plugin hook `chat.message`): the text parts joined by newlines
 * {"event": "chat.message", "session_id": "ses_…", "message_id": "msg_…",
 *  "agent": "build", "prompt": "look at https://github.com/o/r/issues/5", "cwd": "/repo"}
 * ```
 *
 * OpenCode names MCP tools `<server>_<tool>` (built-in tools have no
 * underscore), so `github_issue_read` becomes `mcp__github__issue_read`.
 * The plugin asks for the session hint once (`{"event": "session.created"}`,
 * answered `{"system": "rgraph: …"}`) and adds it through
 * `experimental.chat.system.transform`, which reaches every model request;
 * no plugin hook adds context before a tool, so there is no Nudge.
 *
 * @module
 */

import { type HarnessAdapter, type HookEvent, IGNORED, type ParseOptions } from "./event.ts";
import { asRecord, eventKey, field, str, toolArgs } from "./payload.ts";
import { toolStart } from "./standard.ts";

/** rgraph's tool as OpenCode presents it. */
const RESOURCE_TOOL = "rgraph_resource";

/** OpenCode's `<server>_<tool>` MCP naming → `mcp__<server>__<tool>`. */
function toolName(tool: string): string {
  const m = /^([A-Za-z0-9-]+)_(.+)$/.exec(tool);
  return m ? `mcp__${m[1]}__${m[2]}` : tool;
}

function parse(payload: unknown, opts: ParseOptions): HookEvent {
  const p = asRecord(payload);
  if (!p) return IGNORED;
  const session = str(p, "session_id");
  switch (eventKey(str(p, "event") ?? opts.event)) {
    case "sessioncreated":
      return { type: "session_start", session_id: session, cwd: str(p, "cwd") };
    case "chatmessage": {
      const prompt = str(p, "prompt");
      return prompt
        ? {
          type: "user_prompt",
          session_id: session,
          cwd: str(p, "cwd"),
          prompt,
          agent_id: str(p, "agent"),
          prompt_id: str(p, "message_id"),
        }
        : IGNORED;
    }
    case "toolexecutebefore": {
      const tool = str(p, "tool");
      if (!tool) return IGNORED;
      const input = toolArgs(field(p, "args"));
      return toolStart(p, session, toolName(tool), input, null, str(p, "call_id"));
    }
    default:
      return IGNORED;
  }
}

/** The OpenCode adapter (payloads from rgraph's own plugin). */
export const opencode: HarnessAdapter = {
  name: "opencode",
  resourceTool: { name: RESOURCE_TOOL },
  parse,
  // For the plugin, which pushes it into `experimental.chat.system.transform`'s system prompt.
  renderSessionHint: (text) => JSON.stringify({ system: text }),
  renderNudge: () => null,
};
