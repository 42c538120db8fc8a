/**
 * OpenAI Codex CLI: Claude-style payloads (`session_id`, `turn_id`, `cwd`,
 * `tool_name`, `tool_input`, `tool_use_id`; newer versions `agent_id`). The
 * shell tool is `Bash` with `{command}` in current versions; older ones used
 * `shell` whose `command` is an argv list such as `["bash","-lc","…"]`, which
 * is passed through for the address parser to read.
 *
 * Output follows Codex's hook schemas (`hookSpecificOutput` with
 * `hookEventName` and `additionalContext`, no other keys). codex-cli 0.124.0
 * rejected PreToolUse `additionalContext`; 0.171.0 passes it to the model.
 * Codex offers MCP tools to the model in a namespace per server
 * (`mcp__rgraph`, tool `resource`).
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Codex adapter. */
export const codex = standardAdapter(
  "codex",
  {
    sessionStart: ["sessionstart"],
    prompt: ["userpromptsubmit"],
    toolStart: ["pretooluse"],
  },
  { name: "resource", namespace: "mcp__rgraph" },
  {
    sessionHint: true,
    nudge: true,
    format: "hookSpecificOutput",
  },
);
