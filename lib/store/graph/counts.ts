/**
 * The graph store's reports: a user's Touches counted (the running counts
 * `cypher.ts`'s `COUNT_TOUCH` keeps, or one by one since a time), and what
 * memory holds, counted by label without reading a node.
 *
 * @example
 * ```ts
 * import { memoryStats } from "./counts.ts";
 * (await memoryStats(c)).resources.issue;
 * ```
 * @module
 */

import { type MemoryStats, requireUser, type UserStats } from "../contract.ts";
import { tallyTouches } from "../rules.ts";
import { wholeNumber } from "./decode.ts";
import type { Connection, Props } from "./connection.ts";

/** A user's running counts (see COUNT_TOUCH), as groups. */
const TOUCH_TALLY = `
MATCH (c:RgraphTouchCount {user_id: $user})
WHERE c.n <> 0 OR c.avoided <> 0
RETURN c.status AS status, CASE c.outcome WHEN '' THEN null ELSE c.outcome END AS outcome,
  CASE c.reason WHEN '' THEN null ELSE c.reason END AS reason, c.n AS n, c.avoided AS avoided`;

/** When a user's oldest pending Touch was recorded (through the status index: pending ones are few). */
const OLDEST_PENDING = `
MATCH (t:Touch)
WHERE t.status = 'pending' AND t.user_id = $user
RETURN min(t.recorded_at) AS oldest`;

/** A user's Touches recorded since \`$since\`, counted one by one in groups. */
const TOUCH_COUNTS = `
MATCH (t:Touch)
WHERE t.user_id = $user AND t.recorded_at >= $since
RETURN t.status AS status, t.outcome AS outcome, t.reason AS reason, count(*) AS n,
  min(t.recorded_at) AS oldest, sum(coalesce(t.avoided, 0)) AS avoided`;

/**
 * Resources by the kind their labels name, and comments: one label each, so
 * Neo4j answers from its count store and Memgraph from its label index,
 * without reading a node (a team server of 100,000 Resources counts as fast
 * as one of 1,000). rgraph deletes a comment with its thread's refetch, so
 * every Comment node belongs to a stored Resource.
 */
const RESOURCE_COUNTS = {
  repository: `MATCH (n:Repository) RETURN count(n) AS n`,
  issue: `MATCH (n:Issue) RETURN count(n) AS n`,
  pull_request: `MATCH (n:PullRequest) RETURN count(n) AS n`,
} as const;

const COMMENT_COUNT = `MATCH (c:Comment) RETURN count(c) AS n`;

const LISTING_COUNT = `MATCH (l:Listing) RETURN count(l) AS n`;

/** The user's Touches counted, all of them or those recorded since `since`. */
export async function userStats(c: Connection, userId: string, since?: string): Promise<UserStats> {
  requireUser(userId);
  if (since !== undefined) {
    const groups = await c.read(TOUCH_COUNTS, { user: userId, since });
    return tallyTouches(groups, sumAvoided(groups));
  }
  // The running counts, and the oldest pending Touch: a few nodes, whatever the Touches.
  const [groups, oldest] = await c.tx(
    "read",
    (run) =>
      Promise.all([
        run(TOUCH_TALLY, { user: userId }),
        run(OLDEST_PENDING, { user: userId }),
      ]),
  );
  for (const g of groups) if (g.status === "pending") g.oldest = oldest[0]?.oldest ?? null;
  return tallyTouches(groups, sumAvoided(groups));
}

/** What memory holds; a server's size on disk is not this store's to tell. */
export async function memoryStats(c: Connection): Promise<MemoryStats> {
  const [repository, issue, pull_request, comments, listings] = await c.tx(
    "read",
    (run) =>
      Promise.all(
        [
          RESOURCE_COUNTS.repository,
          RESOURCE_COUNTS.issue,
          RESOURCE_COUNTS.pull_request,
          COMMENT_COUNT,
          LISTING_COUNT,
        ].map((q) => run(q)),
      ),
  );
  const count = (rows: Props[]) => (typeof rows[0]?.n === "number" ? rows[0].n as number : 0);
  return {
    resources: {
      repository: count(repository),
      issue: count(issue),
      pull_request: count(pull_request),
    },
    comments: count(comments),
    listings: count(listings),
    size_bytes: null,
  };
}

/** Requests avoided over count groups: only answered Cache Reads carry any. */
function sumAvoided(groups: Props[]): number {
  return groups.reduce((n, g) => n + (wholeNumber(g.avoided) ?? 0), 0);
}
