/**
 * Claude Code: `SessionStart`, `UserPromptSubmit` and `PreToolUse` payloads
 * (`session_id`, `cwd`, `prompt`, `tool_name`, `tool_input`, `tool_use_id`,
 * and `agent_id` inside a subagent). Context goes back as
 * `hookSpecificOutput.additionalContext` for both the session hint and the
 * Nudge (PreToolUse additionalContext is supported since v2.1.9). MCP tools
 * are deferred: the model loads `mcp__rgraph__resource` by that name first
 * (verified with 2.1.332), so the hint names it so — as
 * `mcp__plugin_rgraph_rgraph__resource` when rgraph came as its plugin.
 *
 * @example
 * ```ts
 * import { claudeCode } from "./claude_code.ts";
 * claudeCode.parse({ hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "hi" }, {}).type;
 * // "user_prompt"
 * ```
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Claude Code adapter. */
export const claudeCode = standardAdapter(
  "claude-code",
  {
    sessionStart: ["sessionstart"],
    prompt: ["userpromptsubmit"],
    toolStart: ["pretooluse"],
  },
  { name: "mcp__rgraph__resource" },
  {
    sessionHint: true,
    nudge: true,
    format: "hookSpecificOutput",
  },
  // The plugin `rgraph` with its server `rgraph` (.claude-plugin/plugin.json).
  { name: "mcp__plugin_rgraph_rgraph__resource" },
);
