/**
 * The graph store's Touches: recording them (with their Session and joins,
 * counted as they come), importing them as they are (the outbox drain and
 * `migrate`), and reading one user's back. Each carries its user id and
 * every read filters by it. Leases and settlement are `leases.ts`'s,
 * forgetting `forget.ts`'s.
 *
 * @example
 * ```ts
 * import { listTouches } from "./touches.ts";
 * const touches = await listTouches(c, "alice", { status: "pending" });
 * ```
 * @module
 */

import { requireUser, type TouchQuery } from "../contract.ts";
import { touchFilters } from "../rules.ts";
import type { NewTouch, Touch } from "../../types.ts";
import { AVOIDED, COUNT_TOUCH, JOIN_TOUCH } from "./cypher.ts";
import { touchProps } from "./model.ts";
import { decodeTouch } from "./decode.ts";
import { type Connection, nodeProps, type Props } from "./connection.ts";

/**
 * Creates new Touches (skipping known ids) with their Session and joins, in
 * one statement; returns the new ids.
 */
const RECORD_TOUCHES = `
UNWIND $rows AS r
MERGE (t:Touch {id: r.id})
ON CREATE SET t += r, t.fresh = true
WITH t WHERE t.fresh = true
REMOVE t.fresh
FOREACH (sid IN CASE WHEN t.session_id IS NULL THEN [] ELSE [t.session_id] END |
  MERGE (s:Session {session_id: sid}) MERGE (t)-[:IN_SESSION]->(s))
WITH t
${JOIN_TOUCH}
${AVOIDED}
SET t.avoided = avoided
WITH t
${COUNT_TOUCH("t", 1)}
RETURN t.id AS id`;

/** One user's Touches, oldest first. */
const LIST_TOUCHES = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($status IS NULL OR t.status = $status)
RETURN t ORDER BY t.recorded_at, t.seq`;

/**
 * A page of one user's Touches, newest first, recorded before (`$at`,
 * `$seq`): where the previous page ended. The first page (`$first`) also
 * holds those with no recording time (another writer's, unreadable), so
 * they are named once in store.log as every read of them does.
 */
const TOUCH_PAGE = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND (t.recorded_at < $at OR (t.recorded_at = $at AND coalesce(t.seq, 0) < $seq)
    OR ($first AND t.recorded_at IS NULL))
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($status IS NULL OR t.status = $status)
RETURN t ORDER BY t.recorded_at DESC, coalesce(t.seq, 0) DESC LIMIT $n`;

/**
 * Records Touches keeping whatever they already carry (status, reason,
 * settlement): the outbox drain and `migrate` move settled ones too. A
 * Touch already stored for its user and dedup key is skipped. Returns how
 * many were new.
 */
export async function importTouches(
  c: Connection,
  touches: (NewTouch & Partial<Touch>)[],
): Promise<number> {
  for (const t of touches) requireUser(t.user_id);
  if (touches.length === 0) return 0;
  const rows = touches.map((t) => touchProps(t, c.nextSeq()));
  return (await c.write(RECORD_TOUCHES, { rows })).length;
}

/** Touches from their nodes, leaving out (and reporting) those that cannot be read. */
export function touchesOf(c: Connection, nodes: Props[]): Touch[] {
  return nodes.flatMap((p) => {
    const t = decodeTouch(p, c.skip);
    return t === null ? [] : [t];
  });
}

/** The user's Touches matching `query`, oldest first. */
export async function listTouches(
  c: Connection,
  userId: string,
  query: TouchQuery,
): Promise<Touch[]> {
  requireUser(userId);
  const rows = await c.read(LIST_TOUCHES, {
    user: userId,
    ...touchFilters(query),
  });
  return touchesOf(c, rows.map((r) => nodeProps(r.t)));
}

/** The user's Touches matching `query`, newest first, `pageSize` at a time. */
export async function* touchPages(
  c: Connection,
  userId: string,
  query: TouchQuery,
  pageSize: number,
): AsyncGenerator<Touch[]> {
  requireUser(userId);
  // Past every ISO time and sequence number: the first page starts at the newest.
  let end = { at: "\uffff", seq: Number.MAX_SAFE_INTEGER };
  for (let first = true;; first = false) {
    const rows = await c.read(TOUCH_PAGE, {
      user: userId,
      ...end,
      first,
      ...touchFilters(query),
      n: pageSize,
    });
    const nodes = rows.map((r) => nodeProps(r.t));
    const page = touchesOf(c, nodes);
    if (page.length > 0) yield page;
    const last = nodes.findLast((p) => typeof p.recorded_at === "string");
    if (nodes.length < pageSize || last === undefined) return;
    end = { at: String(last.recorded_at), seq: Number(last.seq ?? 0) };
  }
}
