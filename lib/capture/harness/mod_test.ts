import assert from "node:assert/strict";
import fc from "fast-check";
import { adapterFor, HARNESS_NAMES, HARNESSES } from "./mod.ts";
import type { HarnessName, HookEvent, ToolStartEvent } from "./event.ts";

const FIXTURES = new URL("../../../fixtures/payloads/", import.meta.url);

function fixture(harness: HarnessName, name: string): unknown {
  return JSON.parse(Deno.readTextFileSync(new URL(`${harness}/${name}.json`, FIXTURES)));
}

/** What a fixture must parse to (fingerprint checked separately). */
type Expect =
  | { type: "ignored" }
  | { type: "session_start"; session_id: string | null; cwd: string | null }
  | {
    type: "user_prompt";
    session_id: string | null;
    cwd: string | null;
    agent_id: string | null;
    prompt: RegExp;
    prompt_id?: string | null;
  }
  | {
    type: "tool_start";
    session_id: string | null;
    cwd: string | null;
    tool_name: string;
    tool_input: unknown;
    tool_use_id: string | null;
    agent_id: string | null;
  };

const CC_S = "3f1c2a9e-7b4d-4e8a-9c1f-5d2e8b7a6c40";
const CX_S = "0199a3f2-5c1e-7d40-b8e2-3a9f6c1d2e7b";
const CP_S = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const CU_S = "c0f3e2a1-9b8d-4c7e-a6f5-3e2d1c0b9a87";
const OC_S = "ses_6f1a2b3c4d5eFgHiJkLmNoPq";
const GM_S = "b6f2d8e4-1a3c-4e5f-9a7b-2c4d6e8f0a1b";
const GK_S = "grok-4b2e9c1d-7f3a-4e6b-8d0c-5a1f2e3d4c6b";
const APP = "/home/dev/app";

