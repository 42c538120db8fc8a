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

/**
 * A project with rgraph installed for `harnesses`, which the user trusted in
 * Claude Code and Grok Build (doctor runs a project's commands only where the
 * harness would; Codex, Copilot and Gemini trust is each test's own).
 */
async function project(box: Sandbox, ...harnesses: string[]): Promise<string> {
  const dir = `${box.dir}/project`;
  await Deno.mkdir(dir, { recursive: true });
  for (const h of harnesses) {
    const r = await box.rgraph(["install", h, "--dir", dir]);
    assert.equal(r.code, 0, r.stderr);
  }
  await Deno.writeTextFile(
    `${box.dir}/.claude.json`,
    JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true } } }),
  );
  await Deno.mkdir(`${box.dir}/.grok`, { recursive: true });
  await Deno.writeTextFile(
    `${box.dir}/.grok/trusted_folders.toml`,
    `[folders."${dir}"]\ntrusted = true\n`,
  );
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
    // The user trusted the folder for Copilot CLI, which skips its hooks otherwise.
    await Deno.mkdir(`${box.dir}/.copilot`);
    await Deno.writeTextFile(
      `${box.dir}/.copilot/config.json`,
      JSON.stringify({ trustedFolders: [dir] }),
    );
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

Deno.test("doctor detects the silent skips: a Codex project, a Copilot CLI or Gemini CLI folder not trusted — each with the step that fixes it", async () => {
  const box = await sandbox();
  try {
    const dir = await project(box, "codex", "copilot", "gemini");
    // No codex on PATH here: doctor reads the project's trust from Codex's own config.
    const env = { PATH: "/usr/bin:/bin" };
    const run = async () => {
      const r = await box.rgraph(["doctor", "--json", "--dir", dir], { env });
      return { code: r.code, checks: JSON.parse(r.stdout) as Check[] };
    };
    const untrusted = await run();
    assert.equal(untrusted.code, 1);
    const codex = find(untrusted.checks, "codex (project) trust");
    assert.equal(codex.ok, false);
    assert.match(codex.detail, /only in a trusted project/);
    assert.equal(
      codex.fix,
      `trust the project when Codex asks (or add [projects."${dir}"] trust_level = "trusted" to ${box.dir}/.codex/config.toml)`,
    );
    const copilot = find(untrusted.checks, "copilot (project) trust");
    assert.equal(copilot.ok, false);
    assert.match(copilot.detail, /only in a trusted folder, and skips them silently/);
    assert.equal(
      copilot.fix,
      `add ${
        JSON.stringify(dir)
      } to "trustedFolders" in ${box.dir}/.copilot/config.json (or trust the folder for future sessions when Copilot asks)`,
    );
    const gemini = find(untrusted.checks, "gemini (project) trust");
    assert.equal(gemini.ok, false);
    assert.match(gemini.fix, /: "TRUST_FOLDER" to .*\.gemini\/trustedFolders\.json/);

    // Trusted as each harness's own trust step writes it: a parent folder counts for Copilot and
    // Gemini, and Gemini's longest rule wins.
    await Deno.mkdir(`${box.dir}/.codex`, { recursive: true });
    await Deno.writeTextFile(
      `${box.dir}/.codex/config.toml`,
      `[projects."${dir}"]\ntrust_level = "trusted"\n`,
    );
    await Deno.mkdir(`${box.dir}/.copilot`);
    await Deno.writeTextFile(
      `${box.dir}/.copilot/config.json`,
      JSON.stringify({ trustedFolders: [box.dir] }),
    );
    await Deno.mkdir(`${box.dir}/.gemini`);
    await Deno.writeTextFile(
      `${box.dir}/.gemini/trustedFolders.json`,
      JSON.stringify({ [box.dir]: "DO_NOT_TRUST", [dir]: "TRUST_FOLDER" }),
    );
    const trusted = await run();
    for (const h of ["codex", "copilot", "gemini"]) {
      assert.ok(find(trusted.checks, `${h} (project) trust`).ok, h);
    }
    // Gemini's nearer rule distrusting the folder again.
    await Deno.writeTextFile(
      `${box.dir}/.gemini/trustedFolders.json`,
      JSON.stringify({ [box.dir]: "TRUST_FOLDER", [dir]: "DO_NOT_TRUST" }),
    );
    assert.equal(find((await run()).checks, "gemini (project) trust").ok, false);
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor runs installed commands with only the environment Codex gives them: an install that does not name the config file fails", async () => {
  const box = await sandbox();
  try {
    const dir = await project(box, "claude-code");
    assert.ok(find((await doctor(box, dir)).checks, "claude-code (project) config file").ok);
    // As rgraph installed before commands named the config: RGRAPH_CONFIG had to reach them.
    for (const file of [".claude/settings.json", ".mcp.json"]) {
      const path = `${dir}/${file}`;
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(
        path,
        text.replaceAll(` --config ${box.configPath}`, "").replaceAll(
          `"--config",\n        ${JSON.stringify(box.configPath)},\n        `,
          "",
        ),
      );
    }
    assert.doesNotMatch(await Deno.readTextFile(`${dir}/.mcp.json`), /--config/);
    const { code, checks } = await doctor(box, dir);
    assert.equal(code, 1);
    const config = find(checks, "claude-code (project) config file");
    assert.equal(config.ok, false);
    assert.match(config.detail, /do not name the config file/);
    assert.match(config.fix, /^rgraph install claude-code --dir /);
    // Entries that are no longer what install writes are not run: reinstalling is the fix.
    for (const name of ["claude-code (project) hooks", "claude-code (project) MCP server"]) {
      const c = find(checks, name);
      assert.equal(c.ok, false, name);
      assert.match(c.detail, /an entry named rgraph that rgraph did not write: not run/);
      assert.match(c.fix, /^rgraph install claude-code --dir /);
    }
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor prints each installed harness's version beside the one the harness tests pinned", async () => {
  const box = await sandbox();
  try {
    const dir = await project(box, "opencode", "cursor");
    const bin = `${box.dir}/bin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(`${bin}/opencode`, "#!/bin/sh\necho 1.19.0\n");
    await Deno.chmod(`${bin}/opencode`, 0o755);
    const pinned = /^opencode\s+(\S+)\s+(\S+)/m.exec(
      await Deno.readTextFile(new URL("./harness/pins.txt", import.meta.url)),
    )!;
    const r = await box.rgraph(["doctor", "--json", "--dir", dir], {
      env: { PATH: `${bin}:/usr/bin:/bin` },
    });
    const checks = JSON.parse(r.stdout) as Check[];
    const version = find(checks, "opencode version");
    assert.ok(version.ok, "another version is reported, not failed");
    assert.equal(
      version.detail,
      `${bin}/opencode: 1.19.0; the rgraph tests pin ${pinned[1]} ${
        pinned[2]
      } (verified with that one)`,
    );
    // Cursor has no installable binary to test: no pin, no line.
    assert.ok(!checks.some((c) => c.check === "cursor version"));
    const absent = await box.rgraph(["doctor", "--json", "--dir", dir], {
      env: { PATH: "/usr/bin:/bin" },
    });
    assert.match(
      find(JSON.parse(absent.stdout), "opencode version").detail,
      /^opencode is not on PATH; the rgraph tests pin opencode-ai /,
    );
  } finally {
    await box.cleanup();
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

Deno.test("doctor finds hand-edited rgraph entries (and runs none), an unparseable harness file and a harness without rgraph", async () => {
  const box = await sandbox({ extra: `[github]\ntoken = "t"\n` });
  try {
    const dir = await project(box, "claude-code", "cursor", "codex");
    // The user trusted the project in Codex, and switched its hooks off.
    await Deno.mkdir(`${box.dir}/.codex`);
    await Deno.writeTextFile(
      `${box.dir}/.codex/config.toml`,
      `[projects."${dir}"]\ntrust_level = "trusted"\n`,
    );
    const codexConfig = `${dir}/.codex/config.toml`;
    await Deno.writeTextFile(
      codexConfig,
      (await Deno.readTextFile(codexConfig)).replace(/^hooks = true.*$/m, "hooks = false"),
    );
    // Edited by hand: the hook and the server point somewhere install never wrote.
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
    for (const name of ["claude-code (project) hooks", "claude-code (project) MCP server"]) {
      const c = find(checks, name);
      assert.equal(c.ok, false);
      assert.match(c.detail, /: an entry named rgraph that rgraph did not write: not run/);
      assert.match(c.fix, /^rgraph install claude-code --dir /);
    }
    assert.ok(!checks.some((c) => c.check === "claude-code (project) hook probe"), "not run");

    const cursor = find(checks, "cursor (project) hooks");
    assert.equal(cursor.ok, false);
    assert.match(cursor.detail, /hooks\.json: .*(end|line)/);
    // Cursor's trust of a folder cannot be read: its project server is not started.
    assert.match(find(checks, "cursor (project) probes").detail, /^not run: Cursor/);

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

Deno.test("an install made with --command is proven by doctor --command: a command that is gone fails its probe, with the fix", async () => {
  const box = await sandbox();
  try {
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    const gone = "/nonexistent/bin/rgraph";
    const r = await box.rgraph(["install", "claude-code", "--dir", dir, "--command", gone]);
    assert.equal(r.code, 0, r.stderr);
    await project(box);
    // Without the same --command, doctor cannot tell the entries are rgraph's: it runs neither.
    const plain = await doctor(box, dir);
    assert.match(find(plain.checks, "claude-code (project) MCP server").detail, /did not write/);
    const { code, checks } = await doctor(box, dir, "--command", gone);
    assert.equal(code, 1);
    assert.ok(find(checks, "claude-code (project) hooks").ok);
    const probe = find(checks, "claude-code (project) hook probe");
    assert.equal(probe.ok, false);
    assert.match(probe.detail, /No such file|not found/i);
    assert.equal(probe.fix, `rgraph install claude-code --dir ${dir} --command ${gone}`);
    const server = find(checks, "claude-code (project) MCP server");
    assert.equal(server.ok, false);
    assert.match(server.detail, /\/nonexistent\/bin\/rgraph/);
    assert.match(server.fix, /^rgraph install claude-code --dir .* --command \/nonexistent/);
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
    // A command that colours its own error whatever NO_COLOR says, installed as rgraph's.
    const fake = `${box.dir}/bin/rgraph`;
    await Deno.mkdir(`${box.dir}/bin`);
    await Deno.writeTextFile(
      fake,
      "#!/bin/sh\nprintf '\\033[1;31merror\\033[0m: boom\\n' >&2\nexit 1\n",
    );
    await Deno.chmod(fake, 0o755);
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    const r0 = await box.rgraph(["install", "claude-code", "--dir", dir, "--command", fake]);
    assert.equal(r0.code, 0, r0.stderr);
    await project(box);

    // As from a terminal that allows colour (an empty NO_COLOR does).
    const r = await runRgraph(["doctor", "--json", "--dir", dir, "--command", fake], {
      env: { ...box.env, NO_COLOR: "" },
      cwd: box.dir,
    });
    assert.equal(r.code, 1);
    // JSON writes ESC as \u001b.
    assert.ok(!r.stdout.includes("\\u001b"), r.stdout);
    const checks: Check[] = JSON.parse(r.stdout);
    const probe = find(checks, "claude-code (project) hook probe");
    assert.equal(probe.detail, "exit 1: error: boom");
    const server = find(checks, "claude-code (project) MCP server");
    assert.equal(server.detail, `${fake}: error: boom`);
    assert.match(server.fix, /^rgraph install claude-code --dir /);
  } finally {
    await box.cleanup();
  }
});

Deno.test("doctor with a config but no harness wired warns, with the command that wires one, and stops warning once one is", async () => {
  const box = await sandbox();
  try {
    const dir = await project(box);
    const { code, checks } = await doctor(box, dir);
    assert.equal(code, 0, "a warning does not fail the report");
    const none = find(checks, "harnesses") as Check & { warning?: boolean };
    assert.equal(none.warning, true);
    assert.match(none.detail, /^no harness runs rgraph .*: nothing is recorded$/);
    assert.match(none.fix, /rgraph install claude-code --scope user/);
    assert.match(none.fix, /plugin/);
    const text = await box.rgraph(["doctor", "--dir", dir]);
    assert.match(
      text.stdout,
      /^WARN harnesses: no harness runs rgraph .* — fix: wire one: rgraph install claude-code --scope user/m,
    );

    const r = await box.rgraph(["install", "cursor", "--dir", dir]);
    assert.equal(r.code, 0, r.stderr);
    const wired = await doctor(box, dir);
    assert.equal(wired.checks.find((c) => c.check === "harnesses"), undefined);
  } finally {
    await box.cleanup();
  }
});
