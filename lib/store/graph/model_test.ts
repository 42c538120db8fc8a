import assert from "node:assert/strict";
import {
  commentProps,
  INDEXED,
  listingProps,
  obsoleteSchema,
  OWNED_RESOURCE_KEYS,
  resourceProps,
  schema,
  schemaStatements,
  touchId,
  touchProps,
  UNIQUE,
} from "./model.ts";
import { decodeListing, decodeResource, decodeTouch, type GraphNode } from "./decode.ts";
import { issue, pullRequest, repository, touch } from "../../../tests/store_contract.ts";
import { listingAddress } from "../../address/key.ts";

const LABELS = { repository: "Repository", issue: "Issue", pull_request: "PullRequest" } as const;
const never = (what: string, why: string) => assert.fail(`skipped ${what}: ${why}`);

/** A node as the server would give back what `props` set (a null property is no property). */
function node(labels: string[], props: Record<string, unknown>): GraphNode {
  return {
    labels,
    properties: Object.fromEntries(Object.entries(props).filter(([, v]) => v !== null)),
  };
}

Deno.test("schema: each dialect's syntax, every unique key also indexed on Memgraph", () => {
  const neo = schema().flatMap((r) => schemaStatements("neo4j", r));
  assert.equal(neo.length, UNIQUE.length + INDEXED.length);
  assert.ok(neo.includes(
    "CREATE CONSTRAINT rgraph_touch_id IF NOT EXISTS FOR (n:Touch) REQUIRE n.id IS UNIQUE",
  ));
  assert.ok(
    neo.includes(
      "CREATE INDEX rgraph_resource_address IF NOT EXISTS FOR (n:Resource) ON (n.address)",
    ),
  );
  // The family's Session constraint, under a name the dropped index of earlier versions never had.
  assert.ok(neo.includes(
    "CREATE CONSTRAINT rgraph_session_session_id_unique IF NOT EXISTS FOR (n:Session) REQUIRE n.session_id IS UNIQUE",
  ));
  assert.deepEqual(obsoleteSchema("neo4j"), ["DROP INDEX rgraph_session_session_id IF EXISTS"]);
  assert.deepEqual(obsoleteSchema("memgraph"), []);
  const mg = schema().flatMap((r) => schemaStatements("memgraph", r));
  assert.ok(mg.includes("CREATE CONSTRAINT ON (n:Comment) ASSERT n.node_id IS UNIQUE"));
  assert.ok(mg.includes("CREATE INDEX ON :Comment(node_id)"));
  assert.ok(mg.includes("CREATE INDEX ON :Touch(status)"));
  assert.ok(mg.includes("CREATE CONSTRAINT ON (n:Session) ASSERT n.session_id IS UNIQUE"));
  assert.ok(mg.every((q) => !q.includes("IF NOT EXISTS")));
  // The lock's rule comes first: schema setup takes that lock before the rest.
  assert.deepEqual(schema()[0], { label: "RgraphLock", property: "name", unique: true });
  // A unique rule stored data refuses falls back to an index of its own name.
  const session = schema().find((r) => r.label === "Session")!;
  assert.deepEqual(schemaStatements("neo4j", session, true), [
    "CREATE INDEX rgraph_session_session_id_index IF NOT EXISTS FOR (n:Session) ON (n.session_id)",
  ]);
  assert.deepEqual(schemaStatements("memgraph", session, true), [
    "CREATE INDEX ON :Session(session_id)",
  ]);
});

Deno.test("Resources survive the trip through node properties, nulls and empty lists included", () => {
  for (const r of [repository(), issue(7, { closed_at: null, milestone: null }), pullRequest(9)]) {
    const props = resourceProps(r);
    assert.equal(props.repo_address, "github:acme/rocket");
    assert.ok(Object.keys(props).every((k) => OWNED_RESOURCE_KEYS.includes(k)));
    const comments = r.kind === "repository" ? [] : [
      ...r.comments.map((c, i) => commentProps(c, false, i)),
      ...(r.kind === "pull_request"
        ? r.review_comments.map((c, i) => commentProps(c, true, i))
        : []),
    ].reverse();
    assert.deepEqual(
      decodeResource(
        node(["Resource", LABELS[r.kind]], props),
        comments.map((c) => node(["Comment"], c)),
        never,
      ),
      r,
    );
  }
});

Deno.test("a refetch written with SET += removes what the new version no longer has", () => {
  const old = { ...issue(7, { milestone: "v1" }), etag: 'W/"1"' };
  const now = issue(7, { milestone: null });
  delete (now as { etag?: string | null }).etag;
  const props = resourceProps(now);
  // Nulls for every property rgraph owns that the record lacks: `SET +=` removes each.
  assert.equal(props.milestone, null);
  assert.equal(props.etag, null);
  assert.equal(props.references, null);
  // Earlier versions read nulls from `null_keys`: the null fields are still listed there.
  assert.ok((props.null_keys as string[]).includes("milestone"));
  assert.ok(!(props.null_keys as string[]).includes("etag"));
  const stored = { ...resourceProps(old), ...props, referenced_by_ids: ["kept"] };
  const back = decodeResource(node(["Resource", "Issue"], stored), [], never);
  assert.equal(back?.kind === "issue" && back.milestone, null);
  assert.equal(back !== null && "etag" in back, false);
});

Deno.test("Touches: one id per user and event, nulls read back as null, Cache Reads settled", () => {
  assert.equal(touchId("alice", "k"), touchId("alice", "k"));
  assert.notEqual(touchId("alice", "k"), touchId("bob", "k"));
  const t = touch("alice", "github:acme/rocket#1", { agent_id: null });
  const back = decodeTouch(touchProps(t, 1), never);
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
  const served = decodeTouch(touchProps({ ...t, status: "served", outcome: "hit" }, 2), never);
  assert.equal(served?.settled_at, t.recorded_at);
});

Deno.test("Listings keep their filters and limit, and a null limit removes an old one", () => {
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
  const read = (props: Record<string, unknown>) =>
    decodeListing(node(["Listing"], props).properties, never);
  assert.deepEqual(read(listingProps(l, 50, false)), l);
  const unlimited = listingProps({ ...l, limit: null }, 50, false);
  assert.equal(unlimited.limit, null);
  assert.equal(read(unlimited)?.limit, null);
});
