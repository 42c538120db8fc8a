/**
 * The embedded store: the contract suite on real SQLite files, plus what only
 * a file shared by many processes can show — a write killed half-way leaves
 * nothing half-written, and concurrent processes neither lose nor double
 * Touches or leases.
 */

import assert from "node:assert/strict";
import { storeContract } from "./store_contract.ts";
import { openEmbeddedStore } from "../lib/store/sqlite.ts";
import { openStore } from "../lib/store/mod.ts";
import { parseConfig } from "../lib/config.ts";
import { SCHEMA_VERSION } from "../lib/store/schema.ts";
import { DatabaseSync } from "node:sqlite";

const dirs: string[] = [];

storeContract(
  "sqlite",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "rgraph-store-" });
    dirs.push(dir);
    return openEmbeddedStore(`${dir}/nested/dir/rgraph.db`);
  },
  async () => {
    for (const dir of dirs.splice(0)) await Deno.remove(dir, { recursive: true });
  },
);

async function tempDb(): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-store-" });
  return { dir, path: `${dir}/rgraph.db` };
}

const STORE_MODULE = new URL("../lib/store/sqlite.ts", import.meta.url).href;
const CONTRACT_MODULE = new URL("./store_contract.ts", import.meta.url).href;

/** Runs a TypeScript snippet as its own `deno` process. */
function spawnDeno(code: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("sqlite store: openStore opens the configured file and reopening keeps the data", async () => {
  const { dir, path } = await tempDb();
  try {
    const config = parseConfig(`[store]\npath = ${JSON.stringify(path)}\n`, `${dir}/config.toml`);
    const store = await openStore(config);
    assert.equal(store.kind, "sqlite");
    const { touch } = await import("./store_contract.ts");
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sqlite store: a database from a newer rgraph is refused with a clear error", async () => {
  const { dir, path } = await tempDb();
  try {
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    assert.throws(() => openEmbeddedStore(path), /newer than this rgraph/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sqlite store: a writer killed mid-write leaves no half-written Resource", async () => {
  const { dir, path } = await tempDb();
  try {
    // Writes issues with 40 comments each, forever, until killed.
    const writer = spawnDeno(
      `
      import { openEmbeddedStore } from "${STORE_MODULE}";
      import { issue } from "${CONTRACT_MODULE}";
      const store = openEmbeddedStore(Deno.args[0]);
      const thread = (n) => Array.from({ length: 40 }, (_, i) => ({
        node_id: "IC_" + n + "_" + i, author: "a", created_at: "2026-01-01T00:00:00Z",
        body: "x".repeat(2000),
      }));
      for (let n = 1; ; n++) {
        await store.putResources([{ resource: issue(n, { comments: thread(n), comment_count: 40 }) }]);
        if (n === 5) console.log("writing");
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sqlite store: 8 processes recording at once lose and double nothing", async () => {
  const { dir, path } = await tempDb();
  try {
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sqlite store: two Sweep processes leasing at once never take the same Touch", async () => {
  const { dir, path } = await tempDb();
  try {
    const { touch } = await import("./store_contract.ts");
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
