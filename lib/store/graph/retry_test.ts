/**
 * The retry rules on the error objects neo4j-driver builds from a server's
 * FAILURE message (`Neo4jError` with the server's code and message), with
 * Memgraph's and Neo4j's real codes and texts (Memgraph: from its source,
 * `ExceptionToErrorMessage` and the exceptions named below).
 */

import assert from "node:assert/strict";
import neo4j from "neo4j-driver";
import {
  isAlreadyExists,
  isCommitConflict,
  isRefusedByData,
  isRetryable,
  MEMGRAPH_CLIENT_ERROR,
  retrying,
} from "./retry.ts";

const MEMGRAPH_TRANSIENT = "Memgraph.TransientError.MemgraphError.MemgraphError";
/** As the driver builds one from a FAILURE without GQL status (Memgraph's; Neo4j before Bolt 5.7). */
const error = (message: string, code: string) =>
  new neo4j.Neo4jError(
    message,
    code,
    "50N42",
    `error: general processing exception - unexpected error. ${message}`,
  );

const MEMGRAPH = {
  // QueryException at commit (interpreter.cpp): a ClientError the driver does not retry.
  uniqueAtCommit: error(
    "Unable to commit due to unique constraint violation on :Touch(id)",
    MEMGRAPH_CLIENT_ERROR,
  ),
  // TransactionSerializationException (a RetryBasicException): transient.
  writeConflict: error(
    "Cannot resolve conflicting transactions. Retry this transaction when the conflicting transaction is finished. For more details, visit https://memgraph.com/docs",
    MEMGRAPH_TRANSIENT,
  ),
  // Storage access not granted to DDL within --storage-access-timeout-sec.
  storageAccess: error(
    "Cannot get read-only access to the storage. Try stopping other parallel queries. You can increase the timeout via SET DATABASE SETTINGS 'storage.access_timeout_sec' TO 'value';",
    MEMGRAPH_TRANSIENT,
  ),
  // NotYetImplemented (a BasicException) is reported as transient, though no retry helps.
  notImplemented: error(
    "Not yet implemented: atom expression '[yIN[d,al,l]WHEREyISNOTNULL]'. Try to rewrite the query by using OPTIONAL MATCH, WITH and WHERE clauses.",
    MEMGRAPH_TRANSIENT,
  ),
  syntax: error("line 1:6 mismatched input 'VERSION' expecting {…}", MEMGRAPH_CLIENT_ERROR),
  mergeNull: error(
    "Can't have null literal properties inside merge (a.key)!",
    MEMGRAPH_CLIENT_ERROR,
  ),
  violatingData: error(
    "Unable to create unique constraint :Session(session_id), because an existing node violates it.",
    MEMGRAPH_CLIENT_ERROR,
  ),
  // Its documentation: the same write-write conflict as writeConflict, to be retried.
  serialization: error("Unable to commit due to serialization error.", MEMGRAPH_CLIENT_ERROR),
};

const NEO4J = {
  deadlock: error(
    "ForsetiClient[transactionId=12] can't acquire ExclusiveLock…",
    "Neo.TransientError.Transaction.DeadlockDetected",
  ),
  indexInTheWay: error(
    "There already exists an index (:Session {session_id}). A constraint cannot be created until the index has been dropped.",
    "Neo.ClientError.Schema.IndexAlreadyExists",
  ),
  equivalent: error(
    "An equivalent constraint already exists, 'Constraint( id=4, name='x', type='UNIQUENESS' )'.",
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
  ),
  // As Neo4j 5.26 reports it (seen on the test server).
  duplicates: error(
    "Unable to create Constraint( name='x', type='UNIQUENESS', schema=(:Session {session_id}) ):\nBoth Node(2739) and Node(2740) have the label `Session` and property `session_id` = 'dupx'. Note that only the first found violation is shown.",
    "Neo.DatabaseError.Schema.ConstraintCreationFailed",
  ),
  syntax: error("Invalid input 'VERSION'", "Neo.ClientError.Statement.SyntaxError"),
};

