/**
 * Reading fields out of untrusted hook payloads. Harnesses differ in casing
 * (`session_id` / `sessionId`), in whether tool arguments arrive as an object
 * or a JSON string, and in what they leave out; these helpers never throw and
 * turn anything of the wrong type into `null`.
 *
 * @example
 * ```ts
 * import { asRecord, str } from "./payload.ts";
 * const p = asRecord(JSON.parse('{"sessionId":"s1"}'));
 * str(p, "session_id", "sessionId"); // "s1"
 * ```
 * @module
 */

import { sha256Hex } from "../../digest.ts";

/** A JSON object. */
export type Json = Record<string, unknown>;

/** `value` as a plain object, or `null`. */
export function asRecord(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Json
    : null;
}

/** The first of `names` whose value is a non-empty string. */
export function str(p: Json, ...names: string[]): string | null {
  for (const n of names) {
    const v = p[n];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/** The first of `names` whose value is a string or a finite number, as a string. */
export function stamp(p: Json, ...names: string[]): string | null {
  for (const n of names) {
    const v = p[n];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
  }
  return null;
}

/** The first of `names` that is present (not undefined/null). */
export function field(p: Json, ...names: string[]): unknown {
  for (const n of names) {
    if (p[n] !== undefined && p[n] !== null) return p[n];
  }
  return undefined;
}

/**
 * Tool arguments as a value: a JSON string (Copilot's `toolArgs`, Cursor's MCP
 * `tool_input`) is decoded; a string that is not JSON is kept as it is.
 */
export function toolArgs(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return value;
  try {
    return JSON.parse(t);
  } catch {
    return value;
  }
}

/** A value in one spelling: object keys sorted at every depth. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  const r = asRecord(value);
  if (!r) return value;
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, canonical(r[k])]));
}

/**
 * A stable fingerprint of one tool call from its content: the same session,
 * tool, input and timestamp always give the same value — also when one event
 * carries the input as an object and another as a JSON string with its keys
 * in another order (Cursor reports one MCP call both ways).
 *
 * @example
 * ```ts
 * fingerprint("s", "t", { a: 1, b: 2 }, null) === fingerprint("s", "t", '{"b":2,"a":1}', null); // true
 * ```
 */
export function fingerprint(
  session: string | null,
  tool: string,
  input: unknown,
  timestamp: string | null,
): string {
  let encoded: string;
  try {
    encoded = JSON.stringify(canonical(toolArgs(input))) ?? "null";
  } catch {
    encoded = String(input);
  }
  return sha256Hex(JSON.stringify([session, tool, encoded, timestamp])).slice(0, 32);
}

/**
 * The event key of a name in any casing harnesses use (`PreToolUse`,
 * `preToolUse`, `pre_tool_use`): lowercase letters only, so `pretooluse`.
 */
export function eventKey(name: string | null | undefined): string {
  return (name ?? "").replace(/[^A-Za-z]/g, "").toLowerCase();
}

/** The fingerprint of a tool call the harness names by id. */
export function idFingerprint(session: string | null, toolUseId: string): string {
  return sha256Hex(JSON.stringify([session, "id", toolUseId])).slice(0, 32);
}
