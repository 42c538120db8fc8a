/**
 * rgraph as a harness plugin (issue 20), through the files the plugin
 * manifests run: a copy of this checkout as the plugin's installed folder,
 * `plugin/rgraph.sh` started as the harness starts it, and what the user
 * sees after (`rgraph touches`, `rgraph doctor`, the config file). The real
 * harnesses install the plugin in tests/harness/.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUNDLE_FLAGS, DENO_FLAGS } from "../lib/install/command.ts";
import { COPILOT_TOOLS, PRE_TOOL_MATCHER, READ_PATTERNS } from "../lib/install/dispatch.ts";
import { bashCallPayload, launcher, pluginCopy, runRgraph } from "./helpers.ts";
import project from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/** A user with no rgraph config yet: a temp HOME (with this run's Deno cache) and a login name. */
async function freshUser(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-plugin-" });
  await Deno.mkdir(`${dir}/home/.cache`, { recursive: true });
  const cache = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  await Deno.symlink(cache, `${dir}/home/.cache/deno`);
  const denoDir = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
  return {
    dir,
    env: {
      HOME: `${dir}/home`,
      USER: "bob",
      PATH: `${denoDir}:/usr/bin:/bin`,
      DENO_DIR: cache,
      NO_COLOR: "1",
    },
  };
}

/**
 * A fresh user with the plugin's folder (a copy of this checkout) and an empty
 * project, after one session start of the plugin (`args` to the launcher).
 */
async function pluginStarted(args: string[], stdin: string) {
  const user = await freshUser();
  const root = await pluginCopy(`${user.dir}/checkout`);
  const project = `${user.dir}/project`;
  await Deno.mkdir(project);
  const env = { ...user.env };
  await launcher(root, args, env, stdin);
  return { user, root, project, env };
}

const SESSION_START = JSON.stringify({
  session_id: "plugin-session",
  cwd: "/tmp",
  hook_event_name: "SessionStart",
  source: "startup",
});

/**
 * Removes a fresh user's folder once no process runs from it: a session start leaves the bundle
 * build and the dependency cache fill running in the background, writing into the plugin's copy,
 * and a folder removed under a writer fails ("Directory not empty").
 */
async function removeUser(dir: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  const runningFrom = async () => {
    for await (const e of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
      try {
        if ((await Deno.readTextFile(`/proc/${e.name}/cmdline`)).includes(dir)) return true;
      } catch {
        // gone meanwhile
      }
    }
    return false;
  };
  while (Date.now() < deadline && await runningFrom()) {
    await new Promise((r) => setTimeout(r, 250));
  }
  await Deno.remove(dir, { recursive: true });
}

