/**
 * The capture policy end to end (`[capture]` in the config file): real
 * `rgraph hook` processes fed the harnesses' fixture payloads, read back with
 * `rgraph touches --json` as a person would. Excluded working directories
 * (as written, through `~`, through symlinks on either side, with trailing
 * slashes, never a mere name prefix), harnesses, tools, prompts and
 * `<private>` blocks record nothing and nudge nothing; invalid values are a
 * one-line error for commands and a logged line for hooks.
 */

import assert from "node:assert/strict";
import { runRgraph, type Sandbox, sandbox } from "./helpers.ts";
import { HARNESS_NAMES } from "../lib/capture/harness/mod.ts";
import type { HarnessName } from "../lib/types.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { issue } from "./fixtures_memory.ts";

const FIXTURES = new URL("../fixtures/payloads/", import.meta.url);

function fixtureNames(harness: HarnessName): string[] {
  return [...Deno.readDirSync(new URL(`${harness}/`, FIXTURES))]
    .map((e) => e.name.replace(/\.json$/, ""))
    .sort();
}

/** Copilot's camelCase payloads do not name their event: the hook command does. */
function eventFlag(harness: HarnessName, name: string): string[] {
  if (harness !== "copilot" || name.startsWith("vscode")) return [];
  if (name.startsWith("pre_tool_use")) return ["--event", "preToolUse"];
  if (name.startsWith("user_prompt")) return ["--event", "userPromptSubmitted"];
  return ["--event", "sessionStart"];
}

/** A fixture payload as sent from `cwd` (every field a harness names its directory in). */
function payloadIn(harness: HarnessName, name: string, cwd: string): string {
  const p = JSON.parse(Deno.readTextFileSync(new URL(`${harness}/${name}.json`, FIXTURES)));
  p.cwd = cwd;
  for (const roots of ["workspace_roots", "workspaceRoots"]) if (roots in p) p[roots] = [cwd];
  return JSON.stringify(p);
}

async function hook(sb: Sandbox, harness: HarnessName, name: string, cwd: string) {
  const r = await sb.rgraph(["hook", harness, ...eventFlag(harness, name)], {
    stdin: payloadIn(harness, name, cwd),
  });
  assert.equal(r.code, 0, r.stderr);
  return r;
}

