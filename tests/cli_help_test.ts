/**
 * The CLI explains itself, through real `rgraph` processes in a fresh home
 * (no config, no data, nothing but Deno's cache): every command's `--help`
 * has USAGE and EXAMPLES and does nothing else; `rgraph help <command>` is the
 * same text; the list puts the internal commands apart, after the user's;
 * the first command a newcomer runs says what creates the missing config.
 * Every command in main.ts's list is held to this, so a new command is too.
 *
 * @module
 */

import assert from "node:assert/strict";
import { COMMANDS } from "../main.ts";
import { dateFlag } from "../lib/cli.ts";
import { runRgraph } from "./helpers.ts";

/** A home with nothing in it but a link to this run's Deno cache (no downloads). */
async function freshHome(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-fresh-" });
  const cache = Deno.env.get("DENO_DIR") ??
    `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;
  await Deno.mkdir(`${dir}/.cache`);
  await Deno.symlink(cache, `${dir}/.cache/deno`);
  return {
    dir,
    // Empty is unset to rgraph: nothing of this test run's own setup reaches the child.
    env: {
      HOME: dir,
      DENO_DIR: cache,
      NO_COLOR: "1",
      RGRAPH_CONFIG: "",
      XDG_CONFIG_HOME: "",
      XDG_DATA_HOME: "",
    },
  };
}

/** Every path under `dir` (the cache link not followed). */
function tree(dir: string, under = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${dir}/${under}`)) {
    const path = under ? `${under}/${e.name}` : e.name;
    out.push(path);
    if (e.isDirectory) out.push(...tree(dir, path));
  }
  return out.sort();
}

const NAMES = Object.keys(COMMANDS);

Deno.test("every command's --help prints USAGE and EXAMPLES of itself, and writes nothing in a fresh home", async () => {
  const home = await freshHome();
  const before = tree(home.dir);
  try {
    // Two at a time: each is a whole rgraph process.
    for (let i = 0; i < NAMES.length; i += 2) {
      await Promise.all(
        NAMES.slice(i, i + 2).map(async (name) => {
          for (const flag of ["--help", "-h"]) {
            const r = await runRgraph([name, flag], { env: home.env, cwd: home.dir });
            assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
            assert.equal(r.stderr, "", `${name} ${flag}`);
            assert.match(r.stdout, new RegExp(`^USAGE\\n  rgraph ${name}\\b`, "m"), name);
            const examples = r.stdout.slice(r.stdout.indexOf("\nEXAMPLES\n"));
            assert.ok(r.stdout.includes("\nEXAMPLES\n"), `${name} has EXAMPLES`);
            const runs = [...examples.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1]);
            assert.ok(runs.length > 0, `${name}: at least one example`);
            for (const run of runs) {
              assert.match(run, new RegExp(`^rgraph ${name}( |$)`), `${name}'s example: ${run}`);
            }
          }
        }),
      );
    }
    assert.deepEqual(tree(home.dir), before, "no --help wrote a file (config, data, bundle)");
  } finally {
    await Deno.remove(home.dir, { recursive: true });
  }
});

Deno.test("rgraph help <command> is that command's --help; an unknown one is a one-line error", async () => {
  const home = await freshHome();
  try {
    for (const name of ["lookup", "plugin-start", "touches"]) {
      const help = await runRgraph(["help", name], { env: home.env, cwd: home.dir });
      const flag = await runRgraph([name, "--help"], { env: home.env, cwd: home.dir });
      assert.equal(help.code, 0, help.stderr);
      assert.equal(help.stdout, flag.stdout, name);
    }
    const lookup = await runRgraph(["help", "lookup"], { env: home.env, cwd: home.dir });
    for (const form of ["https://github.com/OWNER/REPO", "OWNER/REPO#N", "github:OWNER/REPO#N"]) {
      assert.ok(lookup.stdout.includes(form), `lookup's help lists ${form}`);
    }
    assert.match(lookup.stdout, /gh issue view N -R OWNER\/REPO/);
    const top = await runRgraph(["help"], { env: home.env, cwd: home.dir });
    for (const flag of ["--help", "-h"]) {
      const again = await runRgraph(["help", flag], { env: home.env, cwd: home.dir });
      assert.deepEqual([again.code, again.stdout], [0, top.stdout], `help ${flag}`);
    }
    const unknown = await runRgraph(["help", "frobnicate"], { env: home.env, cwd: home.dir });
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, "rgraph help: unknown command 'frobnicate' (see 'rgraph help')\n");
    assert.deepEqual(tree(home.dir), [".cache", ".cache/deno"]);
  } finally {
    await Deno.remove(home.dir, { recursive: true });
  }
});

Deno.test("rgraph help lists the user's commands first and the internal ones apart, after them", async () => {
  const home = await freshHome();
  const r = await runRgraph(["help"], { env: home.env, cwd: home.dir });
  await Deno.remove(home.dir, { recursive: true });
  assert.equal(r.code, 0);
  const lines = r.stdout.split("\n");
  const row = (name: string) => lines.findIndex((l) => new RegExp(`^  ${name} +\\S`).test(l));
  const apart = lines.findIndex((l) => l.startsWith("INTERNAL COMMANDS"));
  assert.ok(apart > 0, r.stdout);
  for (const name of NAMES) {
    assert.ok(row(name) > 0, `${name} is listed`);
    assert.equal(row(name) > apart, COMMANDS[name].internal === true, `${name} on its side`);
  }
  assert.deepEqual(
    NAMES.filter((n) => COMMANDS[n].internal),
    ["hook", "serve-mcp", "plugin-start"],
  );
  assert.match(r.stdout, /^LEARN MORE\n {2}rgraph help <command>/m);
});

Deno.test("a newcomer's first command without a config says what creates it", async () => {
  const home = await freshHome();
  try {
    const r = await runRgraph(["status"], { env: home.env, cwd: home.dir });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(
      r.stderr,
      /^rgraph status: no identity configured: set \[identity\] user_id in .*config\.toml \(it does not exist yet: 'rgraph install <harness>' or rgraph's harness plugin writes it with your login name\)$/m,
    );
  } finally {
    await Deno.remove(home.dir, { recursive: true });
  }
});

Deno.test("date flags take what pause --for takes, as that long ago, and today and yesterday", () => {
  const now = new Date("2026-12-06T13:30:00Z");
  assert.equal(dateFlag("touches", "since", "2h", now), "2026-12-06T11:30:00.000Z");
  assert.equal(dateFlag("touches", "since", "1h30m", now), "2026-12-06T12:00:00.000Z");
  assert.equal(dateFlag("touches", "since", "1w", now), "2026-11-29T13:30:00.000Z");
  assert.equal(dateFlag("touches", "since", "today", now), "2026-12-06T00:00:00.000Z");
  assert.equal(dateFlag("stats", "since", "Yesterday", now), "2026-12-05T00:00:00.000Z");
  assert.equal(dateFlag("forget", "before", "2026-01-31", now), "2026-01-31T00:00:00.000Z");
  assert.equal(
    dateFlag("forget", "since", "2026-01-31T12:00:00Z", now),
    "2026-01-31T12:00:00.000Z",
  );
  for (const bad of ["last tuesday", "0h", "2 hours", "-1d", ""]) {
    assert.throws(
      () => dateFlag("touches", "since", bad, now),
      /--since takes a date \(2026-01-31, .*\), today, yesterday, or a duration ago \(30m, 2h, 1d, 1w\)/,
      bad,
    );
  }
});
