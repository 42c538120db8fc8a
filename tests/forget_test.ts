/**
 * `rgraph forget` on the embedded store, end to end: Touches recorded by real
 * `rgraph hook` processes and settled by a real `rgraph sweep` against the
 * GitHub emulator, then forgotten each way and read back as a person would
 * (`touches --json`, `stats --json`, `lookup`), with the memory-read notes
 * and `hook.log` lines that named them, and the bytes of the SQLite files
 * (database, write-ahead log, shared memory) checked for a forgotten session
 * id. Other users' Touches and every Resource stay.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { configToml, type RunResult, type Sandbox, sandbox } from "./helpers.ts";
import { migrate } from "../lib/store/sqlite/schema.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const key = (n: number) => `github:${BIG}#${n}`;
const SECRET_A = "alice-secret-session-7f3a9c";
const SESSION_B = "alice-session-b";

interface TouchJson {
  id: string;
  address: string;
  session_id: string | null;
  status: string;
  recorded_at: string;
  provenance: string;
}

async function ok(run: Promise<RunResult>, what: string): Promise<RunResult> {
  const r = await run;
  assert.equal(r.code, 0, `${what}: exit ${r.code}: ${r.stderr}`);
  return r;
}

async function touchesOf(sb: Sandbox): Promise<TouchJson[]> {
  return JSON.parse((await ok(sb.rgraph(["touches", "--json"]), "touches")).stdout);
}

async function forgetJson(sb: Sandbox, args: string[]) {
  return JSON.parse((await ok(sb.rgraph(["forget", "--json", ...args]), "forget")).stdout);
}

let toolUse = 0;

/** A Claude Code hook event of `session`, from `sb`'s user. */
async function hook(sb: Sandbox, session: string, event: Record<string, unknown>) {
  await ok(
    sb.rgraph(["hook", "claude-code"], {
      stdin: JSON.stringify({ session_id: session, cwd: sb.dir, ...event }),
    }),
    "hook",
  );
}

const bash = (command: string) => ({
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: `toolu_forget_${++toolUse}`,
});

