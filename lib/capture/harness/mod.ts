/**
 * Harness adapters: one per harness rgraph hooks into, each mapping that
 * harness's hook payloads to a {@link HookEvent} and rendering rgraph's
 * session hint and Nudge in that harness's own output format where it has a
 * channel that adds context without deciding the call.
 *
 * | harness | session hint | Nudge | `resource` as the model sees it |
 * |---|---|---|---|
 * | claude-code | SessionStart `hookSpecificOutput.additionalContext` | PreToolUse `hookSpecificOutput.additionalContext` | `mcp__rgraph__resource` |
 * | codex | SessionStart `hookSpecificOutput.additionalContext` | PreToolUse `hookSpecificOutput.additionalContext` | `resource` in `mcp__rgraph` |
 * | gemini | SessionStart `hookSpecificOutput.additionalContext` | — (BeforeTool can only decide) | `mcp_rgraph_resource` |
 * | copilot | sessionStart `{"additionalContext"}` | preToolUse `{"additionalContext"}` | `rgraph-resource` |
 * | opencode | the plugin's system transform (`{"system"}`) | — (no plugin hook before a tool adds context) | `rgraph_resource` |
 * | cursor | sessionStart `additional_context` | — (before-tool output is a permission) | not verified |
 * | grok | — (output ignored) | — (PreToolUse output only decides) | not verified |
 *
 * @example
 * ```ts
 * import { adapterFor } from "./mod.ts";
 * const adapter = adapterFor("claude-code");
 * adapter?.parse({ hook_event_name: "SessionStart", session_id: "s", cwd: "/r" }, {}).type;
 * // "session_start"
 * ```
 * @module
 */

import { claudeCode } from "./claude_code.ts";
import { codex } from "./codex.ts";
import { copilot } from "./copilot.ts";
import { cursor } from "./cursor.ts";
import type { HarnessAdapter, HarnessName } from "./event.ts";
import { gemini } from "./gemini.ts";
import { grok } from "./grok.ts";
import { opencode } from "./opencode.ts";
import { HARNESS_NAMES } from "../../types.ts";

export type {
  HarnessAdapter,
  HarnessName,
  HookEvent,
  IgnoredEvent,
  ParseOptions,
  PresentedTool,
  SessionStartEvent,
  ToolStartEvent,
  UserPromptEvent,
} from "./event.ts";

/** Every adapter, by harness name. */
export const HARNESSES: Readonly<Record<HarnessName, HarnessAdapter>> = {
  "claude-code": claudeCode,
  codex,
  copilot,
  cursor,
  opencode,
  gemini,
  grok,
};

export { HARNESS_NAMES };

/** True for a name rgraph has an adapter for. */
function isHarnessName(name: string): name is HarnessName {
  return Object.hasOwn(HARNESSES, name);
}

/** The adapter for `name`, or `null` for an unknown harness. */
export function adapterFor(name: string): HarnessAdapter | null {
  return isHarnessName(name) ? HARNESSES[name] : null;
}
