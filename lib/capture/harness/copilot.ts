/**
 * GitHub Copilot CLI. Configured with camelCase event names, payloads are
 * camelCase (`sessionId`, `timestamp` in ms, `cwd`, `toolName`, `toolArgs`
 * as an object — older versions sent a JSON string —, `prompt`) and do not
 * name their event, so the hook command passes it: `rgraph hook copilot
 * --event preToolUse`. Configured with PascalCase names, payloads are
 * snake_case with `hook_event_name`. There is no tool-call id; the
 * fingerprint uses the timestamp.
 *
 * Copilot passes a flat `{"additionalContext": "…"}` printed by sessionStart,
 * userPromptSubmitted or preToolUse to the model (preToolUse still runs the
 * call), and ignores the `hookSpecificOutput` form (verified with 1.0.102):
 * the session hint goes out at sessionStart, the Nudge at preToolUse. It
 * offers MCP tools as `<server>-<tool>` (`rgraph-resource`).
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Copilot CLI adapter. */
export const copilot = standardAdapter(
  "copilot",
  {
    sessionStart: ["sessionstart"],
    prompt: ["userpromptsubmitted", "userpromptsubmit"],
    toolStart: ["pretooluse"],
  },
  { name: "rgraph-resource" },
  { sessionHint: true, nudge: true, format: "flat" },
);
