/**
 * Forgetting in the graph store: deleting a user's own Touches with their
 * joins, their counts moved in the same statement, and the Sessions and
 * emptied counts nothing uses any more.
 *
 * @example
 * ```ts
 * import { forgetTouches } from "./forget.ts";
 * const gone = await forgetTouches(c, "alice", { session_id: "s1" });
 * ```
 * @module
 */

import type { ForgetQuery } from "../contract.ts";
import { forgetParams } from "../rules.ts";
import type { Touch } from "../../types.ts";
import { COUNT_TOUCH } from "./cypher.ts";
import { type Connection, nodeProps, type Props } from "./connection.ts";
import { touchesOf } from "./touches.ts";

/** One user's Touches that a forget selects (`t` bound); `null` parameters match any. */
const FORGOTTEN = `
MATCH (t:Touch)
WHERE t.user_id = $user
  AND ($session IS NULL OR t.session_id = $session)
  AND ($since IS NULL OR t.recorded_at >= $since)
  AND ($before IS NULL OR t.recorded_at < $before)
  AND ($address IS NULL OR t.address = $address OR t.target = $address)`;

/** What a forget would delete, oldest first. */
const FORGET_PREVIEW = `${FORGOTTEN}
RETURN t ORDER BY t.recorded_at, t.seq`;

/**
 * Deletes the Touches a forget selects with their joins, returning them as
 * they were and the sessions they were in.
 */
const FORGET_TOUCHES = `${FORGOTTEN}
OPTIONAL MATCH (t)-[:IN_SESSION]->(s:Session)
WITH t, properties(t) AS was, s.session_id AS sid
${COUNT_TOUCH("t", -1)}
DETACH DELETE t
RETURN was, sid ORDER BY was.recorded_at, was.seq`;

/** Deletes a user's emptied counts: forgetting everything leaves no count naming them. */
const DROP_EMPTY_COUNTS = `
MATCH (c:RgraphTouchCount {user_id: $user})
WHERE c.n = 0 AND c.avoided = 0
DELETE c`;

/**
 * Deletes the named Sessions that nothing joins any more: a forgotten
 * session's id does not outlive its Touches, while a Session another user's
 * Touch (or another component) still uses stays.
 */
const DROP_EMPTY_SESSIONS = `
UNWIND $sids AS sid
MATCH (s:Session {session_id: sid})
OPTIONAL MATCH (s)-[r]-()
WITH s, count(r) AS joins
WHERE joins = 0
DELETE s`;

/**
 * Deletes the user's Touches `query` selects and returns them, oldest first;
 * with `dryRun`, only returns them.
 */
export async function forgetTouches(
  c: Connection,
  userId: string,
  query: ForgetQuery,
  options: { dryRun?: boolean } = {},
): Promise<Touch[]> {
  const params = forgetParams(userId, query);
  if (options.dryRun) {
    const rows = await c.read(FORGET_PREVIEW, params);
    return touchesOf(c, rows.map((r) => nodeProps(r.t)));
  }
  return await c.tx("write", async (run) => {
    const rows = await run(FORGET_TOUCHES, params);
    const sids = [...new Set(rows.map((r) => r.sid).filter((s) => typeof s === "string"))];
    if (sids.length) await run(DROP_EMPTY_SESSIONS, { sids });
    if (rows.length) await run(DROP_EMPTY_COUNTS, { user: userId });
    return touchesOf(c, rows.map((r) => r.was as Props));
  });
}
