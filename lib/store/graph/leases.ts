/**
 * The graph store's Sweep queue: leasing one user's pending Touches to a
 * Sweep (two Sweeps never lease the same Touch, whichever server), what
 * other Sweeps hold, and settling a leased Touch — only the lease holder's
 * settlement takes effect.
 *
 * @example
 * ```ts
 * import { Leases } from "./leases.ts";
 * const leases = new Leases(c, "alice");
 * const touches = await leases.leasePending("sweep-1", 50, 60_000);
 * ```
 * @module
 */

import type { LeaseHeld, Settlement } from "../contract.ts";
import { leaseHeld, settlementFields } from "../rules.ts";
import type { Touch } from "../../types.ts";
import { COUNT_TOUCH, JOIN_TOUCH, WHEN } from "./cypher.ts";
import { type Connection, nodeProps, type Props } from "./connection.ts";
import { touchesOf } from "./touches.ts";

/** How many times a lease retries for Touches another sweep took from under it. */
const LEASE_ATTEMPTS = 4;

/**
 * Pending Touches, and rate-limited ones settled before `$retry` (none when
 * it is ''), whose lease is free, of `$user` only: with no user, none (a
 * Sweep never fetches, or prints in its errors, another user's addresses).
 * Only rgraph's Touches: another writer's (the upstream package keeps
 * `touch_id` and no user) are its own to sweep.
 */
const LEASABLE = `(t.status = 'pending' OR (t.status = 'unresolved' AND t.reason = 'rate_limited'
    AND t.settled_at < $retry))
  AND (t.lease_until IS NULL OR t.lease_until <= $now)
  AND t.user_id = $user
  AND t.dedup_key IS NOT NULL AND t.recorded_at IS NOT NULL`;

/**
 * Whether any Touch is leasable: one read, where the lease itself is a write
 * transaction (a Sweep's last lease finds nothing).
 */
const LEASE_PROBE = `
MATCH (t:Touch)
WHERE ${LEASABLE}
RETURN t.id AS id LIMIT 1`;

/**
 * Leases the oldest free pending Touches. Setting a throwaway property takes
 * the row's write lock first (Neo4j) or raises a write conflict that is
 * retried (Memgraph); the lease condition is then read again under the
 * lock, so two sweeps never lease the same Touch. Every candidate comes back
 * with `won` saying whether this transaction leased it.
 */
const LEASE_PENDING = `
MATCH (t:Touch)
WHERE ${LEASABLE}
WITH t ORDER BY t.recorded_at, t.seq LIMIT $limit
SET t.lease_lock = true
REMOVE t.lease_lock
WITH t, (${LEASABLE}) AS won
WITH t, won, won AND t.status = 'unresolved' AS retried
${WHEN("retried", COUNT_TOUCH("t", -1))}
${
  WHEN(
    "won",
    "SET t.lease_owner = $owner, t.lease_until = $until, t.status = 'pending' " +
      "REMOVE t.reason, t.settled_at",
  )
}
${WHEN("retried", COUNT_TOUCH("t", 1))}
RETURN t, won`;

/** The pending Touches another live lease holds (see `Store.leasedByOthers`). */
const LEASED_BY_OTHERS = `
MATCH (t:Touch)
WHERE t.status = 'pending' AND t.lease_owner IS NOT NULL AND t.lease_owner <> $owner
  AND t.lease_until > $now
RETURN t.address AS address, t.lease_owner AS owner, t.lease_until AS until`;

const HELD = `MATCH (t:Touch {id: $id}) WHERE t.lease_owner = $owner AND t.status = 'pending'`;

/**
 * Settlements, each one statement; only the lease holder's takes effect. A
 * resolved Touch is joined to what it names in the same statement.
 */
const SETTLE = {
  resolved: `${HELD}
${COUNT_TOUCH("t", -1)}
WITH t
SET t.status = 'resolved', t.target = $target, t.settled_at = $now
REMOVE t.reason, t.detail, t.lease_owner, t.lease_until
WITH t
${COUNT_TOUCH("t", 1)}
WITH t
${JOIN_TOUCH}`,
  unresolved: `${HELD}
${COUNT_TOUCH("t", -1)}
WITH t
SET t.status = 'unresolved', t.reason = $reason, t.detail = $detail, t.settled_at = $now
REMOVE t.lease_owner, t.lease_until
WITH t
${COUNT_TOUCH("t", 1)}`,
  // With $failure, one more consecutive failure on GitHub's side, and its message.
  pending: `${HELD}
SET t.failures = coalesce(t.failures, 0) + CASE WHEN $failure IS NULL THEN 0 ELSE 1 END,
    t.detail = coalesce($failure, t.detail)
REMOVE t.lease_owner, t.lease_until`,
} as const;

/** One store's leases: whose Touches it may lease, and how its last lease went. */
export class Leases {
  readonly #c: Connection;
  readonly #user: string | null;
  /** Whether the last lease found fewer Touches than it asked for. */
  #short = false;

  /**
   * `user`: whose pending Touches may be leased (the person running the
   * Sweep): others' stay private; `null` leases none.
   */
  constructor(c: Connection, user: string | null) {
    this.#c = c;
    this.#user = user;
  }

  /**
   * Leases up to `limit` of the user's sweepable Touches to `owner` for
   * `leaseMs`, oldest first (rate-limited ones settled before
   * `retrySettledBefore` taken up again as pending).
   */
  async leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    const won: Props[] = [];
    const params = () => {
      const now = Date.now();
      return {
        owner,
        now,
        until: now + leaseMs,
        limit: limit - won.length,
        user: this.#user,
        retry: retrySettledBefore ?? "",
      };
    };
    // After a lease that found fewer than asked, the next (a Sweep's last) most
    // likely finds nothing: a read answers that, the lease itself is a write.
    if (this.#short && (await this.#c.read(LEASE_PROBE, params())).length === 0) {
      return [];
    }
    for (let attempt = 0; attempt < LEASE_ATTEMPTS && won.length < limit; attempt++) {
      const rows = await this.#c.write(LEASE_PENDING, params());
      for (const r of rows) if (r.won) won.push(nodeProps(r.t));
      // Only Touches another sweep took first can make a retry find more.
      if (rows.every((r) => r.won)) break;
    }
    this.#short = won.length < limit;
    won.sort((a, b) =>
      String(a.recorded_at).localeCompare(String(b.recorded_at)) ||
      Number(a.seq) - Number(b.seq)
    );
    return touchesOf(this.#c, won);
  }

  /** The live leases of pending Touches other owners hold. */
  async leasedByOthers(owner: string): Promise<LeaseHeld[]> {
    const rows = await this.#c.read(LEASED_BY_OTHERS, { owner, now: Date.now() });
    return rows.map(leaseHeld);
  }

  /** Settles a Touch `owner` holds the lease of, releasing the lease; another's is left be. */
  async settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    await this.#c.write(SETTLE[settlement.status], {
      id,
      owner,
      now: new Date().toISOString(),
      ...settlementFields(settlement),
    });
  }
}
