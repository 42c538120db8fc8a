/**
 * The embedded store's running count of each user's Touches, so `status`,
 * `stats` and `doctor` cost the same at a year of Touches as at a day's.
 *
 * `touch_tally` holds one row per user and (status, outcome, reason) with how
 * many Touches are in it and the GitHub requests its answered Cache Reads
 * avoided. Triggers on `touches` keep it: a recorded Touch adds to its
 * group, a settlement (or a lease taking a rate-limited Touch up again)
 * moves it to another, a forget takes it out; a group that empties is
 * deleted, so forgetting everything leaves no row naming the user. Each
 * change is made by the statement that changes the Touch, in its
 * transaction.
 *
 * What a Cache Read avoided is reckoned once, when it is recorded, from what
 * answered it then (`touches.avoided`): a later refetch that adds comments
 * does not change what an earlier answer saved.
 *
 * @example
 * ```ts
 * import { readUserStats } from "./tally.ts";
 * const stats = readUserStats((sql, params) => db.prepare(sql).all(params), "alice");
 * ```
 * @module
 */

import type { SQLInputValue } from "node:sqlite";
import type { UserStats } from "../contract.ts";
import { tallyTouches } from "../rules.ts";

type Row = Record<string, SQLInputValue>;

/** Runs one read with named parameters. */
export type ReadRows = (sql: string, params: Record<string, SQLInputValue>) => Row[];

/**
 * What answering a read from memory spared GitHub, as `lib/sweep/cost.ts`
 * reckons it, from what served it (`key`: the Listing key or Resource
 * address or alias; `asked`: the limit asked): a Listing one request per 100
 * members (up to what was asked) plus one per member; a repository 2; an item
 * 1 plus one per 100 comments; 0 when nothing stored answers to `key`.
 */
export function avoidedSql(asked: string, key: string): string {
  // A bound JS number reaches SQLite as REAL, where / divides without
  // truncating: the limit is cast so every figure is a whole request count.
  const members = `min(coalesce(CAST(${asked} AS INTEGER), l.member_count), l.member_count)`;
  return `coalesce((SELECT CASE
      WHEN l.key IS NOT NULL THEN (${members} + 99) / 100 + ${members}
      WHEN r.kind = 'repository' THEN 2
      WHEN r.kind IS NOT NULL THEN 1 + (r.comment_count + 99) / 100
      ELSE 0 END
    FROM (SELECT 1) LEFT JOIN listings l ON l.key = ${key}
    LEFT JOIN resources r ON r.id = (
      SELECT id FROM resources WHERE address = ${key}
      UNION ALL SELECT resource_id FROM aliases WHERE key = ${key}
      LIMIT 1)), 0)`;
}

/** A group's key columns: NULL outcome and reason are stored as '' (a key column cannot be NULL). */
const GROUP = (t: "NEW" | "OLD") =>
  `${t}.user_id, ${t}.status, coalesce(${t}.outcome, ''), coalesce(${t}.reason, '')`;

const ADD = (t: "NEW" | "OLD") => `
    INSERT INTO touch_tally (user_id, status, outcome, reason, n, avoided)
    VALUES (${GROUP(t)}, 1, ${t}.avoided)
    ON CONFLICT (user_id, status, outcome, reason)
    DO UPDATE SET n = n + 1, avoided = avoided + excluded.avoided;`;

const TAKE = (t: "NEW" | "OLD") => {
  const match = `user_id = ${t}.user_id AND status = ${t}.status
      AND outcome = coalesce(${t}.outcome, '') AND reason = coalesce(${t}.reason, '')`;
  return `
    UPDATE touch_tally SET n = n - 1, avoided = avoided - ${t}.avoided WHERE ${match};
    DELETE FROM touch_tally WHERE ${match} AND n <= 0;`;
};

/**
 * Migration 7: the per-Touch figure, the tally with its triggers, filled
 * once from the Touches already stored (their Cache Reads reckoned from what
 * is stored now, the only record left of what answered them), and an index
 * that finds a user's oldest pending Touch without reading the others.
 */
export const TALLY_MIGRATION = `
  ALTER TABLE touches ADD COLUMN avoided INTEGER NOT NULL DEFAULT 0;
  UPDATE touches SET avoided = ${
  avoidedSql("touches.asked_limit", "coalesce(touches.target, touches.address)")
}
   WHERE status = 'served' AND outcome IN ('hit', 'subsumed');

  CREATE TABLE touch_tally (
    user_id TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL,
    n INTEGER NOT NULL,
    avoided INTEGER NOT NULL,
    PRIMARY KEY (user_id, status, outcome, reason)
  ) WITHOUT ROWID;
  INSERT INTO touch_tally (user_id, status, outcome, reason, n, avoided)
    SELECT user_id, status, coalesce(outcome, ''), coalesce(reason, ''), count(*), sum(avoided)
    FROM touches GROUP BY 1, 2, 3, 4;

  CREATE TRIGGER touches_tally_insert AFTER INSERT ON touches BEGIN ${ADD("NEW")}
  END;
  CREATE TRIGGER touches_tally_delete AFTER DELETE ON touches BEGIN ${TAKE("OLD")}
  END;
  CREATE TRIGGER touches_tally_update AFTER UPDATE OF user_id, status, outcome, reason, avoided
    ON touches
    WHEN OLD.user_id IS NOT NEW.user_id OR OLD.status IS NOT NEW.status
      OR OLD.outcome IS NOT NEW.outcome OR OLD.reason IS NOT NEW.reason
      OR OLD.avoided IS NOT NEW.avoided
  BEGIN ${TAKE("OLD")} ${ADD("NEW")}
  END;

  CREATE INDEX touches_pending_by_user ON touches (user_id, recorded_at) WHERE status = 'pending';
`;

/**
 * A user's stats: from the tally (a few rows, whatever the number of
 * Touches) and one index read for the oldest pending Touch; with `since`,
 * from that window's Touches alone (read through the user's time index).
 */
export function readUserStats(read: ReadRows, userId: string, since?: string): UserStats {
  if (since !== undefined) {
    const groups = read(
      `SELECT status, outcome, reason, count(*) AS n, min(recorded_at) AS oldest,
         sum(avoided) AS avoided
       FROM touches WHERE user_id = $user AND recorded_at >= $since
       GROUP BY status, outcome, reason`,
      { user: userId, since },
    );
    return tallyTouches(groups, sumAvoided(groups));
  }
  const groups = read(
    `SELECT status, nullif(outcome, '') AS outcome, nullif(reason, '') AS reason, n, avoided
     FROM touch_tally WHERE user_id = $user`,
    { user: userId },
  );
  const [oldest] = read(
    `SELECT min(recorded_at) AS oldest FROM touches
     WHERE user_id = $user AND status = 'pending'`,
    { user: userId },
  );
  for (const g of groups) if (g.status === "pending") g.oldest = oldest?.oldest ?? null;
  return tallyTouches(groups, sumAvoided(groups));
}

/** Requests avoided: only answered Cache Reads (hit, subsumed) carry any. */
function sumAvoided(groups: Row[]): number {
  return groups.reduce((n, g) => n + Number(g.avoided ?? 0), 0);
}
