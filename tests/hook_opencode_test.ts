/**
 * rgraph's OpenCode plugin, loaded as OpenCode loads it (a module whose
 * exports are plugin functions), with its command pointed at this checkout
 * the way `rgraph install` rewrites it: tool starts and prompts reach
 * `rgraph hook opencode` and become Touches; a missing rgraph never throws.
 */

import assert from "node:assert/strict";
import { rgraphCommand, sandbox } from "./helpers.ts";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";

/**
 * Puts `env` into this process's environment (the plugin runs in process and starts rgraph
 * with it) and returns what puts back the values it replaced: other tests of this process
 * still need HOME and the rest.
 */
function adoptEnv(env: Record<string, string>): () => void {
  const before = Object.keys(env).map((k) => [k, Deno.env.get(k)] as const);
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  return () => {
    for (const [k, v] of before) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
}

const PLUGIN = new URL("../lib/install/opencode_plugin.js", import.meta.url);
const MARKER = /^const RGRAPH_COMMAND = \["rgraph"\];.*$/m;

/** A copy of the plugin whose command is `command` (as `rgraph install` writes it). */
async function pluginWith(dir: string, command: string[]) {
  const source = await Deno.readTextFile(PLUGIN);
  assert.match(source, MARKER, "the install marker line is there");
  const path = `${dir}/rgraph-${crypto.randomUUID()}.js`;
  await Deno.writeTextFile(
    path,
    source.replace(MARKER, `const RGRAPH_COMMAND = ${JSON.stringify(command)};`),
  );
  const mod = await import(new URL(`file://${path}`).href);
  const exports = Object.values(mod);
  assert.equal(exports.length, 1, "every export of a plugin file is called as a plugin");
  // deno-lint-ignore no-explicit-any
  return await (exports[0] as any)({ directory: "/home/dev/app", worktree: "/home/dev/app" });
}

async function waitFor<T>(f: () => Promise<T>, ok: (t: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const t = await f();
    if (ok(t) || Date.now() > deadline) return t;
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test({
  name:
    "opencode plugin: tool starts and prompts become Touches through rgraph hook opencode; it waits for the hook on rgraph's own tool only, and adds the session hint to the system prompt",
  // The plugin detaches its children on purpose (it never waits for most); the test waits for their Touches.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sb = await sandbox();
    // The hook's environment (config file) is inherited from the harness process.
    const restore = adoptEnv(sb.env);
    try {
      const { command, args } = rgraphCommand();
      const hooks = await pluginWith(sb.dir, [command, ...args]);
      await hooks["tool.execute.before"](
        { tool: "bash", sessionID: "ses_plugin", callID: "call_1" },
        { args: { command: "gh issue view 4500 --repo sst/opencode", description: "Read it" } },
      );
      // OpenCode 1.18 gives the message id and agent on output.message, not on input.
      await hooks["chat.message"](
        { sessionID: "ses_plugin" },
        {
          message: { id: "msg_1", role: "user", agent: "build", sessionID: "ses_plugin" },
          parts: [
            { type: "text", text: "Compare with https://github.com/sst/opencode/pull/4600" },
            {
              type: "text",
              text: "https://github.com/sst/opencode/issues/1 (attached file)",
              synthetic: true,
            },
          ],
        },
      );
      // rgraph's own tool: when the plugin's hook resolves, the note that ties the call to its
      // session is already written, before OpenCode sends the call to the MCP server.
      const notes = `${sb.dbPath.slice(0, sb.dbPath.lastIndexOf("/"))}/memory-reads`;
      await hooks["tool.execute.before"](
        { tool: "rgraph_resource", sessionID: "ses_plugin", callID: "call_2" },
        { args: { address: "sst/opencode#4500" } },
      );
      const noted = [...Deno.readDirSync(notes)].map((e) =>
        JSON.parse(Deno.readTextFileSync(`${notes}/${e.name}`))
      );
      assert.deepEqual(
        noted.map((n) => [n.session_id, n.tool_use_id, n.address, n.harness]),
        [["ses_plugin", "call_2", "sst/opencode#4500", "opencode"]],
      );
      // The session hint, naming the tool as OpenCode presents it, on every model request.
      for (let i = 0; i < 2; i++) {
        const output = { system: ["You are OpenCode.", "another plugin's line"] };
        await hooks["experimental.chat.system.transform"]({ sessionID: "ses_plugin" }, output);
        const [first, ...rest] = output.system;
        assert.match(
          first,
          /^You are OpenCode\.\nrgraph: before fetching a GitHub issue.*`rgraph_resource`/,
        );
        assert.deepEqual(rest, ["another plugin's line"], "other plugins' entries stay their own");
      }
      const list = async () => {
        const r = await sb.rgraph(["touches", "--json"]);
        return r.code === 0 ? JSON.parse(r.stdout) as Array<Record<string, unknown>> : [];
      };
      const ts = await waitFor(list, (t) => t.length >= 2);
      assert.deepEqual(
        ts.map((t) => [t.provenance, t.address, t.tool_use_id, t.session_id, t.agent_id, t.harness])
          .sort(),
        [
          ["FETCHED", "github:sst/opencode#4500", "call_1", "ses_plugin", null, "opencode"],
          ["PROMPTED", "github:sst/opencode#4600", null, "ses_plugin", "build", "opencode"],
        ],
      );
    } finally {
      restore();
      await sb.cleanup();
    }
  },
});

Deno.test({
  name:
    "opencode plugin: only a call that can read GitHub starts a process (gh in bash, a webfetch of github.com, GitHub MCP tools, rgraph's own); read, edit, grep, todowrite, task and ls start none",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      // A stand-in for rgraph that writes down each payload it is started with, a file each.
      const starts = `${dir}/starts`;
      await Deno.mkdir(starts);
      const hooks = await pluginWith(dir, ["sh", "-c", `cat > "$(mktemp ${starts}/s.XXXXXX)"`]);
      const call = (tool: string, args: unknown) =>
        hooks["tool.execute.before"]({ tool, sessionID: "s", callID: `call_${tool}` }, { args });
      for (const tool of ["read", "edit", "write", "grep", "glob", "list", "todowrite", "task"]) {
        await call(tool, { filePath: "/home/dev/app/gh.md", pattern: "gh issue view 5" });
      }
      // The shell, for a command that names nothing on GitHub.
      await call("bash", { command: "ls -la && git status" });
      await call("bash", { command: "gh issue view 5 -R o/r" });
      await call("webfetch", { url: "https://github.com/o/r/issues/5", format: "text" });
      await call("github_issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 });
      await call("rgraph_resource", { address: "o/r#5" });
      const tools = () => {
        try {
          // The session hint's request (at load) is no tool call.
          return Promise.resolve(
            [...Deno.readDirSync(starts)].map((e) =>
              JSON.parse(Deno.readTextFileSync(`${starts}/${e.name}`))
            ).filter((p) => p.event === "tool.execute.before").map((p) => p.tool).sort(),
          );
        } catch {
          return Promise.resolve([]); // a start still writing its file
        }
      };
      const seen = await waitFor(tools, (t) => t.length >= 4);
      // A little longer, so a start the plugin should not have made has time to show.
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(await tools(), seen);
      assert.deepEqual(seen, ["bash", "github_issue_read", "rgraph_resource", "webfetch"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "opencode plugin: a missing rgraph command never throws or rejects",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const hooks = await pluginWith(dir, ["/nonexistent/rgraph-missing"]);
      await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, {
        args: { command: "ls" },
      });
      await hooks["chat.message"]({ sessionID: "s" }, {
        message: {},
        parts: [{ type: "text", text: "hi" }],
      });
      await hooks["tool.execute.before"](undefined, undefined);
      await hooks["chat.message"](undefined, undefined);
      await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
      await hooks.event(undefined);
      // rgraph's own tool waits for the hook, which cannot start: the call goes on at once.
      await hooks["tool.execute.before"]({ tool: "rgraph_resource" }, { args: { address: "x" } });
      const output = { system: ["base"] };
      await hooks["experimental.chat.system.transform"]({}, output);
      assert.deepEqual(output.system, ["base"], "no hint without rgraph");
      // Give a spawn failure time to surface as an unhandled error, if it could.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "opencode plugin: a session going idle starts an automatic Sweep; the pending Touches resolve",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const gh = await startEmulator();
    const sb = await sandbox({
      extra: `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\n` +
        `graphql_url = "${gh.graphqlUrl}"\n`,
    });
    const restore = adoptEnv(sb.env);
    try {
      const { command, args } = rgraphCommand();
      const hooks = await pluginWith(sb.dir, [command, ...args]);
      const { owner, name } = FACTS.pythonClient;
      await hooks["tool.execute.before"](
        { tool: "bash", sessionID: "ses_idle", callID: "call_1" },
        { args: { command: `gh issue view 3 --repo ${owner}/${name}` } },
      );
      const list = async () => {
        const r = await sb.rgraph(["touches", "--json"]);
        return r.code === 0 ? JSON.parse(r.stdout) as Array<Record<string, unknown>> : [];
      };
      assert.equal((await waitFor(list, (t) => t.length === 1)).length, 1);
      // Other events change nothing; the idle session starts the Sweep.
      await hooks.event({ event: { type: "session.updated", properties: {} } });
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await list())[0].status, "pending");
      await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_idle" } } });
      const ts = await waitFor(list, (t) => t[0]?.status === "resolved");
      assert.equal(ts[0].status, "resolved");
      assert.equal(ts[0].target, `github:${owner}/${name}#3`);
    } finally {
      restore();
      await waitFor(
        async () => (await sb.rgraph(["status", "--json"])).stdout,
        (out) => out.includes('"running": null'),
      );
      await gh.close();
      await sb.cleanup();
    }
  },
});
