/**
 * Code rgraph loads is not writable by others (issue 26, finding 7): under
 * umask 000 the Deno cache `install`'s `deno install` fills (the one every
 * rgraph command loads its dependencies from) was made 0777, so another local
 * user could replace code that runs as you. Under umask 000 and 002,
 * `install` and a plugin's first-run build (`plugin-start --build`) leave no
 * folder or file of the cache or the hook bundle writable by group or
 * others — a folder an earlier run left open is narrowed — and `doctor`
 * FAILs an open one with the fix.
 *
 * The caches (a fresh `DENO_DIR`, and HOME's default one) hold this run's
 * npm packages (hard-linked in, so nothing is downloaded); everything else
 * in them (the cache's own folders and databases) `deno install` makes under
 * the test's umask.
 *
 * @module
 */

import assert from "node:assert/strict";
import { claudePluginInstalled, runRgraph, type Sandbox, sandbox } from "../helpers.ts";

const octal = (m: number) => `0${(m & 0o7777).toString(8)}`;

/** This run's Deno cache (where its npm packages already are). */
function runCache(): string {
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .outputSync();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
}

/** Every folder and file under `root` (a link at it followed, links below not) that group or others may write. */
function openToOthers(at: string): string[] {
  const root = Deno.realPathSync(at);
  const out: string[] = [];
  const visit = (path: string) => {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) return;
    if ((info.mode! & 0o022) !== 0) {
      out.push(`${path.slice(root.length) || "/"} ${octal(info.mode!)}`);
    }
    if (info.isDirectory) { for (const e of Deno.readDirSync(path)) visit(`${path}/${e.name}`); }
  };
  visit(root);
  return out;
}

/**
 * A fresh Deno cache for `sb` holding this run's npm packages as hard links
 * (so nothing is downloaded), made by the test under its own umask; the rest
 * of the cache `deno install` makes. Returns its path.
 */
function freshCache(sb: Sandbox, cache = `${sb.dir}/deno-cache`): string {
  Deno.mkdirSync(cache);
  const cp = new Deno.Command("/bin/cp", { args: ["-al", `${runCache()}/npm`, `${cache}/npm`] })
    .outputSync();
  assert.ok(cp.success, new TextDecoder().decode(cp.stderr));
  return cache;
}

for (const umask of [0o000, 0o002]) {
  Deno.test(`umask ${octal(umask)}: install and a plugin's first-run build leave the Deno cache and the hook bundle writable by no one else; doctor fails an open one`, async () => {
    const sb = await sandbox();
    const cache = freshCache(sb);
    // The cache a harness's emptied environment makes Deno use (HOME's): a fresh one of its own too,
    // so what other processes of this machine write into the run's cache does not count here.
    Deno.removeSync(`${sb.dir}/.cache/deno`);
    freshCache(sb, `${sb.dir}/.cache/deno`);
    const before = Deno.umask(umask);
    try {
      const env = { DENO_DIR: cache };
      // Left open by an earlier run under this umask: narrowed, not trusted.
      Deno.mkdirSync(`${cache}/gen`, { mode: 0o777 });
      Deno.chmodSync(`${cache}/gen`, 0o777);
      const doctor = await sb.rgraph(["doctor"], { env });
      assert.match(
        doctor.stdout,
        /FAIL code cache: .*deno-cache\/gen is writable by group or others \(mode 0777\).* — fix: chmod -R go-w .*deno-cache/,
      );

      const project = `${sb.dir}/project`;
      Deno.mkdirSync(project);
      const install = await sb.rgraph(["install", "claude-code", "--dir", project], { env });
      assert.equal(install.code, 0, install.stderr);
      assert.match(install.stdout, /built the hook bundle/);
      assert.ok(Deno.statSync(`${cache}/dep_analysis_cache_v2`).isFile, "install filled the cache");
      assert.deepEqual(openToOthers(cache), [], "the DENO_DIR cache");
      assert.deepEqual(openToOthers(`${sb.dir}/.cache/deno`), [], "the harness's default cache");
      assert.deepEqual(openToOthers(`${sb.dir}/data/rgraph/hook-bundle`), [], "the hook bundle");

      // A plugin's first session builds its bundle in the plugin's folder and fills the caches.
      const bundle = `${sb.dir}/plugin-root/dist/hook-bundle`;
      const start = await sb.rgraph(["plugin-start", "--build", "--bundle-dir", bundle], { env });
      assert.equal(start.code, 0, start.stderr);
      assert.ok(Deno.statSync(`${bundle}/hook_bundled.js`).isFile);
      assert.deepEqual(openToOthers(`${sb.dir}/plugin-root/dist`), [], "the plugin's bundle");
      assert.deepEqual(openToOthers(cache), []);

      const after = await sb.rgraph(["doctor"], { env });
      assert.match(after.stdout, /ok {3}code cache: .*deno-cache.*\(not writable by others\)/);
    } finally {
      Deno.umask(before);
      await sb.cleanup();
    }
  });
}

Deno.test("doctor fails a Deno cache file another local user could rewrite", async () => {
  const sb = await sandbox();
  try {
    const cache = freshCache(sb);
    Deno.mkdirSync(`${cache}/remote`, { mode: 0o700 });
    Deno.writeTextFileSync(`${cache}/remote/module.js`, "export {};\n", { mode: 0o666 });
    Deno.chmodSync(`${cache}/remote/module.js`, 0o666);
    const r = await runRgraph(["doctor"], { env: { ...sb.env, DENO_DIR: cache } });
    assert.match(
      r.stdout,
      /FAIL code cache: .*remote\/module\.js is writable by group or others \(mode 0666\)/,
    );
    assert.notEqual(r.code, 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("doctor fails a plugin whose hook bundle group or others may write, and runs none of it", async () => {
  const sb = await sandbox();
  try {
    const root = await claudePluginInstalled(sb.dir);
    // A bundle another user could have replaced: it leaves a marker if run.
    const bundle = `${root}/dist/hook-bundle`;
    Deno.mkdirSync(bundle, { recursive: true });
    Deno.chmodSync(bundle, 0o777);
    const marker = `${sb.dir}/bundle-ran`;
    Deno.writeTextFileSync(
      `${bundle}/hook_bundled.js`,
      `Deno.writeTextFileSync(${JSON.stringify(marker)}, "ran");\n`,
    );
    const r = await sb.rgraph(["doctor", "--dir", sb.dir]);
    assert.match(
      r.stdout,
      /FAIL claude-code plugin rgraph@rgraph: .*dist\/hook-bundle is writable by group or others \(mode 0777\): .*not run — fix: chmod -R go-w /,
    );
    assert.throws(() => Deno.statSync(marker), Deno.errors.NotFound);
  } finally {
    await sb.cleanup();
  }
});
