/**
 * What each harness tells an MCP server about a `tools/call`: MCP over stdio
 * carries no session, but harnesses put their own ids in the request's
 * `_meta` or in the server's environment. Seen in the real harnesses
 * (tests/harness/):
 *
 * | harness | tool-call id | session |
 * |---|---|---|
 * | Claude Code | `_meta["claudecode/toolUseId"]` | `CLAUDE_CODE_SESSION_ID` (the session the server started in) |
 * | Codex | `_meta.callId` (= the hook's `tool_use_id`) | `_meta.sessionId` (= the hook's `session_id`) |
 * | Copilot CLI | — | `COPILOT_AGENT_SESSION_ID` (= the hook's `sessionId`) |
 * | Gemini CLI, OpenCode | — | — |
 *
 * Pure: the server passes the request's `_meta` and its environment in.
 *
 * @example
 * ```ts
 * import { callIds } from "./call_ids.ts";
 * callIds({ callId: "call_2", sessionId: "0199…" }, {}); // { toolUseId: "call_2", sessionId: "0199…" }
 * ```
 * @module
 */

/** The ids a call carries; null where the harness gives none. */
export interface CallIds {
  toolUseId: string | null;
  sessionId: string | null;
}

/** The environment variables harnesses set for their MCP servers, as the server sees them. */
export interface ServerEnv {
  CLAUDE_CODE_SESSION_ID?: string;
  COPILOT_AGENT_SESSION_ID?: string;
}

/** The server variables that name a session, most specific first. */
export const SESSION_VARIABLES: (keyof ServerEnv)[] = [
  "COPILOT_AGENT_SESSION_ID",
  "CLAUDE_CODE_SESSION_ID",
];

function text(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** The tool-call id and session of one call, from its `_meta` and the server's environment. */
export function callIds(meta: Record<string, unknown> | undefined, env: ServerEnv): CallIds {
  const codexTurn = meta?.["x-codex-turn-metadata"] as Record<string, unknown> | undefined;
  return {
    toolUseId: text(meta?.["claudecode/toolUseId"]) ?? text(meta?.callId),
    sessionId: text(meta?.sessionId) ?? text(codexTurn?.session_id) ??
      SESSION_VARIABLES.map((k) => text(env[k])).find((s) => s !== null) ?? null,
  };
}
