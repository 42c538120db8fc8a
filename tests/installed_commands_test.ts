/**
 * The commands `rgraph install` writes, run the way the harnesses that pass
 * their children almost no environment run them (Codex: HOME, PATH, USER,
 * LANG, TERM; Gemini CLI under CI the same): the hook through `sh -c`, the
 * MCP server through a real MCP client over stdio. rgraph's config is named
 * only by `RGRAPH_CONFIG` in the installing shell, and the hook and the
 * server see different `XDG_DATA_HOME`s, as a user's shell and a harness
 * may: what they record and claim must still meet in one store and one data
 * directory.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Sandbox, sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { issue } from "./fixtures_memory.ts";

/** What Codex gives a hook or an MCP server, here. */
function bareEnv(sb: Sandbox): Record<string, string> {
  return {
    HOME: sb.dir,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    USER: "codex-user",
    LANG: "C.UTF-8",
    TERM: "dumb",
  };
}

/** Runs a hook command as a harness does: `sh -c`, the payload on stdin, only `env`. */
async function runHook(command: string, payload: unknown, env: Record<string, string>) {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(payload)));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("installed Codex commands find the config and one data directory with only the environment Codex passes them", async () => {
  const sb = await sandbox();
  const store = openEmbeddedStore(sb.dbPath);
  await store.putResources([{ resource: issue("openai", "codex", 2900) }]);
  await store.close();
  const dir = `${sb.dir}/project`;
  await Deno.mkdir(dir);
  try {
    const r = await sb.rgraph(["install", "codex", "--dir", dir]);
    assert.equal(r.code, 0, r.stderr);
    const hooks = JSON.parse(await Deno.readTextFile(`${dir}/.codex/hooks.json`));
    const command: string = hooks.hooks.PreToolUse[0].hooks[0].command;
    const toml = await Deno.readTextFile(`${dir}/.codex/config.toml`);
    const server = /^command = (".*")\nargs = (\[.*\])$/m.exec(toml)!;
    // A PreToolUse, with an XDG_DATA_HOME the user's shell never had.
    const elsewhere = { ...bareEnv(sb), XDG_DATA_HOME: `${sb.dir}/elsewhere` };
    const preToolUse = (tool_name: string, tool_input: unknown, tool_use_id: string) =>
      runHook(command, {
        session_id: "codex-session",
        cwd: dir,
        hook_event_name: "PreToolUse",
        permission_mode: "bypassPermissions",
        tool_name,
        tool_input,
        tool_use_id,
      }, elsewhere);

    const gh = await preToolUse(
      "Bash",
      { command: "gh issue view 2900 -R openai/codex" },
      "call_gh",
    );
    assert.equal(gh.code, 0);
    assert.match(gh.stdout, /openai\/codex#2900 is in memory/, "the Nudge read the user's store");
    // The resource call's PreToolUse notes the call under that XDG_DATA_HOME …
    const note = await preToolUse(
      "mcp__rgraph__resource",
      { address: "openai/codex#2900" },
      "call_resource",
    );
    assert.deepEqual([note.code, note.stdout], [0, ""]);

    // … and the server, started without it, claims that note.
    const client = new Client({ name: "codex-mcp-client", version: "0.171.0" });
    await client.connect(
      new StdioClientTransport({
        command: JSON.parse(server[1]),
        args: JSON.parse(server[2]),
        env: bareEnv(sb),
        cwd: dir,
        stderr: "pipe",
      }),
    );
    try {
      const answer = await client.callTool({
        name: "resource",
        arguments: { address: "openai/codex#2900" },
      });
      const [content] = answer.content as { text: string }[];
      assert.match(content.text, /^rgraph: hit github:openai\/codex#2900/);
    } finally {
      await client.close();
    }

    const touches = JSON.parse((await sb.rgraph(["touches", "--json"])).stdout) as {
      provenance: string;
      status: string;
      session_id: string;
      tool_use_id: string;
    }[];
    assert.deepEqual(
      touches.map((t) => [t.provenance, t.status, t.session_id, t.tool_use_id]),
      [
        ["FETCHED", "served", "codex-session", "call_resource"],
        ["FETCHED", "pending", "codex-session", "call_gh"],
      ],
    );
  } finally {
    await sb.cleanup();
  }
});
