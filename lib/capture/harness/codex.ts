/**
 * OpenAI Codex CLI: Claude-style payloads (`session_id`, `turn_id`, `cwd`,
 * `tool_name`, `tool_input`, `tool_use_id`; newer versions `agent_id`). The
 * shell tool is `Bash` with `{command}` in current versions; older ones used
 * `shell` whose `command` is an argv list such as `["bash","-lc","…"]`, which
 * is passed through for the address parser to read.
 *
 * Output follows Codex's hook schemas (`hookSpecificOutput` with
 * `hookEventName` and `additionalContext`, no other keys). codex-cli 0.124.0
 * rejected PreToolUse `additionalContext`; later versions accept it.
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Codex adapter. */
export const codex = standardAdapter("codex", {
  sessionStart: ["sessionstart"],
  prompt: ["userpromptsubmit"],
  toolStart: ["pretooluse"],
}, { sessionHint: true, nudge: true });
