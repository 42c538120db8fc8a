/**
 * How a person sees their Touches: the table and JSON of `rgraph touches`,
 * which `rgraph forget --dry-run` reuses to show what would go. Pure.
 *
 * @example
 * ```ts
 * import { touchTable } from "./touches.ts";
 * console.log(touchTable(await store.listTouches("alice")));
 * ```
 * @module
 */

import type { Touch } from "../types.ts";
import { clipLine } from "../untrusted.ts";

/** The JSON form of one Touch (a stable, documented field set). */
export function touchJson(t: Touch) {
  return {
    id: t.id,
    address: t.address,
    kind: t.kind,
    limit: t.limit,
    provenance: t.provenance,
    status: t.status,
    reason: t.reason,
    detail: t.detail,
    failures: t.failures,
    outcome: t.outcome,
    target: t.target,
    session_id: t.session_id,
    tool_name: t.tool_name,
    tool_use_id: t.tool_use_id,
    agent_id: t.agent_id,
    harness: t.harness,
    recorded_at: t.recorded_at,
    settled_at: t.settled_at,
  };
}

/**
 * What the status column shows: the status with its reason or outcome
 * (`unresolved:not_found`, `served:hit`, `pending`).
 *
 * @example
 * ```ts
 * statusText({ status: "served", outcome: "subsumed", reason: null }); // "served:subsumed"
 * ```
 */
export function statusText(t: Pick<Touch, "status" | "reason" | "outcome">): string {
  if (t.status === "unresolved" && t.reason) return `unresolved:${t.reason}`;
  if (t.status === "served" && t.outcome) return `served:${t.outcome}`;
  return t.status;
}

/** The widest an address cell gets; the JSON form has it whole. */
const ADDRESS_SHOWN = 300;
/** The widest any other cell gets (ids, tool names: short unless hostile). */
const CELL_SHOWN = 120;

/**
 * A terminal table, one Touch a row. Every cell is untrusted text (a hook
 * payload's ids and tool names, a shared store's fields), so each is
 * neutralised and bounded (`../untrusted.ts`).
 */
export function touchTable(touches: Touch[]): string {
  if (touches.length === 0) return "no Touches yet";
  const rows = touches.map((t) => [
    clipLine(t.recorded_at.replace("T", " ").replace(/\.\d+Z$/, "Z"), CELL_SHOWN),
    clipLine(t.provenance, CELL_SHOWN),
    clipLine(statusText(t), CELL_SHOWN),
    t.limit === null
      ? clipLine(t.address, ADDRESS_SHOWN)
      : `${clipLine(t.address, ADDRESS_SHOWN)} (limit ${t.limit})`,
    clipLine([t.harness, t.tool_name].filter((x) => x).join(" ") || "-", CELL_SHOWN),
    clipLine(t.session_id ?? "-", CELL_SHOWN),
  ]);
  const head = ["recorded", "provenance", "status", "address", "via", "session"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}
