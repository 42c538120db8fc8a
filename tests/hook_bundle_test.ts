/**
 * The hook bundle `rgraph install` builds for speed, end to end, on a copy of
 * this checkout (so a test can change rgraph's sources): install from the
 * copy writes hook commands that run the bundle; the bundle records Touches
 * with only the environment Codex passes; when a source changes it hands the
 * call to the normal command (and doctor says the bundle is stale) until the
 * next install rebuilds it; when it is missing the shell runs the normal
 * command. The statically loaded part of the bundle holds no npm code.
 */

import assert from "node:assert/strict";
import { RGRAPH_FLAGS, type Sandbox, sandbox } from "./helpers.ts";
import { ungated } from "../lib/install/dispatch.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/** A copy of what runs rgraph from a checkout. */
async function checkoutCopy(dir: string): Promise<string> {
  const copy = `${dir}/rgraph-src`;
  for (const d of ["lib", "commands"]) await copyTree(`${ROOT}${d}`, `${copy}/${d}`);
  await Deno.mkdir(`${copy}/tests/harness`, { recursive: true });
  for (const f of ["main.ts", "deno.json", "deno.lock", "tests/harness/pins.txt"]) {
    await Deno.copyFile(`${ROOT}${f}`, `${copy}/${f}`);
  }
  return copy;
}

/** `rgraph ARGS` from the copy. */
async function rgraphFrom(copy: string, sb: Sandbox, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...RGRAPH_FLAGS, `${copy}/main.ts`, ...args],
    env: sb.env,
    cwd: sb.dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A hook command run as Codex runs one: `sh -c`, the payload on stdin, HOME and PATH only. */
async function runHook(sb: Sandbox, command: string, n: number): Promise<number> {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    env: { HOME: sb.dir, PATH: "/usr/bin:/bin" },
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify({
    session_id: "s-bundle",
    cwd: sb.dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: `gh issue view ${n} -R o/r` },
    tool_use_id: `call_${n}`,
  })));
  await w.close();
  return (await child.status).code;
}

async function recorded(sb: Sandbox): Promise<string[]> {
  const r = await sb.rgraph(["touches", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { address: string }[]).map((t) => t.address);
}

Deno.test("the hook bundle: install builds it, hooks run it, a changed source falls back to the normal command until the next install, a missing one too", async () => {
  const sb = await sandbox();
  try {
    const copy = await checkoutCopy(sb.dir);
    const project = `${sb.dir}/project`;
    await Deno.mkdir(project);
    const install = await rgraphFrom(copy, sb, ["install", "codex", "--dir", project]);
    assert.equal(install.code, 0, install.stderr);
    const built = /built the hook bundle in (\S+)/.exec(install.stdout);
    assert.ok(built, install.stdout);
    const bundle = built[1];
    const hooks = JSON.parse(await Deno.readTextFile(`${project}/.codex/hooks.json`));
    // The tool hook, behind its gate (a call that cannot read GitHub starts no Deno).
    const command: string = hooks.hooks.PreToolUse[0].hooks[0].command;
    assert.ok(ungated(command)?.startsWith(`test -f ${bundle}/hook_bundled.js && exec `), command);

    // Only the bundle can answer while the normal command's entry is gone.
    await Deno.rename(`${copy}/main.ts`, `${copy}/main.ts.away`);
    assert.equal(await runHook(sb, command, 1), 0);
    assert.deepEqual(await recorded(sb), ["github:o/r#1"]);

    // Its eager part is rgraph's own code; SQLite's store and the TOML parser load on demand.
    const eager = new Set<string>();
    const visit = async (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      const text = await Deno.readTextFile(`${bundle}/${file}`);
      assert.doesNotMatch(text, /registry\.npmjs\.org|smol-toml/, `${file} holds npm code`);
      for (const m of text.matchAll(/^(?:import|export)\b[^;]*?from "\.\/([^"]+)";/gms)) {
        await visit(m[1]);
      }
      for (const m of text.matchAll(/^import "\.\/([^"]+)";/gm)) await visit(m[1]);
    };
    await visit("hook_bundled.js");
    const all = [...Deno.readDirSync(bundle)].map((e) => e.name);
    const lazy = all.filter((f) => f.endsWith(".js") && !eager.has(f));
    assert.ok(lazy.length >= 2, `the store and config chunks load lazily: ${all}`);

    // rgraph changes: the stale bundle hands the call to the normal command, which is gone → nothing.
    const source = `${copy}/lib/capture/touch.ts`;
    await Deno.writeTextFile(source, (await Deno.readTextFile(source)) + "\n// a change\n");
    assert.equal(await runHook(sb, command, 2), 0);
    assert.deepEqual(await recorded(sb), ["github:o/r#1"], "a stale bundle never runs old code");
    await Deno.rename(`${copy}/main.ts.away`, `${copy}/main.ts`);
    assert.equal(await runHook(sb, command, 3), 0);
    assert.deepEqual(await recorded(sb), ["github:o/r#3", "github:o/r#1"]);
    const stale = await rgraphFrom(copy, sb, ["doctor", "--json", "--dir", project]);
    const check = (JSON.parse(stale.stdout) as { check: string; ok: boolean; detail: string }[])
      .find((c) => c.check === "codex (project) hook bundle");
    assert.ok(check && !check.ok && /stale/.test(check.detail), JSON.stringify(check));

    // The next install rebuilds it, in the same place: the hook commands do not change.
    const again = await rgraphFrom(copy, sb, ["install", "codex", "--dir", project]);
    assert.match(again.stdout, new RegExp(`built the hook bundle in ${bundle}`));
    assert.match(again.stdout, /already installed, nothing to change/);
    const fresh = await rgraphFrom(copy, sb, ["doctor", "--json", "--dir", project]);
    assert.ok(
      (JSON.parse(fresh.stdout) as { check: string; ok: boolean }[])
        .find((c) => c.check === "codex (project) hook bundle")?.ok,
    );

    // Gone altogether (a wiped data directory): the shell runs the normal command.
    await Deno.remove(bundle, { recursive: true });
    assert.equal(await runHook(sb, command, 4), 0);
    assert.deepEqual(await recorded(sb), ["github:o/r#4", "github:o/r#3", "github:o/r#1"]);
  } finally {
    await sb.cleanup();
  }
});
