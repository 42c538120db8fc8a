/**
 * Programs found through the working directory (issue 26, finding 2): with
 * `PATH` holding an empty entry (`::`, which shells read as `.`), `.` and a
 * relative folder (`bin`), run in a cloned repository that ships look-alike
 * executables (`deno`, `sh`, `dirname`, `xdg-open`, `gh`, `git`, …) each
 * leaving a marker file if run. The plugin launcher of every harness, doctor
 * probing a plugin install, `rgraph view` opening the browser and `rgraph
 * install` must run none of them — and still do their work with the real
 * programs PATH's absolute folders hold.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  bashCallPayload,
  claudePluginInstalled,
  exists,
  launcher,
  runRgraph,
  type Sandbox,
  sandbox,
} from "../helpers.ts";
import { startView } from "../view_helpers.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const dec = new TextDecoder();
const LOOK_ALIKES = [
  "deno",
  "sh",
  "bash",
  "dirname",
  "env",
  "git",
  "gh",
  "node",
  "xdg-open",
  "open",
  "claude",
  "codex",
  "copilot",
  "gemini",
  "opencode",
];

/**
 * A cloned repository at `repo` with a look-alike of every program in it and
 * in `repo/bin`, each leaving a marker in `markers` if run; returns the
 * hostile PATH (relative entries first, then the real folders).
 */
function plantLookAlikes(repo: string, markers: string): string {
  Deno.mkdirSync(`${repo}/bin`, { recursive: true });
  Deno.mkdirSync(markers, { recursive: true });
  for (const dir of [repo, `${repo}/bin`]) {
    for (const name of LOOK_ALIKES) {
      Deno.writeTextFileSync(
        `${dir}/${name}`,
        `#!/bin/sh\necho "$0 $*" > '${markers}/${name}'\n`,
        { mode: 0o755 },
      );
    }
  }
  const denoDir = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
  return `::.:bin:${denoDir}:/usr/local/bin:/usr/bin:/bin:`;
}

function ran(markers: string): string[] {
  return [...Deno.readDirSync(markers)].map((e) =>
    `${e.name}: ${Deno.readTextFileSync(`${markers}/${e.name}`).trim()}`
  );
}

const HARNESSES = ["claude-code", "codex", "copilot", "gemini", "opencode"] as const;

/** Waits for the hook bundles the session starts build in the background (the plugin's, Codex's). */
async function buildsDone(sb: Sandbox, root: string): Promise<boolean> {
  const built = [
    `${root}/dist/hook-bundle/hook_bundled.js`,
    `${sb.dir}/data/rgraph/hook-bundle/codex-plugin/hook_bundled.js`,
  ];
  for (let i = 0; i < 300 && !built.every(exists); i++) await sleep(200);
  return built.every(exists);
}

