/**
 * rgraph on a graph server another writer of the Context Graph family shares:
 * the upstream Python package (PyPI `resources-graph` 0.3.0, installed by
 * `tests/interop/upstream_seed.sh` and run by it against the test server)
 * writes its issues, pull requests, repositories, Listings and Touches; then
 * rgraph's commands run beside them. Plus hand-made variants of nodes another
 * writer could leave (missing and differently typed properties).
 *
 * What is checked is what a user and the other writer see: rgraph's commands
 * (exit codes, `lookup`, `touches`, `stats`, `doctor`, the hook's Nudge, the
 * MCP tool), `store.log`, and the graph as the other writer reads it back.
 *
 * @module
 */

import assert from "node:assert/strict";
import { startEmulator } from "./emulator/mod.ts";
import type { Sandbox } from "./helpers.ts";
import { ask, connect } from "./mcp_client.ts";
import {
  bashPayload,
  graphStore,
  ok,
  read,
  requireServerInCi,
  SERVERS,
  serverTest,
  teammate,
  touchesOf,
  write,
} from "./graph_helpers.ts";
import { issue } from "./store_contract.ts";

requireServerInCi();

const SEED = new URL("./interop/upstream_seed.sh", import.meta.url).pathname;
const LUMEN = "github:lumendb/lumen";
const LABELLED = `${LUMEN}/issues?labels=good%20first%20issue&state=open`;

/** What the seed says it wrote. */
interface Seeded {
  ddl: string[];
  ddl_refused: { statement: string; code: string }[];
  labels: Record<string, number>;
  relationships: Record<string, number>;
}

