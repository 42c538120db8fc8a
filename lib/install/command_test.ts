import assert from "node:assert/strict";
import {
  BUNDLE_FLAGS,
  configNamed,
  DENO_FLAGS,
  hookCommand,
  invocation,
  isRgraphHook,
  isRgraphServer,
  mcpCommand,
  rgraphArgv,
  shellQuote,
  shellSplit,
} from "./command.ts";
import { unifiedDiff } from "./diff.ts";

Deno.test("the invocation: a compiled rgraph by path, a checkout through deno run, or the --command override", () => {
  assert.deepEqual(invocation({ execPath: "/opt/rgraph", mainUrl: "file:///x/main.ts" }).argv, [
    "/opt/rgraph",
  ]);
  assert.deepEqual(
    invocation({ execPath: "/usr/bin/deno", mainUrl: "file:///home/me/my%20src/main.ts" }).argv,
    ["/usr/bin/deno", "run", ...DENO_FLAGS, "/home/me/my src/main.ts"],
  );
  assert.deepEqual(
    invocation({ execPath: "/usr/bin/deno", mainUrl: "x", override: "'/a b/rgraph' --x" }).argv,
    ["/a b/rgraph", "--x"],
  );
  assert.throws(() => invocation({ execPath: "d", mainUrl: "x", override: "  " }), /empty/);
});

Deno.test("hook and MCP commands quote what the shell would split, and read back as rgraph's", () => {
  const inv = {
    argv: ["/usr/bin/deno", "run", "--allow-read", "/home/me/my src/main.ts"],
    config: null,
  };
  const cmd = hookCommand(inv, "copilot", "preToolUse");
  assert.equal(
    cmd,
    "/usr/bin/deno run --allow-read '/home/me/my src/main.ts' hook copilot --event preToolUse",
  );
  assert.deepEqual(shellSplit(cmd), [...inv.argv, "hook", "copilot", "--event", "preToolUse"]);
  assert.ok(isRgraphHook(cmd, "copilot"));
  assert.ok(!isRgraphHook(cmd, "cursor"));
  assert.ok(isRgraphHook("/x/rgraph hook cursor", "cursor"));
  assert.ok(
    isRgraphHook("custom-wrapper hook grok", "grok", { argv: ["custom-wrapper"], config: null }),
  );
  assert.ok(!isRgraphHook("custom-wrapper hook grok", "grok"));
  assert.ok(!isRgraphHook("./hooks/check.sh", "claude-code"));
  assert.ok(!isRgraphHook("rgraph hook claude-code && rm -rf /", "claude-code"));
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.deepEqual(shellSplit(`a "b c" d\\ e 'f'g`), ["a", "b c", "d e", "fg"]);
  const server = mcpCommand(inv);
  assert.ok(isRgraphServer([server.command, ...server.args]));
  assert.ok(!isRgraphServer(["npx", "server-memory"]));
});

Deno.test("every command names the config file; a hook runs the bundle when its file exists, else the normal command", () => {
  const inv = invocation({
    execPath: "/usr/bin/deno",
    mainUrl: "file:///src/main.ts",
    config: "/home/me/.config/rgraph/config.toml",
  });
  assert.deepEqual(rgraphArgv(inv, ["serve-mcp"]).slice(-3), [
    "--config",
    "/home/me/.config/rgraph/config.toml",
    "serve-mcp",
  ]);
  assert.deepEqual(mcpCommand(inv).args.slice(-3), rgraphArgv(inv, ["serve-mcp"]).slice(-3));
  // --command replaces the program, never the config file's name.
  const custom = invocation({ execPath: "d", mainUrl: "x", override: "rgraph", config: "/c.toml" });
  assert.equal(hookCommand(custom, "codex"), "rgraph --config /c.toml hook codex");

  const entry = "/home/me/.local/share/rgraph/hook-bundle/0123456789ab/hook_bundled.js";
  const bundled = { ...inv, bundle: { deno: "/usr/bin/deno", entry } };
  const cmd = hookCommand(bundled, "copilot", "preToolUse");
  const normal = hookCommand(inv, "copilot", "preToolUse");
  assert.equal(
    cmd,
    `test -f ${entry} && exec /usr/bin/deno run ${
      BUNDLE_FLAGS.join(" ")
    } ${entry} --config /home/me/.config/rgraph/config.toml hook copilot --event preToolUse || exec ${normal}`,
  );
  // The bundle gets no network and no system access at all.
  assert.ok(
    !BUNDLE_FLAGS.some((f) => /^--allow-(net|sys|ffi|all)\b|^-A$/.test(f)),
    BUNDLE_FLAGS.join(" "),
  );
  assert.ok(isRgraphHook(cmd, "copilot", bundled));
  assert.ok(isRgraphHook(cmd, "copilot"), "recognised without knowing the install");
  assert.ok(!isRgraphHook(cmd, "codex"));
  assert.ok(!isRgraphHook(cmd.replace("exec /usr", "exec /bin/rm -rf / ; /usr"), "copilot"));
  assert.ok(!isRgraphHook(`test -f /tmp/x.js && exec evil || exec ${normal}`, "copilot"));
  assert.equal(configNamed(shellSplit(cmd)), "/home/me/.config/rgraph/config.toml");
  assert.equal(configNamed(["rgraph", "hook", "codex"]), null);
});

Deno.test("unifiedDiff: hunks with context, new and removed files", () => {
  const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  const after = "a\nb\nc\nD\ne\nf\ng\nh\ni\n";
  assert.equal(
    unifiedDiff("x.json", before, after),
    "--- a/x.json\n+++ b/x.json\n@@ -1,8 +1,9 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n+i\n",
  );
  assert.equal(
    unifiedDiff("n.json", null, "{}\n"),
    "--- /dev/null\n+++ b/n.json\n@@ -0,0 +1 @@\n+{}\n",
  );
  assert.equal(
    unifiedDiff("n.json", "{}\n", null),
    "--- a/n.json\n+++ /dev/null\n@@ -1 +0,0 @@\n-{}\n",
  );
  assert.equal(unifiedDiff("same", "x\n", "x\n"), "");
});
