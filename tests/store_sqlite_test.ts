/**
 * The embedded store: the contract suite on real SQLite files, plus what only
 * a file shared by many processes can show — a write killed half-way leaves
 * nothing half-written, and concurrent processes neither lose nor double
 * Touches or leases.
 */

import assert from "node:assert/strict";
import {
  assertUpgradedReferences,
  issue,
  OLD_REFERENCES,
  pullRequest,
  repository,
  storeContract,
  touch,
} from "./store_contract.ts";
import { openEmbeddedStore, referenceKey } from "../lib/store/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { parseConfig } from "../lib/config/load.ts";
import { migrate, SCHEMA_VERSION } from "../lib/store/sqlite/schema.ts";
import { listingAddress } from "../lib/address/key.ts";
import type { Listing } from "../lib/types.ts";
import { DatabaseSync } from "node:sqlite";
import { UserError } from "../lib/errors.ts";
import { scaleContract } from "./store_scale_contract.ts";

const dirs: string[] = [];

/** A fresh store file in a directory of its own, and its removal. */
const fresh = [
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "rgraph-store-" });
    dirs.push(dir);
    return openEmbeddedStore(`${dir}/nested/dir/rgraph.db`);
  },
  async () => {
    for (const dir of dirs.splice(0)) await Deno.remove(dir, { recursive: true });
  },
] as const;

storeContract("sqlite", ...fresh);
scaleContract("sqlite", ...fresh);

/** A test on a fresh database file in its own temporary directory, removed afterwards. */
function dbTest(name: string, fn: (db: { dir: string; path: string }) => Promise<void>): void {
  Deno.test(`sqlite store: ${name}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "rgraph-store-" });
    try {
      await fn({ dir, path: `${dir}/rgraph.db` });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

const STORE_MODULE = new URL("../lib/store/sqlite/store.ts", import.meta.url).href;
const CONTRACT_MODULE = new URL("./store_contract.ts", import.meta.url).href;

/** Runs a TypeScript snippet as its own `deno` process. */
function spawnDeno(code: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

dbTest(
  "openStore opens the configured file and reopening keeps the data",
  async ({ dir, path }) => {
    const config = parseConfig(`[store]\npath = ${JSON.stringify(path)}\n`, `${dir}/config.toml`);
    const store = await openStore(config);
    assert.equal(store.kind, "sqlite");
    assert.equal(await store.recordTouches([touch("alice", "github:acme/rocket#1")]), 1);
    await store.close();
    const again = openEmbeddedStore(path);
    assert.equal((await again.listTouches("alice")).length, 1);
    await again.close();
    const db = new DatabaseSync(path);
    const mode = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    const version = db.prepare("PRAGMA user_version").get() as { user_version: number };
    db.close();
    assert.equal(mode.journal_mode, "wal");
    assert.equal(version.user_version, SCHEMA_VERSION);
  },
);

dbTest(
  "companion files beside the store are checked before SQLite opens them",
  async ({ dir, path }) => {
    await openEmbeddedStore(path).close();
    // A journal others may read is narrowed to the owner; a planted link is refused, naming it.
    await Deno.writeTextFile(`${path}-journal`, "", { mode: 0o644 });
    await Deno.chmod(`${path}-journal`, 0o644);
    const store = openEmbeddedStore(path);
    assert.equal(await store.recordTouches([touch("alice", "github:acme/rocket#1")]), 1);
    await store.close();
    assert.equal((await Deno.stat(`${path}-journal`)).mode! & 0o777, 0o600);
    await Deno.remove(`${path}-journal`);
    await Deno.writeTextFile(`${dir}/elsewhere`, "");
    await Deno.symlink(`${dir}/elsewhere`, `${path}-wal`);
    assert.throws(() => openEmbeddedStore(path), (e) => {
      assert.ok(e instanceof UserError, String(e));
      assert.match(e.message, /rgraph\.db-wal/);
      return true;
    });
  },
);

dbTest("a database from a newer rgraph is refused with a clear error", ({ path }) => {
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  assert.throws(() => openEmbeddedStore(path), (e) => {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /^cannot open the store .*rgraph\.db: .*newer than this rgraph/);
    return true;
  });
  return Promise.resolve();
});

dbTest("a store that cannot be created is a one-line error naming the file", async ({ dir }) => {
  await Deno.writeTextFile(`${dir}/blocker`, "a file where a directory should be");
  await Deno.mkdir(`${dir}/folder`);
  for (const path of [`${dir}/blocker/rgraph.db`, `${dir}/folder`]) {
    assert.throws(() => openEmbeddedStore(path), (e) => {
      assert.ok(e instanceof UserError, String(e));
      assert.ok(e.message.startsWith(`cannot open the store ${path} (`), e.message);
      assert.equal(e.message.includes("\n"), false);
      return true;
    });
  }
});

dbTest("a writer killed mid-write leaves no half-written Resource", async ({ path }) => {
  // Writes issues with 40 comments each, 7 per call, forever, until killed.
  const writer = spawnDeno(
    `
    import { openEmbeddedStore } from "${STORE_MODULE}";
    import { issue } from "${CONTRACT_MODULE}";
    const store = openEmbeddedStore(Deno.args[0]);
    const thread = (n) => Array.from({ length: 40 }, (_, i) => ({
      node_id: "IC_" + n + "_" + i, author: "a", created_at: "2026-01-01T00:00:00Z",
      body: "x".repeat(2000),
    }));
    for (let n = 1; ; n += 7) {
      const batch = Array.from({ length: 7 }, (_, i) =>
        ({ resource: issue(n + i, { comments: thread(n + i), comment_count: 40 }) }));
      await store.putResources(batch);
      if (n === 8) console.log("writing");
    }
    `,
    [path],
  );
  const reader = writer.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("writing")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  await new Promise((r) => setTimeout(r, 150));
  writer.kill("SIGKILL");
  const status = await writer.status;
  assert.equal(status.signal, "SIGKILL");
  reader.releaseLock();
  await writer.stdout.cancel().catch(() => {});
  await writer.stderr.cancel();

  const store = openEmbeddedStore(path);
  const stats = await store.memoryStats();
  assert.ok(stats.resources.issue >= 5, `only ${stats.resources.issue} issues written`);
  assert.equal(stats.comments, stats.resources.issue * 40);
  for (let n = 1; n <= stats.resources.issue; n++) {
    const r = await store.getResource(`github:acme/rocket#${n}`);
    assert.ok(r && r.kind === "issue", `issue ${n} missing`);
    assert.equal(r.comments.length, 40);
  }
  await store.close();
});

