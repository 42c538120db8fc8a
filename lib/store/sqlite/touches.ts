/**
 * The embedded store's Touch rows: how a row reads as a {@link Touch}, and
 * the newest-first pages `rgraph touches` streams.
 *
 * @example
 * ```ts
 * import { newestTouches } from "./touches.ts";
 * const page = newestTouches((sql, p) => db.prepare(sql).all(p), "alice", {}, null, 100);
 * ```
 * @module
 */

import type { SQLInputValue } from "node:sqlite";
import type { TouchQuery } from "../contract.ts";
import type { CacheOutcome, Touch, UnresolvedReason } from "../../types.ts";
import type { ReadRows } from "./tally.ts";

type Row = Record<string, SQLInputValue>;

/** A stored Touch row as a Touch. */
export function touchFromRow(r: Row): Touch {
  return {
    id: r.id as string,
    user_id: r.user_id as string,
    session_id: r.session_id as string | null,
    provenance: r.provenance as Touch["provenance"],
    address: r.address as string,
    kind: r.kind as Touch["kind"],
    limit: r.asked_limit as number | null,
    tool_name: r.tool_name as string | null,
    tool_use_id: r.tool_use_id as string | null,
    agent_id: r.agent_id as string | null,
    harness: r.harness as string | null,
    recorded_at: r.recorded_at as string,
    dedup_key: r.dedup_key as string,
    status: r.status as Touch["status"],
    outcome: r.outcome as CacheOutcome | null,
    target: r.target as string | null,
    reason: r.reason as UnresolvedReason | null,
    detail: r.detail as string | null,
    failures: r.failures as number,
    settled_at: r.settled_at as string | null,
  };
}

/** Oldest first, by recording time. */
export function byRecorded(a: Touch, b: Touch): number {
  return a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : 0;
}

/** Where the last page ended: its last row's recording time and row id. */
export interface PageEnd {
  at: string;
  row: number;
}

/**
 * Up to `n` of the user's Touches recorded before `after` (the start when
 * null), newest first, with where this page ended. The row-value bound
 * reads on along the user's time index (whose last column is the row id),
 * so each page costs its own rows, however deep into the Touches it is.
 */
export function newestTouches(
  read: ReadRows,
  userId: string,
  query: TouchQuery,
  after: PageEnd | null,
  n: number,
): { touches: Touch[]; end: PageEnd | null } {
  const rows = read(
    `SELECT rowid AS page_row, * FROM touches INDEXED BY touches_by_user
     WHERE user_id = $user AND (recorded_at, rowid) < ($at, $row)
       AND ($session IS NULL OR session_id = $session)
       AND ($since IS NULL OR recorded_at >= $since)
       AND ($status IS NULL OR status = $status)
     ORDER BY recorded_at DESC, rowid DESC LIMIT $n`,
    {
      user: userId,
      // Past every ISO time and row id: the first page starts at the newest.
      at: after?.at ?? "\uffff",
      row: after?.row ?? Number.MAX_SAFE_INTEGER,
      session: query.session_id ?? null,
      since: query.since ?? null,
      status: query.status ?? null,
      n,
    },
  );
  const last = rows[rows.length - 1];
  return {
    touches: rows.map(touchFromRow),
    end: last === undefined
      ? null
      : { at: last.recorded_at as string, row: last.page_row as number },
  };
}
