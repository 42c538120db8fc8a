import assert from "node:assert/strict";
import { type Context, pluginText, targetsFor } from "./harnesses.ts";
import { gated, PRE_TOOL_MATCHER } from "./dispatch.ts";

const INV = { argv: ["/opt/bin/rgraph"], config: null };
const ctx = (over: Partial<Context> = {}): Context => ({
  scope: "project",
  dir: "/repo",
  home: "/home/me",
  env: {},
  invocation: INV,
  pluginSource:
    'import x from "y";\nconst RGRAPH_COMMAND = ["rgraph"]; // rgraph-command\nexport const P = 1;\n',
  ...over,
});

function target(harness: Parameters<typeof targetsFor>[0], what: string, c = ctx()) {
  const t = targetsFor(harness, c).find((t) => t.what === what);
  assert.ok(t);
  return t;
}

Deno.test("paths per scope honour each harness's home variable", () => {
  const paths = (h: Parameters<typeof targetsFor>[0], c: Context) =>
    targetsFor(h, c).map((t) => t.path);
  assert.deepEqual(paths("claude-code", ctx({ scope: "user" })), [
    "/home/me/.claude/settings.json",
    "/home/me/.claude.json",
  ]);
  assert.deepEqual(paths("codex", ctx({ scope: "user", env: { CODEX_HOME: "/cx" } })), [
    "/cx/hooks.json",
    "/cx/config.toml",
  ]);
  assert.deepEqual(paths("copilot", ctx({ scope: "user" })), [
    "/home/me/.copilot/hooks/rgraph.json",
    "/home/me/.copilot/mcp-config.json",
  ]);
  assert.deepEqual(paths("opencode", ctx({ scope: "user", env: { XDG_CONFIG_HOME: "/xdg" } })), [
    "/xdg/opencode/plugins/rgraph.js",
    "/xdg/opencode/opencode.json",
  ]);
  assert.deepEqual(paths("grok", ctx()), [
    "/repo/.grok/hooks/rgraph.json",
    "/repo/.grok/config.toml",
  ]);
});

Deno.test("an rgraph handler the user put in their own group is moved out on install and removed alone on uninstall", () => {
  const hooks = target("claude-code", "hooks");
  const text = JSON.stringify(
    {
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command", command: "./check.sh" }, {
            type: "command",
            command: "/old/rgraph hook claude-code",
          }],
        }],
      },
    },
    null,
    2,
  );
  const installed = JSON.parse(hooks.install(text));
  assert.deepEqual(installed.hooks.PreToolUse, [
    { matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] },
    {
      matcher: PRE_TOOL_MATCHER["claude-code"],
      hooks: [{
        type: "command",
        command: gated("claude-code", "/opt/bin/rgraph hook claude-code"),
        timeout: 5,
      }],
    },
  ]);
  const removed = JSON.parse(hooks.uninstall(text)!);
  assert.deepEqual(removed.hooks.PreToolUse, [{
    matcher: "Bash",
    hooks: [{ type: "command", command: "./check.sh" }],
  }]);
});

Deno.test("Copilot's hook commands pass the event; a dedicated file rgraph created is removed whole", () => {
  const hooks = target("copilot", "hooks");
  const doc = JSON.parse(hooks.install(null));
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.hooks.preToolUse, [{
    type: "command",
    bash: gated("copilot", "/opt/bin/rgraph hook copilot --event preToolUse"),
    timeoutSec: 5,
  }]);
  assert.ok(hooks.leftover(hooks.uninstall(hooks.install(null))));
  assert.ok(!hooks.leftover('{"version": 1, "hooks": {"stop": []}}'));
  assert.deepEqual(hooks.inspect(hooks.install(null)).hooks, {
    sessionStart: "/opt/bin/rgraph hook copilot --event sessionStart",
    userPromptSubmitted: "/opt/bin/rgraph hook copilot --event userPromptSubmitted",
    preToolUse: gated("copilot", "/opt/bin/rgraph hook copilot --event preToolUse"),
    // At session end, an automatic Sweep, never `rgraph hook`.
    sessionEnd: "/opt/bin/rgraph sweep --background",
  });
});

Deno.test("a server named rgraph that is not rgraph's survives uninstall; install replaces it", () => {
  const mcp = target("cursor", "mcp");
  const text = '{"mcpServers": {"rgraph": {"command": "/opt/other-rgraph-thing"}}}';
  assert.equal(mcp.uninstall(text), text);
  assert.deepEqual(JSON.parse(mcp.install(text)).mcpServers.rgraph, {
    command: "/opt/bin/rgraph",
    args: ["serve-mcp"],
  });
});

