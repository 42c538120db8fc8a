/**
 * The data directory on start (issue 17): an existing one is checked, as ssh
 * checks `~/.ssh`. Another user's, or one group or others may write (an
 * older rgraph at umask 002 made it 0775), is refused by every command with
 * one line and its fix, while hooks exit 0 and write nothing; a store under
 * a shared sticky folder is refused too. One an older rgraph made at umask
 * 022 (0755, files 0644) is narrowed to owner-only, not refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { bashCallPayload, type Sandbox, sandbox } from "../helpers.ts";
import { bundleDir } from "../../lib/install/hook_bundle.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

const root = Deno.uid() === 0;
const NOBODY = 65534;
const mode = (path: string) => Deno.lstatSync(path).mode! & 0o7777;

/** Every name under `dir` with its size and modification time: what "nothing written" compares. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const s = Deno.lstatSync(`${dir}/${e.name}`);
    out.push(`${e.name} ${s.size} ${s.mtime?.getTime()}`);
  }
  return out.sort();
}

/** A data directory with what an older rgraph left: a store with one Touch, a log. */
async function olderData(sb: Sandbox): Promise<string> {
  const data = `${sb.dir}/data/rgraph`;
  const hook = await sb.rgraph(["hook", "claude-code"], {
    stdin: bashCallPayload("gh issue view 1 -R octo/widgets", { session: "s", toolUse: "t1" }),
  });
  assert.equal(hook.code, 0, hook.stderr);
  await Deno.writeTextFile(`${data}/hook.log`, "an older line\n");
  return data;
}

const touchPayload = (n: number) =>
  bashCallPayload(`gh issue view ${n} -R octo/widgets`, { session: "s", toolUse: `t${n}` });

async function touchCount(sb: Sandbox): Promise<number> {
  const r = await sb.rgraph(["touches", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).length;
}

/** Every command named refuses with exactly one line matching `why`; hooks exit 0 and write nothing. */
async function refusedEverywhere(sb: Sandbox, dir: string, why: RegExp): Promise<void> {
  const before = snapshot(dir);
  for (const stdin of [touchPayload(2), "not json"]) {
    const r = await sb.rgraph(["hook", "claude-code"], { stdin });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
  }
  for (
    const args of [["status"], ["touches"], ["sweep"], ["pause"], ["lookup", "octo/widgets#1"]]
  ) {
    const r = await sb.rgraph(args);
    assert.equal(r.code, 1, `${args[0]}: ${r.stdout}${r.stderr}`);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, `${args[0]}: ${r.stderr}`);
    assert.match(lines[0], new RegExp(`^rgraph ${args[0]}: ${why.source}`));
  }
  assert.deepEqual(snapshot(dir), before, "nothing written in the refused folder");
}

Deno.test("a data directory an older rgraph made 0755 with 0644 files is narrowed to 0700/0600, not refused", async () => {
  const sb = await sandbox();
  try {
    const data = await olderData(sb);
    await Deno.chmod(data, 0o755);
    for (const name of ["rgraph.db", "hook.log"]) await Deno.chmod(`${data}/${name}`, 0o644);
    const r = await sb.rgraph(["hook", "claude-code"], { stdin: "not json" });
    assert.equal(r.code, 0);
    assert.equal((await sb.rgraph(["status"])).code, 0);
    assert.equal(mode(data), 0o700);
    assert.equal(mode(`${data}/rgraph.db`), 0o600);
    assert.equal(mode(`${data}/hook.log`), 0o600);
    assert.match(
      await Deno.readTextFile(`${data}/hook.log`),
      /an older line\n.*payload is not JSON/,
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a data directory group or others may write (0775: an older rgraph at umask 002) is refused with the chmod that fixes it; hooks write nothing", async () => {
  const sb = await sandbox();
  try {
    const data = await olderData(sb);
    await Deno.chmod(data, 0o775);
    await refusedEverywhere(
      sb,
      data,
      /.*\/data\/rgraph is writable by group or others \(mode 0775\): if its contents are yours, chmod go-w .*\/data\/rgraph; else move it away$/,
    );
    const doctor = await sb.rgraph(["doctor", "--dir", sb.dir]);
    assert.notEqual(doctor.code, 0);
    assert.match(
      doctor.stdout,
      /FAIL data directory: rgraph refuses .*\/data\/rgraph: it is writable/,
    );
    // The fix it names works, and nothing was recorded while refused.
    await Deno.chmod(data, 0o755);
    assert.equal(await touchCount(sb), 1);
  } finally {
    await sb.cleanup();
  }
});

Deno.test({
  name:
    "a data directory another user owns is refused by every command; hooks exit 0 and write nothing",
  ignore: !root,
  async fn() {
    const sb = await sandbox();
    try {
      const data = await olderData(sb);
      await Deno.chown(data, NOBODY, NOBODY);
      await refusedEverywhere(
        sb,
        data,
        /.*\/data\/rgraph is owned by another user \(uid 65534\): rgraph keeps private data only in a folder of yours; /,
      );
      await Deno.chown(data, 0, 0);
      assert.equal(await touchCount(sb), 1, "nothing recorded while refused");
    } finally {
      await sb.cleanup();
    }
  },
});

Deno.test("a store in a shared sticky folder (a /tmp) is refused: keep it in a folder of your own", async () => {
  const sb = await sandbox();
  try {
    const shared = `${sb.dir}/tmp`;
    await Deno.mkdir(shared);
    await Deno.chmod(shared, 0o1777);
    await sb.writeConfig(`[identity]\nuser_id = "alice"\n[store]\npath = "${shared}/rgraph.db"\n`);
    await refusedEverywhere(
      sb,
      shared,
      /.*\/tmp is writable by group or others \(mode 01777\): it is a shared folder \(like \/tmp\): /,
    );
    assert.deepEqual([...Deno.readDirSync(shared)], []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a hook bundle folder group or others may write (code every hook runs) stops install with the fix; nothing installed", async () => {
  const sb = await sandbox();
  try {
    const data = `${sb.dir}/data/rgraph`;
    const bundle = bundleDir(data, MAIN);
    await Deno.mkdir(bundle, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(`${bundle}/hook_bundled.js`, "// someone else's code\n");
    await Deno.chmod(bundle, 0o775);
    const project = `${sb.dir}/project`;
    await Deno.mkdir(project);
    const r = await sb.rgraph(["install", "claude-code", "--dir", project]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^rgraph install: .*hook-bundle\/\w+ is writable by group or others \(mode 0775\): if its contents are yours, chmod go-w .*; else move it away\n$/,
    );
    await assert.rejects(Deno.lstat(`${project}/.claude`), Deno.errors.NotFound);
  } finally {
    await sb.cleanup();
  }
});
