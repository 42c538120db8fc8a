/**
 * Grok Build: camelCase payloads (`hookEventName`, `sessionId`, `cwd`,
 * `workspaceRoot`, `toolName`, `toolInput`), snake_case in some versions, and
 * event names as `PreToolUse` or `pre_tool_use` (Grok 1.0). Both casings are
 * read. Grok's shell tool is `run_terminal_command` with `{command}`.
 *
 * PreToolUse is Grok's only event whose output counts, and it takes only a
 * decision; no documented way adds context, so no session hint and no Nudge.
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Grok Build adapter. */
export const grok = standardAdapter(
  "grok",
  {
    sessionStart: ["sessionstart"],
    prompt: ["userpromptsubmit"],
    toolStart: ["pretooluse"],
  },
  { name: "resource" },
  { sessionHint: false, nudge: false, format: "hookSpecificOutput" },
);