dbTest("8 processes recording at once lose and double nothing", async ({ path }) => {
  const procs = Array.from({ length: 8 }, (_, p) =>
    spawnDeno(
      `
      import { openEmbeddedStore } from "${STORE_MODULE}";
      import { touch } from "${CONTRACT_MODULE}";
      const [path, p] = Deno.args;
      for (let i = 0; i < 25; i++) {
        const store = openEmbeddedStore(path);
        // Every process also re-delivers the events of process 0: recorded once.
        await store.recordTouches([
          touch("alice", "github:acme/rocket#" + i, { dedup_key: "p" + p + "-" + i }),
          touch("alice", "github:acme/rocket#" + i, { dedup_key: "p0-" + i }),
        ]);
        await store.close();
      }
      `,
      [path, String(p)],
    ));
  const results = await Promise.all(procs.map((c) => c.output()));
  for (const r of results) assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
  const store = openEmbeddedStore(path);
  const touches = await store.listTouches("alice");
  assert.equal(touches.length, 8 * 25);
  assert.equal(new Set(touches.map((t) => t.dedup_key)).size, 8 * 25);
  await store.close();
});

dbTest("two Sweep processes leasing at once never take the same Touch", async ({ path }) => {
  const store = openEmbeddedStore(path);
  await store.recordTouches(
    Array.from({ length: 300 }, (_, i) => touch("alice", `github:acme/rocket#${i + 1}`)),
  );
  await store.close();
  const sweeps = ["sweep-a", "sweep-b"].map((owner) =>
    spawnDeno(
      `
      import { openEmbeddedStore } from "${STORE_MODULE}";
      const [path, owner] = Deno.args;
      const store = openEmbeddedStore(path);
      const ids = [];
      for (;;) {
        const batch = await store.leasePending(owner, 7, 60000);
        if (batch.length === 0) break;
        for (const t of batch) {
          ids.push(t.id);
          await store.settleTouch(t.id, owner, { status: "resolved", target: t.address });
        }
      }
      console.log(JSON.stringify(ids));
      `,
      [path, owner],
    )
  );
  const outs = await Promise.all(sweeps.map((c) => c.output()));
  const leased = outs.map((o) => {
    assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
    return JSON.parse(new TextDecoder().decode(o.stdout)) as string[];
  });
  const all = leased.flat();
  assert.equal(all.length, 300);
  assert.equal(new Set(all).size, 300, "a Touch was leased by both Sweeps");
  const after = openEmbeddedStore(path);
  const touches = await after.listTouches("alice");
  assert.ok(touches.every((t) => t.status === "resolved"));
  await after.close();
});

