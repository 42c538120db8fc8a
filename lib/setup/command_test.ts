import assert from "node:assert/strict";
import {
  DENO_FLAGS,
  hookCommand,
  invocation,
  isRgraphHook,
  isRgraphServer,
  mcpCommand,
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
