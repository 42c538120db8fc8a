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

import type { HarnessAdapter } from "./event.ts";
import { additionalContext, parseStandard } from "./standard.ts";

const NAMES = {
  sessionStart: ["sessionstart"],
  prompt: ["beforeagent"],
  toolStart: ["beforetool"],
};

/** The Gemini CLI adapter. */
export const gemini: HarnessAdapter = {
  name: "gemini",
  parse: (payload, opts) => parseStandard(payload, opts, NAMES),
  renderSessionHint: (text) => additionalContext("SessionStart", text),
  renderNudge: () => null,
};