dbTest("an older database is migrated on open and keeps its Touches", async ({ path }) => {
  const db = new DatabaseSync(path);
  migrate(db, 1);
  db.prepare(
    `INSERT INTO touches (id, user_id, provenance, address, kind, recorded_at, dedup_key, status)
     VALUES ('t-old', 'alice', 'FETCHED', 'github:acme/rocket#1', 'item',
             '2026-01-01T00:00:00.000Z', 'k-old', 'pending')`,
  ).run();
  db.close();
  const store = openEmbeddedStore(path);
  assert.deepEqual((await store.listTouches("alice")).map((t) => t.id), ["t-old"]);
  assert.deepEqual((await store.unexportedTouches(10)).map((t) => t.id), ["t-old"]);
  await store.close();
});

dbTest(
  "memoryStats counts as writes go what exporting every Resource counts, through refetches and transfers",
  async ({ path }) => {
    const store = openEmbeddedStore(path);
    try {
      const counted = () => {
        const resources = { repository: 0, issue: 0, pull_request: 0 };
        let comments = 0;
        for (const writes of store.exportResources()) {
          for (const { resource: r } of writes) {
            resources[r.kind]++;
            if (r.kind !== "repository") comments += r.comments.length;
            if (r.kind === "pull_request") comments += r.review_comments.length;
          }
        }
        return { resources, comments };
      };
      const steps = [
        [{ resource: repository() }, { resource: issue(1) }, { resource: issue(2) }],
        [{ resource: pullRequest(3) }],
        // A refetch with no comments, and one with more.
        [
          { resource: issue(1, { comments: [] }) },
          { resource: issue(2, { comments: [...issue(9).comments, ...issue(8).comments] }) },
        ],
        // A transferred issue: a new node id at the old address replaces the stale Resource.
        [{ resource: issue(2, { node_id: "I_transferred" }) }],
      ];
      for (const writes of steps) {
        await store.putResources(writes);
        const { resources, comments } = await store.memoryStats();
        assert.deepEqual({ resources, comments }, counted());
      }
    } finally {
      await store.close();
    }
  },
);

