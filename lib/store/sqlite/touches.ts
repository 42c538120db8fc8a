/**
 * The embedded store's Touches: recording them (a Cache Read reckoned as it
 * is recorded), how a row reads as a {@link Touch}, listing a user's, and the
 * newest-first pages `rgraph touches` streams. Leases and settlement are
 * `leases.ts`'s, forgetting `forget.ts`'s.
 *
 * @example
 * ```ts
 * import { listTouches } from "./touches.ts";
 * const touches = listTouches(db, "alice", { status: "pending" });
 * ```
 * @module
 */

import { requireUser, type TouchQuery } from "../contract.ts";
import { touchFilters } from "../rules.ts";
import type { CacheOutcome, NewTouch, Touch, UnresolvedReason } from "../../types.ts";
import { avoidedSql, type ReadRows } from "./tally.ts";
import type { Connection, Row } from "./connection.ts";

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
      ...touchFilters(query),
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

/** Records new Touches (one per user and dedup key); how many were new. */
export function recordTouches(db: Connection, touches: NewTouch[]): number {
  for (const t of touches) requireUser(t.user_id);
  if (touches.length === 0) return 0;
  // A Cache Read answered from memory is reckoned as it is recorded (see tally.ts); the
  // hook's Touches skip the reckoning.
  const sql = `INSERT INTO touches (id, user_id, session_id, provenance, address, kind,
      asked_limit, tool_name, tool_use_id, agent_id, harness, recorded_at, dedup_key, status,
      outcome, target, settled_at, avoided)
    VALUES ($id, $user, $session, $provenance, $address, $kind, $limit, $tool, $toolUse,
      $agent, $harness, $recorded, $dedup, $status, $outcome, $target, $settled,
      CASE WHEN $status = 'served' AND $outcome IN ('hit', 'subsumed')
        THEN ${avoidedSql("$limit", "coalesce($target, $address)")} ELSE 0 END)
    ON CONFLICT (user_id, dedup_key) DO NOTHING`;
  return db.write(() => {
    let added = 0;
    for (const t of touches) {
      added += Number(
        db.stmt(sql).run({
          id: crypto.randomUUID(),
          user: t.user_id,
          session: t.session_id,
          provenance: t.provenance,
          address: t.address,
          kind: t.kind,
          limit: t.limit,
          tool: t.tool_name,
          toolUse: t.tool_use_id,
          agent: t.agent_id,
          harness: t.harness,
          recorded: t.recorded_at,
          dedup: t.dedup_key,
          status: t.status,
          outcome: t.outcome ?? null,
          target: t.target ?? null,
          // A Cache Read is settled the moment it is answered.
          settled: t.status === "served" ? t.recorded_at : null,
        }).changes,
      );
    }
    return added;
  });
}

/** The user's Touches matching `query`, oldest first. */
export function listTouches(db: Connection, userId: string, query: TouchQuery): Touch[] {
  requireUser(userId);
  return db.read(
    `SELECT * FROM touches WHERE user_id = $user
       AND ($session IS NULL OR session_id = $session)
       AND ($since IS NULL OR recorded_at >= $since)
       AND ($status IS NULL OR status = $status)
     ORDER BY recorded_at, rowid`,
    {
      user: userId,
      ...touchFilters(query),
    },
  ).map(touchFromRow);
}

/** The user's Touches matching `query`, newest first, `pageSize` at a time. */
export async function* touchPages(
  db: Connection,
  userId: string,
  query: TouchQuery,
  pageSize: number,
): AsyncGenerator<Touch[]> {
  requireUser(userId);
  let end: PageEnd | null = null;
  for (;;) {
    const after: PageEnd | null = end;
    const page: { touches: Touch[]; end: PageEnd | null } = await db.op(() =>
      newestTouches(db.read, userId, query, after, pageSize)
    );
    if (page.touches.length > 0) yield page.touches;
    if (page.touches.length < pageSize) return;
    end = page.end;
  }
}
