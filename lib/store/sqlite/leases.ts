/**
 * The embedded store's Sweep queue: leasing pending Touches to one Sweep,
 * what other Sweeps hold, settling a leased Touch, and the signal the
 * background scheduler polls. A lease is two columns on the Touch row
 * (`lease_owner`, `lease_until`); only its holder may settle it.
 *
 * @example
 * ```ts
 * import { leasePending } from "./leases.ts";
 * const touches = leasePending(db, "sweep-1", 50, 60_000);
 * ```
 * @module
 */

import type { LeaseHeld, Settlement } from "../contract.ts";
import { leaseHeld, settlementFields } from "../rules.ts";
import type { Touch } from "../../types.ts";
import { byRecorded, touchFromRow } from "./touches.ts";
import type { Connection } from "./connection.ts";

/** See {@link sweepSignal}. */
export interface SweepSignal {
  /** Pending Touches recorded after the asked time. */
  fresh: number;
  /** When the oldest and the newest of them were recorded. */
  oldest: string | null;
  newest: string | null;
  /** Some Touch waits for a Sweep: pending, or rate_limited to retry. */
  waiting: boolean;
}

/**
 * Leases up to `limit` sweepable Touches to `owner` for `leaseMs`, oldest
 * first: pending ones, and rate-limited ones settled before
 * `retrySettledBefore`, which are taken up again as pending.
 */
export function leasePending(
  db: Connection,
  owner: string,
  limit: number,
  leaseMs: number,
  retrySettledBefore?: string,
): Touch[] {
  const now = Date.now();
  const rows = db.write(() =>
    db.all(
      // The first condition is the partial index touches_sweepable's, word for
      // word, so the index is used; no settled_at is before '' (no retry asked).
      `UPDATE touches SET lease_owner = ?, lease_until = ?, status = 'pending', reason = NULL,
         settled_at = NULL
       WHERE id IN (
         SELECT id FROM touches
         WHERE (status = 'pending' OR (status = 'unresolved' AND reason = 'rate_limited'))
           AND (status = 'pending' OR settled_at < ?)
           AND (lease_until IS NULL OR lease_until <= ?)
         ORDER BY recorded_at, rowid LIMIT ?)
       RETURNING *`,
      owner,
      now + leaseMs,
      retrySettledBefore ?? "",
      now,
      limit,
    )
  );
  return rows.map(touchFromRow).sort(byRecorded);
}

/** The live leases of pending Touches other owners hold. */
export function leasedByOthers(db: Connection, owner: string): LeaseHeld[] {
  return db.all(
    `SELECT address, lease_owner AS owner, lease_until AS until FROM touches
     WHERE status = 'pending' AND lease_owner IS NOT NULL AND lease_owner != ?
       AND lease_until > ?`,
    owner,
    Date.now(),
  ).map(leaseHeld);
}

/** Settles a Touch `owner` holds the lease of, releasing the lease; another's lease is left be. */
export function settleTouch(
  db: Connection,
  id: string,
  owner: string,
  settlement: Settlement,
): void {
  const held = "id = ? AND lease_owner = ? AND status = 'pending'";
  const { target, reason, detail, failure } = settlementFields(settlement);
  if (settlement.status === "pending") {
    db.run(
      `UPDATE touches SET lease_owner = NULL, lease_until = NULL,
         failures = failures + (? IS NOT NULL), detail = coalesce(?, detail) WHERE ${held}`,
      failure,
      failure,
      id,
      owner,
    );
    return;
  }
  db.run(
    `UPDATE touches SET status = ?, target = coalesce(?, target), reason = ?, detail = ?,
       settled_at = ?, lease_owner = NULL, lease_until = NULL WHERE ${held}`,
    settlement.status,
    target,
    reason,
    detail,
    new Date().toISOString(),
    id,
    owner,
  );
}

/**
 * What the background scheduler asks every few seconds, in two index
 * reads: the pending Touches recorded after `since` (every pending one when
 * null), and whether any Touch waits for a Sweep at all (pending, or
 * rate_limited to retry). Every user's: the machine's Sweep takes them all.
 */
export function sweepSignal(db: Connection, since: string | null): SweepSignal {
  const fresh = db.get(
    `SELECT count(*) AS n, min(recorded_at) AS oldest, max(recorded_at) AS newest
     FROM touches WHERE status = 'pending' AND recorded_at > ?`,
    since ?? "",
  )!;
  const waiting = db.get(
    `SELECT EXISTS (SELECT 1 FROM touches
       WHERE status = 'pending' OR (status = 'unresolved' AND reason = 'rate_limited')) AS w`,
  )!;
  return {
    fresh: fresh.n as number,
    oldest: fresh.oldest as string | null,
    newest: fresh.newest as string | null,
    waiting: waiting.w === 1,
  };
}