/** The upstream package writes its graph on the (emptied) server. */
async function seedUpstream(
  server: { name: string; url: string },
  ...flags: string[]
): Promise<Seeded> {
  const out = await new Deno.Command("bash", {
    args: [
      SEED,
      "--url",
      server.url,
      "--wipe",
      "--json",
      ...(server.name === "memgraph" ? ["--memgraph"] : []),
      ...flags,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `upstream seed failed: ${err}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/**
 * Everything the upstream writer stored, as it reads it: its nodes (rgraph's
 * own — lock nodes, aliases, its users' Touches and Sessions — left out) with
 * their properties, and the relationships among them with theirs.
 */
async function upstreamGraph(url: string): Promise<string[]> {
  const theirs = (n: string) =>
    `(${n}:Resource OR ${n}:Comment OR ${n}:Listing OR ${n}:User OR
      (${n}:Touch AND ${n}.touch_id IS NOT NULL) OR (${n}:Session AND ${n}.session_id STARTS WITH 'up-'))`;
  const nodes = await read(
    url,
    `MATCH (n) WHERE ${theirs("n")} RETURN labels(n) AS labels, properties(n) AS props`,
  );
  const rels = await read(
    url,
    `MATCH (n)-[r]->(m) WHERE ${theirs("n")} AND ${theirs("m")}
     RETURN type(r) AS type, properties(r) AS props,
       coalesce(n.node_id, n.key, n.touch_id, n.session_id, n.user_id) AS a,
       coalesce(m.node_id, m.key, m.touch_id, m.session_id, m.user_id) AS b`,
  );
  const sorted = (o: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));
  return [
    ...nodes.map((r) => `${(r.labels as string[]).sort().join(":")} ${sorted(r.props as never)}`),
    ...rels.map((r) => `${r.a} -${r.type} ${sorted(r.props as never)}-> ${r.b}`),
  ].sort();
}

/** The lines of a sandbox's `store.log`, without their times. */
async function storeLog(sb: Sandbox): Promise<string[]> {
  try {
    const text = await Deno.readTextFile(`${sb.dir}/data/rgraph/store.log`);
    return text.split("\n").filter((l) => l !== "").map((l) => l.replace(/^\S+ /, ""));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

async function lookup(sb: Sandbox, address: string): Promise<Record<string, unknown>> {
  return JSON.parse(
    (await ok(sb.rgraph(["lookup", "--json", address]), `lookup ${address}`)).stdout,
  );
}

for (const server of SERVERS) {
  serverTest(
    server,
    "with the upstream package's graph on the server every command answers, serves its items, and changes nothing of it",
    async () => {
      await seedUpstream(server);
      // Before rgraph first connects: its schema setup (and upgrades of old data) come next.
      const before = await upstreamGraph(server.url);
      assert.ok(before.length > 60, "the seed wrote its graph");
      const emu = await startEmulator();
      const dave = await teammate("dave", server.url, emu);
      try {
        assert.deepEqual(await touchesOf(dave), [], "upstream's Touches are nobody's here");

        const item = await lookup(dave, `${LUMEN}#42`);
        assert.equal(item.outcome, "hit");
        const i = item.resource as Record<string, unknown>;
        assert.deepEqual([i.kind, i.state, i.owner, i.repo, i.number, i.milestone], [
          "issue",
          "open",
          "lumendb",
          "lumen",
          42,
          "v1.1",
        ]);
        assert.equal((item.thread as { entries: unknown[] }).entries.length, 5);

        const answer = await lookup(dave, `${LUMEN}#610`);
        const pull = answer.resource as Record<string, unknown>;
        assert.deepEqual([pull.kind, pull.state, pull.merged], ["pull_request", "merged", true]);
        assert.deepEqual(pull.files, [
          "src/planner/cost.rs",
          "src/planner/histogram.rs",
          "docs/planner.md",
        ]);
        assert.deepEqual(pull.closes, [
          `https://github.com/lumendb/lumen/issues/118`,
          `https://github.com/lumendb/lumen/issues/245`,
        ]);
        const thread = (answer.thread as { entries: { path?: string }[] }).entries;
        assert.deepEqual(
          thread.map((c) => c.path ?? null),
          [null, null, null, "src/planner/cost.rs", "src/planner/cost.rs"],
          "review comments kept",
        );
        assert.equal(
          "changed_files" in pull || "closes_urls" in pull,
          false,
          "only rgraph's fields",
        );

        const repo = await ok(dave.rgraph(["lookup", LUMEN]), "lookup repository");
        assert.match(repo.stdout, /^rgraph: hit github:lumendb\/lumen \(repository\)/);
        assert.match(repo.stdout, /A distributed property-graph database/);
        assert.equal((await lookup(dave, "github:acme/anvil#5")).outcome, "hit");

        // Upstream's label-free Listing is a Listing like rgraph's (holding 5 of 720); its
        // labelled one has a key rgraph does not write: absent, logged once.
        const listing = await lookup(dave, `${LUMEN}/issues?state=open`);
        assert.deepEqual(
          [
            (listing.partial as Record<string, unknown>)?.member_count,
            (listing.partial as Record<string, unknown>)?.total_count,
          ],
          [5, 720],
        );
        assert.equal(
          (await lookup(dave, `${LUMEN}/issues?label=good%20first%20issue&state=open`)).outcome,
          "miss",
        );

        const stats = JSON.parse((await ok(dave.rgraph(["stats", "--json"]), "stats")).stdout);
        assert.deepEqual(stats.memory.resources, {
          repository: 2,
          issue: 9,
          pull_request: 1,
          total: 12,
        });
        const doctor = JSON.parse((await dave.rgraph(["doctor", "--json"])).stdout) as {
          check: string;
          ok: boolean;
          warning?: boolean;
          detail: string;
        }[];
        for (const name of ["store", "store server", "store schema"]) {
          const c = doctor.find((x) => x.check === name);
          assert.ok(c?.ok && !c.warning, `doctor ${name}: ${c?.detail}`);
        }
        // Which server, its version, the oldest rgraph runs on, and the schema record.
        const kind = server.name === "neo4j" ? "Neo4j" : "Memgraph";
        assert.match(
          doctor.find((x) => x.check === "store server")!.detail,
          new RegExp(
            `^${kind} \\d+\\.\\d+\\.\\d+\\S*( \\(\\w+\\))?; rgraph runs on ${kind} \\d+\\.\\d+\\.\\d+ or later$`,
          ),
        );
        assert.match(
          doctor.find((x) => x.check === "store schema")!.detail,
          new RegExp(`^[0-9a-f]{16} applied \\S+ on ${kind} .*, every rule in force$`),
        );
        // The hook's local index holds upstream's items: the Nudge knows them.
        const nudged = await ok(
          dave.rgraph(["hook", "claude-code"], {
            stdin: bashPayload("gh issue view 42 -R lumendb/lumen"),
          }),
          "hook",
        );
        assert.match(nudged.stdout, /lumendb\/lumen#42 is in memory/);

        assert.deepEqual(await storeLog(dave), [
          `skipped Listing ${LABELLED}: key is no rgraph Listing key`,
        ]);
        // Upstream's graph is exactly as upstream left it: no reversed REFERENCES, no
        // declared_by on its CLOSES, no property or node gone.
        assert.deepEqual(await upstreamGraph(server.url), before);
      } finally {
        await dave.cleanup();
        await emu.close();
      }
    },
  );

  serverTest(
    server,
    "a Sweep refetching upstream's node ids keeps what upstream stores beside rgraph's properties",
    async () => {
      await seedUpstream(server);
      const emu = await startEmulator();
      const dave = await teammate("dave", server.url, emu);
      const store = await graphStore(server.url);
      try {
        const props = async (address: string) =>
          (await store.cypher(`MATCH (n:Resource {address: $address}) RETURN properties(n) AS p`, {
            address,
          }))[0]?.p as Record<string, unknown>;
        const upstream42 = await props(`${LUMEN}#42`);
        const upstream610 = await props(`${LUMEN}#610`);
        // GitHub changed #42 since upstream fetched it: rgraph's Sweep fetches it again. Upstream
        // released #610's address (as it does on a move): rgraph finds none and fetches it too.
        emu.editIssue("lumendb", "lumen", 42, { title: "Vector index leaks memory (confirmed)" });
        emu.editIssue("lumendb", "lumen", 610, { body: "Planner v2, rebased." });
        await write(server.url, "MATCH (n:Resource {node_id: $id}) SET n.address = null", {
          id: upstream610.node_id,
        });
        for (const c of ["gh issue view 42 -R lumendb/lumen", "gh pr view 610 -R lumendb/lumen"]) {
          await ok(dave.rgraph(["hook", "claude-code"], { stdin: bashPayload(c) }), "hook");
        }
        const swept = JSON.parse((await ok(dave.rgraph(["sweep", "--json"]), "sweep")).stdout);
        assert.equal(swept.resources_written, 2);

        const now42 = await props(`${LUMEN}#42`);
        assert.equal(now42.node_id, upstream42.node_id);
        assert.equal(now42.title, "Vector index leaks memory (confirmed)");
        assert.equal(now42.kind, "issue");
        const now610 = await props(`${LUMEN}#610`);
        assert.equal(now610.node_id, upstream610.node_id, "the same node has its address again");
        // What only upstream writes is still there, as upstream wrote it.
        for (
          const [was, now, keys] of [
            [upstream42, now42, ["referenced_by_ids", "referenced_by_urls"]],
            [upstream610, now610, [
              "changed_files",
              "closes_ids",
              "closes_urls",
              "referenced_by_ids",
            ]],
          ] as const
        ) {
          for (const k of keys) assert.deepEqual(now[k], was[k], k);
        }
        // rgraph's reading of the refetched node: the new content.
        assert.equal(
          ((await lookup(dave, `${LUMEN}#610`)).resource as Record<string, unknown>).body,
          "Planner v2, rebased.",
        );
        // Upstream's other nodes and its Touches are all there.
        const [count] = await store.cypher(
          `MATCH (n:Resource) WITH count(n) AS resources
           MATCH (t:Touch) WHERE t.touch_id IS NOT NULL
           RETURN resources, count(t) AS touches`,
        );
        assert.deepEqual(count, { resources: 12, touches: 12 });
      } finally {
        await store.close();
        await dave.cleanup();
        await emu.close();
      }
    },
  );

  serverTest(
    server,
    "writes beside upstream's nodes delete none: a claimed address is released, a shared Listing keeps upstream's keys, its Touches are not leased",
    async () => {
      await seedUpstream(server);
      const emu = await startEmulator();
      const dave = await teammate("dave", server.url, emu);
      const store = await graphStore(server.url);
      // Dave's Sweep: it leases his own Touches, never upstream's (which carry no user).
      const sweeper = await graphStore(server.url, "dave");
      try {
        // GitHub now answers acme/anvil#5 with another node (a transfer, say): upstream's node
        // gives the address up and points at its successor, and keeps its comments.
        const moved = issue(5, {
          node_id: "I_new_anvil_5",
          address: "github:acme/anvil#5",
          owner: "acme",
          repo: "anvil",
          url: "https://github.com/acme/anvil/issues/5",
          title: "anvil drops frames (moved here)",
        });
        await store.putResources([{ resource: moved }]);
        const [old] = await store.cypher(
          `MATCH (o:Resource {node_id: 'I_kwDOUpStRmzgAAAABQ'})
           OPTIONAL MATCH (o)-[:HAS_COMMENT]->(c:Comment)
           OPTIONAL MATCH (o)-[:MOVED_TO]->(n:Resource)
           RETURN o.address AS address, o.title AS title, count(DISTINCT c) AS comments,
             collect(DISTINCT n.node_id) AS successor`,
        );
        assert.deepEqual(old, {
          address: null,
          title: "Upstream-only issue: anvil drops frames",
          comments: 2,
          successor: ["I_new_anvil_5"],
        });
        assert.match(
          (await ok(dave.rgraph(["lookup", "github:acme/anvil#5"]), "lookup")).stdout,
          /moved here/,
        );

        // rgraph writes the Listing upstream shares the key of: upstream's own keys stay.
        const key = `${LUMEN}/issues?state=open`;
        const members = [`${LUMEN}#1000`, `${LUMEN}#999`, `${LUMEN}#997`];
        await store.putListing({
          key,
          owner: "lumendb",
          repo: "lumen",
          listing: "issues",
          filters: { state: "open", labels: [] },
          limit: 3,
          total_count: 720,
          member_count: 3,
          fully_expanded: false,
          fetched_at: new Date().toISOString(),
        }, members);
        const [l] = await store.cypher(
          `MATCH (l:Listing {key: $key})-[m:HAS_MEMBER]->(r:Resource)
           WITH l, m, r ORDER BY m.position
           RETURN l.scope AS scope, l.item_kind AS kind, collect(r.address) AS members`,
          { key },
        );
        assert.deepEqual(l, { scope: `${LUMEN}/issues`, kind: "issues", members });
        assert.deepEqual((await store.listingMembers(key)).map((m) => m.address), members);

        // Upstream's pending Touch (of #245) is upstream's to sweep.
        assert.deepEqual(await sweeper.leasePending("team-sweeper", 100, 60_000), []);
        const [pending] = await store.cypher(
          `MATCH (t:Touch {status: 'pending'}) WHERE t.touch_id IS NOT NULL
           RETURN t.address AS address, t.lease_owner AS owner`,
        );
        assert.deepEqual(pending, { address: `${LUMEN}#245`, owner: null });
      } finally {
        await sweeper.close();
        await store.close();
        await dave.cleanup();
        await emu.close();
      }
    },
  );
}

/**
 * One hand-made variant of a node another writer could leave: what it does to
 * a node rgraph stored, and what a reader must get: the node served (and the
 * answer's first lines matching `shows`), or absent with one logged line
 * (`logged`), or absent with none (a released address is the family's way).
 */
interface Variant {
  name: string;
  /** Cypher changing the node `n` at `$at` (a Resource or a Listing). */
  change: string;
  expect: { served: true; shows?: RegExp } | { served: false; logged: string | null };
}

const RESOURCE_VARIANTS: Variant[] = [
  { name: "no kind", change: "REMOVE n.kind", expect: { served: true } },
  { name: "kind 'Issue'", change: "SET n.kind = 'Issue'", expect: { served: true } },
  { name: "kind 'discussion'", change: "SET n.kind = 'discussion'", expect: { served: true } },
  { name: "number as text", change: "SET n.number = toString(n.number)", expect: { served: true } },
  {
    name: "labels as text",
    change: "SET n.labels = 'bug'",
    expect: { served: false, logged: "labels is not a list of text" },
  },
  {
    name: "labels as numbers",
    change: "SET n.labels = [1, 2]",
    expect: { served: false, logged: "labels is not a list of text" },
  },
  {
    name: "no fetched_at",
    change: "REMOVE n.fetched_at",
    expect: { served: false, logged: "no fetched_at" },
  },
  {
    name: "no updated_at",
    change: "REMOVE n.updated_at",
    expect: { served: false, logged: "no updated_at" },
  },
  {
    name: "fetched_at as a date-time value",
    change: "SET n.fetched_at = datetime('2026-03-01T10:00:00Z')",
    expect: { served: true, shows: /fetched_at 2026-03-01T10:00:00\.000Z/ },
  },
  { name: "no owner, no repo", change: "REMOVE n.owner, n.repo", expect: { served: true } },
  { name: "no null_keys", change: "REMOVE n.null_keys", expect: { served: true } },
  {
    name: "state 'OPEN'",
    change: "SET n.state = toUpper(n.state)",
    expect: { served: true, shows: /state: (open|closed) / },
  },
  {
    name: "comment_count as text",
    change: "SET n.comment_count = toString(n.comment_count)",
    expect: { served: true },
  },
  { name: "no title", change: "REMOVE n.title", expect: { served: false, logged: "no title" } },
  { name: "no body", change: "REMOVE n.body", expect: { served: false, logged: "no body" } },
  {
    name: "address removed",
    change: "REMOVE n.address",
    expect: { served: false, logged: null },
  },
  {
    name: "comments without position or review",
    change: "WITH n MATCH (n)-[:HAS_COMMENT]->(c) REMOVE c.position, c.review",
    expect: { served: true },
  },
  {
    name: "a comment without body",
    change: "WITH n MATCH (n)-[:HAS_COMMENT]->(c) WITH c ORDER BY c.position LIMIT 1 REMOVE c.body",
    expect: { served: true, shows: /thread: 1 comments?;/ },
  },
];

const LISTING_VARIANTS: Variant[] = [
  {
    name: "a Listing without filters, owner, repo or listing",
    change: "REMOVE n.filters, n.owner, n.repo, n.listing",
    expect: { served: true },
  },
  {
    name: "a Listing whose filters are not JSON",
    change: "SET n.filters = 'state=open'",
    expect: { served: true },
  },
  {
    name: "a Listing without repo_address",
    change: "REMOVE n.repo_address",
    expect: { served: true },
  },
  {
    name: "a Listing without member_count",
    change: "REMOVE n.member_count, n.total_count",
    expect: { served: false, logged: "no total_count" },
  },
  {
    name: "a Listing whose fully_expanded is text",
    change: "SET n.fully_expanded = toString(n.fully_expanded)",
    expect: { served: true },
  },
];

for (const server of SERVERS) {
  serverTest(
    server,
    "hand-made variants of rgraph's nodes: each is served as it maps or absent with one logged line, and no command fails",
    async () => {
      await write(server.url, "MATCH (n) DETACH DELETE n");
      const emu = await startEmulator();
      const dave = await teammate("dave", server.url, emu);
      try {
        // Two comments each, so a thread can lose one and still show the other.
        const threads = [...emu.dataset.repo("lumendb", "lumen")!.repo.items.values()]
          .filter((i) => i.kind === "issue" && i.state === "OPEN" && i.comments.length === 2)
          .slice(0, RESOURCE_VARIANTS.length);
        assert.equal(threads.length, RESOURCE_VARIANTS.length);
        for (const i of threads) {
          await ok(
            dave.rgraph(["hook", "claude-code"], {
              stdin: bashPayload(`gh issue view ${i.number} -R lumendb/lumen`),
            }),
            "hook",
          );
        }
        await ok(
          dave.rgraph(["hook", "claude-code"], {
            stdin: bashPayload("gh issue list -R lumendb/lumen --label bug --limit 5"),
          }),
          "hook",
        );
        await ok(dave.rgraph(["sweep"]), "sweep");
        const listing = `${LUMEN}/issues?label=bug&state=open`;
        const targets = new Map<Variant, string>();
        RESOURCE_VARIANTS.forEach((v, k) => targets.set(v, `${LUMEN}#${threads[k].number}`));
        for (const [k, v] of LISTING_VARIANTS.entries()) {
          // A copy of the swept Listing under another rgraph key, members and all (and complete,
          // so that a look-up without a limit is answered from it).
          // (a milestone, not free text: a free-text Listing is its asker's own, never shared)
          const key = `${LUMEN}/issues?label=bug&milestone=variant${k}&state=open`;
          await write(
            server.url,
            `MATCH (l:Listing {key: $listing})
             CREATE (m:Listing {key: $key})
             SET m.owner = l.owner, m.repo = l.repo, m.listing = l.listing, m.filters = l.filters,
               m.limit = l.limit, m.total_count = l.member_count, m.member_count = l.member_count,
               m.fully_expanded = true, m.fetched_at = l.fetched_at,
               m.repo_address = l.repo_address
             WITH l, m MATCH (l)-[h:HAS_MEMBER]->(r) CREATE (m)-[:HAS_MEMBER {position: h.position}]->(r)`,
            { listing, key },
          );
          targets.set(v, key);
        }
        for (const [v, at] of targets) {
          const label = RESOURCE_VARIANTS.includes(v) ? "Resource" : "Listing";
          const by = label === "Resource" ? "address" : "key";
          await write(server.url, `MATCH (n:${label} {${by}: $at}) ${v.change}`, { at });
        }

        // Two of dave's own Touches: one missing what a Touch needs, one with a mistyped order.
        const swept = await touchesOf(dave);
        const [broken, odd] = swept.map((t) => t.id as string);
        await write(server.url, "MATCH (t:Touch {id: $id}) REMOVE t.recorded_at, t.kind, t.seq", {
          id: broken,
        });
        await write(server.url, "MATCH (t:Touch {id: $id}) SET t.seq = 'x'", { id: odd });
        assert.deepEqual(
          (await touchesOf(dave)).map((t) => t.id),
          swept.map((t) => t.id).filter((id) => id !== broken),
        );

        const client = await connect(dave);
        try {
          for (const [v, at] of targets) {
            const { text } = await ask(client, at);
            const first = text.split("\n").slice(0, 8).join("\n");
            if (v.expect.served) {
              assert.match(
                first,
                new RegExp(`^rgraph: hit ${at.replace(/[?#]/g, "\\$&")}`),
                v.name,
              );
              if (v.expect.shows) assert.match(first, v.expect.shows, v.name);
            } else assert.match(first, /^rgraph: miss /, v.name);
          }
        } finally {
          await client.close();
        }
        // Every command still answers.
        for (const command of [["touches", "--json"], ["stats", "--json"], ["sweep"], ["doctor"]]) {
          await ok(dave.rgraph(command), `rgraph ${command[0]}`);
        }
        const expected = [...targets].flatMap(([v, at]) =>
          !v.expect.served && v.expect.logged !== null
            ? [
              `${RESOURCE_VARIANTS.includes(v) ? "Resource" : "Listing"} ${at}: ${v.expect.logged}`,
            ]
            : []
        );
        const bodiless = RESOURCE_VARIANTS.find((v) => v.name === "a comment without body")!;
        expected.push(`Comment of ${targets.get(bodiless)}: no body`, `Touch ${broken}: no kind`);
        // Lines name a node by address and node id (left out here), a comment by its id too.
        const logged = (await storeLog(dave)).map((l) =>
          l.replace(/^skipped /, "").replace(/ \(node [^)]+\)/, "").replace(
            /^Comment \S+ of/,
            "Comment of",
          )
        );
        assert.deepEqual(logged.sort(), expected.sort(), "one line per unreadable node");
      } finally {
        await dave.cleanup();
        await emu.close();
      }
    },
  );
}

