/**
 * `rgraph doctor` end to end: a healthy setup (after `rgraph install` into a
 * throwaway project) and broken ones, through real rgraph processes, real
 * hook commands and real MCP servers.
 */

import assert from "node:assert/strict";
import { runRgraph, type Sandbox, sandbox } from "./helpers.ts";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix: string;
}

async function doctor(
  box: Sandbox,
  dir: string,
  ...flags: string[]
): Promise<{ code: number; checks: Check[] }> {
  const r = await box.rgraph(["doctor", "--json", "--dir", dir, ...flags]);
  assert.equal(r.stderr, "");
  return { code: r.code, checks: JSON.parse(r.stdout) };
}

function find(checks: Check[], name: string): Check {
  const c = checks.find((c) => c.check === name);
  assert.ok(c, `no check '${name}' in ${checks.map((c) => c.check).join(", ")}`);
  return c;
}

async function project(box: Sandbox, ...harnesses: string[]): Promise<string> {
  const dir = `${box.dir}/project`;
  await Deno.mkdir(dir, { recursive: true });
  for (const h of harnesses) {
    const r = await box.rgraph(["install", h, "--dir", dir]);
    assert.equal(r.code, 0, r.stderr);
  }
  return dir;
}

Deno.test("doctor on a healthy setup: every check passes, probes run the installed hooks, servers answer tools/list, and no Touch is recorded", async () => {
  const emulator = await startEmulator();
  const box = await sandbox({
    extra:
      `[github]\ntoken = "${emulator.token}"\ngraphql_url = "${emulator.graphqlUrl}"\napi_url = "${emulator.apiUrl}"\n`,
  });
  try {
    const dir = await project(box, "claude-code", "copilot", "opencode", "grok");
    const { code, checks } = await doctor(box, dir, "--online");
    assert.deepEqual(checks.filter((c) => !c.ok), []);
    assert.equal(code, 0);
    for (const name of ["config file", "identity", "store", "store schema"]) {
      assert.ok(find(checks, name).ok);
    }
    assert.match(
      find(checks, "github token").detail,
      new RegExp(`valid \\(GitHub login ${FACTS.viewerLogin}\\)`),
    );
    for (const h of ["claude-code", "copilot"]) assert.ok(find(checks, `${h} (project) hooks`).ok);
    assert.ok(find(checks, "opencode (project) plugin").ok);
    // Claude Code and Copilot answer a session start with the session hint (JSON); Grok has no
    // channel for it.
    assert.match(find(checks, "claude-code (project) hook probe").detail, /valid JSON/);
    assert.match(find(checks, "copilot (project) hook probe").detail, /valid JSON/);
    assert.match(find(checks, "grok (project) hook probe").detail, /no output/);
    for (const h of ["claude-code", "copilot", "opencode"]) {
      assert.match(
        find(checks, `${h} (project) MCP server`).detail,
        /answers tools\/list \(.*resource/,
      );
    }
    // Harnesses not installed anywhere are not reported.
    assert.ok(!checks.some((c) => c.check.startsWith("gemini")));

    const text = await box.rgraph(["doctor", "--dir", dir]);
    assert.equal(text.code, 0, text.stdout);
    for (const line of text.stdout.trim().split("\n")) assert.match(line, /^ok {3}\S/);

    const touches = await box.rgraph(["touches", "--json"]);
    assert.deepEqual(JSON.parse(touches.stdout), []);
  } finally {
    await box.cleanup();
    await emulator.close();
  }
});

Deno.test("doctor without identity fails that check with a fix and exits non-zero; no token is not a failure", async () => {
  const box = await sandbox({ userId: null });
  try {
    const dir = await project(box);
    const { code, checks } = await doctor(box, dir);
    assert.equal(code, 1);
    const identity = find(checks, "identity");
    assert.equal(identity.ok, false);
    assert.match(identity.fix, /\[identity\] user_id/);
    assert.ok(identity.fix.includes(box.configPath));
    assert.equal(find(checks, "github token").ok, true);
    assert.match(find(checks, "github token").detail, /anonymous REST .*add \[github\] token/);
    assert.ok(find(checks, "store").ok);

    const text = await box.rgraph(["doctor", "--dir", dir]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^FAIL identity: .* — fix: add \[identity\] user_id/m);
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor with a rejected token (--online) says so", async () => {
  const emulator = await startEmulator();
  const box = await sandbox({
    extra: `[github]\ntoken = "wrong"\ngraphql_url = "${emulator.graphqlUrl}"\n`,
  });
  try {
    const { code, checks } = await doctor(box, await project(box), "--online");
    assert.equal(code, 1);
    const token = find(checks, "github token");
    assert.equal(token.ok, false);
    assert.match(token.detail, /rejected .*HTTP 401/);
    assert.doesNotMatch(JSON.stringify(checks), /"wrong"|\bwrong\b/);
  } finally {
    await box.cleanup();
    await emulator.close();
  }
});

Deno.test("doctor finds a broken hook command, a broken MCP command, an unparseable harness file and a harness without rgraph", async () => {
  const box = await sandbox({ extra: `[github]\ntoken = "t"\n` });
  try {
    const dir = await project(box, "claude-code", "cursor", "codex");
    // The user switched Codex's hooks off.
    const codexConfig = `${dir}/.codex/config.toml`;
    await Deno.writeTextFile(
      codexConfig,
      (await Deno.readTextFile(codexConfig)).replace(/^hooks = true.*$/m, "hooks = false"),
    );
    // The binary moved: the hook and the server point at nothing.
    const settingsPath = `${dir}/.claude/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    for (const event of Object.keys(settings.hooks)) {
      settings.hooks[event][0].hooks[0].command = "/nonexistent/bin/rgraph hook claude-code";
    }
    await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
    const mcp = JSON.parse(await Deno.readTextFile(`${dir}/.mcp.json`));
    mcp.mcpServers.rgraph = { command: "/nonexistent/bin/rgraph", args: ["serve-mcp"] };
    await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(mcp));
    // Cursor's hooks file got mangled.
    await Deno.writeTextFile(`${dir}/.cursor/hooks.json`, '{"version": 1, "hooks": {');
    // Gemini is set up for this project, but not with rgraph.
    await Deno.mkdir(`${dir}/.gemini`);
    await Deno.writeTextFile(`${dir}/.gemini/settings.json`, '{"ui": {"theme": "GitHub"}}');

    const { code, checks } = await doctor(box, dir);
    assert.equal(code, 1);
    assert.ok(find(checks, "claude-code (project) hooks").ok);
    const probe = find(checks, "claude-code (project) hook probe");
    assert.equal(probe.ok, false);
    assert.match(probe.detail, /exit 127/);
    assert.match(probe.fix, /rgraph install claude-code --dir /);
    const server = find(checks, "claude-code (project) MCP server");
    assert.equal(server.ok, false);
    assert.match(server.detail, /\/nonexistent\/bin\/rgraph/);
    // The registered command is missing: reinstalling is the fix.
    assert.match(server.fix, /^rgraph install claude-code --dir /);

    const cursor = find(checks, "cursor (project) hooks");
    assert.equal(cursor.ok, false);
    assert.match(cursor.detail, /hooks\.json: .*(end|line)/);
    assert.ok(find(checks, "cursor (project) MCP server").ok);

    const codex = find(checks, "codex (project) hooks enabled");
    assert.equal(codex.ok, false);
    assert.match(codex.fix, /set hooks = true in .*config\.toml/);
    assert.ok(find(checks, "codex (project) hook probe").ok);

    const gemini = find(checks, "gemini");
    assert.equal(gemini.ok, false);
    assert.match(gemini.detail, /without rgraph/);
    assert.match(gemini.fix, /^rgraph install gemini --dir /);
  } finally {
    await box.cleanup();
  }
});

Deno.test("on a clean machine one install creates the config with an identity, and doctor confirms the setup", async () => {
  const box = await sandbox();
  try {
    await Deno.remove(box.configPath);
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    const r = await box.rgraph(["install", "claude-code", "--dir", dir], {
      env: { USER: "carol" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`created ${box.configPath} (config)`), r.stdout);
    assert.equal((await Deno.stat(box.configPath)).mode! & 0o777, 0o600);
    const { code, checks } = await doctor(box, dir);
    assert.deepEqual(checks.filter((c) => !c.ok), []);
    assert.equal(code, 0);
    assert.equal(find(checks, "identity").detail, "user_id = carol");
    // A second install keeps the config as it is.
    const before = await Deno.readTextFile(box.configPath);
    await box.rgraph(["install", "codex", "--dir", dir], { env: { USER: "dave" } });
    assert.equal(await Deno.readTextFile(box.configPath), before);
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor on an unparseable config file reports it in one line and exits non-zero", async () => {
  const box = await sandbox();
  try {
    await box.writeConfig("[identity\nuser_id = 'x'\n");
    const r = await box.rgraph(["doctor", "--dir", await project(box)]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAIL config file: config .*config\.toml: not valid TOML: .* — fix: /m);
    assert.equal(r.stderr, "");
  } finally {
    await box.cleanup();
  }
});

Deno.test("an MCP server that exits at start over a config problem: doctor shows the server's reason and its fix, not a reinstall", async () => {
  const box = await sandbox({ userId: null });
  try {
    const dir = await project(box, "claude-code");
    const server = async () =>
      find((await doctor(box, dir)).checks, "claude-code (project) MCP server");

    const noIdentity = await server();
    assert.equal(noIdentity.ok, false);
    assert.equal(
      noIdentity.detail,
      `rgraph serve-mcp: no identity configured: set [identity] user_id in ${box.configPath}`,
    );
    assert.equal(noIdentity.fix, `set [identity] user_id in ${box.configPath}`);

    await Deno.writeTextFile(`${box.dir}/a-file`, "");
    await box.writeConfig(
      `[identity]\nuser_id = "alice"\n[store]\npath = "${box.dir}/a-file/rgraph.db"\n`,
    );
    const badStore = await server();
    assert.equal(badStore.ok, false);
    assert.match(badStore.detail, /^rgraph serve-mcp: cannot open the store .*a-file\/rgraph\.db/);
    assert.doesNotMatch(badStore.fix, /rgraph install/);

    await box.writeConfig("[identity\nuser_id = 'x'\n");
    const badToml = await server();
    assert.equal(badToml.ok, false);
    assert.match(badToml.detail, /^rgraph serve-mcp: config .*config\.toml: not valid TOML/);
    assert.doesNotMatch(badToml.fix, /rgraph install/);
    assert.doesNotMatch(badToml.detail, /Connection closed/);
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor's details carry no terminal colour codes, even from a child that prints them", async () => {
  const box = await sandbox();
  try {
    const dir = await project(box, "claude-code");
    // The checkout moved: deno itself fails to start the hook (and colours its error unless told not to).
    const settingsPath = `${dir}/.claude/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    for (const event of Object.keys(settings.hooks)) {
      settings.hooks[event][0].hooks[0].command =
        `${Deno.execPath()} run /nonexistent/main.ts hook claude-code`;
    }
    await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
    // A server that colours its own error whatever NO_COLOR says.
    const fake = `${box.dir}/bin/rgraph`;
    await Deno.mkdir(`${box.dir}/bin`);
    await Deno.writeTextFile(
      fake,
      "#!/bin/sh\nprintf '\\033[1;31merror\\033[0m: boom\\n' >&2\nexit 1\n",
    );
    await Deno.chmod(fake, 0o755);
    const mcp = JSON.parse(await Deno.readTextFile(`${dir}/.mcp.json`));
    mcp.mcpServers.rgraph = { command: fake, args: ["serve-mcp"] };
    await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(mcp));

    // As from a terminal that allows colour (an empty NO_COLOR does).
    const r = await runRgraph(["doctor", "--json", "--dir", dir], {
      env: { ...box.env, NO_COLOR: "" },
      cwd: box.dir,
    });
    assert.equal(r.code, 1);
    // JSON writes ESC as \u001b.
    assert.ok(!r.stdout.includes("\\u001b"), r.stdout);
    const checks: Check[] = JSON.parse(r.stdout);
    const probe = find(checks, "claude-code (project) hook probe");
    assert.match(probe.detail, /^exit 1: error: Module not found/);
    const server = find(checks, "claude-code (project) MCP server");
    assert.equal(server.detail, `${fake}: error: boom`);
    assert.match(server.fix, /^rgraph install claude-code --dir /);
  } finally {
    await box.cleanup();
  }
});