dbTest(
  "a database from before Touches were counted as they came counts the ones it holds",
  async ({ path }) => {
    const db = new DatabaseSync(path);
    migrate(db, 6);
    db.prepare(
      `INSERT INTO resources (id, node_id, address, kind, owner, repo, number, comment_count,
       fetched_at, updated_at)
     VALUES (1, 'I_1', 'github:acme/rocket#1', 'issue', 'acme', 'rocket', 1, 250,
             '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO touches (id, user_id, provenance, address, kind, recorded_at, dedup_key, status,
       outcome, target, reason)
     VALUES (?, ?, 'FETCHED', 'github:acme/rocket#1', 'item', ?, ?, ?, ?, ?, ?)`,
    );
    const rows = [
      ["alice", "2026-01-02T00:00:00.000Z", "pending", null, null, null],
      ["alice", "2026-01-01T00:00:00.000Z", "pending", null, null, null],
      ["alice", "2026-01-03T00:00:00.000Z", "served", "hit", "github:acme/rocket#1", null],
      ["alice", "2026-01-04T00:00:00.000Z", "served", "miss", null, null],
      ["alice", "2026-01-05T00:00:00.000Z", "unresolved", null, null, "not_found"],
      ["bob", "2026-01-05T00:00:00.000Z", "resolved", null, "github:acme/rocket#1", null],
    ] as const;
    for (const [i, r] of rows.entries()) insert.run(`t${i}`, r[0], r[1], `k${i}`, ...r.slice(2));
    db.close();
    const store = openEmbeddedStore(path);
    try {
      assert.deepEqual(await store.userStats("alice"), {
        cache_reads: { hit: 1, subsumed: 0, miss: 1 },
        // The item and its three pages of comments.
        requests_avoided: 4,
        pending: 2,
        oldest_pending: "2026-01-01T00:00:00.000Z",
        resolved: 0,
        unresolved: { not_found: 1 },
      });
      assert.equal((await store.userStats("bob")).resolved, 1);
      await store.forgetTouches("alice", { all: true });
      assert.deepEqual((await store.userStats("alice")).cache_reads, {
        hit: 0,
        subsumed: 0,
        miss: 0,
      });
      assert.equal((await store.userStats("alice")).requests_avoided, 0);
    } finally {
      await store.close();
    }
  },
);

dbTest(
  "a database from before references were turned round reads REFERENCES from mentioner to mentioned",
  async ({ path }) => {
    const db = new DatabaseSync(path);
    migrate(db, 2);
    // Version 2 kept an item's mentioners under `references` and drew (mentioned)->(mentioner).
    const { mentioned, mentioner } = OLD_REFERENCES;
    for (const [id, r] of [[1, mentioned], [2, mentioner]] as const) {
      db.prepare(
        `INSERT INTO resources (id, node_id, address, kind, owner, repo, number, title, state,
           fetched_at, updated_at) VALUES (?, ?, ?, 'issue', 'acme', 'rocket', ?, ?, 'open', ?, ?)`,
      ).run(id, r.node_id, r.address, r.number, r.title, r.fetched_at, r.updated_at);
      const { referenced_by, comments: _, ...rest } = r;
      db.prepare("INSERT INTO resource_data (id, data) VALUES (?, ?)")
        .run(id, JSON.stringify({ ...rest, references: referenced_by }));
    }
    db.prepare("INSERT INTO edges (from_id, kind, to_id) VALUES (1, 'REFERENCES', 2)").run();
    db.prepare(
      "INSERT INTO pending_refs (target_key, kind, from_id) VALUES ('github:acme/rocket#3', 'REFERENCES', 1)",
    ).run();
    db.close();
    const store = openEmbeddedStore(path);
    try {
      await assertUpgradedReferences(store);
    } finally {
      await store.close();
    }
  },
);

dbTest("the outbox hands out each user's Touches until marked exported", async ({ path }) => {
  const store = openEmbeddedStore(path);
  const touches = [
    touch("alice", "github:acme/rocket#1"),
    touch("bob", "github:acme/rocket#2"),
    touch("alice", "github:acme/rocket#3"),
  ];
  await store.recordTouches(touches);
  const first = await store.unexportedTouches(2);
  assert.deepEqual(first.map((t) => t.address), touches.slice(0, 2).map((t) => t.address));
  await store.markExported(first.map((t) => t.id), "2026-03-03T00:00:00.000Z");
  await store.recordTouches(touches); // re-delivery adds nothing to send
  const rest = await store.unexportedTouches(10);
  assert.deepEqual(rest.map((t) => t.address), ["github:acme/rocket#3"]);
  await store.markExported(rest.map((t) => t.id), "2026-03-03T00:00:00.000Z");
  assert.deepEqual(await store.unexportedTouches(10), []);
  assert.equal((await store.listTouches("alice")).length, 2, "exported Touches stay readable");
  await store.close();
});

