import assert from "node:assert/strict";
import {
  commentProps,
  ddl,
  decodeListing,
  decodeResource,
  decodeTouch,
  dialectOf,
  INDEXED,
  isAlreadyExists,
  listingProps,
  resourceProps,
  touchId,
  touchProps,
  UNIQUE,
  unreachableReason,
} from "./model.ts";
import { issue, pullRequest, repository, touch } from "../../../tests/store_contract.ts";
import { listingAddress } from "../../address/key.ts";

Deno.test("dialectOf: Memgraph by its agent, Neo4j only when dbms.components names it", () => {
  assert.equal(
    dialectOf("Neo4j/v5.11.0 compatible graph database server - Memgraph", null),
    "memgraph",
  );
  assert.equal(dialectOf("Neo4j/5.26.18", "Neo4j Kernel"), "neo4j");
  // Memgraph told to announce itself as Neo4j has no dbms.components().
  assert.equal(dialectOf("Neo4j/", null), "memgraph");
});

Deno.test("ddl: each dialect's syntax, every unique key also indexed on Memgraph", () => {
  const neo = ddl("neo4j");
  assert.equal(neo.length, UNIQUE.length + INDEXED.length);
  assert.ok(neo.includes(
    "CREATE CONSTRAINT rgraph_touch_id IF NOT EXISTS FOR (n:Touch) REQUIRE n.id IS UNIQUE",
  ));
  assert.ok(
    neo.includes(
      "CREATE INDEX rgraph_resource_address IF NOT EXISTS FOR (n:Resource) ON (n.address)",
    ),
  );
  const mg = ddl("memgraph");
  assert.ok(mg.includes("CREATE CONSTRAINT ON (n:Comment) ASSERT n.node_id IS UNIQUE"));
  assert.ok(mg.includes("CREATE INDEX ON :Comment(node_id)"));
  assert.ok(mg.includes("CREATE INDEX ON :Touch(status)"));
  assert.ok(mg.every((q) => !q.includes("IF NOT EXISTS")));
  for (
    const [label, prop] of [["Resource", "node_id"], ["Comment", "node_id"], ["Listing", "key"], [
      "Touch",
      "id",
    ]]
  ) {
    assert.ok(UNIQUE.some(([l, p]) => l === label && p === prop), `${label}.${prop} unique`);
  }
  assert.ok(isAlreadyExists("Constraint already exists!"));
  assert.ok(!isAlreadyExists("Invalid input"));
});

Deno.test("Resources survive the trip through node properties, nulls and empty lists included", () => {
  for (const r of [repository(), issue(7, { closed_at: null, milestone: null }), pullRequest(9)]) {
    const props = resourceProps(r);
    assert.ok(Object.values(props).every((v) => v !== null && v !== undefined), "no null property");
    assert.equal(props.repo_address, "github:acme/rocket");
    const comments = r.kind === "repository" ? [] : [
      ...r.comments.map((c, i) => commentProps(c, false, i)),
      ...(r.kind === "pull_request"
        ? r.review_comments.map((c, i) => commentProps(c, true, i))
        : []),
    ].reverse();
    assert.deepEqual(decodeResource(props, comments), r);
  }
});

Deno.test("Touches: one id per user and event, nulls read back as null, Cache Reads settled", () => {
  assert.equal(touchId("alice", "k"), touchId("alice", "k"));
  assert.notEqual(touchId("alice", "k"), touchId("bob", "k"));
  const t = touch("alice", "github:acme/rocket#1", { agent_id: null });
  const back = decodeTouch(touchProps(t, 1));
  assert.deepEqual(back, {
    ...t,
    id: touchId("alice", t.dedup_key),
    outcome: null,
    target: null,
    reason: null,
    detail: null,
    failures: 0,
    settled_at: null,
  });
  const served = decodeTouch(touchProps({ ...t, status: "served", outcome: "hit" }, 2));
  assert.equal(served.settled_at, t.recorded_at);
});

Deno.test("Listings keep their filters and limit", () => {
  const a = listingAddress("Acme", "Rocket", "issues", { labels: ["Bug"], author: "octo" }, 50);
  const l = {
    key: a.key,
    owner: a.owner,
    repo: a.repo,
    listing: a.listing,
    filters: a.filters,
    limit: 50,
    total_count: 120,
    member_count: 50,
    fully_expanded: false,
    fetched_at: "2026-03-02T09:15:00.000Z",
  };
  assert.deepEqual(decodeListing(listingProps(l, 50, false)), l);
  assert.equal(decodeListing(listingProps({ ...l, limit: null }, 50, false)).limit, null);
});

Deno.test("unreachableReason: the driver's long connection errors become a few words", () => {
  assert.equal(
    unreachableReason(
      "Failed to connect to server. Please ensure that your database is listening on the correct host and port " +
        "and that you have compatible encryption settings both on Neo4j server and driver. Caused by: connect ECONNREFUSED 127.0.0.1:9",
    ),
    "connection refused",
  );
  assert.equal(
    unreachableReason("The client is unauthorized due to authentication failure."),
    "authentication failed: check [store] user and password",
  );
  assert.equal(unreachableReason("Unknown scheme: http\nmore"), "Unknown scheme: http");
});