/** Drops every constraint and index of a Neo4j test server (its data stays). */
async function dropSchema(url: string): Promise<void> {
  for (const { name } of await read(url, "SHOW CONSTRAINTS YIELD name")) {
    await write(url, `DROP CONSTRAINT \`${name}\``);
  }
  const indexes = await read(
    url,
    "SHOW INDEXES YIELD name, type, owningConstraint WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN name",
  );
  for (const { name } of indexes) await write(url, `DROP INDEX \`${name}\``);
}

/** The uniqueness constraints of a Neo4j server, as `Label.property`. */
async function uniqueKeys(url: string): Promise<string[]> {
  const rows = await read(
    url,
    "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties WHERE type = 'UNIQUENESS' RETURN labelsOrTypes[0] + '.' + properties[0] AS k",
  );
  return rows.map((r) => r.k as string).sort();
}

const NEO4J = SERVERS.find((s) => s.name === "neo4j")!;

serverTest(
  NEO4J,
  "rgraph's schema and the family's agree in either order, the Session constraint included",
  async () => {
    const doctorSchema = async (sb: Sandbox) =>
      (JSON.parse((await sb.rgraph(["doctor", "--json"])).stdout) as {
        check: string;
        warning?: boolean;
        detail: string;
      }[]).find((c) => c.check === "store schema")!;
    const emu = await startEmulator();
    const dave = await teammate("dave", NEO4J.url, emu);
    try {
      // An earlier rgraph set up the server: a plain index on :Session(session_id).
      await write(NEO4J.url, "MATCH (n) DETACH DELETE n");
      await dropSchema(NEO4J.url);
      await write(
        NEO4J.url,
        "CREATE INDEX rgraph_session_session_id IF NOT EXISTS FOR (n:Session) ON (n.session_id)",
      );
      await ok(dave.rgraph(["touches"]), "touches (sets the schema up)");
      assert.ok((await uniqueKeys(NEO4J.url)).includes("Session.session_id"));
      // Then the family's other writer sets its own schema up: nothing is refused.
      const seeded = await seedUpstream(NEO4J, "--schema-only");
      assert.deepEqual(seeded.ddl_refused, []);
      assert.equal((await doctorSchema(dave)).warning, undefined);

      // Upstream first: rgraph's rules find theirs in place, and all of them hold.
      await write(NEO4J.url, "MATCH (n) DETACH DELETE n");
      await dropSchema(NEO4J.url);
      await seedUpstream(NEO4J, "--schema-only");
      await ok(dave.rgraph(["touches"]), "touches");
      assert.equal((await doctorSchema(dave)).warning, undefined);

      // Sessions an earlier rgraph duplicated refuse the constraint: an index instead, and
      // doctor says so (a warning: everything works, a concurrent MERGE may duplicate again).
      await write(NEO4J.url, "MATCH (n) DETACH DELETE n");
      await dropSchema(NEO4J.url);
      await write(
        NEO4J.url,
        "CREATE (:Session {session_id: 'dup'}), (:Session {session_id: 'dup'})",
      );
      await ok(dave.rgraph(["touches"]), "touches");
      const degraded = await doctorSchema(dave);
      assert.equal(degraded.warning, true);
      assert.match(
        degraded.detail,
        /Session\.session_id is indexed but not unique: Unable to create/,
      );
      assert.ok(!(await uniqueKeys(NEO4J.url)).includes("Session.session_id"));
      const indexed = await read(
        NEO4J.url,
        "SHOW INDEXES YIELD labelsOrTypes, properties WHERE labelsOrTypes = ['Session'] RETURN properties",
      );
      assert.deepEqual(indexed.map((r) => r.properties), [["session_id"]]);
    } finally {
      await write(NEO4J.url, "MATCH (n) DETACH DELETE n");
      await dropSchema(NEO4J.url);
      await dave.cleanup();
      await emu.close();
    }
  },
);
