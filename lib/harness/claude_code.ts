/**
 * Claude Code: `SessionStart`, `UserPromptSubmit` and `PreToolUse` payloads
 * (`session_id`, `cwd`, `prompt`, `tool_name`, `tool_input`, `tool_use_id`,
 * and `agent_id` inside a subagent). Context goes back as
 * `hookSpecificOutput.additionalContext` for both the session hint and the
 * Nudge (PreToolUse additionalContext is supported since v2.1.9).
 *
 * @example
 * ```ts
 * import { claudeCode } from "./claude_code.ts";
 * claudeCode.parse({ hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "hi" }, {}).type;
 * // "user_prompt"
 * ```
 * @module
 */

import type { HarnessAdapter } from "./event.ts";
import { additionalContext, parseStandard } from "./standard.ts";

const NAMES = {
  sessionStart: ["sessionstart"],
  prompt: ["userpromptsubmit"],
  toolStart: ["pretooluse"],
};

/** The Claude Code adapter. */
export const claudeCode: HarnessAdapter = {
  name: "claude-code",
  parse: (payload, opts) => parseStandard(payload, opts, NAMES),
  renderSessionHint: (text) => additionalContext("SessionStart", text),
  renderNudge: (text) => additionalContext("PreToolUse", text),
};