Deno.test("retryable: conflicts and busy servers, never a construct the server lacks or a bad query", () => {
  assert.ok(isCommitConflict(MEMGRAPH.uniqueAtCommit));
  assert.ok(isRetryable(MEMGRAPH.uniqueAtCommit), "Memgraph's unique violation at commit");
  assert.ok(isRetryable(MEMGRAPH.writeConflict));
  assert.ok(isRetryable(MEMGRAPH.serialization), "Memgraph's serialization error at commit");
  assert.ok(isRetryable(MEMGRAPH.storageAccess));
  assert.ok(isRetryable(NEO4J.deadlock));
  assert.ok(isRetryable(error("connection lost", "ServiceUnavailable")));
  for (
    const e of [
      MEMGRAPH.notImplemented,
      MEMGRAPH.syntax,
      MEMGRAPH.mergeNull,
      MEMGRAPH.violatingData,
      NEO4J.indexInTheWay,
      NEO4J.syntax,
      new Error("a bug"),
    ]
  ) assert.equal(isRetryable(e), false, String(e.message));
  // The same text under another code is not Memgraph's commit conflict.
  assert.equal(
    isCommitConflict(error(MEMGRAPH.uniqueAtCommit.message, "Neo.ClientError.X")),
    false,
  );
});

Deno.test("schema refusals: an existing rule is done; data in the way means an index instead", () => {
  assert.ok(isAlreadyExists(NEO4J.equivalent));
  assert.ok(
    isAlreadyExists(new Error("Index on label Session on properties session_id already exists.")),
  );
  assert.equal(isAlreadyExists(NEO4J.indexInTheWay), false);
  assert.ok(isRefusedByData(NEO4J.indexInTheWay));
  assert.ok(isRefusedByData(NEO4J.duplicates));
  assert.ok(isRefusedByData(MEMGRAPH.violatingData));
  assert.equal(isRefusedByData(MEMGRAPH.storageAccess), false);
});

/** A clock that only moves when the loop sleeps. */
function fakeTime() {
  let now = 0;
  const pauses: number[] = [];
  return {
    pauses,
    policy: {
      now: () => now,
      sleep: (ms: number) => {
        pauses.push(ms);
        now += ms;
        return Promise.resolve();
      },
      random: () => 0.5,
    },
  };
}

Deno.test("retrying runs the whole attempt again until it passes, pausing longer each time", async () => {
  const time = fakeTime();
  const thrown = [MEMGRAPH.uniqueAtCommit, MEMGRAPH.writeConflict, MEMGRAPH.storageAccess];
  let attempts = 0;
  const out = await retrying(() => {
    attempts++;
    const e = thrown.shift();
    return e ? Promise.reject(e) : Promise.resolve("committed");
  }, time.policy);
  assert.equal(out, "committed");
  assert.equal(attempts, 4);
  assert.deepEqual(time.pauses, [25, 50, 100]);
});

Deno.test("retrying gives up at once on what cannot pass, and after the deadline on the rest", async () => {
  const time = fakeTime();
  let attempts = 0;
  await assert.rejects(
    retrying(() => {
      attempts++;
      return Promise.reject(MEMGRAPH.notImplemented);
    }, time.policy),
    /Not yet implemented/,
  );
  assert.equal(attempts, 1, "no retry of a construct the server lacks");
  assert.deepEqual(time.pauses, []);

  attempts = 0;
  await assert.rejects(
    retrying(() => {
      attempts++;
      return Promise.reject(MEMGRAPH.writeConflict);
    }, { ...time.policy, deadlineMs: 2_000 }),
    /Cannot resolve conflicting transactions/,
  );
  const waited = time.pauses.reduce((a, b) => a + b, 0);
  assert.ok(waited <= 2_000, `waited ${waited} ms`);
  assert.ok(attempts > 3 && Math.max(...time.pauses) <= 1_000);
});

Deno.test("retrying waits out conflicts far longer than a lost server", async () => {
  const time = fakeTime();
  let conflicts = 0;
  // Conflicts for 20 s (a teammate's long write holding the lock), then the write goes through.
  const out = await retrying(() => {
    if (time.policy.now() < 20_000) {
      conflicts++;
      return Promise.reject(NEO4J.deadlock);
    }
    return Promise.resolve("committed");
  }, time.policy);
  assert.equal(out, "committed");
  assert.ok(conflicts > 10 && Math.max(...time.pauses) <= 3_000, `pauses ${time.pauses}`);

  const lost = fakeTime();
  await assert.rejects(
    retrying(() => Promise.reject(error("connection lost", "ServiceUnavailable")), lost.policy),
    /connection lost/,
  );
  const waited = lost.pauses.reduce((a, b) => a + b, 0);
  assert.ok(waited <= 10_000, `a lost server is told within 10 s, waited ${waited} ms`);
});