dbTest(
  "exporting into another store reproduces Resources, aliases, edges and Listings",
  async ({ dir, path }) => {
    const source = openEmbeddedStore(path);
    const closes = pullRequest(5, { closes: ["https://github.com/acme/rocket/issues/1"] });
    await source.putResources([
      { resource: issue(1) },
      { resource: closes },
      { resource: repository() },
    ]);
    const renamed = repository({
      address: "github:acme/rocket-engine",
      repo: "rocket-engine",
      url: "https://github.com/acme/rocket-engine",
    });
    await source.putResources([{ resource: renamed }]);
    const key = listingAddress("acme", "rocket", "issues", { state: "all" }, null).key;
    const l: Listing = {
      key,
      owner: "acme",
      repo: "rocket",
      listing: "issues",
      filters: { state: "all", labels: [] },
      limit: null,
      total_count: 2,
      member_count: 2,
      fully_expanded: true,
      fetched_at: "2026-03-02T09:15:00.000Z",
    };
    await source.putListing(l, ["github:acme/rocket#5", "github:acme/rocket#1"]);

    const target = openEmbeddedStore(`${dir}/copy.db`);
    let batches = 0;
    for (const writes of source.exportResources(2)) {
      batches++;
      await target.putResources(writes);
    }
    assert.equal(batches, 2);
    for (const { listing, members } of source.exportListings()) {
      await target.putListing(listing, members);
    }
    for (
      const a of [
        "github:acme/rocket#1",
        "github:acme/rocket#5",
        "github:acme/rocket",
        renamed.address,
      ]
    ) {
      assert.deepEqual(await target.getResource(a), await source.getResource(a), a);
    }
    assert.deepEqual(await target.edges("github:acme/rocket#1"), [
      { kind: "CLOSES", from: "github:acme/rocket#5", to: "github:acme/rocket#1" },
    ]);
    assert.deepEqual(await target.getListing(key), l);
    assert.deepEqual(await target.listingMembers(key), await source.listingMembers(key));
    assert.deepEqual(await target.memoryStats().then((s) => s.resources), {
      repository: 1,
      issue: 1,
      pull_request: 1,
    });
    await source.close();
    await target.close();
  },
);

Deno.test("sqlite store: reference URLs normalise to item keys, anything else is no edge", () => {
  const cases: [string, string | null][] = [
    ["https://github.com/Acme/Rocket/issues/5", "github:acme/rocket#5"],
    ["https://github.com/acme/rocket/pull/12/files", "github:acme/rocket#12"],
    ["https://www.github.com/acme/rocket/issues/7#issuecomment-99", "github:acme/rocket#7"],
    ["http://github.com/acme/rocket/pull/3?w=1", "github:acme/rocket#3"],
    ["https://api.github.com/repos/acme/rocket/issues/5", "github:acme/rocket#5"],
    ["https://api.github.com/repos/acme/rocket/pulls/6", "github:acme/rocket#6"],
    ["github:Acme/rocket#8", "github:acme/rocket#8"],
    ["https://github.com/acme/rocket/issues/new", null],
    ["https://github.com/acme/rocket/issues/0", null],
    ["https://github.com/acme/rocket/discussions/5", null],
    ["https://github.com/acme/rocket", null],
    ["https://gitlab.com/acme/rocket/issues/5", null],
    ["acme/rocket#5", null],
    ["not a url", null],
  ];
  for (const [text, key] of cases) assert.equal(referenceKey(text), key, text);
});

dbTest("the change mark moves when another connection writes, and only then", async ({ path }) => {
  const viewer = openEmbeddedStore(path);
  const writer = openEmbeddedStore(path);
  try {
    const first = await viewer.changeMark("alice");
    await viewer.listTouches("alice");
    assert.equal(await viewer.changeMark("alice"), first);
    await writer.recordTouches([touch("alice", "github:acme/rocket#1")]);
    const touched = await viewer.changeMark("alice");
    assert.notEqual(touched, first);
    await writer.putResources([{ resource: issue(1) }]);
    assert.notEqual(await viewer.changeMark("alice"), touched);
  } finally {
    await writer.close();
    await viewer.close();
  }
});