async function touches(sb: Sandbox): Promise<{ address: string; provenance: string }[]> {
  const r = await sb.rgraph(["touches", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/**
 * Runs every fixture of `harnesses` from `cwd` (a few hooks at a time);
 * returns how many Touches that added.
 */
async function fixturesFrom(
  sb: Sandbox,
  cwd: string,
  harnesses: readonly HarnessName[] = HARNESS_NAMES,
): Promise<number> {
  const before = (await touches(sb)).length;
  const runs = harnesses.flatMap((h) => fixtureNames(h).map((name) => [h, name] as const));
  for (let i = 0; i < runs.length; i += 4) {
    await Promise.all(runs.slice(i, i + 4).map(([h, name]) => hook(sb, h, name, cwd)));
  }
  return (await touches(sb)).length - before;
}

Deno.test("exclude_paths: sessions inside an excluded directory record nothing, in every harness", async () => {
  const sb = await sandbox({
    extra: `[capture]\nexclude_paths = ["~/work/client-x/", "${"~"}/links/acme//"]\n`,
  });
  try {
    const work = `${sb.dir}/work`;
    for (const d of ["client-x/src", "client-xyz", "acme/app"]) {
      await Deno.mkdir(`${work}/${d}`, { recursive: true });
    }
    await Deno.mkdir(`${sb.dir}/links`);
    // A link into an excluded directory, and an exclusion written through a link.
    await Deno.symlink(`${work}/client-x`, `${sb.dir}/links/cx`);
    await Deno.symlink(`${work}/acme`, `${sb.dir}/links/acme`);

    const excluded = [
      `${work}/client-x`,
      `${work}/client-x/src/`,
      `${work}/client-x/src/../src`,
      `${sb.dir}/links/cx/src`,
      `${work}/acme/app`,
    ];
    assert.equal(await fixturesFrom(sb, excluded[0]), 0, "every harness, every fixture");
    for (const cwd of excluded.slice(1)) {
      assert.equal(await fixturesFrom(sb, cwd, ["claude-code"]), 0, cwd);
    }
    assert.deepEqual(await touches(sb), []);
    // Nor a note of a resource call for the server to tie a Cache Read to.
    await assert.rejects(Deno.stat(`${sb.dir}/data/rgraph/memory-reads`), Deno.errors.NotFound);

    // A name that merely starts like an excluded directory is not inside it.
    const recorded = await fixturesFrom(sb, `${work}/client-xyz`, ["claude-code", "codex"]);
    assert.ok(recorded > 10, `the sibling directory records (${recorded} Touches)`);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("exclude_paths: no Nudge from an excluded directory; the session hint still comes", async () => {
  const sb = await sandbox({ extra: `[capture]\nexclude_paths = ["~/work/client-x"]\n` });
  const store = openEmbeddedStore(sb.dbPath);
  await store.putResources([{ resource: issue("memgraph", "memgraph", 1234) }]);
  await store.close();
  try {
    const inside = `${sb.dir}/work/client-x`;
    const outside = `${sb.dir}/work/other`;
    const nudged = await hook(sb, "claude-code", "bash_gh_issue_view", outside);
    assert.match(nudged.stdout, /is in memory/, "outside, the fetch of a stored issue is nudged");
    const quiet = await hook(sb, "claude-code", "bash_gh_issue_view", inside);
    assert.equal(quiet.stdout, "");
    const hint = await hook(sb, "claude-code", "session_start", inside);
    assert.match(hint.stdout, /additionalContext/);
    assert.equal((await touches(sb)).length, 1, "only the call from outside was recorded");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("exclude_harnesses and exclude_tools record nothing from them; names match ignoring case", async () => {
  const sb = await sandbox({
    extra: `[capture]\nexclude_harnesses = ["Codex"]\n` +
      `exclude_tools = ["webfetch", "MCP__GITHUB__ISSUE_READ"]\n`,
  });
  try {
    const cwd = `${sb.dir}/app`;
    for (const name of fixtureNames("codex")) await hook(sb, "codex", name, cwd);
    assert.deepEqual(await touches(sb), [], "nothing from Codex");
    for (
      const name of ["webfetch_pull_files", "mcp_issue_read", "bash_gh_issue_view", "prompt_links"]
    ) await hook(sb, "claude-code", name, cwd);
    const got = (await touches(sb)).map((t) => `${t.provenance} ${t.address}`).sort();
    assert.deepEqual(got, [
      "FETCHED github:memgraph/memgraph#1234",
      "PROMPTED github:denoland/deno#21000",
      "PROMPTED github:memgraph/memgraph#1234",
      "PROMPTED github:memgraph/memgraph#1240",
    ]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("prompts = false: no PROMPTED Touches from any harness; tool calls still record", async () => {
  const sb = await sandbox({ extra: `[capture]\nprompts = false\n` });
  try {
    const cwd = `${sb.dir}/app`;
    await fixturesFrom(sb, cwd);
    const all = await touches(sb);
    assert.ok(all.length > 10);
    assert.deepEqual(all.filter((t) => t.provenance === "PROMPTED"), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("<private> blocks of a prompt are never scanned", async () => {
  const sb = await sandbox();
  try {
    const prompts: [string, string[]][] = [
      ["see o/r#1 <private>and o/r#2</private> then o/r#3", ["github:o/r#1", "github:o/r#3"]],
      // Tags in any case; an unclosed block hides the rest of the prompt.
      ["o/r#4 <PRIVATE>o/r#5</Private> o/r#6 <private> o/r#7 https://github.com/o/r/issues/8", [
        "github:o/r#4",
        "github:o/r#6",
      ]],
      // An inner close does not reveal the rest of an outer block.
      ["<private>a <private>o/r#9</private> o/r#10</private> o/r#11", ["github:o/r#11"]],
      // Text either side of a block never joins into an address.
      ["o/r<private>secret</private>#12", []],
      // A stray close is plain text.
      ["</private> o/r#13", ["github:o/r#13"]],
    ];
    let n = 0;
    for (const [prompt, expected] of prompts) {
      const before = new Set((await touches(sb)).map((t) => t.address));
      const r = await sb.rgraph(["hook", "claude-code"], {
        stdin: JSON.stringify({
          session_id: `private-${n++}`,
          cwd: sb.dir,
          hook_event_name: "UserPromptSubmit",
          prompt,
        }),
      });
      assert.equal(r.code, 0);
      const added = (await touches(sb)).map((t) => t.address).filter((a) => !before.has(a));
      assert.deepEqual(added.sort(), expected, prompt);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("invalid [capture] values: a one-line error for commands, a logged line for hooks", async () => {
  const cases: [string, RegExp][] = [
    [
      `exclude_paths = ["work/client-x"]`,
      /exclude_paths entries must be absolute or start with ~\//,
    ],
    [`exclude_paths = "~/work"`, /capture\.exclude_paths must be a list of non-empty strings/],
    [`exclude_harnesses = ["claude"]`, /unknown harness "claude" \(known: claude-code, /],
    [`exclude_tools = [""]`, /capture\.exclude_tools must be a list of non-empty strings/],
    [`prompts = "no"`, /capture\.prompts must be true or false/],
    [`exclude_path = ["~/work"]`, /\[capture\] has no key 'exclude_path'/],
  ];
  for (const [line, message] of cases) {
    const sb = await sandbox({ extra: `[capture]\n${line}\n` });
    try {
      const t = await sb.rgraph(["touches"]);
      assert.equal(t.code, 1, line);
      assert.equal(t.stdout, "");
      assert.equal(t.stderr.trim().split("\n").length, 1, `${line}: one line`);
      assert.match(t.stderr, message);
      const r = await hook(sb, "claude-code", "bash_gh_issue_view", sb.dir);
      assert.deepEqual([r.code, r.stdout], [0, ""]);
      assert.match(await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`), message);
      await sb.writeConfig(`[identity]\nuser_id = "alice"\n[store]\npath = "${sb.dbPath}"\n`);
      assert.deepEqual(await touches(sb), [], `${line}: the hook recorded nothing`);
    } finally {
      await sb.cleanup();
    }
  }
});

Deno.test("lookup from an excluded directory answers from memory and records no Cache Read", async () => {
  const sb = await sandbox({ extra: `[capture]\nexclude_paths = ["~/work/client-x"]\n` });
  const store = openEmbeddedStore(sb.dbPath);
  await store.putResources([{ resource: issue("o", "r", 1) }]);
  await store.close();
  try {
    const inside = `${sb.dir}/work/client-x/src`;
    await Deno.mkdir(inside, { recursive: true });
    const excluded = await runRgraph(["lookup", "o/r#1"], { env: sb.env, cwd: inside });
    assert.equal(excluded.code, 0, excluded.stderr);
    assert.match(excluded.stdout, /^rgraph: hit github:o\/r#1/);
    assert.deepEqual(await touches(sb), []);
    const elsewhere = await sb.rgraph(["lookup", "o/r#1"]);
    assert.equal(elsewhere.code, 0);
    assert.deepEqual((await touches(sb)).map((t) => t.address), ["github:o/r#1"]);
  } finally {
    await sb.cleanup();
  }
});
