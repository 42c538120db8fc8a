/**
 * Gemini CLI: `SessionStart`, `BeforeAgent` (a prompt was submitted) and
 * `BeforeTool` payloads (`session_id`, `cwd`, `timestamp`, `tool_name`,
 * `tool_input`; no tool-call id, so the fingerprint uses the timestamp).
 *
 * SessionStart accepts `hookSpecificOutput.additionalContext` (injected as the
 * first turn). BeforeTool output can only decide or rewrite the call (only
 * AfterTool adds context), so there is no Nudge. Gemini names MCP tools
 * `mcp_<server>_<tool>` (`mcp_rgraph_resource`), and hands the hint back at
 * the start of the next `BeforeAgent` prompt as
 * `<hook_context>rgraph: …</hook_context>` — the hook leaves it out of what
 * it reads for links.
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Gemini CLI adapter. */
export const gemini = standardAdapter(
  "gemini",
  {
    sessionStart: ["sessionstart"],
    prompt: ["beforeagent"],
    toolStart: ["beforetool"],
  },
  { name: "mcp_rgraph_resource" },
  {
    sessionHint: true,
    nudge: false,
    format: "hookSpecificOutput",
  },
);
