/**
 * Gemini CLI: `SessionStart`, `BeforeAgent` (a prompt was submitted) and
 * `BeforeTool` payloads (`session_id`, `cwd`, `timestamp`, `tool_name`,
 * `tool_input`; no tool-call id, so the fingerprint uses the timestamp).
 *
 * SessionStart accepts `hookSpecificOutput.additionalContext` (injected as the
 * first turn). BeforeTool output can only decide or rewrite the call (only
 * AfterTool adds context), so there is no Nudge.
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Gemini CLI adapter. */
export const gemini = standardAdapter("gemini", {
  sessionStart: ["sessionstart"],
  prompt: ["beforeagent"],
  toolStart: ["beforetool"],
}, { sessionHint: true, nudge: false });
