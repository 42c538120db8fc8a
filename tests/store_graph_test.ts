/**
 * The graph store against real graph servers: the store contract suite, the
 * graph model a Cypher reader sees, team sharing and privacy, the hooks'
 * outbox, and `rgraph migrate`.
 *
 * - Neo4j: `RGRAPH_TEST_NEO4J_URL` (set by `tests/neo4j/start.sh`, which CI
 *   runs). Unset, these tests fail loudly in CI (`CI=true`): a green run must
 *   have exercised a real server. Locally they are reported as ignored, so a
 *   developer without Java can still run the rest of the suite.
 * - Memgraph: `RGRAPH_TEST_MEMGRAPH_URL` (e.g. `bolt://127.0.0.1:7687` after
 *   `docker run -p 7687:7687 memgraph/memgraph`); ignored when unset.
 *
 * Each test starts from an empty database (everything is deleted first), so
 * these servers must be throwaway ones.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  assertUpgradedReferences,
  issue,
  OLD_REFERENCES,
  repository,
  storeContract,
  touch,
} from "./store_contract.ts";
import { listingAddress } from "../lib/address/key.ts";
import { connectGraph } from "../lib/store/graph/mod.ts";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import type { Sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import {
  bashPayload,
  deadUrl,
  freshGraphStore,
  graphStore,
  holdServer,
  ok,
  requireServerInCi,
  SERVERS,
  teammate,
  touchesOf,
  wipe,
  write,
} from "./graph_helpers.ts";
import { scaleContract } from "./store_scale_contract.ts";

requireServerInCi();

for (const server of SERVERS) {
  if (!server.url) {
    Deno.test({
      name: `graph store on ${server.name}: contract suite (no server URL given)`,
      ignore: true,
      fn() {},
    });
    continue;
  }
  // Each contract test holds the server from opening the store to closing it.
  let release: (() => void) | null = null;
  const fresh = [
    async () => {
      release = await holdServer(server.url);
      try {
        // As a Sweep opens it: the contract's Touches are alice's, and a Sweep leases its own user's.
        return await freshGraphStore(server.url, "alice");
      } catch (e) {
        release();
        throw e;
      }
    },
    () => {
      release?.();
      release = null;
      return Promise.resolve();
    },
  ] as const;
  storeContract(`graph (${server.name})`, ...fresh);
  // Fewer random scenarios than on a file: each opens a store on the server.
  scaleContract(`graph (${server.name})`, ...fresh, 8);
}

// --- Graph-only behaviour, end to end: real rgraph processes, the GitHub emulator, a real server ---

/** `Deno.test`, holding `server` for the test's whole run (other test files use it too). */
function held(server: { url: string }, def: Deno.TestDefinition): void {
  Deno.test({
    ...def,
    async fn(t) {
      const release = await holdServer(server.url);
      try {
        await def.fn(t);
      } finally {
        release();
      }
    },
  });
}

const { big, detailedPull } = FACTS;
const PR = `github:${big.owner}/${big.name}#${detailedPull.number}`;
const CLOSED = detailedPull.closes.map((n) => `github:${big.owner}/${big.name}#${n}`);
const REPO = `github:${big.owner}/${big.name}`;
const MODEL_LABELS = [
  "Session",
  "Touch",
  "Resource",
  "Repository",
  "Issue",
  "PullRequest",
  "Comment",
  "Listing",
  "Action",
  "Agent",
];
const MODEL_RELS = [
  "IN_SESSION",
  "TOUCHED",
  "HAS_ISSUE",
  "HAS_PULL_REQUEST",
  "HAS_COMMENT",
  "LISTS_FROM",
  "HAS_MEMBER",
  "CLOSES",
  "CAUSED_BY",
  "BY_AGENT",
];