const CASES: Array<[HarnessName, string, string | undefined, Expect]> = [
  ["claude-code", "session_start", undefined, {
    type: "session_start",
    session_id: CC_S,
    cwd: APP,
  }],
  ["claude-code", "prompt_links", undefined, {
    type: "user_prompt",
    session_id: CC_S,
    cwd: APP,
    agent_id: null,
    prompt: /issues\/1234 and \[the fix\]/,
  }],
  ["claude-code", "bash_gh_issue_view", undefined, {
    type: "tool_start",
    session_id: CC_S,
    cwd: APP,
    tool_name: "Bash",
    tool_input: {
      command: "gh issue view 1234 -R memgraph/memgraph --comments",
      description: "Read the issue with its comments",
    },
    tool_use_id: "toolu_01HkQ7b3Jc9uWv2XyZaB4cDe",
    agent_id: null,
  }],
  ["claude-code", "subagent_gh_api", undefined, {
    type: "tool_start",
    session_id: CC_S,
    cwd: APP,
    tool_name: "Bash",
    tool_input: {
      command: "gh api repos/memgraph/memgraph/issues/1234/comments --paginate --jq '.[].body'",
      description: "Fetch all comments",
    },
    tool_use_id: "toolu_01Kl2Mn3Op4Qr5St6Uv7Wx8Y",
    agent_id: "a7c3e1f0-2b9d-4c5e-8f6a-1d0b3e2c4f5a",
  }],
  ["claude-code", "post_tool_use", undefined, { type: "ignored" }],
  ["codex", "session_start", undefined, { type: "session_start", session_id: CX_S, cwd: APP }],
  ["codex", "prompt_links", undefined, {
    type: "user_prompt",
    session_id: CX_S,
    cwd: APP,
    agent_id: null,
    prompt: /openai\/codex#2900/,
  }],
  ["codex", "shell_argv", undefined, {
    type: "tool_start",
    session_id: CX_S,
    cwd: APP,
    tool_name: "shell",
    tool_input: {
      command: ["bash", "-lc", "gh issue view 2847 -R openai/codex --comments"],
      workdir: APP,
      timeout_ms: 120000,
    },
    tool_use_id: "call_Hs5nJ7mK2qW9eR4tY6uI8oP0",
    agent_id: null,
  }],
  ["codex", "mcp_get_issue", undefined, {
    type: "tool_start",
    session_id: CX_S,
    cwd: APP,
    tool_name: "mcp__github__get_issue",
    tool_input: { owner: "openai", repo: "codex", issue_number: 2847 },
    tool_use_id: "call_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8",
    agent_id: "agent_7f3e",
  }],
  ["copilot", "session_start", "sessionStart", {
    type: "session_start",
    session_id: CP_S,
    cwd: APP,
  }],
  ["copilot", "user_prompt_submitted", "userPromptSubmitted", {
    type: "user_prompt",
    session_id: CP_S,
    cwd: APP,
    agent_id: null,
    prompt: /cli\/cli#8990/,
  }],
  ["copilot", "pre_tool_use_bash_gh", "preToolUse", {
    type: "tool_start",
    session_id: CP_S,
    cwd: APP,
    tool_name: "bash",
    tool_input: {
      command: "gh issue view 9000 --repo cli/cli --json title,body,comments",
      description: "View the issue",
    },
    tool_use_id: null,
    agent_id: null,
  }],
  // Without --event a camelCase Copilot payload names no event: nothing is guessed.
  ["copilot", "pre_tool_use_bash_gh", undefined, { type: "ignored" }],
  ["copilot", "vscode_pre_tool_use", undefined, {
    type: "tool_start",
    session_id: CP_S,
    cwd: APP,
    tool_name: "bash",
    tool_input: {
      command: "curl -s https://api.github.com/repos/cli/cli/issues/8990/comments",
      description: "Fetch comments",
    },
    tool_use_id: null,
    agent_id: null,
  }],
  ["cursor", "session_start", undefined, { type: "session_start", session_id: CU_S, cwd: APP }],
  ["cursor", "before_submit_prompt", undefined, {
    type: "user_prompt",
    session_id: CU_S,
    cwd: APP,
    agent_id: null,
    prompt: /issues\/58000/,
  }],
  ["cursor", "before_shell_gh_pr_list", undefined, {
    type: "tool_start",
    session_id: CU_S,
    cwd: APP,
    tool_name: "Shell",
    tool_input: { command: "gh pr list -R vercel/next.js --state merged -L 20" },
    tool_use_id: null,
    agent_id: null,
  }],
  ["cursor", "before_mcp_issue_read", undefined, {
    type: "tool_start",
    session_id: CU_S,
    cwd: APP,
    tool_name: "mcp__github__issue_read",
    tool_input: { method: "get_comments", owner: "vercel", repo: "next.js", issue_number: 58000 },
    tool_use_id: null,
    agent_id: null,
  }],
  ["cursor", "pre_tool_use_shell_curl", undefined, {
    type: "tool_start",
    session_id: CU_S,
    cwd: APP,
    tool_name: "Shell",
    tool_input: { command: "curl -sL https://api.github.com/repos/vercel/next.js/issues/58123" },
    tool_use_id: "toolu_vrtx_01AbCdEfGhIjKlMnOpQrStUv",
    agent_id: null,
  }],
  ["cursor", "before_read_file", undefined, { type: "ignored" }],
  ["opencode", "chat_message", undefined, {
    type: "user_prompt",
    session_id: OC_S,
    cwd: APP,
    // The plugin reads them at output.message (OpenCode 1.18 leaves input's undefined).
    agent_id: "build",
    prompt_id: "msg_9e8d7c6b5a4f3e2d1c0b",
    prompt: /sst\/opencode#4500/,
  }],
  ["opencode", "tool_bash_gh", undefined, {
    type: "tool_start",
    session_id: OC_S,
    cwd: APP,
    tool_name: "bash",
    tool_input: {
      command: "gh issue view 4500 --repo sst/opencode",
      description: "Read the issue",
    },
    tool_use_id: "toolu_01XyZaBcDeFgHiJkLmNoPqRs",
    agent_id: null,
  }],
  ["opencode", "tool_mcp_github", undefined, {
    type: "tool_start",
    session_id: OC_S,
    cwd: APP,
    tool_name: "mcp__github__get_pull_request",
    tool_input: { owner: "sst", repo: "opencode", pullNumber: 4600 },
    tool_use_id: "toolu_01LlMmNnOoPpQqRrSsTtUuVv",
    agent_id: null,
  }],
  ["gemini", "session_start", undefined, { type: "session_start", session_id: GM_S, cwd: APP }],
  ["gemini", "before_agent", undefined, {
    type: "user_prompt",
    session_id: GM_S,
    cwd: APP,
    agent_id: null,
    prompt: /gemini-cli\/issues\/5000/,
  }],
  ["gemini", "before_tool_web_fetch", undefined, {
    type: "tool_start",
    session_id: GM_S,
    cwd: APP,
    tool_name: "web_fetch",
    tool_input: {
      prompt:
        "Summarize https://github.com/google-gemini/gemini-cli/issues/5000 and list its open questions",
    },
    tool_use_id: null,
    agent_id: null,
  }],
  ["grok", "session_start", undefined, { type: "session_start", session_id: GK_S, cwd: APP }],
  ["grok", "user_prompt_submit", undefined, {
    type: "user_prompt",
    session_id: GK_S,
    cwd: APP,
    agent_id: null,
    prompt: /grok-1\/issues\/150/,
  }],
  ["grok", "pre_tool_terminal_gh_list", undefined, {
    type: "tool_start",
    session_id: GK_S,
    cwd: APP,
    tool_name: "run_terminal_command",
    tool_input: { command: "gh issue list -R xai-org/grok-1 -s all -L 100" },
    tool_use_id: null,
    agent_id: null,
  }],
  ["grok", "pre_tool_snake_curl", undefined, {
    type: "tool_start",
    session_id: GK_S,
    cwd: APP,
    tool_name: "run_terminal_command",
    tool_input: { command: "curl -s https://api.github.com/repos/xai-org/grok-1" },
    tool_use_id: "call_grok_01",
    agent_id: null,
  }],
];

