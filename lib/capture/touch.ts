/**
 * Turning one hook event and the Addresses it names into Touches. Pure: the
 * hook passes the user, harness and time in.
 *
 * Idempotency (`dedup_key`, unique per user in the store): a re-delivered
 * event yields the same keys, so it records nothing new.
 * - FETCHED: session + the event's fingerprint (derived from the tool-call id
 *   where the harness gives one, else from the call's content) + address;
 * - PROMPTED: session + the harness's id of the prompt where it gives one
 *   (OpenCode's message id), else a hash of the prompt text + address.
 *
 * @example
 * ```ts
 * import { touchesFor } from "./touch.ts";
 * import { itemAddress } from "../address/key.ts";
 * const event = { type: "user_prompt", session_id: "s1", cwd: null, prompt: "see o/r#5", agent_id: null } as const;
 * const [t] = touchesFor(event, [itemAddress("o", "r", 5)], { userId: "alice", harness: "claude-code", now: new Date() });
 * t.provenance; // "PROMPTED"
 * ```
 * @module
 */

import type { Address, NewTouch } from "../types.ts";
import type { HarnessName, ToolStartEvent, UserPromptEvent } from "./harness/mod.ts";
import { sha256Hex } from "../digest.ts";

/** Who records, from which harness, when. */
export interface TouchContext {
  userId: string;
  harness: HarnessName;
  now: Date;
}

/**
 * The idempotency key of a Touch: `origin` is what identifies the event
 * (`call:<fingerprint>` or `prompt:<hash>`). Hashed so every key has
 * one short fixed length whatever the inputs.
 */
export function touchDedupKey(session: string | null, origin: string, address: string): string {
  return sha256Hex(JSON.stringify([session, origin, address]));
}

/**
 * True for rgraph's own `resource` MCP tool under any harness's naming
 * (`mcp__rgraph__resource`, `mcp__plugin_rgraph_rgraph__resource`,
 * `rgraph_resource`, …). Reading memory is not a GitHub fetch: the MCP server
 * records that Cache Read itself, so the hook records no Touch and never
 * nudges; it only notes the call's ids for the server (`memory_reads.ts`).
 */
export function isMemoryRead(toolName: string): boolean {
  return /(?:^|[_:-])rgraph(?:__|[_:-])resource$/i.test(toolName);
}

/** One Touch per distinct Address named by `event` (none for a memory read). */
export function touchesFor(
  event: UserPromptEvent | ToolStartEvent,
  addresses: Address[],
  ctx: TouchContext,
): NewTouch[] {
  const fetched = event.type === "tool_start";
  if (fetched && isMemoryRead(event.tool_name)) return [];
  const origin = fetched
    ? `call:${event.fingerprint}`
    : event.prompt_id
    ? `message:${event.prompt_id}`
    : `prompt:${sha256Hex(event.prompt)}`;
  const recordedAt = ctx.now.toISOString();
  const seen = new Set<string>();
  const out: NewTouch[] = [];
  for (const a of addresses) {
    if (seen.has(a.key)) continue;
    seen.add(a.key);
    out.push({
      user_id: ctx.userId,
      session_id: event.session_id,
      provenance: fetched ? "FETCHED" : "PROMPTED",
      address: a.key,
      kind: a.kind,
      limit: a.kind === "listing" ? a.limit : null,
      tool_name: fetched ? event.tool_name : null,
      tool_use_id: fetched ? event.tool_use_id : null,
      agent_id: event.agent_id,
      harness: ctx.harness,
      recorded_at: recordedAt,
      dedup_key: touchDedupKey(event.session_id, origin, a.key),
      status: "pending",
    });
  }
  return out;
}
