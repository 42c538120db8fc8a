/**
 * Which failures of a graph server are worth running the same transaction
 * again for, and the loop that does it. rgraph runs its own loop instead of
 * the driver's managed transactions because the two servers report the same
 * situations differently:
 * - a write-write conflict: Memgraph's `TransientError` "Cannot resolve
 *   conflicting transactions…", Neo4j's `Neo.TransientError.*` (deadlocks);
 *   both transient, retried;
 * - two transactions creating one uniquely-keyed node: Neo4j makes the
 *   second wait and match, Memgraph checks at commit and fails the second
 *   with a *ClientError* ("Unable to commit due to unique constraint
 *   violation on :Touch(id)"), which the driver does not retry; run again,
 *   its MERGE finds the committed node, so it is retried here; so is its
 *   "Unable to commit due to serialization error." (also a ClientError),
 *   which Memgraph's documentation names the same write-write conflict as
 *   "Cannot resolve conflicting transactions" and says to retry;
 * - DDL that cannot get storage access in time (Memgraph: "Cannot get
 *   read-only access to the storage…"): transient, but DDL runs outside
 *   transactions, where the driver never retries, so schema setup retries
 *   it through the same loop;
 * - a construct Memgraph lacks ("Not yet implemented: …") is also reported
 *   as transient, yet no retry can help: it fails at once;
 * - a lost connection (`ServiceUnavailable`, `SessionExpired`): retried
 *   within the driver's own ten seconds: a server that is gone is told soon.
 *
 * Every rgraph write takes the write lock first (`connection.ts`), so on
 * Neo4j writers queue instead of deadlocking; what still conflicts (every
 * concurrent write on Memgraph, whose transactions abort instead of
 * waiting) is retried with jittered backoff over a budget sized to the
 * longest write another teammate's Sweep can hold the lock for (a
 * 1,000-member Listing: a few seconds), many times over.
 *
 * @example
 * ```ts
 * import { retrying } from "./retry.ts";
 * const rows = await retrying(() => runTransaction(work));
 * ```
 * @module
 */

/** What a server error carries: neo4j-driver's `Neo4jError` has both. */
interface ServerError {
  code?: unknown;
  message?: unknown;
}

function parts(e: unknown): { code: string; message: string } {
  const err = (e ?? {}) as ServerError;
  return {
    code: typeof err.code === "string" ? err.code : "",
    message: typeof err.message === "string" ? err.message : String(e),
  };
}

/** Memgraph's code for every query error it reports as the client's. */
export const MEMGRAPH_CLIENT_ERROR = "Memgraph.ClientError.MemgraphError.MemgraphError";

/**
 * Memgraph found at commit that this transaction conflicts with one that
 * committed first: a uniquely-keyed node it created exists already, or a
 * write-write conflict (a serialization error).
 */
export function isCommitConflict(e: unknown): boolean {
  const { code, message } = parts(e);
  return code === MEMGRAPH_CLIENT_ERROR &&
    /^Unable to commit due to (unique constraint violation|serialization error)/.test(message);
}

/** Whether running the same transaction (or DDL statement) again can succeed. */
export function isRetryable(e: unknown): boolean {
  const { code, message } = parts(e);
  if (isLost(e)) return true;
  if (isCommitConflict(e)) return true;
  if (code.includes("TransientError")) return !/^Not yet implemented/.test(message);
  return false;
}

/**
 * True for the refusal a server gives when a schema rule it is asked to
 * create exists already (Neo4j without `IF NOT EXISTS`; Memgraph only
 * notifies, it never fails on this).
 */
export function isAlreadyExists(e: unknown): boolean {
  if (isRefusedByData(e)) return false;
  const { code, message } = parts(e);
  return /SchemaRuleAlreadyExists|ConstraintAlreadyExists|IndexAlreadyExists/.test(code) ||
    /already exists/i.test(message);
}

/**
 * True when a uniqueness constraint was refused because of what is stored:
 * nodes that already share the key, or (Neo4j) a plain index on the same
 * key that another writer created. A plain index is used instead then.
 */
export function isRefusedByData(e: unknown): boolean {
  const { code, message } = parts(e);
  // Neo4j 5 reports duplicates as Neo.DatabaseError.Schema.ConstraintCreationFailed.
  return /\.Schema\.ConstraintCreationFailed$/.test(code) ||
    /cannot be created until the index has been dropped/i.test(message) ||
    /Unable to create unique constraint .* existing node violates it/i.test(message);
}

/** How long and how often to try. */
export interface RetryPolicy {
  /** No new attempt after a conflict starts later than this after the first (ms). */
  deadlineMs: number;
  /** No new attempt after a lost connection starts later than this after the first (ms). */
  lostDeadlineMs: number;
  /**
   * The first pause, doubled after each failure up to `maxDelayMs`, each
   * drawn from half to one and a half times that (so writers that met once
   * do not meet again in step).
   */
  firstDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
}

/**
 * First pauses short, because a write conflict clears as soon as the other
 * transaction commits; a minute for conflicts (measured: ten teammates'
 * Sweeps, MCP servers and outbox drains at once on 2 cores queue writes for
 * up to ~10 s behind the write lock), the driver's ten seconds for a lost
 * server.
 */
const DEFAULT_POLICY: RetryPolicy = {
  deadlineMs: 60_000,
  lostDeadlineMs: 10_000,
  firstDelayMs: 25,
  maxDelayMs: 2_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  random: Math.random,
};

/** Whether `e` says the connection, not the transaction, failed. */
function isLost(e: unknown): boolean {
  const { code } = parts(e);
  return code === "ServiceUnavailable" || code === "SessionExpired";
}

/**
 * Runs `attempt` until it succeeds, fails with an error `retryable` refuses,
 * or the deadline for that kind of failure passes (the last error is thrown
 * then).
 */
export async function retrying<T>(
  attempt: () => Promise<T>,
  policy: Partial<RetryPolicy> = {},
  retryable: (e: unknown) => boolean = isRetryable,
): Promise<T> {
  const p = { ...DEFAULT_POLICY, ...policy };
  const started = p.now();
  let delay = p.firstDelayMs;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      const pause = delay * (0.5 + p.random());
      const deadline = isLost(e) ? p.lostDeadlineMs : p.deadlineMs;
      if (!retryable(e) || p.now() + pause - started > deadline) throw e;
      await p.sleep(pause);
      delay = Math.min(delay * 2, p.maxDelayMs);
    }
  }
}