for (const [harness, name, event, expect] of CASES) {
  Deno.test(`${harness} adapter: ${name}${event ? ` (--event ${event})` : ""}`, () => {
    const got = HARNESSES[harness].parse(fixture(harness, name), { event });
    assert.equal(got.type, expect.type);
    if (expect.type === "user_prompt" && got.type === "user_prompt") {
      const { prompt, ...rest } = expect;
      const { prompt: gotPrompt, ...gotRest } = got;
      assert.deepEqual(gotRest, rest);
      assert.match(gotPrompt, prompt);
    } else if (got.type === "tool_start") {
      const { fingerprint, ...rest } = got;
      assert.deepEqual(rest, expect);
      assert.match(fingerprint, /^[0-9a-f]{32}$/);
    } else {
      assert.deepEqual(got, expect);
    }
  });
}

Deno.test("every fixture parses without throwing, and every harness has session, prompt and tool fixtures", () => {
  for (const harness of HARNESS_NAMES) {
    const types = new Set<string>();
    for (const entry of Deno.readDirSync(new URL(`${harness}/`, FIXTURES))) {
      const name = entry.name.replace(/\.json$/, "");
      const event = harness === "copilot"
        ? (name.startsWith("pre_tool_use")
          ? "preToolUse"
          : name.startsWith("user_prompt")
          ? "userPromptSubmitted"
          : "sessionStart")
        : undefined;
      types.add(HARNESSES[harness].parse(fixture(harness, name), { event }).type);
    }
    for (const t of ["user_prompt", "tool_start"]) assert.ok(types.has(t), `${harness} lacks ${t}`);
    if (harness !== "opencode") {
      assert.ok(types.has("session_start"), `${harness} lacks session_start`);
    }
  }
});

Deno.test("fingerprint: a re-delivered payload gives the same value; another timestamp or input another", () => {
  const p = fixture("copilot", "pre_tool_use_bash_gh") as Record<string, unknown>;
  const fp = (x: unknown) =>
    (HARNESSES.copilot.parse(x, { event: "preToolUse" }) as ToolStartEvent).fingerprint;
  assert.equal(fp(structuredClone(p)), fp(p));
  assert.notEqual(fp({ ...p, timestamp: 1764460810457 }), fp(p));
  assert.notEqual(
    fp({ ...p, toolArgs: JSON.stringify({ command: "gh issue view 9001 -R cli/cli" }) }),
    fp(p),
  );
  assert.notEqual(fp({ ...p, sessionId: "other" }), fp(p));
});