/** How many times `needle` occurs in the database file and its WAL and shared-memory files. */
async function occurrences(dbPath: string, needle: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const bytes = new TextEncoder().encode(needle);
  for (const suffix of ["", "-wal", "-shm"]) {
    let data: Uint8Array;
    try {
      data = await Deno.readFile(`${dbPath}${suffix}`);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      throw e;
    }
    let n = 0;
    outer: for (let i = 0; i <= data.length - bytes.length; i++) {
      for (let j = 0; j < bytes.length; j++) if (data[i + j] !== bytes[j]) continue outer;
      n++;
    }
    out[`rgraph.db${suffix}`] = n;
  }
  return out;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

interface World {
  gh: Emulator;
  alice: Sandbox;
  bob: Sandbox;
  close(): Promise<void>;
}

/**
 * Alice and Bob on one machine's embedded store (one file, two users):
 * Alice reads in two sessions, pastes a link and asks the resource tool;
 * Bob reads one of the same issues; Alice's Sweep settles everything.
 */
async function world(): Promise<World> {
  const gh = await startEmulator();
  const github = `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\n` +
    `graphql_url = "${gh.graphqlUrl}"\n`;
  const alice = await sandbox({ extra: github });
  const bob = await sandbox({ userId: "bob" });
  await bob.writeConfig(configToml(alice.dbPath, { userId: "bob" }));
  await hook(alice, SECRET_A, bash(`gh issue view 3 -R ${BIG}`));
  await hook(alice, SECRET_A, bash(`gh pr view 610 -R ${BIG}`));
  await hook(alice, SECRET_A, {
    hook_event_name: "UserPromptSubmit",
    prompt: `see https://github.com/${BIG}/issues/7`,
  });
  await hook(alice, SECRET_A, {
    hook_event_name: "PreToolUse",
    tool_name: "mcp__rgraph__resource",
    tool_input: { address: `${BIG}#3` },
    tool_use_id: "toolu_resource_1",
  });
  await hook(alice, SESSION_B, bash(`gh issue view 3 -R ${BIG}`));
  await hook(alice, SESSION_B, bash(`gh repo view ${BIG}`));
  await hook(bob, "bob-session", bash(`gh issue view 3 -R ${BIG}`));
  const swept = JSON.parse((await ok(alice.rgraph(["sweep", "--json"]), "sweep")).stdout);
  assert.equal(
    swept.resolved,
    6,
    "the Sweep settled every Touch (its lease and settle rewrote each row)",
  );
  return {
    gh,
    alice,
    bob,
    async close() {
      await gh.close();
      await alice.cleanup();
      await bob.cleanup();
    },
  };
}

function noteCount(sb: Sandbox): number {
  try {
    return [...Deno.readDirSync(`${sb.dir}/data/rgraph/memory-reads`)].length;
  } catch {
    return 0;
  }
}

Deno.test("forget --session: the session's Touches, notes and log lines go, and no byte of its id stays in the file", async () => {
  const w = await world();
  const { alice, bob } = w;
  try {
    const log = `${alice.dir}/data/rgraph/hook.log`;
    const lines = [
      `2026-03-01T10:00:00.000Z claude-code: could not read ${key(3)} (example)`,
      `2026-03-01T10:00:01.000Z claude-code: from https://github.com/${BIG}/pull/610/files`,
      `2026-03-01T10:00:02.000Z claude-code: ${key(31)} is another issue`,
      `2026-03-01T10:00:03.000Z claude-code: no [identity] user_id in the config file`,
      `2026-03-01T10:00:04.000Z claude-code: session ${SECRET_A} ended`,
    ];
    await Deno.writeTextFile(log, lines.join("\n") + "\n", { append: true });
    const before = await touchesOf(alice);
    assert.equal(before.filter((t) => t.session_id === SECRET_A).length, 3);
    // With a graph store, store.log names the nodes it could not read: Touches by id.
    const storeLog = `${alice.dir}/data/rgraph/store.log`;
    const forgotten = before.find((t) => t.session_id === SECRET_A)!.id;
    const kept = before.find((t) => t.session_id === SESSION_B)!.id;
    const storeLines = [
      `2026-03-01T10:00:05.000Z skipped Touch ${forgotten}: no kind`,
      `2026-03-01T10:00:06.000Z skipped Resource ${key(3)} (node I_x): no title`,
      `2026-03-01T10:00:07.000Z skipped Touch ${kept}: no kind`,
    ];
    await Deno.writeTextFile(storeLog, storeLines.join("\n") + "\n");
    assert.equal(noteCount(alice), 1);
    assert.ok(total(await occurrences(alice.dbPath, SECRET_A)) > 0, "the id was in the file");
    const reader = openEmbeddedStore(alice.dbPath);
    await reader.getHeads([key(3)]);

    const preview = await forgetJson(alice, ["--session", SECRET_A, "--dry-run"]);
    assert.deepEqual(preview.counts, {
      touches: 3,
      local: 3,
      shared: null,
      memory_reads: 1,
      log_lines: 5,
    });
    assert.equal(preview.dry_run, true);
    assert.deepEqual(await touchesOf(alice), before, "a dry run deletes nothing");
    assert.equal(noteCount(alice), 1);
    const text = await ok(alice.rgraph(["forget", "--session", SECRET_A, "--dry-run"]), "dry");
    assert.match(text.stdout, /^would forget 3 Touches, 1 memory-read note and 5 log lines:\n\n/);
    assert.match(text.stdout, new RegExp(`PROMPTED\\s+resolved\\s+${key(7)}`));

    const done = await forgetJson(alice, ["--session", SECRET_A]);
    assert.equal(done.dry_run, false);
    assert.deepEqual(
      done.touches.map((t: TouchJson) => t.address).sort(),
      [key(3), key(610), key(7)].sort(),
    );
    const after = await touchesOf(alice);
    assert.deepEqual(
      after.map((t) => [t.session_id, t.address]),
      // Newest first, as `rgraph touches` lists them.
      [[SESSION_B, `github:${BIG}`], [SESSION_B, key(3)]],
    );
    assert.deepEqual((await touchesOf(bob)).map((t) => t.address), [key(3)], "bob's stays");
    assert.equal(noteCount(alice), 0);
    // The lines naming #3, #610 (by URL) and the session go; #31 and the rest stay.
    assert.deepEqual((await Deno.readTextFile(log)).trimEnd().split("\n"), [lines[2], lines[3]]);
    assert.deepEqual((await Deno.readTextFile(storeLog)).trimEnd().split("\n"), [storeLines[2]]);
    // A long-lived reader (as serve-mcp is) kept the write-ahead log and shared memory open.
    const files = await occurrences(alice.dbPath, SECRET_A);
    assert.deepEqual(Object.keys(files), ["rgraph.db", "rgraph.db-wal", "rgraph.db-shm"]);
    assert.equal(total(files), 0, JSON.stringify(files));
    // Every Resource stays: Bob is still served the forgotten reads.
    for (const n of [3, 610, 7]) {
      const hit = await ok(bob.rgraph(["lookup", key(n)]), "lookup");
      assert.match(hit.stdout, /^rgraph: hit /);
    }

    await reader.close();
    assert.equal(total(await occurrences(alice.dbPath, SECRET_A)), 0);

    // Twice is a no-op.
    const again = await ok(alice.rgraph(["forget", "--session", SECRET_A]), "again");
    assert.equal(again.stdout, "nothing to forget\n");
    assert.deepEqual(await touchesOf(alice), after);
  } finally {
    await w.close();
  }
});

Deno.test("forget --address (any form), --since/--before and --all; stats follow; Resources and other users stay", async () => {
  const w = await world();
  const { alice, bob } = w;
  try {
    const stats = async (sb: Sandbox) =>
      JSON.parse((await ok(sb.rgraph(["stats", "--json"]), "stats")).stdout);
    const memory = (await stats(alice)).memory;
    assert.equal((await stats(alice)).touches.resolved, 5);

    // The Sweeps' status record remembers an error that names #610: it goes with #610.
    const record = `${alice.dir}/data/rgraph/sweep-status.json`;
    const error = `${key(610)} needs about 9000 points, more than the 5000 an hour`;
    await Deno.writeTextFile(
      record,
      JSON.stringify({ last_error: { at: "2026-03-01T10:00:00.000Z", message: error } }),
    );
    const status = async () =>
      JSON.parse((await ok(alice.rgraph(["status", "--json"]), "status")).stdout);
    assert.equal((await status()).last_error.message, error);

    // A URL, an owner/repo#N and a gh command line all name the canonical key.
    const byUrl = await forgetJson(alice, ["--address", `https://github.com/${BIG}/issues/3`]);
    assert.deepEqual(byUrl.touches.map((t: TouchJson) => t.session_id), [SECRET_A, SESSION_B]);
    assert.equal((await forgetJson(alice, ["--address", `${BIG}#3`])).counts.touches, 0);
    const byGh = await forgetJson(alice, ["--address", `gh pr view 610 -R ${BIG}`]);
    assert.deepEqual(byGh.touches.map((t: TouchJson) => t.address), [key(610)]);
    assert.equal(byGh.counts.log_lines, 1, "the status record's error named #610");
    assert.equal((await status()).last_error, null);
    assert.equal((await stats(alice)).touches.resolved, 2);
    assert.deepEqual((await touchesOf(bob)).map((t) => t.address), [key(3)]);

    const left = await touchesOf(alice);
    assert.deepEqual(left.map((t) => t.address), [`github:${BIG}`, key(7)]);
    const none = await forgetJson(alice, ["--since", "2100-01-01"]);
    assert.equal(none.counts.touches, 0);
    const early = await forgetJson(alice, ["--before", left[0].recorded_at]);
    assert.deepEqual(early.touches.map((t: TouchJson) => t.address), [key(7)]);
    const late = await forgetJson(alice, [
      "--since",
      left[0].recorded_at,
      "--before",
      "2100-01-01",
    ]);
    assert.deepEqual(late.touches.map((t: TouchJson) => t.address), [`github:${BIG}`]);

    await hook(alice, "s3", bash(`gh issue view 42 -R ${BIG}`));
    await ok(alice.rgraph(["lookup", key(3)]), "a Cache Read");
    assert.equal((await stats(alice)).cache_reads.total, 1);
    const all = await forgetJson(alice, ["--all"]);
    assert.equal(all.counts.touches, 2);
    assert.deepEqual(await touchesOf(alice), []);
    const emptied = await stats(alice);
    assert.deepEqual(emptied.touches, { pending: 0, resolved: 0, unresolved: {} });
    assert.equal(emptied.cache_reads.total, 0);
    assert.deepEqual(emptied.memory, memory, "every Resource, comment and Listing stays");
    assert.deepEqual((await touchesOf(bob)).map((t) => t.address), [key(3)]);
    assert.equal((await stats(bob)).touches.resolved, 1);
    assert.equal(
      (await ok(alice.rgraph(["forget", "--all"]), "again")).stdout,
      "nothing to forget\n",
    );
  } finally {
    await w.close();
  }
});

Deno.test("forget refuses without an identity, and bad flags are one-line usage errors that delete nothing", async () => {
  const sb = await sandbox();
  try {
    await hook(sb, "s1", bash("gh issue view 5 -R o/r"));
    const cases: [string[], number, RegExp][] = [
      [[], 2, /say what to forget: --session, --since, --before, --address or --all/],
      [["--all", "--session", "s1"], 2, /--all forgets everything; give it no other filter/],
      [["--since", "last tuesday"], 2, /--since takes a date \(2026-01-31.*or a duration ago/],
      [["--since", "2026-02-01", "--before", "2026-01-01"], 2, /--since must be earlier/],
      [["--address", "not an address at all"], 2, /not an address: "not an address at all"/],
      [["--session", ""], 2, /a filter needs a value/],
      [["extra"], 2, /unexpected argument 'extra'/],
    ];
    for (const [args, code, message] of cases) {
      const r = await sb.rgraph(["forget", ...args]);
      assert.equal(r.code, code, args.join(" "));
      assert.equal(r.stdout, "");
      assert.equal(r.stderr.trim().split("\n").length, 1);
      assert.match(r.stderr, message);
    }
    await sb.writeConfig(configToml(sb.dbPath, { userId: null }));
    const refused = await sb.rgraph(["forget", "--all"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^rgraph forget: no identity configured/);
    await sb.writeConfig(configToml(sb.dbPath));
    assert.equal((await touchesOf(sb)).length, 1, "nothing was deleted");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("forget scrubs a file written before deletes were zeroed: old copies in free space go too", async () => {
  const sb = await sandbox();
  try {
    // An older rgraph's file: schema v3, written without secure_delete, its
    // Touch rows rewritten as a Sweep's lease and settlement rewrote them.
    await Deno.mkdir(`${sb.dir}/data/rgraph`, { recursive: true });
    const db = new DatabaseSync(sb.dbPath);
    migrate(db, 3);
    const insert = db.prepare(
      `INSERT INTO touches (id, user_id, session_id, provenance, address, kind, recorded_at,
         dedup_key, status) VALUES (?, 'alice', ?, 'FETCHED', ?, 'item', ?, ?, 'pending')`,
    );
    for (let i = 0; i < 300; i++) {
      insert.run(
        `t${i}`,
        i % 3 === 0 ? SECRET_A : `other-${i}`,
        key(i + 1),
        new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        `d${i}`,
      );
    }
    db.exec("UPDATE touches SET lease_owner = 'sweep-' || id, lease_until = 1");
    db.exec("UPDATE touches SET status = 'resolved', lease_owner = NULL, lease_until = NULL");
    db.close();
    assert.ok(total(await occurrences(sb.dbPath, SECRET_A)) > 100, "old copies were left behind");

    const r = await forgetJson(sb, ["--session", SECRET_A]);
    assert.equal(r.counts.touches, 100);
    assert.equal(total(await occurrences(sb.dbPath, SECRET_A)), 0);
    assert.equal((await touchesOf(sb)).length, 200, "the other Touches stay");
    assert.ok(total(await occurrences(sb.dbPath, "other-299")) > 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("forget takes Touches a hook kept in the spool (the store was busy) as well: none comes back later", async () => {
  const sb = await sandbox();
  try {
    await hook(sb, SESSION_B, bash(`gh issue view 3 -R ${BIG}`));
    // Another process holds the write lock: the next hook keeps its Touch in the spool.
    const db = new DatabaseSync(sb.dbPath);
    db.exec("BEGIN IMMEDIATE");
    try {
      await hook(sb, SECRET_A, bash(`gh issue view 7 -R ${BIG}`));
    } finally {
      db.exec("ROLLBACK");
      db.close();
    }
    const spool = `${sb.dir}/data/rgraph/touch-spool`;
    assert.equal([...Deno.readDirSync(spool)].length, 1, "the hook kept its Touch");

    const done = await forgetJson(sb, ["--session", SECRET_A]);
    assert.deepEqual(done.touches.map((t: TouchJson) => t.address), [key(7)]);
    assert.deepEqual([...Deno.readDirSync(spool)], [], "nothing left to record later");
    assert.deepEqual((await touchesOf(sb)).map((t) => t.session_id), [SESSION_B]);
    assert.equal(total(await occurrences(sb.dbPath, SECRET_A)), 0);
  } finally {
    await sb.cleanup();
  }
});
