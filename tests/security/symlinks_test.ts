/**
 * Planted links (issue 17): with `XDG_DATA_HOME` in a shared, sticky folder
 * (a `/tmp`), another user can make `rgraph/` first and fill it with links
 * to the victim's files. rgraph refuses such a data directory with one line
 * and writes nothing — no log line into the victim's file, no truncated
 * victim through `sweep.lock` — and refuses a link even in a data directory
 * of its own. A project-scope install never follows a link out of the
 * project.
 *
 * @module
 */

import assert from "node:assert/strict";
import { bashCallPayload, type Sandbox, sandbox } from "../helpers.ts";

const root = Deno.uid() === 0;
const NOBODY = 65534;
const PRECIOUS = "precious: must survive rgraph\n";

/** The victim's files and what they must still hold. */
async function victims(sb: Sandbox): Promise<{ log: string; lock: string; check(): void }> {
  const log = `${sb.dir}/victim-notes.txt`;
  const lock = `${sb.dir}/victim-thesis.tex`;
  await Deno.writeTextFile(log, PRECIOUS);
  await Deno.writeTextFile(lock, PRECIOUS);
  return {
    log,
    lock,
    check() {
      assert.equal(Deno.readTextFileSync(log), PRECIOUS, "no log line in the victim's file");
      assert.equal(Deno.readTextFileSync(lock), PRECIOUS, "the victim's file not truncated");
    },
  };
}

/** A config with the default store, in the data directory under `XDG_DATA_HOME`. */
async function defaultStore(sb: Sandbox): Promise<void> {
  await sb.writeConfig(`[identity]\nuser_id = "alice"\n`);
}

const hookPayloads = [
  "not json", // a problem the hook would log
  bashCallPayload("gh issue view 7 -R octo/widgets", { session: "s", toolUse: "toolu_1" }),
];

/** The hook exits 0 and prints nothing for each payload. */
async function hooksStaySilent(sb: Sandbox, env: Record<string, string>): Promise<void> {
  for (const stdin of hookPayloads) {
    const r = await sb.rgraph(["hook", "claude-code"], { stdin, env });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
  }
}

function oneLine(r: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern);
}

Deno.test("a data directory another user made first in a shared XDG_DATA_HOME, with hook.log and sweep.lock linked to the victim's files: refused, victim untouched", async () => {
  const sb = await sandbox();
  try {
    const shared = `${sb.dir}/shared-tmp`;
    await Deno.mkdir(shared);
    await Deno.chmod(shared, 0o1777);
    const v = await victims(sb);
    const planted = `${shared}/rgraph`;
    await Deno.mkdir(planted);
    await Deno.symlink(v.log, `${planted}/hook.log`);
    await Deno.symlink(v.lock, `${planted}/sweep.lock`);
    // Another user's folder where the test runs as root; else one everybody may write.
    if (root) await Deno.chown(planted, NOBODY, NOBODY);
    await Deno.chmod(planted, root ? 0o755 : 0o777);
    await defaultStore(sb);
    const env = { XDG_DATA_HOME: shared };
    const listing = () => [...Deno.readDirSync(planted)].map((e) => e.name).sort();
    const before = listing();

    await hooksStaySilent(sb, env);
    v.check();
    const why = root
      ? /rgraph sweep: .*shared-tmp\/rgraph is owned by another user \(uid 65534\): /
      : /rgraph sweep: .*shared-tmp\/rgraph is writable by group or others \(mode 0777\): /;
    oneLine(await sb.rgraph(["sweep"], { env }), why);
    oneLine(
      await sb.rgraph(["status"], { env }),
      new RegExp(why.source.replace("sweep", "status")),
    );
    v.check();
    assert.deepEqual(listing(), before, "nothing created in it");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("links planted in a data directory of rgraph's own are refused, not followed", async () => {
  const sb = await sandbox();
  try {
    const data = `${sb.dir}/data/rgraph`;
    await Deno.mkdir(data, { recursive: true, mode: 0o700 });
    const v = await victims(sb);
    await Deno.symlink(v.log, `${data}/hook.log`);
    await Deno.symlink(v.lock, `${data}/sweep.lock`);

    await hooksStaySilent(sb, {});
    v.check();
    const sweep = await sb.rgraph(["sweep"]);
    oneLine(
      sweep,
      /^rgraph sweep: .*\/data\/rgraph\/sweep\.lock is a symbolic link where rgraph keeps a file of its own: remove the link \(rm .*sweep\.lock\)$/,
    );
    v.check();
    assert.ok(Deno.lstatSync(`${data}/hook.log`).isSymlink, "left for the person to look at");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a project install never follows a link out of the project: .mcp.json or .claude leading elsewhere is refused, nothing changed", async () => {
  const sb = await sandbox();
  try {
    const project = `${sb.dir}/cloned`;
    await Deno.mkdir(project);
    // Valid JSON, so an install that followed the link would rewrite it.
    const outside = `${sb.dir}/outside.json`;
    const mine = '{"mine": true}\n';
    await Deno.writeTextFile(outside, mine);
    await Deno.symlink(outside, `${project}/.mcp.json`);
    const r = await sb.rgraph(["install", "claude-code", "--dir", project]);
    oneLine(
      r,
      /^rgraph install: .*cloned\/\.mcp\.json leads outside the project \(to .*outside\.json\) through a symbolic link: .*no file was changed$/,
    );
    assert.equal(await Deno.readTextFile(outside), mine);
    await assert.rejects(Deno.lstat(`${project}/.claude`), Deno.errors.NotFound);

    await Deno.remove(`${project}/.mcp.json`);
    const elsewhere = `${sb.dir}/elsewhere`;
    await Deno.mkdir(elsewhere);
    await Deno.symlink(elsewhere, `${project}/.claude`);
    const d = await sb.rgraph(["install", "claude-code", "--dir", project]);
    oneLine(d, /cloned\/\.claude\/settings\.json leads outside the project/);
    assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
    await assert.rejects(Deno.lstat(`${project}/.mcp.json`), Deno.errors.NotFound);
  } finally {
    await sb.cleanup();
  }
});
