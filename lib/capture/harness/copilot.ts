/**
 * GitHub Copilot CLI. Configured with camelCase event names, payloads are
 * camelCase (`sessionId`, `timestamp` in ms, `cwd`, `toolName`, `toolArgs`
 * as a JSON string, `prompt`) and do not name their event, so the hook
 * command passes it: `rgraph hook copilot --event preToolUse`. Configured with
 * PascalCase names, payloads are snake_case with `hook_event_name`. There is
 * no tool-call id; the fingerprint uses the timestamp.
 *
 * Copilot ignores sessionStart and userPromptSubmitted output, and preToolUse
 * output only decides or rewrites the call: no session hint, no Nudge.
 *
 * @module
 */

import { standardAdapter } from "./standard.ts";

/** The Copilot CLI adapter. */
export const copilot = standardAdapter("copilot", {
  sessionStart: ["sessionstart"],
  prompt: ["userpromptsubmitted", "userpromptsubmit"],
  toolStart: ["pretooluse"],
}, { sessionHint: false, nudge: false });
