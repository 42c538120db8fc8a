/**
 * `rgraph touches [--session S] [--json]`: the asking user's own Touches,
 * newest last, so a person can see what their agent explored. Touches are
 * private: only the configured user's are read, and with no user id
 * configured the command refuses (fail closed).
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { UsageError } from "../lib/errors.ts";
import { loadConfig, requireUserId } from "../lib/config.ts";
import { openStore } from "../lib/store/mod.ts";
import type { Touch } from "../lib/types.ts";

const SPEC = {
  name: "touches",
  summary: "List your own Touches (what your agents read and what you pasted), newest last",
  usage: "rgraph touches [--session S] [--json]",
  options: {
    session: { type: "string", arg: "S", help: "only Touches of this session" },
    json: { type: "boolean", help: "print one JSON array" },
  },
} as const;

/** The JSON form of one Touch (a stable, documented field set). */
function touchJson(t: Touch) {
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

/** What the status column shows: the status with its reason or outcome. */
function statusText(t: Touch): string {
  if (t.status === "unresolved" && t.reason) return `unresolved:${t.reason}`;
  if (t.status === "served" && t.outcome) return `served:${t.outcome}`;
  return t.status;
}

/** A terminal table, one Touch a row. */
function touchTable(touches: Touch[]): string {
  if (touches.length === 0) return "no Touches yet";
  const rows = touches.map((t) => [
    t.recorded_at.replace("T", " ").replace(/\.\d+Z$/, "Z"),
    t.provenance,
    statusText(t),
    t.limit === null ? t.address : `${t.address} (limit ${t.limit})`,
    [t.harness, t.tool_name].filter((x) => x).join(" ") || "-",
    t.session_id ?? "-",
  ]);
  const head = ["recorded", "provenance", "status", "address", "via", "session"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  if (parsed.positionals.length > 0) {
    throw new UsageError(
      `rgraph touches: unexpected argument '${
        parsed.positionals[0]
      }' (see 'rgraph touches --help')`,
    );
  }
  const config = loadConfig();
  const userId = requireUserId(config);
  const store = await openStore(config);
  try {
    const query = parsed.values.session === undefined ? {} : { session_id: parsed.values.session };
    const touches = await store.listTouches(userId, query);
    console.log(
      parsed.values.json ? JSON.stringify(touches.map(touchJson), null, 2) : touchTable(touches),
    );
    return 0;
  } finally {
    await store.close();
  }
}