Deno.test("cursor: one call reported by a before* event and by preToolUse shares a fingerprint", () => {
  const shell = fixture("cursor", "before_shell_gh_pr_list") as Record<string, unknown>;
  const preShell = {
    ...shell,
    hook_event_name: "preToolUse",
    tool_name: "Shell",
    tool_input: { command: shell.command, cwd: shell.cwd },
    tool_use_id: "toolu_vrtx_01Pair",
  };
  const fp = (p: unknown) => (HARNESSES.cursor.parse(p, {}) as ToolStartEvent).fingerprint;
  assert.equal(fp(shell), fp(preShell));
  assert.equal(
    (HARNESSES.cursor.parse(preShell, {}) as ToolStartEvent).tool_use_id,
    "toolu_vrtx_01Pair",
  );
  const mcp = fixture("cursor", "before_mcp_issue_read") as Record<string, unknown>;
  const preMcp = {
    ...mcp,
    hook_event_name: "preToolUse",
    tool_name: "MCP:issue_read",
    tool_input: JSON.parse(mcp.tool_input as string),
    tool_use_id: "toolu_vrtx_01Mcp",
  };
  assert.equal(fp(mcp), fp(preMcp));
  // The JSON string may list the arguments in another order than the object does.
  const args = JSON.parse(mcp.tool_input as string) as Record<string, unknown>;
  const reordered = Object.fromEntries(Object.entries(args).reverse());
  assert.notDeepEqual(Object.keys(reordered), Object.keys(args));
  assert.equal(fp({ ...preMcp, tool_input: reordered }), fp(mcp));
  assert.equal(fp({ ...mcp, tool_input: JSON.stringify(reordered) }), fp(preMcp));
  assert.notEqual(
    fp({ ...mcp, tool_input: JSON.stringify({ ...args, issue_number: 1 }) }),
    fp(mcp),
  );
  // Another generation is another call.
  assert.notEqual(fp({ ...shell, generation_id: "g-other" }), fp(shell));
});

Deno.test("fingerprint: from the tool-call id where there is one, so re-delivery matches whatever else changed", () => {
  const p = fixture("claude-code", "bash_gh_issue_view") as Record<string, unknown>;
  const fp = (x: unknown) => (HARNESSES["claude-code"].parse(x, {}) as ToolStartEvent).fingerprint;
  assert.equal(fp({ ...p, permission_mode: "plan" }), fp(p));
  assert.notEqual(fp({ ...p, tool_use_id: "toolu_other" }), fp(p));
});

Deno.test("cursor: MCP servers are named from their url or command", () => {
  const base = fixture("cursor", "before_mcp_issue_read") as Record<string, unknown>;
  const name = (extra: Record<string, unknown>) =>
    (HARNESSES.cursor.parse({ ...base, url: undefined, ...extra }, {}) as ToolStartEvent).tool_name;
  assert.equal(name({ url: "https://api.githubcopilot.com/mcp/" }), "mcp__github__issue_read");
  assert.equal(
    name({ command: "docker run -i ghcr.io/github/github-mcp-server" }),
    "mcp__github__issue_read",
  );
  assert.equal(
    name({ tool_name: "resource", command: "rgraph serve-mcp" }),
    "mcp__rgraph__resource",
  );
  assert.equal(name({ command: "npx some-other-server" }), "mcp__cursor__issue_read");
  assert.equal(
    (HARNESSES.cursor.parse(
      { ...base, hook_event_name: "preToolUse", tool_name: "MCP:issue_read" },
      {},
    ) as ToolStartEvent).tool_name,
    "mcp__cursor__issue_read",
  );
});

Deno.test("grok: event names in PascalCase, camelCase and snake_case all count", () => {
  for (const name of ["PreToolUse", "preToolUse", "pre_tool_use"]) {
    const e = HARNESSES.grok.parse(
      {
        hookEventName: name,
        sessionId: "s",
        toolName: "run_terminal_command",
        toolInput: { command: "ls" },
      },
      {},
    );
    assert.equal(e.type, "tool_start", name);
  }
});