async function waitForFile(path: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await Deno.stat(path);
      return true;
    } catch {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

Deno.test("every plugin manifest carries rgraph's version, and the launcher runs rgraph with its own flags", async () => {
  const claude = JSON.parse(await Deno.readTextFile(`${ROOT}/.claude-plugin/plugin.json`));
  assert.equal(claude.version, project.version);
  const opencode = JSON.parse(await Deno.readTextFile(`${ROOT}/plugin/opencode/package.json`));
  assert.equal(opencode.version, project.version);
  const copilot = JSON.parse(await Deno.readTextFile(`${ROOT}/.github/plugin/plugin.json`));
  assert.equal(copilot.version, project.version);
  const codex = JSON.parse(await Deno.readTextFile(`${ROOT}/.codex-plugin/plugin.json`));
  assert.equal(codex.version, project.version);
  const script = await Deno.readTextFile(`${ROOT}/plugin/rgraph.sh`);
  assert.match(script, new RegExp(`^flags="${DENO_FLAGS.join(" ")}"$`, "m"));
  assert.match(script, new RegExp(`^bundle_flags="${BUNDLE_FLAGS.join(" ")}"$`, "m"));
});

Deno.test("the plugins dispatch only what can read GitHub, as rgraph install does: the same matchers and gate, and the launcher starts nothing for another call", async () => {
  const json = async (path: string) => JSON.parse(await Deno.readTextFile(`${ROOT}/${path}`));
  const claude = await json("plugin/claude-code/hooks.json");
  assert.deepEqual(claude.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher), [
    PRE_TOOL_MATCHER["claude-code"],
  ]);
  const codex = await json("plugin/codex/hooks.json");
  assert.deepEqual(codex.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher), [
    PRE_TOOL_MATCHER.codex,
  ]);
  const gemini = await json("plugin/gemini/hooks/hooks.json");
  assert.deepEqual(gemini.hooks.BeforeTool.map((g: { matcher: string }) => g.matcher), [
    PRE_TOOL_MATCHER.gemini,
  ]);
  const script = await Deno.readTextFile(`${ROOT}/plugin/rgraph.sh`);
  assert.ok(script.includes(`case \${tool%%'"'*} in ${COPILOT_TOOLS.join(" | ")}) ;;`));
  assert.ok(script.includes(`case $payload in ${READ_PATTERNS.join(" | ")}) ;;`));
  for (
    const [file, event] of [
      ["claude-code/hooks.json", "PreToolUse"],
      [
        "codex/hooks.json",
        "PreToolUse",
      ],
      ["gemini/hooks/hooks.json", "BeforeTool"],
      ["copilot/hooks.json", "preToolUse"],
    ]
  ) {
    const text = JSON.stringify((await json(`plugin/${file}`)).hooks[event]);
    assert.match(text, / tool-hook/, `${file}: its tool hook passes through the gate`);
  }

  // Tool hooks through the launcher, with a stand-in Deno that writes down its input.
  const dir = await Deno.makeTempDir({ prefix: "rgraph-plugin-gate-" });
  try {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/deno`, `#!/bin/sh\ncat > "$(mktemp ${dir}/ran.XXXXXX)"\n`);
    await Deno.chmod(`${dir}/bin/deno`, 0o755);
    const env = { HOME: dir, PATH: `${dir}/bin:/usr/bin:/bin` };
    const ran = () => [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("ran."));
    const copilot = (toolName: string, toolArgs: unknown) =>
      launcher(
        ROOT,
        ["copilot", "tool-hook", "--event", "preToolUse"],
        env,
        JSON.stringify({ sessionId: "s", cwd: dir, toolName, toolArgs }),
      );
    for (const tool of ["view", "edit", "create", "grep", "glob", "task"]) {
      await copilot(tool, { path: "gh", pattern: "github.com" });
    }
    await copilot("bash", { command: "ls -la && git status" });
    const claude = (command: string) =>
      launcher(
        ROOT,
        ["claude-code", "tool-hook"],
        env,
        bashCallPayload(command, { session: "s", toolUse: "t", cwd: dir }),
      );
    await claude("deno test tests/x_test.ts");
    assert.deepEqual(ran(), [], "no Deno started for a call that cannot read GitHub");
    const bash = JSON.stringify({
      sessionId: "s",
      toolName: "bash",
      toolArgs: { command: 'gh issue view 5 -R o/r && echo "$(id)" \\' },
    });
    await launcher(ROOT, ["copilot", "tool-hook", "--event", "preToolUse"], env, bash);
    const started = ran();
    assert.equal(started.length, 1);
    assert.equal(await Deno.readTextFile(`${dir}/${started[0].name}`), `${bash}\n`);
    await claude("curl -sL https://github.com/o/r/issues/5");
    assert.equal(ran().length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a plugin's first session writes the config with the login name, answers with the hint, and builds the hook bundle unasked", async () => {
  const user = await freshUser();
  try {
    const root = await pluginCopy(`${user.dir}/plugin-root`);
    const start = await launcher(root, ["claude-code", "session-start"], user.env, SESSION_START);
    assert.equal(start.code, 0, start.stderr);
    const hint = JSON.parse(start.stdout).hookSpecificOutput.additionalContext;
    // Claude Code names a plugin's tools mcp__plugin_<plugin>_<server>__<tool>.
    assert.match(hint, /mcp__plugin_rgraph_rgraph__resource/);
    const configPath = `${user.env.HOME}/.config/rgraph/config.toml`;
    assert.match(await Deno.readTextFile(configPath), /^user_id = "bob"$/m);
    assert.equal((await Deno.stat(configPath)).mode! & 0o777, 0o600);
    assert.ok(
      await waitForFile(`${root}/dist/hook-bundle/manifest.json`, 60_000),
      "the hook bundle was never built",
    );
    // A prompt's link through the plugin's hook (the bundle now) is the user's Touch.
    const prompt = await launcher(
      root,
      ["claude-code", "hook"],
      user.env,
      JSON.stringify({
        session_id: "plugin-session",
        cwd: "/tmp",
        hook_event_name: "UserPromptSubmit",
        prompt: "see https://github.com/denoland/deno/issues/1",
      }),
    );
    assert.equal(prompt.code, 0);
    const touches = await runRgraph(["touches", "--json"], { env: user.env });
    assert.deepEqual(
      JSON.parse(touches.stdout).map((t: { address: string }) => t.address),
      ["github:denoland/deno#1"],
      touches.stderr,
    );
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("a new user's plugin MCP servers, started before any session start (as Codex does), write the first config and answer resource", async () => {
  const user = await freshUser();
  const clients: Client[] = [];
  try {
    const root = await pluginCopy(`${user.dir}/plugin-root`);
    // Two at once (two harness windows opening): both write the first config, one stands.
    const answers = await Promise.all([1, 2].map(async (n) => {
      const client = new Client({ name: "claude-code", version: "1" });
      clients.push(client);
      await client.connect(
        new StdioClientTransport({
          command: "/bin/sh",
          args: [`${root}/plugin/rgraph.sh`, "claude-code", "serve-mcp"],
          env: user.env,
          cwd: user.dir,
          stderr: "pipe",
        }),
      );
      const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      const r = await client.callTool({
        name: "resource",
        arguments: { address: `denoland/deno#${n}` },
      });
      return { tools, text: (r.content as { text: string }[])[0].text };
    }));
    for (const [i, a] of answers.entries()) {
      assert.deepEqual(a.tools, ["resource"]);
      assert.match(a.text, new RegExp(`^rgraph: miss github:denoland/deno#${i + 1} `));
    }
    const dir = `${user.env.HOME}/.config/rgraph`;
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["config.toml"]);
    const text = await Deno.readTextFile(`${dir}/config.toml`);
    assert.deepEqual(text.match(/^user_id = .*$/gm), ['user_id = "bob"'], text);
    assert.equal((await Deno.stat(`${dir}/config.toml`)).mode! & 0o777, 0o600);
    // Each answer is the user's Cache Read, as the config names the user.
    const touches = await runRgraph(["touches", "--json"], { env: user.env });
    assert.deepEqual(
      JSON.parse(touches.stdout).map((t: { address: string; status: string }) =>
        `${t.address} ${t.status}`
      ).sort(),
      ["github:denoland/deno#1 served", "github:denoland/deno#2 served"],
      touches.stderr,
    );
  } finally {
    for (const client of clients) await client.close();
    await removeUser(user.dir);
  }
});

Deno.test("without Deno, the plugin's session start says so once in the harness's way, and nothing else happens", async () => {
  const user = await freshUser();
  try {
    const root = await pluginCopy(`${user.dir}/plugin-root`);
    // A PATH with what the launcher uses and no deno (which /usr/bin may hold).
    const bin = `${user.dir}/bin`;
    await Deno.mkdir(bin);
    for (const tool of ["sh", "dirname"]) {
      const found = ["/usr/bin", "/bin"].map((d) => `${d}/${tool}`).find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
      await Deno.symlink(found!, `${bin}/${tool}`);
    }
    const env = { ...user.env, PATH: bin };
    const start = await launcher(root, ["claude-code", "session-start"], env, SESSION_START);
    assert.equal(start.code, 0);
    assert.match(JSON.parse(start.stdout).systemMessage, /Deno is not installed/);
    for (const what of ["hook", "session-end"]) {
      const r = await launcher(root, ["claude-code", what], env, SESSION_START);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""], what);
    }
    const mcp = await launcher(root, ["claude-code", "serve-mcp"], env);
    assert.notEqual(mcp.code, 0);
    assert.match(mcp.stderr, /Deno is not installed/);
    const written = [...Deno.readDirSync(user.env.HOME)].map((e) => e.name);
    assert.ok(!(await waitForFile(`${root}/dist`, 0)), "no bundle built");
    assert.deepEqual(written, [".cache"], "no config, no data directory");
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("the plugin and rgraph install in one harness record each Touch once; doctor names the plugin and says they overlap", async () => {
  const user = await freshUser();
  try {
    // Where Claude Code copies a plugin it installs from a marketplace.
    const root = await pluginCopy(`${user.env.HOME}/.claude/plugins/cache/rgraph/rgraph/0.1.0`);
    const project = `${user.dir}/project`;
    await Deno.mkdir(project);
    const env = { ...user.env };
    await launcher(root, ["claude-code", "session-start"], env, SESSION_START);
    const installed = await runRgraph(["install", "claude-code", "--dir", project], {
      env,
      cwd: project,
    });
    assert.equal(installed.code, 0, installed.stderr);
    // What Claude Code records for a plugin installed from a marketplace.
    await Deno.mkdir(`${env.HOME}/.claude/plugins`, { recursive: true });
    await Deno.writeTextFile(
      `${env.HOME}/.claude/plugins/installed_plugins.json`,
      JSON.stringify({
        version: 2,
        plugins: { "rgraph@rgraph": [{ scope: "user", installPath: root, version: "0.1.0" }] },
      }),
    );
    await Deno.writeTextFile(
      `${env.HOME}/.claude/settings.json`,
      JSON.stringify({ enabledPlugins: { "rgraph@rgraph": true } }),
    );
    const call = bashCallPayload("gh issue view 7 -R denoland/deno", {
      session: "both",
      toolUse: "toolu_both",
      cwd: project,
    });
    await launcher(root, ["claude-code", "hook"], env, call);
    const settings = JSON.parse(await Deno.readTextFile(`${project}/.claude/settings.json`));
    const command = settings.hooks.PreToolUse[0].hooks[0].command;
    const hooked = new Deno.Command("sh", {
      args: ["-c", command],
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
    }).spawn();
    const w = hooked.stdin.getWriter();
    await w.write(new TextEncoder().encode(call));
    await w.close();
    await hooked.status;
    const touches = JSON.parse((await runRgraph(["touches", "--json"], { env })).stdout);
    assert.equal(
      touches.filter((t: { address: string }) => t.address === "github:denoland/deno#7").length,
      1,
    );

    const doctor = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    const out = doctor.stdout + doctor.stderr;
    assert.match(out, /claude-code plugin rgraph@rgraph: enabled \(version 0\.1\.0, user scope/);
    assert.match(out, /claude-code plugin and rgraph install/);
    await Deno.writeTextFile(
      `${env.HOME}/.claude/settings.json`,
      JSON.stringify({ enabledPlugins: { "rgraph@rgraph": false } }),
    );
    const off = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(off.stdout + off.stderr, /rgraph@rgraph: installed but disabled/);
    assert.doesNotMatch(off.stdout + off.stderr, /plugin and rgraph install/);
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("doctor names a linked Gemini CLI extension, enabled or disabled for the project as its overrides say", async () => {
  const { user, root, project, env } = await pluginStarted(
    ["gemini", "session-start"],
    SESSION_START,
  );
  try {
    // What `gemini extensions link <checkout>/plugin/gemini` records.
    const ext = `${env.HOME}/.gemini/extensions`;
    await Deno.mkdir(`${ext}/rgraph`, { recursive: true });
    await Deno.writeTextFile(
      `${ext}/rgraph/.gemini-extension-install.json`,
      JSON.stringify({ source: `${root}/plugin/gemini`, type: "link" }),
    );
    const enablement = (overrides: string[]) =>
      Deno.writeTextFile(
        `${ext}/extension-enablement.json`,
        JSON.stringify({ rgraph: { overrides } }),
      );
    await enablement([`${env.HOME}/*`, `${user.dir}/*`]);
    const on = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(on.stdout, /gemini plugin rgraph: enabled \(version 0\.1\.0, user scope/);
    assert.match(on.stdout, /gemini plugin rgraph hook probe: exit 0, valid JSON answer/);
    await enablement([`${user.dir}/*`, `!${project}/*`]);
    const off = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(off.stdout, /gemini plugin rgraph: installed but disabled/);
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("doctor names the OpenCode plugin package a user's config lists, and runs it only from the user's config", async () => {
  const { user, root, project, env } = await pluginStarted(["opencode", "session-start"], "{}");
  try {
    // What `opencode plugin -g <checkout>/plugin/opencode` writes.
    const config = `${env.HOME}/.config/opencode`;
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(
      `${config}/opencode.json`,
      JSON.stringify({ plugin: [`${root}/plugin/opencode`] }),
    );
    const on = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(on.stdout, /opencode plugin rgraph: enabled \(version 0\.1\.0, user scope/);
    assert.match(on.stdout, /opencode plugin rgraph hook probe: exit 0, valid JSON answer/);
    assert.match(on.stdout, /opencode plugin rgraph MCP server: .* answers tools\/list/);
    // The same package named by a project's own config is the project's doing: never run.
    await Deno.remove(`${config}/opencode.json`);
    await Deno.mkdir(`${project}/.opencode`);
    await Deno.writeTextFile(
      `${project}/.opencode/opencode.json`,
      `// the project's\n{ "plugin": ["file://${root}/plugin/opencode"] }`,
    );
    const theirs = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(theirs.stdout, /opencode plugin rgraph: enabled, from .*\(not run: outside/);
    assert.doesNotMatch(theirs.stdout, /opencode plugin rgraph hook probe/);
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("doctor names the Copilot CLI plugin of a checkout added as a marketplace, enabled or not as Copilot records it", async () => {
  const { user, root, project, env } = await pluginStarted(
    ["copilot", "session-start", "--event", "sessionStart"],
    "{}",
  );
  try {
    // What `copilot plugin marketplace add <checkout>` and `copilot plugin install rgraph@rgraph` write.
    await Deno.mkdir(`${env.HOME}/.copilot`);
    const settings = (enabled: boolean) =>
      Deno.writeTextFile(
        `${env.HOME}/.copilot/settings.json`,
        JSON.stringify({
          extraKnownMarketplaces: { rgraph: { source: { source: "directory", path: root } } },
          enabledPlugins: { "rgraph@rgraph": enabled },
        }),
      );
    await settings(true);
    const on = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(on.stdout, /copilot plugin rgraph@rgraph: enabled \(version 0\.1\.0, user scope/);
    assert.match(on.stdout, /copilot plugin rgraph@rgraph hook probe: exit 0, valid JSON answer/);
    assert.match(on.stdout, /copilot plugin rgraph@rgraph MCP server: .* answers tools\/list/);
    await settings(false);
    const off = await runRgraph(["doctor", "--dir", project], { env, cwd: project });
    assert.match(off.stdout, /copilot plugin rgraph@rgraph: installed but disabled/);
  } finally {
    await removeUser(user.dir);
  }
});

Deno.test("doctor names the Codex plugin in Codex's cache, enabled or not as its config.toml says", async () => {
  const user = await freshUser();
  try {
    // What `codex plugin add rgraph@rgraph` writes: the plugin copied into Codex's cache, and a table.
    const codexHome = `${user.env.HOME}/.codex`;
    const root = await pluginCopy(`${codexHome}/plugins/cache/rgraph/rgraph/${project.version}`);
    const dir = `${user.dir}/project`;
    await Deno.mkdir(dir);
    await launcher(root, ["codex", "session-start"], user.env, SESSION_START);
    const config = (enabled: boolean) =>
      Deno.writeTextFile(
        `${codexHome}/config.toml`,
        `[plugins."rgraph@rgraph"]\nenabled = ${enabled}\n`,
      );
    await config(true);
    // No codex on PATH: doctor says it could not ask Codex about trust, and checks the rest.
    const on = await runRgraph(["doctor", "--dir", dir], { env: user.env, cwd: dir });
    assert.match(on.stdout, /codex plugin rgraph@rgraph: enabled \(version 0\.1\.0, user scope/);
    assert.match(
      on.stdout,
      /codex plugin rgraph@rgraph trust: hook trust not checked: codex is not on PATH/,
    );
    assert.match(on.stdout, /codex plugin rgraph@rgraph hook probe: exit 0, valid JSON answer/);
    assert.match(on.stdout, /codex plugin rgraph@rgraph MCP server: .* answers tools\/list/);
    await config(false);
    const off = await runRgraph(["doctor", "--dir", dir], { env: user.env, cwd: dir });
    assert.match(off.stdout, /codex plugin rgraph@rgraph: installed but disabled/);
  } finally {
    await removeUser(user.dir);
  }
});