for (const server of SERVERS) {
  const name = (title: string) => `graph store on ${server.name}: ${title}`;
  const ignore = !server.url;

  held(server, {
    name: name("a Sweep writes the family's graph model, and a teammate is served from it"),
    ignore,
    async fn() {
      await wipe(server.url);
      // Another component of the family recorded the tool call and the agent.
      await write(
        server.url,
        "CREATE (:Action {tool_use_id: 'toolu_pr_view'}), (:Agent {agent_id: 'agent-7'})",
      );
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      const bob = await teammate("bob", server.url, emu);
      const graph = await connectGraph({
        url: server.url,
        user: null,
        password: null,
        database: null,
      });
      try {
        const slug = `${big.owner}/${big.name}`;
        for (
          const [command, over] of [
            [`gh pr view ${detailedPull.number} -R ${slug}`, {
              tool_use_id: "toolu_pr_view",
              agent_id: "agent-7",
            }],
            [`gh issue view ${detailedPull.closes[0]} -R ${slug}`, {}],
            [`gh repo view ${slug}`, {}],
            [`gh issue list -R ${slug} --label "good first issue" --limit 5`, {}],
          ] as const
        ) {
          await ok(
            alice.rgraph(["hook", "claude-code"], { stdin: bashPayload(command, over) }),
            "hook",
          );
        }
        await ok(alice.rgraph(["sweep"]), "alice's sweep");

        const one = async (query: string) => (await graph.cypher(query))[0]?.n;
        // Session <- Touch -> Resource, with the Touch private to its user.
        assert.deepEqual(
          await graph.cypher(
            `MATCH (:Session {session_id: 'sess-team'})<-[:IN_SESSION]-(t:Touch)-[:TOUCHED]->(r:Resource:PullRequest)
             RETURN t.user_id AS user, r.address AS address`,
          ),
          [{ user: "alice", address: PR }],
        );
        // The soft joins reach the nodes that existed and never create any.
        assert.equal(
          await one(
            `MATCH (:Touch {tool_use_id: 'toolu_pr_view'})-[:CAUSED_BY]->(:Action {tool_use_id: 'toolu_pr_view'})
             RETURN count(*) AS n`,
          ),
          1,
        );
        assert.equal(
          await one(
            `MATCH (:Touch)-[:BY_AGENT]->(:Agent {agent_id: 'agent-7'}) RETURN count(*) AS n`,
          ),
          1,
        );
        assert.equal(await one(`MATCH (a:Action) RETURN count(a) AS n`), 1);
        assert.equal(await one(`MATCH (a:Agent) RETURN count(a) AS n`), 1);
        // Repository -> items -> comments; the pull request closes its issues.
        assert.equal(
          await one(
            `MATCH (:Resource:Repository {address: '${REPO}'})-[:HAS_PULL_REQUEST]->(p:Resource:PullRequest {address: '${PR}'})
             MATCH (p)-[:HAS_COMMENT]->(c:Comment) RETURN count(c) > 0 AS n`,
          ),
          true,
        );
        assert.deepEqual(
          (await graph.cypher(
            `MATCH (:PullRequest {address: '${PR}'})-[:CLOSES]->(i:Resource:Issue) RETURN i.address AS a ORDER BY a`,
          )).map((r) => r.a),
          (await graph.cypher(
            `MATCH (i:Resource:Issue) WHERE i.address IN $closed RETURN i.address AS a ORDER BY a`,
            { closed: CLOSED },
          )).map((r) => r.a),
        );
        assert.equal(
          await one(
            `MATCH (:Repository {address: '${REPO}'})-[:HAS_ISSUE]->(:Issue {address: '${
              CLOSED[0]
            }'}) RETURN count(*) AS n`,
          ),
          1,
        );
        // The Listing hangs under its repository with ordered members.
        assert.deepEqual(
          await graph.cypher(
            `MATCH (l:Listing)-[:LISTS_FROM]->(:Repository {address: '${REPO}'})
             MATCH (l)-[m:HAS_MEMBER]->(i:Issue)
             RETURN count(DISTINCT l) AS listings, min(m.position) AS first, count(m) AS members`,
          ),
          [{ listings: 1, first: 0, members: 5 }],
        );
        // Exactly the model's labels and relationships (plus rgraph's bookkeeping), never :User or HAD_SESSION.
        const labels = (await graph.cypher(`MATCH (n) UNWIND labels(n) AS l RETURN DISTINCT l`))
          .map((r) => r.l as string);
        assert.deepEqual(
          labels.filter((l) =>
            !["Alias", "PendingRef", "RgraphLock", "RgraphTouchCount"].includes(l)
          ).sort(),
          [...MODEL_LABELS].sort(),
        );
        const rels = (await graph.cypher(`MATCH ()-[r]->() RETURN DISTINCT type(r) AS t`))
          .map((r) => r.t as string);
        for (const rel of MODEL_RELS) assert.ok(rels.includes(rel), `no ${rel} relationship`);
        assert.ok(!rels.includes("HAD_SESSION") && !labels.includes("User"));

        // Bob's agent is served what Alice's Sweep stored...
        const hit = await ok(bob.rgraph(["lookup", PR]), "bob's lookup");
        assert.match(hit.stdout, /\bhit\b/);
        // ...but Bob sees none of Alice's Touches, only his own Cache Read.
        const bobs = await touchesOf(bob);
        assert.deepEqual(bobs.map((t) => [t.status, t.outcome, t.address]), [[
          "served",
          "hit",
          PR,
        ]]);
        assert.equal((await touchesOf(alice)).length, 4);

        // Bob's Sweep never leases (so never sees) Alice's pending Touches.
        await ok(
          alice.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue view 3 -R ${slug}`),
          }),
          "hook",
        );
        await ok(alice.rgraph(["touches"]), "alice's touches (drains her outbox)");
        const swept = JSON.parse((await ok(bob.rgraph(["sweep", "--json"]), "bob's sweep")).stdout);
        assert.equal(swept.touches, 0);
        const pending = (await touchesOf(alice)).filter((t) => t.status === "pending");
        assert.deepEqual(pending.map((t) => t.address), [`github:${slug}#3`]);

        // Without an identity, reading Touches from the shared store fails closed.
        const nobody = await teammate(null, server.url, emu);
        try {
          const refused = await nobody.rgraph(["touches", "--json"]);
          assert.equal(refused.code, 1);
          assert.match(refused.stderr, /no identity configured/);
          assert.equal(refused.stdout, "");
        } finally {
          await nobody.cleanup();
        }

        // Bob's hook, offline, nudges him towards what Alice stored: his local index has it.
        await bob.setUrl(deadUrl());
        const nudged = await bob.rgraph(["hook", "claude-code"], {
          stdin: bashPayload(`gh pr view ${detailedPull.number} -R ${slug}`),
        });
        assert.equal(nudged.code, 0);
        assert.match(nudged.stdout, /is in memory/);
      } finally {
        await graph.close();
        await alice.cleanup();
        await bob.cleanup();
        await emu.close();
      }
    },
  });

  held(server, {
    name: name("with the server down the hook still records, commands say so, and nothing is lost"),
    ignore,
    async fn() {
      await wipe(server.url);
      const emu = await startEmulator();
      const carol = await teammate("carol", deadUrl(), emu);
      const slug = `${big.owner}/${big.name}`;
      try {
        const hook = await carol.rgraph(["hook", "claude-code"], {
          stdin: bashPayload(`gh issue view 3 -R ${slug}`),
        });
        assert.equal(hook.code, 0);
        assert.equal(hook.stderr, "");
        for (const command of [["sweep"], ["touches"], ["lookup", `github:${slug}#3`]]) {
          const r = await carol.rgraph(command);
          assert.equal(r.code, 1, `rgraph ${command[0]} should fail`);
          assert.match(
            r.stderr,
            /^rgraph \S+: the shared store is unreachable \(bolt:\/\/127\.0\.0\.1:\d+: /,
          );
          assert.equal(r.stderr.trim().split("\n").length, 1, "one line");
        }
        // The server is back: the Touch was waiting in the outbox.
        await carol.setUrl(server.url);
        const waiting = await touchesOf(carol);
        assert.deepEqual(waiting.map((t) => [t.address, t.status]), [[
          `github:${slug}#3`,
          "pending",
        ]]);
        await ok(carol.rgraph(["sweep"]), "sweep");
        assert.deepEqual((await touchesOf(carol)).map((t) => t.status), ["resolved"]);
        // Down again: the hook's Nudge still answers from the local index.
        await carol.setUrl(deadUrl());
        const nudged = await carol.rgraph(["hook", "claude-code"], {
          stdin: bashPayload(`gh issue view 3 -R ${slug}`),
        });
        assert.equal(nudged.code, 0);
        assert.match(nudged.stdout, /is in memory/);
      } finally {
        await carol.cleanup();
        await emu.close();
      }
    },
  });

  held(server, {
    name: name("rgraph migrate copies the embedded store once; a second run changes nothing"),
    ignore,
    async fn() {
      await wipe(server.url);
      const emu = await startEmulator();
      const dave = await teammate("dave", null, emu);
      const slug = `${big.owner}/${big.name}`;
      const graph = await connectGraph({
        url: server.url,
        user: null,
        password: null,
        database: null,
      });
      // Every node and relationship with its properties, in a stable order.
      const snapshot = async () =>
        (await graph.cypher(
          `MATCH (n) OPTIONAL MATCH (n)-[r]->(m)
           RETURN labels(n) AS labels, properties(n) AS props, type(r) AS rel,
                  properties(r) AS rprops, m.node_id AS to_node, m.key AS to_key`,
        )).map((row) => JSON.stringify(row)).sort();
      try {
        for (
          const command of [
            `gh issue view 3 -R ${slug}`,
            `gh pr view ${detailedPull.number} -R ${slug}`,
          ]
        ) {
          await ok(dave.rgraph(["hook", "claude-code"], { stdin: bashPayload(command) }), "hook");
        }
        await ok(dave.rgraph(["sweep"]), "embedded sweep");
        const mine = await touchesOf(dave);
        const first = JSON.parse(
          (await ok(dave.rgraph(["migrate", "--to", server.url, "--json"]), "migrate")).stdout,
        );
        assert.equal(first.touches, 2);
        assert.equal(first.new_touches, 2);
        assert.ok(first.resources >= 2);
        const before = await snapshot();
        const again = JSON.parse(
          (await ok(dave.rgraph(["migrate", "--to", server.url, "--json"]), "migrate again"))
            .stdout,
        );
        assert.deepEqual({ ...again, new_touches: undefined }, {
          ...first,
          new_touches: undefined,
        });
        assert.equal(again.new_touches, 0);
        assert.deepEqual(await snapshot(), before);
        // Joined: the same Touches and Resources, now from the graph store.
        await dave.setUrl(server.url);
        const shared = await touchesOf(dave);
        assert.deepEqual(
          shared.map((t) => [t.address, t.status, t.tool_use_id]),
          mine.map((t) => [t.address, t.status, t.tool_use_id]),
        );
        assert.match((await ok(dave.rgraph(["lookup", PR]), "lookup")).stdout, /\bhit\b/);
        const bad = await dave.rgraph(["migrate", "--to", "http://example.org"]);
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /Bolt URL/);
      } finally {
        await graph.close();
        await dave.cleanup();
        await emu.close();
      }
    },
  });

  held(server, {
    name: name("a Sweep run by one user leases only that user's pending Touches"),
    ignore,
    async fn() {
      const alices = await freshGraphStore(server.url, "alice");
      const bobs = await connectGraph(
        { url: server.url, user: null, password: null, database: null },
        { leaseUser: "bob" },
      );
      try {
        const at = "2026-03-01T10:00:00.000Z";
        const base = {
          session_id: "s",
          provenance: "FETCHED" as const,
          kind: "item" as const,
          limit: null,
          tool_name: "Bash",
          tool_use_id: null,
          agent_id: null,
          harness: "claude-code",
          recorded_at: at,
          status: "pending" as const,
        };
        await alices.recordTouches([
          { ...base, user_id: "alice", address: "github:acme/rocket#1", dedup_key: "a1" },
          { ...base, user_id: "bob", address: "github:acme/rocket#2", dedup_key: "b1" },
        ]);
        assert.deepEqual((await bobs.leasePending("bob-sweep", 10, 60_000)).map((t) => t.user_id), [
          "bob",
        ]);
        assert.deepEqual(
          (await alices.leasePending("alice-sweep", 10, 60_000)).map((t) => t.user_id),
          [
            "alice",
          ],
        );
      } finally {
        await alices.close();
        await bobs.close();
      }
    },
  });

  held(server, {
    name: name(
      "a Sweep of only a Listing stores its repository: every member hangs under it, the Listing lists from it",
    ),
    ignore,
    async fn() {
      const graph = await freshGraphStore(server.url);
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      try {
        const py = FACTS.pythonClient;
        await ok(
          alice.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue list -R ${py.owner}/${py.name} --state all --limit 50`),
          }),
          "hook",
        );
        await ok(alice.rgraph(["sweep"]), "alice's sweep");
        const repo = `github:${py.owner}/${py.name}`;
        const [row] = await graph.cypher(
          `MATCH (r:Resource:Repository {address: $repo})
           OPTIONAL MATCH (l:Listing)-[:LISTS_FROM]->(r)
           OPTIONAL MATCH (l)-[:HAS_MEMBER]->(m:Resource)
           OPTIONAL MATCH (r)-[:HAS_ISSUE|HAS_PULL_REQUEST]->(m)
           WITH r, count(DISTINCT l) AS listings, count(DISTINCT m) AS members,
             sum(CASE WHEN EXISTS { (r)-[:HAS_ISSUE|HAS_PULL_REQUEST]->(m) } THEN 1 ELSE 0 END)
               AS hung
           RETURN r.readme_path AS readme, listings, members, hung`,
          { repo },
        );
        assert.deepEqual(row, {
          readme: py.readme,
          listings: 1,
          members: py.openIssues + py.closedIssues,
          hung: py.openIssues + py.closedIssues,
        });
        // No item in the graph is left without its repository.
        const [orphans] = await graph.cypher(
          `MATCH (i:Resource) WHERE (i:Issue OR i:PullRequest)
           AND NOT EXISTS { (:Repository)-[:HAS_ISSUE|HAS_PULL_REQUEST]->(i) }
           RETURN count(i) AS n`,
        );
        assert.equal(orphans.n, 0);
      } finally {
        await graph.close();
        await alice.cleanup();
        await emu.close();
      }
    },
  });
}

for (const server of SERVERS) {
  held(server, {
    name:
      `graph store on ${server.name}: processes starting at once set the schema up once, and one user's outbox drained twice at once stores each Touch and Session once`,
    ignore: !server.url,
    async fn() {
      const target = { url: server.url, user: null, password: null, database: null };
      for (let round = 0; round < 3; round++) {
        // An empty server (no schema record): every process finds the setup to do.
        await wipe(server.url);
        const stores = await Promise.all([0, 1, 2].map(() => connectGraph(target)));
        try {
          const [record] = await stores[0].cypher(
            `MATCH (s:RgraphLock {name: 'schema'}) RETURN count(s) AS n, size(s.tags) AS tags`,
          );
          assert.deepEqual(record, { n: 1, tags: 1 }, `round ${round}: one setup recorded`);
          const touches = Array.from(
            { length: 40 },
            (_, i) => touch("alice", `github:acme/rocket#${i + 1}`, { session_id: `s-${i % 4}` }),
          );
          // Two processes of one user drain the same outbox at the same moment.
          const added = await Promise.all(stores.slice(0, 2).map((s) => s.importTouches(touches)));
          assert.equal(added[0] + added[1], touches.length, `round ${round}: each Touch new once`);
          const [counts] = await stores[0].cypher(
            `MATCH (t:Touch) WITH count(t) AS touches
             MATCH (s:Session) RETURN touches, count(s) AS sessions,
               count(DISTINCT s.session_id) AS ids`,
          );
          assert.deepEqual(counts, { touches: 40, sessions: 4, ids: 4 });
        } finally {
          await Promise.all(stores.map((s) => s.close()));
        }
      }
    },
  });
}

for (const server of SERVERS) {
  held(server, {
    name:
      `graph store on ${server.name}: concurrent writers still draw the edges between their nodes`,
    ignore: !server.url,
    async fn() {
      for (let round = 0; round < 4; round++) {
        const store = await freshGraphStore(server.url);
        const other = await connectGraph({
          url: server.url,
          user: null,
          password: null,
          database: null,
        });
        try {
          const items = [
            issue(1),
            issue(2, { referenced_by: ["https://github.com/acme/rocket/issues/3"] }),
          ];
          await store.putResources(items.map((resource) => ({ resource })));
          const key = listingAddress("acme", "rocket", "issues", {}, null).key;
          const listing = {
            key,
            owner: "acme",
            repo: "rocket",
            listing: "issues" as const,
            filters: { state: "open" as const, labels: [] },
            limit: null,
            total_count: 2,
            member_count: 2,
            fully_expanded: true,
            fetched_at: "2026-03-02T09:15:00.000Z",
          };
          // A repository, its Listing and a referenced issue, each from its own connection at once.
          await Promise.all([
            store.putResources([{ resource: repository() }]),
            other.putListing(listing, items.map((i) => i.address)),
            other.putResources([{ resource: issue(3) }]),
          ]);
          const [linked] = await store.cypher(
            `MATCH (l:Listing {key: $key})-[:LISTS_FROM]->(:Repository) RETURN count(l) AS n`,
            { key },
          );
          assert.equal(linked.n, 1, `round ${round}: the Listing is not under its repository`);
          const [contained] = await store.cypher(
            `MATCH (:Repository)-[:HAS_ISSUE]->(i:Issue) RETURN count(i) AS n`,
          );
          assert.equal(contained.n, 3, `round ${round}: items missing under the repository`);
          assert.deepEqual(await store.edges("github:acme/rocket#3"), [
            { kind: "REFERENCES", from: "github:acme/rocket#3", to: "github:acme/rocket#2" },
          ]);
        } finally {
          await store.close();
          await other.close();
        }
      }
    },
  });
}

for (const server of SERVERS) {
  held(server, {
    name:
      `graph store on ${server.name}: a graph written before references were turned round reads REFERENCES from mentioner to mentioned`,
    ignore: !server.url,
    async fn() {
      const { mentioned, mentioner } = OLD_REFERENCES;
      const before = await freshGraphStore(server.url);
      try {
        await before.putResources([{ resource: mentioned }, { resource: mentioner }]);
        // Back to the earlier shape: edges turned round and undeclared, waiting
        // references without a direction, mentioners under `references`, and
        // the applied schema forgotten as an older rgraph would have left it.
        for (
          const q of [
            `MATCH (a)-[e:REFERENCES]->(b) CREATE (b)-[:REFERENCES]->(a) DELETE e`,
            `MATCH ()-[w:WAITS_FOR]->() REMOVE w.direction`,
            `MATCH (n:Resource) SET n.references = n.referenced_by REMOVE n.referenced_by`,
            `MATCH (s:RgraphLock {name: 'schema'}) DETACH DELETE s`,
          ]
        ) await write(server.url, q);
      } finally {
        await before.close();
      }
      const store = await connectGraph({
        url: server.url,
        user: null,
        password: null,
        database: null,
      });
      try {
        await assertUpgradedReferences(store);
      } finally {
        await store.close();
      }
    },
  });
}

for (const server of SERVERS) {
  held(server, {
    name:
      `graph store on ${server.name}: a graph written before Touches were counted as they came counts the ones it holds`,
    ignore: !server.url,
    async fn() {
      const before = await freshGraphStore(server.url);
      try {
        await before.putResources([{ resource: issue(1) }]);
        await before.recordTouches([
          touch("alice", "github:acme/rocket#1"),
          touch("alice", "github:acme/rocket#2", { recorded_at: "2026-01-01T00:00:00.000Z" }),
          touch("alice", "github:acme/rocket#1", {
            status: "served",
            outcome: "hit",
            target: "github:acme/rocket#1",
          }),
          touch("bob", "github:acme/rocket#1", { status: "served", outcome: "miss" }),
        ]);
        // Back to what an older rgraph left: no counts, no reckoning on the Touches, and the
        // applied schema forgotten.
        for (
          const q of [
            `MATCH (c:RgraphTouchCount) DELETE c`,
            `MATCH (t:Touch) REMOVE t.avoided`,
            `MATCH (s:RgraphLock {name: 'schema'}) SET s.tags = [] REMOVE s.model`,
          ]
        ) await write(server.url, q);
      } finally {
        await before.close();
      }
      const store = await connectGraph({
        url: server.url,
        user: null,
        password: null,
        database: null,
      });
      try {
        assert.deepEqual(await store.userStats("alice"), {
          cache_reads: { hit: 1, subsumed: 0, miss: 0 },
          // The item and its one page of comments.
          requests_avoided: 2,
          pending: 2,
          oldest_pending: "2026-01-01T00:00:00.000Z",
          resolved: 0,
          unresolved: {},
        });
        assert.deepEqual((await store.userStats("bob")).cache_reads, {
          hit: 0,
          subsumed: 0,
          miss: 1,
        });
      } finally {
        await store.close();
      }
    },
  });
}

// --- rgraph forget with a graph store: the outbox (sent or not) and the server ---

for (const server of SERVERS) {
  const name = (title: string) => `graph store on ${server.name}: ${title}`;
  const ignore = !server.url;

  held(server, {
    name: name(
      "forget takes a user's Touches from the outbox (unsent and sent) and the server, never others' or Resources",
    ),
    ignore,
    async fn() {
      await wipe(server.url);
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      // Alice's other machine: its own outbox, the same shared store.
      const laptop = await teammate("alice", server.url, emu);
      const bob = await teammate("bob", server.url, emu);
      const graph = await connectGraph({
        url: server.url,
        user: null,
        password: null,
        database: null,
      });
      const slug = `${big.owner}/${big.name}`;
      const key = (n: number) => `github:${slug}#${n}`;
      const hook = async (sb: Sandbox, session: string, command: string) =>
        await ok(
          sb.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(command, { session_id: session }),
          }),
          "hook",
        );
      const forget = async (sb: Sandbox, args: string[]) =>
        JSON.parse((await ok(sb.rgraph(["forget", "--json", ...args]), "forget")).stdout);
      const onServer = async (user: string) =>
        (await graph.cypher(
          `MATCH (t:Touch) WHERE t.user_id = $user RETURN t.session_id AS s, t.address AS a
           ORDER BY s, a`,
          { user },
        )).map((r) => `${r.s} ${r.a}`);
      const outbox = async (sb: Sandbox) => {
        const local = openEmbeddedStore(sb.dbPath);
        try {
          return (await local.listTouches("alice")).map((t) => `${t.session_id} ${t.address}`)
            .sort();
        } finally {
          await local.close();
        }
      };
      const resources = async () =>
        (await graph.cypher(`MATCH (n:Resource) RETURN count(n) AS n`))[0].n as number;
      try {
        await hook(alice, "alice-s1", `gh issue view 3 -R ${slug}`);
        await hook(alice, "alice-s1", `gh pr view ${detailedPull.number} -R ${slug}`);
        await hook(bob, "alice-s1", `gh issue view 3 -R ${slug}`);
        await hook(laptop, "laptop-s2", `gh issue view 3 -R ${slug}`);
        for (const sb of [alice, bob, laptop]) await ok(sb.rgraph(["sweep"]), "sweep (sends)");
        // Recorded after the last sync: waiting in the outbox, never sent.
        await hook(alice, "alice-s1", `gh issue view 7 -R ${slug}`);
        assert.deepEqual(await onServer("alice"), [
          `alice-s1 ${key(3)}`,
          `alice-s1 ${key(detailedPull.number)}`,
          `laptop-s2 ${key(3)}`,
        ]);
        assert.equal((await outbox(alice)).length, 3);
        const stored = await resources();
        assert.equal(stored, 3, "the issue, the pull request and their repository");

        const preview = await forget(alice, ["--session", "alice-s1", "--dry-run"]);
        assert.deepEqual(preview.counts, {
          touches: 3,
          local: 3,
          shared: 2,
          memory_reads: 0,
          log_lines: 0,
        });
        assert.equal((await onServer("alice")).length, 3, "a dry run deletes nothing");
        assert.equal((await outbox(alice)).length, 3);

        const s1 = await forget(alice, ["--session", "alice-s1"]);
        assert.deepEqual(s1.counts, {
          touches: 3,
          local: 3,
          shared: 2,
          memory_reads: 0,
          log_lines: 0,
        });
        assert.deepEqual(await outbox(alice), []);
        assert.deepEqual(await onServer("alice"), [`laptop-s2 ${key(3)}`]);
        // Bob's Touch in the same session stays, and so does the Session it is in.
        assert.deepEqual(await onServer("bob"), [`alice-s1 ${key(3)}`]);
        assert.equal(
          (await graph.cypher(`MATCH (s:Session {session_id: 'alice-s1'}) RETURN count(s) AS n`))[0]
            .n,
          1,
        );
        // The unsent Touch never reached the server, then or since.
        assert.ok(!(await onServer("alice")).some((t) => t.endsWith(key(7))));
        assert.deepEqual((await touchesOf(alice)).map((t) => t.address), [key(3)]);
        assert.ok(!(await onServer("alice")).some((t) => t.endsWith(key(7))));

        // Only on the server (recorded on the laptop): by address, in any form.
        const byAddress = await forget(alice, ["--address", `https://github.com/${slug}/issues/3`]);
        assert.deepEqual(byAddress.counts, {
          touches: 1,
          local: 0,
          shared: 1,
          memory_reads: 0,
          log_lines: 0,
        });
        assert.deepEqual(await onServer("alice"), []);
        assert.equal(
          (await graph.cypher(`MATCH (s:Session {session_id: 'laptop-s2'}) RETURN count(s) AS n`))[
            0
          ]
            .n,
          0,
          "a Session nothing joins any more goes with its last Touch",
        );
        assert.deepEqual(await touchesOf(laptop), []);
        assert.deepEqual(await onServer("bob"), [`alice-s1 ${key(3)}`]);

        // --all, then again: nothing.
        await hook(alice, "alice-s3", `gh issue view 42 -R ${slug}`);
        await ok(alice.rgraph(["lookup", key(3)]), "a Cache Read, straight to the server");
        assert.equal((await forget(alice, ["--all"])).counts.touches, 2);
        assert.deepEqual(await onServer("alice"), []);
        assert.deepEqual(await outbox(alice), []);
        const stats = JSON.parse((await ok(alice.rgraph(["stats", "--json"]), "stats")).stdout);
        assert.deepEqual(stats.touches, { pending: 0, resolved: 0, unresolved: {} });
        assert.equal(stats.cache_reads.total, 0);
        assert.equal((await forget(alice, ["--all"])).counts.touches, 0);
        assert.deepEqual(await onServer("bob"), [`alice-s1 ${key(3)}`]);
        assert.equal(await resources(), stored, "every Resource stays");
        assert.match((await ok(bob.rgraph(["lookup", key(3)]), "lookup")).stdout, /\bhit\b/);
      } finally {
        await graph.close();
        await alice.cleanup();
        await laptop.cleanup();
        await bob.cleanup();
        await emu.close();
      }
    },
  });

  held(server, {
    name: name("forget with the server down clears the outbox and says to run it again"),
    ignore,
    async fn() {
      await wipe(server.url);
      const emu = await startEmulator();
      const erin = await teammate("erin", server.url, emu);
      const slug = `${big.owner}/${big.name}`;
      try {
        await ok(
          erin.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue view 3 -R ${slug}`),
          }),
          "hook",
        );
        await ok(erin.rgraph(["touches"]), "touches (sends it)");
        await ok(
          erin.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue view 7 -R ${slug}`),
          }),
          "hook",
        );
        await erin.setUrl(deadUrl());
        const dry = await erin.rgraph(["forget", "--all", "--dry-run"]);
        assert.equal(dry.code, 1);
        assert.match(dry.stderr, /^rgraph forget: the shared store is unreachable \(/);
        const r = await erin.rgraph(["forget", "--all"]);
        assert.equal(r.code, 1);
        assert.equal(r.stderr.trim().split("\n").length, 1);
        assert.match(
          r.stderr,
          /^rgraph forget: 2 Touches were forgotten from the local outbox, but the shared store is unreachable \(.*\): run the same forget again once it is back/,
        );
        await erin.setUrl(server.url);
        assert.deepEqual(
          (await touchesOf(erin)).map((t) => t.address),
          [`github:${slug}#3`],
          "the sent one waits on the server; the unsent one is gone for good",
        );
        const again = JSON.parse(
          (await ok(erin.rgraph(["forget", "--all", "--json"]), "forget again")).stdout,
        );
        assert.equal(again.counts.shared, 1);
        assert.deepEqual(await touchesOf(erin), []);
      } finally {
        await erin.cleanup();
        await emu.close();
      }
    },
  });

  held(server, {
    name: name("the change mark moves when another writer records a Touch or stores a Resource"),
    ignore,
    async fn() {
      const viewer = await freshGraphStore(server.url);
      const writer = await graphStore(server.url);
      try {
        const first = await viewer.changeMark("alice");
        assert.equal(await viewer.changeMark("alice"), first);
        await writer.recordTouches([touch("alice", "github:acme/rocket#1")]);
        const touched = await viewer.changeMark("alice");
        assert.notEqual(touched, first);
        await writer.putResources([{ resource: issue(1) }]);
        const stored = await viewer.changeMark("alice");
        assert.notEqual(stored, touched);
        assert.equal(await viewer.changeMark("alice"), stored);
      } finally {
        await writer.close();
        await viewer.close();
      }
    },
  });
}
