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
import { clipLine, terminalJson } from "../untrusted.ts";

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

/**
 * What kind of read a Touch is, in the words `touches`, the view and `stats`
 * share: `CACHE READ` (answered from memory), else its provenance, `FETCHED`
 * or `PROMPTED`.
 *
 * @example
 * ```ts
 * readText({ provenance: "FETCHED", status: "served" }); // "CACHE READ"
 * ```
 */
export function readText(
  t: Pick<Touch, "provenance" | "status">,
): "CACHE READ" | Touch["provenance"] {
  return t.status === "served" ? "CACHE READ" : t.provenance;
}

/** The widest an address cell gets; the JSON form has it whole. */
const ADDRESS_SHOWN = 300;
/** The widest any other cell gets (ids, tool names: short unless hostile). */
const CELL_SHOWN = 120;

const HEAD = ["recorded", "read", "status", "address", "via", "session"];

/**
 * A Touch's table cells. Every cell is untrusted text (a hook payload's ids
 * and tool names, a shared store's fields), so each is neutralised and
 * bounded (`../untrusted.ts`).
 */
function cells(t: Touch): string[] {
  return [
    clipLine(t.recorded_at.replace("T", " ").replace(/\.\d+Z$/, "Z"), CELL_SHOWN),
    clipLine(readText(t), CELL_SHOWN),
    clipLine(statusText(t), CELL_SHOWN),
    t.limit === null
      ? clipLine(t.address, ADDRESS_SHOWN)
      : `${clipLine(t.address, ADDRESS_SHOWN)} (limit ${t.limit})`,
    clipLine([t.harness, t.tool_name].filter((x) => x).join(" ") || "-", CELL_SHOWN),
    clipLine(t.session_id ?? "-", CELL_SHOWN),
  ];
}

/** Widens `widths` to fit `rows` (a loop, never a spread: a table can have a million rows). */
function widen(widths: number[], rows: string[][]): void {
  for (const r of rows) {
    for (let i = 0; i < r.length; i++) widths[i] = Math.max(widths[i], r[i].length);
  }
}

function line(r: string[], widths: number[]): string {
  return r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
}

/**
 * A terminal table, one Touch a row, every column as wide as its widest
 * cell.
 */
export function touchTable(touches: Touch[]): string {
  if (touches.length === 0) return "no Touches yet";
  const rows = touches.map(cells);
  const widths = HEAD.map((h) => h.length);
  widen(widths, rows);
  return [HEAD, ...rows].map((r) => line(r, widths)).join("\n");
}

/**
 * The table printed a page at a time, so a million Touches never sit in
 * memory at once: each column is as wide as its widest cell so far (a wider
 * cell on a later page widens the rest of the table; what was printed
 * stays).
 *
 * @example
 * ```ts
 * const table = new TouchTablePages();
 * for await (const page of store.touchPages("alice")) out(table.page(page));
 * out(table.end());
 * ```
 */
export class TouchTablePages {
  #widths = HEAD.map((h) => h.length);
  #started = false;

  /** The lines of one page, the header first on the first page (each line ends in a newline). */
  page(touches: Touch[]): string {
    const rows = touches.map(cells);
    if (!this.#started) rows.unshift(HEAD);
    widen(this.#widths, rows);
    this.#started = true;
    return rows.map((r) => `${line(r, this.#widths)}\n`).join("");
  }

  /** What ends the table: a line saying there were none, when there were none. */
  end(): string {
    return this.#started ? "" : "no Touches yet\n";
  }
}

/**
 * One JSON array written a page at a time: byte for byte what
 * `terminalJson(all.map(touchJson), 2)` prints, without holding all.
 *
 * @example
 * ```ts
 * const json = new TouchJsonPages();
 * for await (const page of store.touchPages("alice")) out(json.page(page));
 * out(json.end());
 * ```
 */
export class TouchJsonPages {
  #started = false;

  /** One page's elements, after the array's opening or the previous page's comma. */
  page(touches: Touch[]): string {
    let out = "";
    for (const t of touches) {
      out += this.#started ? ",\n" : "[\n";
      this.#started = true;
      // Strings escape their newlines: every raw one is indentation, one level deeper here.
      out += `  ${terminalJson(touchJson(t), 2).replaceAll("\n", "\n  ")}`;
    }
    return out;
  }

  /** The array's close (`[]` when it had no element). */
  end(): string {
    return this.#started ? "\n]\n" : "[]\n";
  }
}
