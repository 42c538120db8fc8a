/**
 * What installing rgraph costs a new user: `rgraph install` fills an empty
 * Deno cache with rgraph's runtime packages only. Deno installs every npm
 * package its lockfile names when a program first imports one, so the test
 * suite's packages live in a config and lockfile of their own
 * (`tests/deno.tests.json`, `tests/deno.lock`), which must pin rgraph's own
 * packages as `deno.json` and `deno.lock` do: the tests run what users run.
 *
 * @module
 */

import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const MB = 1024 * 1024;

interface Lock {
  specifiers: Record<string, string>;
  npm: Record<string, { integrity: string }>;
}

const json = (path: string) => JSON.parse(Deno.readTextFileSync(`${ROOT}${path}`));

/** The bytes of the files under `dir` (symbolic links not followed). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    total += e.isDirectory ? sizeOf(path) : Deno.lstatSync(path).size;
  }
  return total;
}

Deno.test("the tests' config and lockfile pin rgraph's own packages as deno.json and deno.lock do", () => {
  const runtime: Record<string, string> = json("deno.json").imports;
  const tests: Record<string, string> = json("tests/deno.tests.json").imports;
  for (const [name, target] of Object.entries(runtime)) {
    assert.equal(tests[name], target, `tests/deno.tests.json must map ${name} as deno.json does`);
  }
  const lock: Lock = json("deno.lock");
  const testLock: Lock = json("tests/deno.lock");
  for (const [spec, version] of Object.entries(lock.specifiers)) {
    assert.equal(testLock.specifiers[spec], version, `tests/deno.lock resolves ${spec} otherwise`);
  }
  for (const [pkg, { integrity }] of Object.entries(lock.npm)) {
    assert.equal(testLock.npm[pkg]?.integrity, integrity, `tests/deno.lock locks ${pkg} otherwise`);
  }
});

Deno.test("rgraph install fills an empty Deno cache with rgraph's runtime packages only: at most 60 MB", async () => {
  const box = await sandbox();
  try {
    // A new user: this install's own cache and HOME's (what a harness's emptied environment
    // reads) both start empty.
    await Deno.remove(`${box.dir}/.cache/deno`);
    const denoDir = `${box.dir}/deno-dir`;
    const r = await box.rgraph(["install", "claude-code", "--scope", "user"], {
      env: { DENO_DIR: denoDir },
    });
    assert.equal(r.code, 0, r.stderr);
    for (const cache of [denoDir, `${box.dir}/.cache/deno`]) {
      const packages = `${cache}/npm/registry.npmjs.org`;
      const names = [...Deno.readDirSync(packages)].map((e) => e.name);
      assert.ok(names.includes("@modelcontextprotocol"), `${cache}: the MCP SDK is there`);
      for (const testOnly of ["fast-check", "puppeteer-core", "graphql", "nock"]) {
        assert.ok(!names.includes(testOnly), `${cache}: ${testOnly} is the tests' package`);
      }
      const mb = sizeOf(packages) / MB;
      assert.ok(mb <= 60, `${cache}: ${mb.toFixed(1)} MB of npm packages`);
    }
  } finally {
    await box.cleanup();
  }
});