Deno.test("opencode: MCP tools named <server>_<tool> read as mcp__<server>__<tool>; built-ins keep their name", () => {
  const p = fixture("opencode", "tool_read") as Record<string, unknown>;
  const name = (tool: string) =>
    (HARNESSES.opencode.parse({ ...p, tool }, {}) as ToolStartEvent).tool_name;
  assert.equal(name("webfetch"), "webfetch");
  assert.equal(name("github_issue_read"), "mcp__github__issue_read");
  assert.equal(name("rgraph_resource"), "mcp__rgraph__resource");
});

const TOOL_EVENT: ToolStartEvent = {
  type: "tool_start",
  session_id: "s",
  cwd: null,
  tool_name: "Bash",
  tool_input: { command: "gh issue view 1 -R o/r" },
  tool_use_id: "t1",
  agent_id: null,
  fingerprint: "f",
};

Deno.test("session hint and Nudge: the harness's own format where it has one, null elsewhere", () => {
  const text = 'o/r#1 "A \\"quoted\\" title" is in memory — resource returns it';
  const expected: Record<HarnessName, { hint: unknown; nudge: unknown }> = {
    "claude-code": {
      hint: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } },
      nudge: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text } },
    },
    codex: {
      hint: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } },
      nudge: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text } },
    },
    gemini: {
      hint: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } },
      nudge: null,
    },
    cursor: { hint: { additional_context: text }, nudge: null },
    // Copilot CLI 1.0.102 passes the flat form to the model and ignores hookSpecificOutput.
    copilot: { hint: { additionalContext: text }, nudge: { additionalContext: text } },
    // For rgraph's plugin, which puts it into the system prompt.
    opencode: { hint: { system: text }, nudge: null },
    grok: { hint: null, nudge: null },
  };
  for (const harness of HARNESS_NAMES) {
    const a = HARNESSES[harness];
    const hint = a.renderSessionHint(text);
    const nudge = a.renderNudge(text, TOOL_EVENT);
    assert.deepEqual(hint === null ? null : JSON.parse(hint), expected[harness].hint, harness);
    assert.deepEqual(nudge === null ? null : JSON.parse(nudge), expected[harness].nudge, harness);
  }
});

Deno.test("the Nudge never decides the call: no permission or continue fields anywhere", () => {
  for (const harness of HARNESS_NAMES) {
    const out = HARNESSES[harness].renderNudge("x", TOOL_EVENT);
    if (out === null) continue;
    assert.doesNotMatch(out, /permission|decision|"continue"|stopReason|updatedInput/i, harness);
  }
});

Deno.test("adapterFor: known names only", () => {
  assert.equal(adapterFor("claude-code")?.name, "claude-code");
  assert.equal(adapterFor("toString"), null);
  assert.equal(adapterFor("vim"), null);
});

Deno.test("property: any JSON value parses to an event without throwing", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...HARNESS_NAMES),
      fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom(
            "hook_event_name",
            "hookEventName",
            "event",
            "tool_name",
            "toolName",
            "tool_input",
            "toolArgs",
            "tool",
            "args",
            "prompt",
            "session_id",
            "cwd",
            "workspace_roots",
            "command",
          ),
          fc.jsonValue(),
        ),
      ),
      fc.option(fc.constantFrom("preToolUse", "sessionStart", "userPromptSubmitted", "x")),
      (harness, payload, event) => {
        const e: HookEvent = HARNESSES[harness].parse(payload, { event: event ?? undefined });
        assert.ok(["ignored", "session_start", "user_prompt", "tool_start"].includes(e.type));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("each adapter names rgraph's tool as its harness presents it to the model", () => {
  const presented = Object.fromEntries(
    HARNESS_NAMES.map((h) => [h, HARNESSES[h].resourceTool]),
  );
  assert.deepEqual(presented, {
    "claude-code": { name: "mcp__rgraph__resource" },
    codex: { name: "resource", namespace: "mcp__rgraph" },
    copilot: { name: "rgraph-resource" },
    cursor: { name: "resource" },
    opencode: { name: "rgraph_resource" },
    gemini: { name: "mcp_rgraph_resource" },
    grok: { name: "resource" },
  });
});