Deno.test("OpenCode: a V2 config gets the server under mcp.servers; the plugin runs this install's rgraph", () => {
  const mcp = target("opencode", "mcp");
  const v2 = '{\n  "mcp": {\n    "servers": {}\n  }\n}\n';
  assert.deepEqual(JSON.parse(mcp.install(v2)).mcp.servers.rgraph, {
    type: "local",
    command: ["/opt/bin/rgraph", "serve-mcp"],
    enabled: true,
  });
  assert.deepEqual(JSON.parse(mcp.uninstall(mcp.install(v2))), {});
  const fresh = JSON.parse(mcp.install(null));
  assert.equal(fresh.$schema, "https://opencode.ai/config.json");
  assert.deepEqual(fresh.mcp.rgraph.command, ["/opt/bin/rgraph", "serve-mcp"]);
  const plugin = pluginText(ctx().pluginSource, {
    argv: ["/usr/bin/deno", "run", "/a b/main.ts"],
    config: null,
  });
  assert.match(plugin, /^const RGRAPH_COMMAND = \["\/usr\/bin\/deno","run","\/a b\/main.ts"\];/m);
  assert.throws(() => pluginText("export {}", INV), /RGRAPH_COMMAND/);
});

Deno.test("Codex: hooks switched off by the user stay off; Gemini settings keep comments through install and uninstall", () => {
  const toml = target("codex", "mcp");
  const off = "[features]\nhooks = false\n";
  const installed = toml.install(off);
  assert.ok(installed.startsWith(off));
  assert.equal(toml.uninstall(installed), off);
  const gemini = targetsFor("gemini", ctx());
  const text = '{\n  // mine\n  "ui": {"theme": "GitHub"}, /* and this */\n}\n';
  let t = text;
  for (const g of gemini) t = g.install(t);
  assert.match(t, /\/\/ mine[\s\S]*\/\* and this \*\//);
  for (const g of gemini) t = g.uninstall(t);
  assert.equal(t, text);
});

Deno.test("Codex's SessionEnd hook asks for no more than the 3 s Codex allows; other hooks keep 5 s", () => {
  const doc = JSON.parse(target("codex", "hooks").install(null));
  const timeouts = Object.fromEntries(
    Object.entries(doc.hooks as Record<string, { hooks: { timeout: number }[] }[]>).map((
      [event, groups],
    ) => [event, groups[0].hooks[0].timeout]),
  );
  assert.deepEqual(timeouts, {
    SessionStart: 5,
    UserPromptSubmit: 5,
    PreToolUse: 5,
    SessionEnd: 3,
  });
  const claude = JSON.parse(target("claude-code", "hooks").install(null));
  assert.equal(claude.hooks.SessionEnd[0].hooks[0].timeout, 5);
});

Deno.test("an older install's hooks that run on every tool are reported, and install narrows them", () => {
  const claude = target("claude-code", "hooks");
  const old = JSON.stringify({
    hooks: {
      PreToolUse: [{
        matcher: "*",
        hooks: [{ type: "command", command: "/opt/bin/rgraph hook claude-code", timeout: 5 }],
      }],
    },
  });
  assert.deepEqual(claude.inspect(old).everyTool, ["PreToolUse"]);
  const upgraded = claude.install(old);
  assert.deepEqual(
    JSON.parse(upgraded).hooks.PreToolUse.map((g: { matcher: string }) => g.matcher),
    [
      PRE_TOOL_MATCHER["claude-code"],
    ],
  );
  assert.deepEqual(claude.inspect(upgraded).everyTool, []);

  // Copilot: the tool hook without its gate.
  const copilot = target("copilot", "hooks");
  const ungatedCopilot = JSON.stringify({
    version: 1,
    hooks: {
      preToolUse: [{
        type: "command",
        bash: "/opt/bin/rgraph hook copilot --event preToolUse",
        timeoutSec: 5,
      }],
    },
  });
  assert.deepEqual(copilot.inspect(ungatedCopilot).everyTool, ["preToolUse"]);
  assert.deepEqual(copilot.inspect(copilot.install(ungatedCopilot)).everyTool, []);
  assert.deepEqual(JSON.parse(copilot.install(ungatedCopilot)).hooks.preToolUse.length, 1);

  // Cursor: rgraph's preToolUse entry goes; a user's own there stays.
  const cursor = target("cursor", "hooks");
  const oldCursor = JSON.stringify({
    version: 1,
    hooks: {
      preToolUse: [{ command: "./mine.sh" }, { command: "/opt/bin/rgraph hook cursor" }],
    },
  });
  assert.deepEqual(cursor.inspect(oldCursor).everyTool, ["preToolUse"]);
  const olderShell = JSON.stringify({
    version: 1,
    hooks: { beforeShellExecution: [{ command: "/opt/bin/rgraph hook cursor" }] },
  });
  assert.deepEqual(cursor.inspect(olderShell).everyTool, ["beforeShellExecution"]);
  const narrowed = cursor.install(oldCursor);
  assert.deepEqual(JSON.parse(narrowed).hooks.preToolUse, [{ command: "./mine.sh" }]);
  assert.deepEqual(cursor.inspect(narrowed).everyTool, []);
});
