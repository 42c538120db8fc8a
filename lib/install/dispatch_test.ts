import assert from "node:assert/strict";
import { dispatches, gated, mentionsGitHub, PRE_TOOL_MATCHER, ungated } from "./dispatch.ts";
import { addressesFromToolCall } from "../address/mod.ts";
import { isMemoryRead } from "../capture/mod.ts";
import type { HarnessName } from "../types.ts";

/** Per harness: tool calls that can read GitHub (as that harness names them), and others. */
type Tools = { reads: [string, unknown][]; others: string[] };
const TOOLS: Record<HarnessName, Tools> = {
  "claude-code": {
    reads: [
      ["Bash", { command: "gh issue view 5 --repo o/r" }],
      ["WebFetch", { url: "https://github.com/o/r/pull/3", prompt: "read" }],
      ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
      ["mcp__github_work__get_issue", { owner: "o", repo: "r", issue_number: 5 }],
      ["mcp__fetch__fetch", { url: "https://github.com/o/r/issues/5" }],
      ["mcp__rgraph__resource", { address: "o/r#5" }],
      ["mcp__plugin_rgraph_rgraph__resource", { address: "o/r#5" }],
    ],
    others: [
      "Read",
      "Edit",
      "Write",
      "Grep",
      "Glob",
      "TodoWrite",
      "Task",
      "BashOutput",
      "WebSearch",
      "NotebookEdit",
      "ToolSearch",
    ],
  },
  codex: {
    reads: [
      ["Bash", { command: "gh pr view 3 -R o/r" }],
      ["shell", { command: ["bash", "-lc", "gh issue view 5 -R o/r"] }],
      ["mcp__github__pull_request_read", { method: "get", owner: "o", repo: "r", pullNumber: 3 }],
      ["mcp__rgraph__resource", { address: "o/r#5" }],
    ],
    others: ["apply_patch", "update_plan", "view_image", "web_search", "spawn_agent"],
  },
  gemini: {
    reads: [
      ["run_shell_command", { command: "gh issue view 5 -R o/r" }],
      ["web_fetch", { prompt: "summarise https://github.com/o/r/issues/5" }],
      ["mcp_github_issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
      ["mcp_rgraph_resource", { address: "o/r#5" }],
    ],
    others: [
      "read_file",
      "read_many_files",
      "write_file",
      "replace",
      "glob",
      "search_file_content",
      "list_directory",
      "write_todos",
      "google_web_search",
      "save_memory",
    ],
  },
  grok: {
    reads: [
      ["run_terminal_command", { command: "gh issue view 5 -R o/r" }],
      ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
      ["mcp__rgraph__resource", { address: "o/r#5" }],
    ],
    others: ["read_file", "edit_file", "grep", "list_dir", "todo_write"],
  },
  copilot: {
    reads: [
      ["bash", { command: "gh issue view 5 -R o/r" }],
      ["powershell", { command: "gh issue view 5 -R o/r" }],
      ["web_fetch", { url: "https://github.com/o/r/issues/5" }],
      ["github-mcp-server-issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
      ["rgraph-resource", { address: "o/r#5" }],
    ],
    others: ["view", "edit", "create", "glob", "grep", "task", "update_todo", "read_bash"],
  },
  cursor: {
    reads: [
      ["Shell", { command: "gh issue view 5 -R o/r" }],
      ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
    ],
    others: ["Read", "Edit", "Grep", "Glob", "TodoWrite"],
  },
  opencode: {
    reads: [
      ["bash", { command: "gh issue view 5 -R o/r" }],
      ["webfetch", { url: "https://github.com/o/r/issues/5", format: "text" }],
      ["github_issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }],
      ["rgraph_resource", { address: "o/r#5" }],
    ],
    others: ["read", "edit", "write", "grep", "glob", "list", "todowrite", "todoread", "task"],
  },
};

const ctx = { cwd: "/w", githubLogin: null, repoOfCwd: () => null };

/** OpenCode's and Cursor's hooks see MCP tools renamed to `mcp__<server>__<tool>`. */
function asParsed(harness: HarnessName, tool: string): string {
  if (harness !== "opencode" || tool === "bash" || tool === "webfetch") return tool;
  const at = tool.indexOf("_");
  return `mcp__${tool.slice(0, at)}__${tool.slice(at + 1)}`;
}

for (
  const [harness, { reads, others }] of Object.entries(TOOLS) as [
    HarnessName,
    typeof TOOLS[HarnessName],
  ][]
) {
  Deno.test(`${harness}: every tool that can read GitHub is dispatched, the others are not`, () => {
    for (const [tool, input] of reads) {
      const name = asParsed(harness, tool);
      // The sample is a real read: the parser finds an Address in it, or it is rgraph's own tool
      assert.ok(
        isMemoryRead(name) || addressesFromToolCall({ tool: name, input }, ctx).length > 0,
        `${tool} reads nothing`,
      );
      assert.ok(dispatches(harness, tool), `${harness} leaves out ${tool}`);
    }
    for (const tool of others) assert.ok(!dispatches(harness, tool), `${harness} runs on ${tool}`);
  });
}

Deno.test("the matchers are regular expressions every harness reads alike", () => {
  for (const matcher of Object.values(PRE_TOOL_MATCHER)) {
    assert.match(matcher, /^\^\(.*\)\$$/);
    new RegExp(matcher, "v"); // valid in the strictest JS mode too
  }
});

/** Runs `harness`'s gate in `sh` with `payload` on standard input: what reached the command behind it. */
async function throughGate(harness: HarnessName, payload: string): Promise<string | null> {
  const child = new Deno.Command("sh", {
    args: ["-c", gated(harness, "cat; echo '<ran>'")],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(payload));
  await w.close();
  const out = new TextDecoder().decode((await child.output()).stdout);
  return out.endsWith("<ran>\n") ? out.slice(0, -"<ran>\n".length) : null;
}

Deno.test("the gate passes every GitHub read's payload, unchanged, and stops a shell command that names nothing on GitHub", async () => {
  for (const [harness, { reads }] of Object.entries(TOOLS) as [HarnessName, Tools][]) {
    if (harness === "opencode") continue; // its plugin decides in-process
    for (const [tool, input] of reads) {
      const payload = JSON.stringify({
        session_id: "s",
        cwd: "/home/dev/app",
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: input,
      });
      assert.ok(mentionsGitHub(payload), `${harness} ${tool}`);
      assert.equal(await throughGate(harness, payload), `${payload}\n`, `${harness} ${tool}`);
    }
  }
  for (const command of ["ls -la", "git status", "deno test tests/x_test.ts", "rg -n high src"]) {
    const payload = JSON.stringify({
      cwd: "/home/dev/app",
      tool_name: "Bash",
      tool_input: { command },
    });
    assert.ok(!mentionsGitHub(payload), command);
    assert.equal(await throughGate("claude-code", payload), null, command);
  }
  // What sh does with the payload's text: nothing. It reaches rgraph byte for byte.
  const odd = JSON.stringify({
    tool_name: "Bash",
    tool_input: { command: "gh issue view 5; echo '$(id)' `x` \\n \\\\ %s" },
  });
  assert.equal(await throughGate("codex", odd), `${odd}\n`);
});

Deno.test("Copilot's gate also stops a tool that cannot fetch, whatever its arguments say", async () => {
  for (const tool of TOOLS.copilot.others) {
    // The arguments name a shell tool and GitHub: only the payload's own key counts.
    const payload = JSON.stringify({
      sessionId: "s",
      toolName: tool,
      toolArgs: { toolName: "bash", path: "docs/github.md" },
    });
    assert.equal(await throughGate("copilot", payload), null, tool);
  }
  // Spacing as a pretty-printer writes it, and the snake_case form (no `toolName`), go through.
  assert.notEqual(await throughGate("copilot", '{ "toolName" : "bash", "c": "gh pr list" }'), null);
  assert.notEqual(await throughGate("copilot", '{"tool_name": "view", "p": "github"}'), null);
});

Deno.test("a gated command is recognised and unwrapped", () => {
  for (const harness of ["copilot", "codex"] as const) {
    assert.equal(ungated(gated(harness, "a b")), "a b");
  }
  assert.equal(ungated("a b"), null);
  assert.equal(ungated(gated("codex", "a b").replace("; }", "; } ; evil")), null);
});
