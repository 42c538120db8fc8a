/**
 * Damaged stores through real processes: a file that is not a database, a
 * truncated one, a data directory that cannot be written, a read-only
 * database, and one locked by another process. Every command says so in one
 * line naming the file and the fix and exits 1; `doctor` fails the store
 * check with that fix; the hook exits 0 within its time, prints nothing and
 * logs which Touch it lost and why.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  bashCallPayload,
  permissionsEnforceable,
  type RunResult,
  type Sandbox,
  sandbox,
} from "./helpers.ts";

/** A Claude Code Bash call of `gh issue view N`. */
function hookPayload(n: number): string {
  return bashCallPayload(`gh issue view ${n} -R faults-org/repo`, {
    session: "faults-session",
    toolUse: `toolu_faults_${n}`,
  });
}

/** The commands that use the store, with arguments that make each one reach it. */
const COMMANDS: string[][] = [
  ["touches"],
  ["lookup", "faults-org/repo#1"],
  ["sweep"],
  ["stats"],
  ["serve-mcp"],
  ["migrate", "--to", "bolt://127.0.0.1:9"],
];

/** One line on stderr naming the file, nothing on stdout, exit 1, no trace. */
function assertOneLine(r: RunResult, command: string, message: RegExp): void {
  assert.equal(r.code, 1, `${command}: ${r.stderr}`);
  assert.equal(r.stdout, "", command);
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `${command} printed one line: ${r.stderr}`);
  assert.ok(lines[0].startsWith(`rgraph ${command}: `), lines[0]);
  assert.match(lines[0], message, `${command}: ${lines[0]}`);
  assert.doesNotMatch(r.stderr, /internal error|\bat .*\.ts:\d+/, command);
}

/** `pattern` with the sandbox's store path in it, matched literally. */
function naming(sb: Sandbox, before: string, after: string): RegExp {
  const path = sb.dbPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`${before}${path}${after}`);
}

async function hookLog(sb: Sandbox): Promise<string> {
  try {
    return await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`);
  } catch {
    return "";
  }
}

/** Runs the hook for issue `n`: it must exit 0 and print nothing; returns the lines it logged and its time. */
async function runHookOn(
  sb: Sandbox,
  n: number,
  unprivileged: boolean,
): Promise<{ added: string[]; elapsed: number }> {
  const before = await hookLog(sb);
  const started = performance.now();
  const r = await sb.rgraph(["hook", "claude-code"], { stdin: hookPayload(n), unprivileged });
  const elapsed = performance.now() - started;
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
  const added = (await hookLog(sb)).slice(before.length).trim().split("\n").filter((l) => l);
  return { added, elapsed };
}

function spooled(sb: Sandbox): string[] {
  try {
    return [...Deno.readDirSync(`${sb.dir}/data/rgraph/touch-spool`)].map((e) => e.name);
  } catch {
    return [];
  }
}

/** The hook for issue `n` could keep its Touch nowhere: one log line says it was lost, and why. */
async function assertHookLoses(
  sb: Sandbox,
  n: number,
  why: RegExp,
  unprivileged = false,
): Promise<void> {
  const { added } = await runHookOn(sb, n, unprivileged);
  assert.equal(added.length, 1, added.join("\n"));
  assert.match(
    added[0],
    new RegExp(
      `claude-code: lost 1 Touch \\(github:faults-org/repo#${n}; session faults-session\\), not recorded: `,
    ),
  );
  assert.match(added[0], why);
}

/**
 * The hook for issue `n` keeps its Touch in the spool for the next command:
 * one log line saying so and why, or none when the store was only busy
 * (`why` null). Returns how long the hook took.
 */
async function assertHookKeeps(
  sb: Sandbox,
  n: number,
  why: RegExp | null,
  unprivileged = false,
): Promise<number> {
  const files = spooled(sb).length;
  const { added, elapsed } = await runHookOn(sb, n, unprivileged);
  assert.equal(spooled(sb).length, files + 1, "one spool file more");
  if (why === null) {
    assert.deepEqual(added, [], "a busy store is no news");
  } else {
    assert.equal(added.length, 1, added.join("\n"));
    assert.match(
      added[0],
      new RegExp(
        `claude-code: kept 1 Touch \\(github:faults-org/repo#${n}; session faults-session\\) in .*touch-spool until the store can take them: `,
      ),
    );
    assert.match(added[0], why);
  }
  return elapsed;
}

