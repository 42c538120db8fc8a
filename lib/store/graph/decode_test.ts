import assert from "node:assert/strict";
import {
  decodeHead,
  decodeListing,
  decodeMember,
  decodeResource,
  decodeTouch,
  type GraphNode,
  isoTime,
} from "./decode.ts";

/** Collects what the decoder skipped. */
function skips(): { skip: (what: string, why: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { skip: (what, why) => lines.push(`${what}: ${why}`), lines };
}

// Shaped as the upstream package (resources-graph 0.3.0) writes them: no kind, owner, repo,
// null_keys; GitHub's upper-case state; its own names for a pull request's files and closes.
const UPSTREAM_PULL: GraphNode = {
  labels: ["Resource", "PullRequest"],
  properties: {
    node_id: "PR_kwDOKbknAAzgAA9ODA",
    address: "github:lumendb/lumen#610",
    number: 610,
    url: "https://github.com/lumendb/lumen/pull/610",
    title: "Planner: cost model v2",
    body: "Planner.",
    state: "MERGED",
    author: "octo-dev",
    labels: ["performance"],
    assignees: [],
    created_at: "2025-05-14T13:49:23Z",
    updated_at: "2025-09-02T13:49:23Z",
    closed_at: "2025-05-14T21:58:04Z",
    comment_count: 1,
    fetched_at: "2026-11-01T12:00:00+00:00",
    referenced_by_ids: ["I_x"],
    referenced_by_urls: ["https://github.com/lumendb/lumen/issues/118"],
    merged: true,
    base_ref: "main",
    changed_files: ["src/planner/cost.rs"],
    closes_ids: ["I_x"],
    closes_urls: ["https://github.com/lumendb/lumen/issues/118"],
  },
};
const comment = (id: string, props: Record<string, unknown>): GraphNode => ({
  labels: ["Comment"],
  properties: {
    node_id: id,
    url: `https://github.com/lumendb/lumen/issues/610#${id}`,
    body: `body of ${id}`,
    author: "reviewer-a",
    created_at: "2025-05-15T09:00:00Z",
    updated_at: "2025-05-15T09:00:00Z",
    review: false,
    ...props,
  },
});

Deno.test("another writer's pull request is read as rgraph's: kind from labels, its own names mapped", () => {
  const { skip, lines } = skips();
  const r = decodeResource(UPSTREAM_PULL, [
    comment("RC_2", {
      review: true,
      path: "src/planner/cost.rs",
      created_at: "2025-05-15T10:00:00Z",
    }),
    comment("IC_1", {}),
    comment("RC_1", { review: true, path: "src/planner/cost.rs" }),
  ], skip);
  assert.deepEqual(lines, []);
  assert.ok(r?.kind === "pull_request");
  assert.equal(r.owner, "lumendb");
  assert.equal(r.repo, "lumen");
  assert.equal(r.state, "merged");
  assert.deepEqual(r.files, ["src/planner/cost.rs"]);
  assert.deepEqual(r.closes, ["https://github.com/lumendb/lumen/issues/118"]);
  assert.deepEqual(r.referenced_by, ["https://github.com/lumendb/lumen/issues/118"]);
  // Another writer's time form is rewritten in rgraph's; GitHub's own form is kept as it came.
  assert.equal(r.fetched_at, "2026-11-01T12:00:00.000Z");
  assert.equal(r.updated_at, "2025-09-02T13:49:23Z");
  // Review comments kept, in time order (they carry no position); only rgraph's fields.
  assert.deepEqual(r.review_comments.map((c) => c.node_id), ["RC_1", "RC_2"]);
  assert.deepEqual(r.comments.map((c) => c.node_id), ["IC_1"]);
  assert.deepEqual(Object.keys(r.comments[0]).sort(), [
    "author",
    "body",
    "created_at",
    "node_id",
    "updated_at",
  ]);
  assert.equal("changed_files" in r || "referenced_by_ids" in r || "etag" in r, false);
});

Deno.test("a node that cannot be read is absent, with why; a comment that cannot is left out", () => {
  const variants: [string, (p: Record<string, unknown>) => void, string | null][] = [
    ["no kind property (labels say it)", (p) => delete p.kind, null],
    ["number as text", (p) => (p.number = "610"), null],
    ["labels as text", (p) => (p.labels = "bug"), "labels is not a list of text"],
    ["labels as numbers", (p) => (p.labels = [1, 2]), "labels is not a list of text"],
    ["no fetched_at", (p) => delete p.fetched_at, "no fetched_at"],
    ["no updated_at", (p) => delete p.updated_at, "no updated_at"],
    [
      "a date-time value",
      (p) => (p.fetched_at = {
        year: 2026,
        month: 3,
        day: 1,
        toString: () => "2026-03-01T10:00:00Z",
      }),
      null,
    ],
    ["no title", (p) => delete p.title, "no title"],
    ["no body", (p) => delete p.body, "no body"],
    ["no address (another writer released it)", (p) => delete p.address, "no address"],
    [
      "an address that is no item key",
      (p) => (p.address = "github:lumendb/lumen"),
      "address github:lumendb/lumen is not a item key",
    ],
    ["comment_count as text", (p) => (p.comment_count = "3"), null],
    [
      "comment_count as a list",
      (p) => (p.comment_count = [3]),
      "comment_count is not a whole number",
    ],
    ["a state it cannot have", (p) => (p.state = "DRAFT"), "state is draft"],
    ["merged as text", (p) => (p.merged = "true"), null],
  ];
  for (const [name, change, why] of variants) {
    const properties = { ...UPSTREAM_PULL.properties };
    change(properties);
    const { skip, lines } = skips();
    const r = decodeResource({ ...UPSTREAM_PULL, properties }, [], skip);
    if (why === null) {
      assert.ok(r !== null, `${name}: read`);
      assert.deepEqual(lines, [], name);
    } else {
      assert.equal(r, null, `${name}: absent`);
      assert.equal(lines.length, 1, name);
      assert.match(lines[0], new RegExp(`^Resource .*: ${why}$`), name);
    }
  }
  const { skip, lines } = skips();
  const r = decodeResource(
    UPSTREAM_PULL,
    [comment("IC_1", { body: null }), comment("IC_2", {})],
    skip,
  );
  assert.deepEqual(r?.kind === "pull_request" && r.comments.map((c) => c.node_id), ["IC_2"]);
  assert.deepEqual(lines, ["Comment IC_1 of github:lumendb/lumen#610: no body"]);
});

Deno.test("labels decide the kind: none, or two, make the node unreadable", () => {
  const { skip, lines } = skips();
  assert.equal(decodeResource({ ...UPSTREAM_PULL, labels: ["Resource"] }, [], skip), null);
  assert.equal(
    decodeResource({ ...UPSTREAM_PULL, labels: ["Resource", "Issue", "PullRequest"] }, [], skip),
    null,
  );
  assert.deepEqual(lines.map((l) => l.replace(/^.*: /, "")), [
    "labels name no kind",
    "labels name 2 kinds",
  ]);
  // A kind property that disagrees with the labels is not read: the labels are the model.
  const issue = decodeResource(
    {
      labels: ["Resource", "Issue"],
      properties: { ...UPSTREAM_PULL.properties, kind: "discussion", state: "OPEN" },
    },
    [],
    skip,
  );
  assert.equal(issue?.kind, "issue");
  assert.equal(issue?.state, "open");
});

Deno.test("another writer's repository: url derived when missing, stars default, no readme path", () => {
  const head = decodeHead({
    labels: ["Resource", "Repository"],
    properties: {
      node_id: "R_1",
      address: "github:acme/anvil",
      name_with_owner: "acme/anvil",
      fetched_at: "2026-11-01T12:00:00+00:00",
      updated_at: "2026-09-01T10:00:00Z",
    },
  }, () => assert.fail("skipped"));
  assert.deepEqual(head, {
    node_id: "R_1",
    kind: "repository",
    address: "github:acme/anvil",
    title: null,
    fetched_at: "2026-11-01T12:00:00.000Z",
    updated_at: "2026-09-01T10:00:00Z",
    etag: null,
  });
  const { skip, lines } = skips();
  assert.equal(
    decodeMember(0, {
      labels: ["Resource", "Repository"],
      properties: { address: "github:acme/anvil" },
    }, skip),
    null,
  );
  assert.equal(lines.length, 1);
});

Deno.test("another writer's Listing is read from its key; a key rgraph does not write is skipped", () => {
  const upstream = {
    key: "github:lumendb/lumen/issues?state=open",
    scope: "github:lumendb/lumen/issues",
    item_kind: "issues",
    limit: 5,
    total_count: 720,
    member_count: 5,
    fully_expanded: false,
    fetched_at: "2026-11-01T12:00:00+00:00",
  };
  const never = () => assert.fail("skipped");
  assert.deepEqual(decodeListing(upstream, never), {
    key: upstream.key,
    owner: "lumendb",
    repo: "lumen",
    listing: "issues",
    filters: { state: "open", labels: [] },
    limit: 5,
    total_count: 720,
    member_count: 5,
    fully_expanded: false,
    fetched_at: "2026-11-01T12:00:00.000Z",
  });
  // rgraph's filters JSON, mistyped, is not what is read.
  assert.equal(decodeListing({ ...upstream, filters: "state=open" }, never)?.filters.state, "open");
  assert.equal(decodeListing({ ...upstream, fully_expanded: "true" }, never)?.fully_expanded, true);
  const { skip, lines } = skips();
  assert.equal(
    decodeListing({ ...upstream, key: "github:lumendb/lumen/issues?labels=bug&state=open" }, skip),
    null,
  );
  assert.equal(decodeListing({ ...upstream, member_count: undefined }, skip), null);
  assert.equal(decodeListing({ ...upstream, fully_expanded: "yes" }, skip), null);
  assert.deepEqual(lines.map((l) => l.replace(/^.*: /, "")), [
    "key is no rgraph Listing key",
    "no member_count",
    "fully_expanded is not true or false",
  ]);
});

Deno.test("a Touch missing what a Touch needs is skipped; its other fields may be absent", () => {
  const touch = {
    id: "t_1",
    user_id: "dave",
    provenance: "FETCHED",
    address: "github:acme/rocket#1",
    kind: "item",
    recorded_at: "2026-03-01T10:00:00.000Z",
    dedup_key: "k",
    status: "pending",
    seq: "x",
  };
  const never = () => assert.fail("skipped");
  assert.equal(decodeTouch(touch, never)?.failures, 0);
  const { skip, lines } = skips();
  assert.equal(decodeTouch({ ...touch, recorded_at: undefined }, skip), null);
  assert.equal(decodeTouch({ ...touch, kind: "repo" }, skip), null);
  assert.deepEqual(lines, ["Touch t_1: no recorded_at", "Touch t_1: kind is repo"]);
});

Deno.test("isoTime: GitHub's form kept, other forms rewritten, anything else refused", () => {
  assert.equal(isoTime("2023-03-06T16:01:19Z"), "2023-03-06T16:01:19Z");
  assert.equal(isoTime("2026-11-01T12:00:00+00:00"), "2026-11-01T12:00:00.000Z");
  assert.equal(isoTime("2026-11-01T13:00:00+01:00"), "2026-11-01T12:00:00.000Z");
  assert.equal(isoTime("2026-11-01T12:00:00"), "2026-11-01T12:00:00.000Z");
  assert.equal(isoTime("yesterday"), null);
  assert.equal(isoTime(1700000000), null);
});
