/**
 * Searching memory end to end: the scenarios of `search_contract.ts` on the
 * embedded store and on the real Neo4j (when `RGRAPH_TEST_NEO4J_URL` is set);
 * an existing store indexed once when a command first opens it; the
 * `resource` tool's `search` over a real MCP client on stdio; `rgraph search`
 * as a real process.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { search, searchContract } from "./search_contract.ts";
import {
  exclusive,
  freshGraphStore,
  graphStore,
  SERVERS,
  serverTest,
  teammate,
  touchesOf,
  write,
} from "./graph_helpers.ts";
import { startEmulator } from "./emulator/mod.ts";
import { rgraphCommand, type Sandbox, sandbox } from "./helpers.ts";
import { connect } from "./mcp_client.ts";
import { issue, repository } from "./fixtures_memory.ts";

searchContract("embedded", () => Promise.resolve(openEmbeddedStore(":memory:")));
for (const server of SERVERS) {
  searchContract(server.name, () => freshGraphStore(server.url), {
    ignore: !server.url,
    exclusive: (fn) => exclusive(server.url, fn),
  });
}

for (const server of SERVERS) {
  serverTest(
    server,
    "search: Resources stored before search are found by their comments after the upgrade",
    async () => {
      const first = await freshGraphStore(server.url);
      try {
        const old = issue("acme", "widgets", 9, { comments: 3 });
        old.comments[2].body = "the flamegraph points at the allocator";
        await first.putResources([{ resource: old }]);
      } finally {
        await first.close();
      }
      // As an rgraph before search left them: no text beside the node's own, the upgrade not run.
      await write(server.url, "MATCH (n:Resource) REMOVE n.rgraph_search");
      await write(
        server.url,
        "MATCH (s:RgraphLock {name: 'schema'}) SET s.model = s.model - 1, s.tags = []",
      );
      const upgraded = await graphStore(server.url);
      try {
        const a = await search(upgraded, { text: "flamegraph allocator" });
        assert.equal(a.outcome, "hit");
        assert.match(a.text, /matched in comment 3 by carol/);
      } finally {
        await upgraded.close();
      }
    },
  );
}

for (const server of SERVERS) {
  serverTest(
    server,
    "search: teammates search the team's memory with rgraph search; neither sees the other's query",
    async () => {
      const shared = await freshGraphStore(server.url);
      try {
        const long = issue("acme", "widgets", 7, { comments: 40 });
        long.comments[39].body = "Switching to zstd compression halves the transfer time.";
        await shared.putResources([{ resource: long }]);
      } finally {
        await shared.close();
      }
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      const bob = await teammate("bob", server.url, emu);
      try {
        const found = await alice.rgraph(["search", "compressions", "secret-codename"]);
        assert.equal(found.code, 0, found.stderr);
        assert.match(found.stdout, /^rgraph: miss search "compressions secret-codename"/);
        const hit = await bob.rgraph(["search", "zstd", "--repo", "acme/widgets"]);
        assert.match(hit.stdout, /^rgraph: hit search "zstd"/);
        assert.match(hit.stdout, /matched in comment 40 by dmitri/);
        const mine = (await touchesOf(alice)).map((t) => t.address);
        assert.deepEqual(mine, ["search:compressions secret-codename"]);
        const bobs = JSON.stringify(await touchesOf(bob));
        assert.doesNotMatch(bobs, /secret-codename/);
        assert.match(bobs, /search:zstd \?repo=acme\/widgets/);
      } finally {
        await alice.cleanup();
        await bob.cleanup();
        await emu.close();
      }
    },
  );
}

/** Turns a store back into what an earlier rgraph left: no search index, schema version 8. */
function asBeforeSearch(dbPath: string): void {
  const db = new DatabaseSync(dbPath);
  db.exec(`DROP TRIGGER search_index_resource_gone; DROP TRIGGER search_index_data_gone;
           DROP TABLE search_index; DROP INDEX resources_by_repo; DROP INDEX resources_by_kind;
           PRAGMA user_version = 8;`);
  db.close();
}

/** Runs `fn` in a fresh sandbox whose store holds {@link seed}'s memory. */
function seeded(fn: (sb: Sandbox) => Promise<void>): () => Promise<void> {
  return async () => {
    const sb = await sandbox();
    try {
      await seed(sb.dbPath);
      await fn(sb);
    } finally {
      await sb.cleanup();
    }
  };
}