/** Removes the sandbox, trying again while a background build's last writes land. */
async function cleanupAfterBuilds(sb: Sandbox): Promise<void> {
  for (let i = 0;; i++) {
    try {
      return await sb.cleanup();
    } catch (e) {
      if (i >= 50) throw e;
      await sleep(200);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("the plugin launcher of every harness, and doctor probing a plugin install, run no look-alike from the project folder whatever PATH holds", async () => {
  const sb = await sandbox();
  try {
    const repo = `${sb.dir}/cloned`;
    const markers = `${sb.dir}/markers`;
    const PATH = plantLookAlikes(repo, markers);
    // rgraph as an enabled Claude Code plugin: doctor probes its hooks, in the project folder.
    const root = await claudePluginInstalled(sb.dir);
    const env = { ...sb.env, PATH };
    const doctor = await runRgraph(["doctor", "--dir", repo], { env, cwd: repo });
    assert.match(doctor.stdout + doctor.stderr, /claude-code plugin rgraph@rgraph: enabled/);
    assert.deepEqual(ran(markers), [], "doctor ran a look-alike");

    for (const harness of HARNESSES) {
      const call = bashCallPayload("gh issue view 7 -R denoland/deno", {
        session: `s-${harness}`,
        toolUse: `toolu_${harness}`,
        cwd: repo,
      });
      const start = await launcher(root, [harness, "session-start"], env, call, repo);
      assert.equal(start.code, 0, `${harness}: ${start.stderr}`);
      assert.doesNotMatch(start.stdout + start.stderr, /Deno is not installed/, harness);
      const hook = await launcher(root, [harness, "hook"], env, call, repo);
      assert.equal(hook.code, 0, `${harness}: ${hook.stderr}`);
      assert.deepEqual(ran(markers), [], `${harness}'s launcher ran a look-alike`);
    }
    // The bundles the session starts built in the background (in the project folder) ran none either.
    assert.ok(await buildsDone(sb, root), "the session starts built the hook bundles");
    assert.deepEqual(ran(markers), [], "a background build ran a look-alike");
    // The real deno ran the hook: Claude Code's Bash call is a Touch.
    const touches = await runRgraph(["touches", "--json"], { env: sb.env });
    assert.ok(
      JSON.parse(touches.stdout).some((t: { address: string }) =>
        t.address === "github:denoland/deno#7"
      ),
      touches.stdout,
    );
  } finally {
    await cleanupAfterBuilds(sb);
  }
});

Deno.test("install in the project folder runs no look-alike from it whatever PATH holds", async () => {
  const sb = await sandbox();
  try {
    const repo = `${sb.dir}/cloned`;
    const markers = `${sb.dir}/markers`;
    const PATH = plantLookAlikes(repo, markers);
    for (const harness of ["claude-code", "opencode"]) {
      const r = await runRgraph(["install", harness], { env: { ...sb.env, PATH }, cwd: repo });
      assert.equal(r.code, 0, r.stderr);
    }
    assert.deepEqual(ran(markers), []);
    assert.ok(Deno.statSync(`${repo}/.claude/settings.json`).isFile);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the OpenCode plugin starts rgraph through no look-alike sh from OpenCode's folder", async () => {
  const sb = await sandbox();
  try {
    const repo = `${sb.dir}/cloned`;
    const markers = `${sb.dir}/markers`;
    const PATH = plantLookAlikes(repo, markers);
    // OpenCode loads the plugin package in place from a checkout (plugin/opencode) and calls its hooks.
    const script = `
      const { RgraphPlugin } = await import(${JSON.stringify(`${ROOT}/plugin/opencode/index.js`)});
      const hooks = await RgraphPlugin({ directory: ${JSON.stringify(repo)} });
      const config = {};
      await hooks.config(config);
      console.log(JSON.stringify(config.mcp.rgraph.command));
      await hooks["tool.execute.before"](
        { tool: "bash", sessionID: "oc-1", callID: "call-1" },
        { args: { command: "gh issue view 8 -R denoland/deno" } },
      );
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script],
      env: { ...sb.env, PATH },
      cwd: repo,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, dec.decode(out.stderr));
    const command = JSON.parse(dec.decode(out.stdout).trim().split("\n").at(-1)!);
    assert.ok(command[0].startsWith("/"), `the MCP server's program: ${command[0]}`);
    // The plugin does not wait for the hook of a tool other than rgraph's: the Touch comes soon.
    let recorded = "";
    for (let i = 0; i < 50 && !recorded.includes("github:denoland/deno#8"); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      recorded = (await runRgraph(["touches", "--json"], { env: sb.env })).stdout;
    }
    assert.ok(recorded.includes("github:denoland/deno#8"), recorded);
    assert.deepEqual(ran(markers), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("view opens the browser with no look-alike xdg-open from its folder", async () => {
  if (Deno.build.os !== "linux") return;
  const sb = await sandbox();
  const markers = `${sb.dir}/markers`;
  // The view runs in the sandbox's folder: the look-alikes go there.
  const PATH = plantLookAlikes(sb.dir, markers);
  const view = await startView(sb, ["--port", "0"], { PATH });
  try {
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(ran(markers), []);
    assert.doesNotMatch(view.output(), /xdg-open: /);
  } finally {
    await view.stop();
    await sb.cleanup();
  }
});