/** `doctor --json`: the failing store line carries the fault and its fix. */
async function doctorStore(sb: Sandbox, check: string, unprivileged = false) {
  const r = await sb.rgraph(["doctor", "--json", "--dir", sb.dir], { unprivileged });
  assert.equal(r.code, 1, r.stderr);
  const checks = JSON.parse(r.stdout) as {
    check: string;
    ok: boolean;
    detail: string;
    fix: string;
  }[];
  const c = checks.find((x) => x.check === check);
  assert.ok(c, `doctor has a '${check}' line: ${r.stdout}`);
  assert.equal(c.ok, false, JSON.stringify(c));
  return c;
}

/** Records Touches through the hook, so the store exists with real content. */
async function seed(sb: Sandbox, count: number): Promise<void> {
  for (let n = 100; n < 100 + count; n++) {
    const r = await sb.rgraph(["hook", "claude-code"], { stdin: hookPayload(n) });
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(await hookLog(sb), "");
  // The hook leaves its last writes in the write-ahead log; a command's close folds them into the
  // database file, which the damage below is done to.
  assert.equal((await sb.rgraph(["status"])).code, 0);
  await assert.rejects(Deno.stat(`${sb.dbPath}-wal`), Deno.errors.NotFound);
}

Deno.test("a file that is not a database: every command says so in one line with the fix; the hook keeps its Touch and says why", async () => {
  const sb = await sandbox();
  try {
    await Deno.mkdir(`${sb.dir}/data/rgraph`, { recursive: true });
    // Random bytes: no SQLite header.
    await Deno.writeFile(sb.dbPath, crypto.getRandomValues(new Uint8Array(8192)).map((b) => b | 1));
    const fault = naming(
      sb,
      "the store ",
      " is not a database \\(file is not a database\\): .*move it aside \\(mv ",
    );
    for (const args of COMMANDS) assertOneLine(await sb.rgraph(args), args[0], fault);
    const c = await doctorStore(sb, "store");
    assert.match(c.detail, naming(sb, "^the store ", " is not a database"));
    assert.match(c.fix, /restore it from a backup, or move it aside/);
    await assertHookKeeps(sb, 1, /is not a database/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a truncated database: every command calls it damaged in one line with the fix; the hook keeps its Touch and says why", async () => {
  const sb = await sandbox();
  try {
    await seed(sb, 30);
    // Three pages of a bigger file: the schema survives, the tables do not.
    assert.ok((await Deno.stat(sb.dbPath)).size > 3 * 4096);
    await Deno.truncate(sb.dbPath, 3 * 4096);
    const fault = naming(
      sb,
      "the store ",
      " is damaged \\(database disk image is malformed\\): restore it from a backup",
    );
    for (const args of COMMANDS) assertOneLine(await sb.rgraph(args), args[0], fault);
    assert.match((await doctorStore(sb, "store")).detail, /is damaged/);
    await assertHookKeeps(sb, 1, /is damaged/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a data directory that cannot be created: one line naming the store and the fix", async () => {
  const sb = await sandbox();
  try {
    // A file where the store's directory should be.
    await Deno.writeTextFile(`${sb.dir}/data`, "not a directory");
    const fault = naming(
      sb,
      "cannot open the store ",
      " \\(.*\\): make its directory writable or set \\[store\\] path",
    );
    for (const args of COMMANDS.filter(([c]) => c !== "migrate")) {
      assertOneLine(await sb.rgraph(args), args[0], fault);
    }
    assert.match((await doctorStore(sb, "store")).fix, /make its directory writable/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test({
  name:
    "a data directory that is not writable: one line naming the store and the fix; the hook logs the lost Touch",
  ignore: !permissionsEnforceable(),
  async fn() {
    const sb = await sandbox();
    try {
      // The store's folder is the data directory. The hook may still append to its log there
      // (a file of its own, 0600), so the Touch it loses is logged.
      const dir = `${sb.dir}/data/rgraph`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(`${dir}/hook.log`, "", { mode: 0o600 });
      await Deno.chmod(dir, 0o555);
      // rgraph creates the database file itself (0600) before SQLite opens it: the file system's
      // refusal, or SQLite's when the file is there.
      const fault = naming(
        sb,
        "cannot open the store ",
        " \\((unable to open database file|Permission denied).*\\): make its directory writable",
      );
      for (const args of COMMANDS.filter(([c]) => c !== "migrate")) {
        assertOneLine(await sb.rgraph(args, { unprivileged: true }), args[0], fault);
      }
      assert.match((await doctorStore(sb, "store", true)).detail, /cannot open the store/);
      await assertHookLoses(sb, 1, /cannot open the store/, true);
    } finally {
      await Deno.chmod(`${sb.dir}/data/rgraph`, 0o755).catch(() => {});
      await sb.cleanup();
    }
  },
});

Deno.test({
  name:
    "a read-only database: writes fail in one line with the fix, reads still answer; doctor fails 'store writable'; the hook keeps its Touch, recorded once the store is writable",
  ignore: !permissionsEnforceable(),
  async fn() {
    const sb = await sandbox();
    try {
      await seed(sb, 1);
      await Deno.chmod(sb.dbPath, 0o444);
      const fault = naming(
        sb,
        "the store ",
        " is read-only \\(attempt to write a readonly database\\): let rgraph write it",
      );
      for (const args of [["lookup", "faults-org/repo#1"], ["sweep"]]) {
        assertOneLine(await sb.rgraph(args, { unprivileged: true }), args[0], fault);
      }
      const t = await sb.rgraph(["touches", "--json"], { unprivileged: true });
      assert.equal(t.code, 0, t.stderr);
      assert.deepEqual(JSON.parse(t.stdout).map((x: { address: string }) => x.address), [
        "github:faults-org/repo#100",
      ]);
      assert.equal((await sb.rgraph(["stats"], { unprivileged: true })).code, 0);
      const c = await doctorStore(sb, "store writable", true);
      assert.match(c.detail, /is read-only/);
      assert.match(c.fix, /chmod u\+w /);
      await assertHookKeeps(sb, 1, /is read-only/, true);
      // Read-only still: a command reads on and the kept Touch waits.
      const still = await sb.rgraph(["touches", "--json"], { unprivileged: true });
      assert.equal(JSON.parse(still.stdout).length, 1);
      // Writable again: doctor passes, and the next command records the kept Touch.
      for (const suffix of ["", "-wal", "-shm"]) {
        await Deno.chmod(`${sb.dbPath}${suffix}`, 0o644).catch(() => {});
      }
      const d = await sb.rgraph(["doctor", "--json", "--dir", sb.dir], { unprivileged: true });
      const checks = JSON.parse(d.stdout) as { check: string; ok: boolean }[];
      assert.equal(checks.find((x) => x.check === "store writable")?.ok, true);
      const after = await sb.rgraph(["touches", "--json"], { unprivileged: true });
      assert.deepEqual(JSON.parse(after.stdout).map((x: { address: string }) => x.address), [
        "github:faults-org/repo#1",
        "github:faults-org/repo#100",
      ]);
      assert.deepEqual(spooled(sb), [], "the spool is empty once recorded");
    } finally {
      await sb.cleanup();
    }
  },
});

/**
 * Holds the store's write lock from this process (another process to every
 * `rgraph` the test runs) while `fn` runs; `exclusive` also shuts readers out.
 */
async function withLock(path: string, exclusive: boolean, fn: () => Promise<void>): Promise<void> {
  const db = new DatabaseSync(path);
  try {
    if (exclusive) {
      db.exec("PRAGMA locking_mode = EXCLUSIVE");
      db.exec("BEGIN IMMEDIATE; DELETE FROM touches WHERE 0; COMMIT");
      db.exec("BEGIN IMMEDIATE");
    } else {
      db.exec("BEGIN IMMEDIATE");
    }
    await fn();
  } finally {
    if (db.isTransaction) db.exec("ROLLBACK");
    db.close();
  }
}

Deno.test("a store another process holds the write lock on: the hook gives up within a second and keeps its Touch for the next command; writers fail in one line; readers answer", async () => {
  const sb = await sandbox();
  try {
    await seed(sb, 1);
    // Same-run reference: the same hook with nothing in its way.
    const reference = performance.now();
    const free = await sb.rgraph(["hook", "claude-code"], { stdin: hookPayload(2) });
    const unlocked = performance.now() - reference;
    assert.equal(free.code, 0);
    await withLock(sb.dbPath, false, async () => {
      const locked = await assertHookKeeps(sb, 3, null);
      assert.ok(
        locked - unlocked < 1000,
        `the hook waited ${Math.round(locked - unlocked)} ms longer than without the lock`,
      );
      const fault = naming(
        sb,
        "the store ",
        " is locked by another process \\(database is locked\\): wait for that process",
      );
      const [lookup, sweep, touches] = await Promise.all([
        sb.rgraph(["lookup", "faults-org/repo#1"]),
        sb.rgraph(["sweep"]),
        sb.rgraph(["touches", "--json"]),
      ]);
      assertOneLine(lookup, "lookup", fault);
      assertOneLine(sweep, "sweep", fault);
      assert.equal(touches.code, 0, touches.stderr);
      assert.equal(JSON.parse(touches.stdout).length, 2, "readers are not blocked by a writer");
      assert.match(
        (await doctorStore(sb, "store writable")).detail,
        /is locked by another process/,
      );
    });
    // Lock released: the next command records what the hook kept, and nothing was lost.
    const t = await sb.rgraph(["touches", "--json"]);
    assert.deepEqual(JSON.parse(t.stdout).map((x: { address: string }) => x.address), [
      "github:faults-org/repo#3",
      "github:faults-org/repo#2",
      "github:faults-org/repo#100",
    ]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a store another process holds exclusively: every command says it is locked in one line; the hook gives up and keeps its Touch", async () => {
  const sb = await sandbox();
  try {
    await seed(sb, 1);
    await withLock(sb.dbPath, true, async () => {
      const fault = naming(sb, "the store ", " is locked by another process");
      const [doctor, ...results] = await Promise.all([
        doctorStore(sb, "store"),
        ...COMMANDS.map((args) => sb.rgraph(args)),
      ]);
      results.forEach((r, i) => assertOneLine(r, COMMANDS[i][0], fault));
      assert.match(doctor.detail, /is locked by another process/);
      await assertHookKeeps(sb, 1, null);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("an internal error prints one line saying where its full trace was saved, never the trace itself", async () => {
  const sb = await sandbox();
  try {
    const { openEmbeddedStore } = await import("../lib/store/mod.ts");
    const { issue } = await import("./store_contract.ts");
    const store = openEmbeddedStore(sb.dbPath);
    await store.putResources([{ resource: issue(7) }]);
    await store.close();
    // Content SQLite cannot see is wrong: to rgraph, as if its own writer had a bug.
    const db = new DatabaseSync(sb.dbPath);
    db.exec('UPDATE resource_data SET data = \'{"kind": "issue", \' ');
    db.close();
    const r = await sb.rgraph(["lookup", "acme/rocket#7"]);
    assert.equal(r.code, 70);
    assert.equal(r.stdout, "");
    const log = `${sb.dir}/data/rgraph/error.log`;
    assert.match(
      r.stderr,
      new RegExp(`^rgraph lookup: internal error: SyntaxError: .* \\(full trace in ${log}\\)\\n$`),
    );
    const trace = await Deno.readTextFile(log);
    assert.match(trace, /^\d{4}-\d\d-\d\dT[\d:.]+Z rgraph \d+\.\d+\.\d+ lookup: SyntaxError: /);
    assert.match(trace, /\n\s+at .*store\.ts:\d+/, "the saved trace has the stack");
  } finally {
    await sb.cleanup();
  }
});