/** Stores a thread whose last comment mentions zstd, in a sandbox's store. */
async function seed(dbPath: string): Promise<void> {
  await Deno.mkdir(dbPath.slice(0, dbPath.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const store = openEmbeddedStore(dbPath);
  const long = issue("acme", "widgets", 7, { comments: 60 });
  long.comments[59].body = "Switching to zstd compression halves the transfer time.";
  await store.putResources([
    { resource: long },
    { resource: issue("acme", "widgets", 8) },
    { resource: repository("acme", "widgets", "# Widgets\n\nSupports replication.") },
  ]);
  await store.close();
}

Deno.test(
  "search: a store written before the index is indexed once, by the first command",
  seeded(async (sb) => {
    asBeforeSearch(sb.dbPath);
    const first = await sb.rgraph(["search", "zstd"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^rgraph: hit search "zstd"/);
    assert.match(first.stdout, /matched in comment 60 by dmitri/);
    // Not on a terminal: no progress bar in what a script reads.
    assert.equal(first.stderr, "");
    const again = await sb.rgraph(["search", "replication", "--kind", "repo"]);
    assert.match(again.stdout, /1 of 1 stored Resources in scope match/);
    assert.match(again.stdout, /matched in README/);
  }),
);

Deno.test({
  name: "search: on a terminal, the first command shows the one-time indexing as a progress bar",
  // util-linux's script(1) gives the command a terminal.
  ignore: Deno.build.os !== "linux",
  fn: seeded(async (sb) => {
    asBeforeSearch(sb.dbPath);
    const { command, args } = rgraphCommand();
    const line = [command, ...args, "stats"].map((w) => `'${w.replaceAll("'", "'\\''")}'`)
      .join(" ");
    const out = await new Deno.Command("script", {
      args: ["-qec", line, "/dev/null"],
      env: sb.env,
      cwd: sb.dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const seen = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, seen);
    assert.match(seen, /rgraph: indexing memory for search \[#{30}\] 3\/3/);
    // Once: the next command indexes nothing.
    const again = await new Deno.Command("script", {
      args: ["-qec", line, "/dev/null"],
      env: sb.env,
      cwd: sb.dir,
      stdout: "piped",
    }).output();
    assert.doesNotMatch(new TextDecoder().decode(again.stdout), /indexing memory/);
  }),
});

Deno.test(
  "search: rgraph search as a process — text, JSON, filters, and bad input in one line",
  seeded(async (sb) => {
    const hit = await sb.rgraph(["search", "zstd", "compressions", "--repo", "acme/widgets"]);
    assert.equal(hit.code, 0, hit.stderr);
    assert.match(hit.stdout, /^rgraph: hit search "zstd compressions" — searched memory only/);
    assert.match(hit.stdout, /scope: repo acme\/widgets, every kind, state all \(the default\)/);
    assert.match(hit.stdout, /1\. github:acme\/widgets#7 \[issue, open\]/);
    const json = JSON.parse(
      (await sb.rgraph(["search", '"transfer time"', "--json", "--state", "open"])).stdout,
    );
    assert.equal(json.outcome, "hit");
    assert.equal(json.searched, "memory only");
    assert.equal(json.in_scope, 2);
    assert.deepEqual(json.results.map((r: { key: string }) => r.key), ["github:acme/widgets#7"]);
    assert.equal(json.results[0].matched, "comment 60 by dmitri");
    assert.deepEqual(json.results[0].place, {
      part: "comment",
      n: 60,
      author: "dmitri",
      review: false,
      path: null,
    });
    // The plural, as people type it, is the same kind.
    const closed = await sb.rgraph(["search", "zstd", "--kind", "issues", "--state", "closed"]);
    assert.equal(closed.code, 0, closed.stderr);
    assert.match(closed.stdout, /^rgraph: miss search "zstd" .*: 0 of 0 stored Resources/);
    assert.match(closed.stdout, /scope: every repository, issues, state closed\n/);
    const miss = await sb.rgraph(["search", "brotli"]);
    assert.equal(miss.code, 0);
    assert.match(miss.stdout, /^rgraph: miss search "brotli"/);
    for (
      const [args, message] of [
        [["search"], /the query is empty/],
        [["search", "&&", "||"], /no letter or digit/],
        [["search", "x".repeat(600)], /more than 500/],
        [["search", "zstd", "--kind", "discussion"], /kind must be issue, pr or repo/],
        [["search", "zstd", "--state", "draft"], /state must be open, closed, merged or all/],
        [["search", "zstd", "--repo", "not a repo"], /repo must be OWNER\/REPO/],
        [["search", "zstd", "--page", "0"], /--page takes a whole number/],
      ] as const
    ) {
      const r = await sb.rgraph([...args]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
    // Four searches answered, each a Cache Read of alice's own (refusals record nothing).
    const touches = JSON.parse((await sb.rgraph(["touches", "--json"])).stdout);
    assert.deepEqual(
      touches.map((t: { address: string; outcome: string }) => [t.address, t.outcome]).sort(),
      [
        ['search:"transfer time" ?state=open', "hit"],
        ["search:brotli", "miss"],
        ["search:zstd ?kind=issue&state=closed", "miss"],
        ["search:zstd compressions ?repo=acme/widgets", "hit"],
      ],
    );
    const stats = JSON.parse((await sb.rgraph(["stats", "--json"])).stdout);
    const reads = stats.cache_reads ?? stats.user?.cache_reads;
    assert.deepEqual([reads.hit, reads.subsumed, reads.miss], [2, 0, 2]);
    // A search of one's own is forgotten by its address, as touches shows it.
    const forgot = await sb.rgraph(["forget", "--address", "search:brotli", "--json"]);
    assert.equal(forgot.code, 0, forgot.stderr);
    const left = JSON.parse((await sb.rgraph(["touches", "--json"])).stdout);
    assert.deepEqual(
      left.map((t: { address: string }) => t.address).filter((a: string) => a.includes("brotli")),
      [],
    );
    assert.equal(left.length, 3);
  }),
);

Deno.test(
  "search: the resource tool searches over a real MCP client, and refuses bad combinations",
  seeded(async (sb) => {
    const client = await connect(sb);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t: { name: string }) => t.name === "resource") as {
        description?: string;
      };
      assert.match(tool.description ?? "", /pass `search` instead of `address`/);
      const call = async (args: Record<string, unknown>) => {
        const r = await client.callTool({ name: "resource", arguments: args });
        const content = r.content as { type: string; text: string }[];
        return { text: content[0].text, isError: r.isError === true };
      };
      const hit = await call({ search: "zstd", repo: "acme/widgets", kind: "issue" });
      assert.equal(hit.isError, false);
      assert.match(hit.text, /^rgraph: hit search "zstd" — searched memory only/);
      assert.match(hit.text, /matched in comment 60 by dmitri/);
      assert.match(hit.text, /resource\("github:acme\/widgets#7"\)/);
      // The key a result names reads the item whole.
      let whole = "";
      for (let page = 1; page <= 5 && !/zstd compression halves/.test(whole); page++) {
        whole = (await call({ address: "github:acme/widgets#7", page })).text;
      }
      assert.match(whole, /zstd compression halves/);
      const miss = await call({ search: "brotli", state: "closed" });
      assert.equal(miss.isError, false);
      assert.match(miss.text, /^rgraph: miss search "brotli"/);
      for (
        const [args, message] of [
          [{ search: "zstd", address: "acme/widgets#7" }, /either address or search, not both/],
          [{}, /pass address .* or search/],
          [{ address: "acme/widgets#7", kind: "issue" }, /narrow a search; with address/],
          [{ search: "   " }, /the query is empty/],
          [{ search: "*" }, /no letter or digit/],
          [{ search: "zstd", repo: "nope" }, /repo must be OWNER\/REPO/],
        ] as const
      ) {
        const r = await call(args);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.match(r.text, message);
        assert.equal(r.text.split("\n").length, 1, r.text);
      }
      const badKind = await call({ search: "zstd", kind: "discussion" });
      assert.equal(badKind.isError, true);
    } finally {
      await client.close();
    }
    const touches = JSON.parse((await sb.rgraph(["touches", "--json"])).stdout);
    const searches = touches.filter((t: { kind: string }) => t.kind === "search");
    assert.deepEqual(
      searches.map((t: { address: string; outcome: string; tool_name: string }) => [
        t.address,
        t.outcome,
        t.tool_name,
      ]).sort(),
      [
        ["search:brotli ?state=closed", "miss", "resource"],
        ["search:zstd ?kind=issue&repo=acme/widgets", "hit", "resource"],
      ],
    );
  }),
);

Deno.test(
  "search: a search the harness's hook saw is recorded with that call's session and tool-call id",
  seeded(async (sb) => {
    const pre = JSON.stringify({
      session_id: "sess-search",
      cwd: sb.dir,
      hook_event_name: "PreToolUse",
      tool_name: "mcp__rgraph__resource",
      tool_input: { search: "zstd", repo: "acme/widgets" },
      tool_use_id: "toolu_search_1",
    });
    const hooked = await sb.rgraph(["hook", "claude-code"], { stdin: pre });
    assert.equal(hooked.code, 0, hooked.stderr);
    const client = await connect(sb);
    try {
      const r = await client.callTool({
        name: "resource",
        arguments: { search: "zstd", repo: "acme/widgets" },
      });
      assert.match((r.content as { text: string }[])[0].text, /^rgraph: hit search "zstd"/);
    } finally {
      await client.close();
    }
    const touches = JSON.parse((await sb.rgraph(["touches", "--json"])).stdout);
    assert.deepEqual(
      touches.map((t: Record<string, unknown>) => [t.address, t.session_id, t.tool_use_id]),
      [["search:zstd ?repo=acme/widgets", "sess-search", "toolu_search_1"]],
    );
  }),
);
