/**
 * Claude Code, its own npm binary headless (`claude -p`), against the
 * scripted model server (Anthropic Messages API with SSE via
 * `ANTHROPIC_BASE_URL`), with rgraph installed into the project by
 * `rgraph install claude-code --scope project`.
 *
 * Claude Code defers MCP tools: the model first calls `ToolSearch` with
 * `select:mcp__rgraph__resource`, then the tool. `-p` connects the project's
 * `.mcp.json` server without the approval prompt, and as root
 * `--dangerously-skip-permissions` is refused, so tools are allowed by name.
 */

import assert from "node:assert/strict";
import {
  FINAL_TEXT,
  FIRST_PLUGIN_SESSION,
  GH_COMMAND,
  harnessCommand,
  harnessTests,
  RESOURCE_ADDRESS,
} from "./scenario.ts";
import { CHECKOUT, run } from "./world.ts";

/** A plugin's MCP tools are `mcp__plugin_<plugin>_<server>__<tool>`. */
const PLUGIN_TOOL = "mcp__plugin_rgraph_rgraph__resource";

/**
 * Tool calls that cannot read GitHub, before the scripted reads: rgraph's
 * PreToolUse matcher leaves them out, so Claude Code starts no hook for them.
 */
const LOCAL_STEPS = [
  { tool: "Grep", args: { pattern: "lumen", output_mode: "files_with_matches" } },
  { tool: "Glob", args: { pattern: "*.md" } },
];

/** The tools Claude Code ran a PreToolUse hook for, from its debug file (`Hooks: PreToolUse:<tool> [`). */
function hookedTools(debugFile: string): string[] {
  const text = Deno.readTextFileSync(debugFile);
  return [...new Set([...text.matchAll(/Hooks: PreToolUse:(\S+) \[/g)].map((m) => m[1]))].sort();
}

harnessTests({
  name: "claude-code",
  label: "Claude Code",
  variants: [
    { variant: "default", label: "config in ~/.config/rgraph" },
    { variant: "RGRAPH_CONFIG", label: "config named by RGRAPH_CONFIG" },
    { variant: "XDG_DATA_HOME", label: "XDG_DATA_HOME set" },
    { variant: "default", label: "through its plugin (claude plugin install)", via: "plugin" },
    FIRST_PLUGIN_SESSION,
  ],
  steps: [
    ...LOCAL_STEPS,
    { tool: "Bash", args: { command: GH_COMMAND, description: "Read issue 5 with its comments" } },
    // Deferred MCP tools are loaded by name first.
    { tool: "ToolSearch", args: { query: "select:mcp__rgraph__resource", max_results: 1 } },
    { tool: "mcp__rgraph__resource", args: { address: RESOURCE_ADDRESS } },
    { text: FINAL_TEXT },
  ],
  shellStep: 2,
  resourceStep: 4,
  callIds: true,
  hintChannel: true,
  nudgeChannel: true,
  presentedTool: "mcp__rgraph__resource",
  env: ({ model }) => ({
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-ant-scripted",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
  }),
  // issue 20: this checkout as a marketplace, the plugin installed from it, as README says.
  plugin: {
    steps: [
      ...LOCAL_STEPS,
      {
        tool: "Bash",
        args: { command: GH_COMMAND, description: "Read issue 5 with its comments" },
      },
      { tool: "ToolSearch", args: { query: `select:${PLUGIN_TOOL}`, max_results: 1 } },
      { tool: PLUGIN_TOOL, args: { address: RESOURCE_ADDRESS } },
      { text: FINAL_TEXT },
    ],
    presentedTool: PLUGIN_TOOL,
    install: async (ctx) => {
      await harnessCommand(ctx, ["plugin", "marketplace", "add", CHECKOUT]);
      await harnessCommand(ctx, ["plugin", "install", "rgraph@rgraph"]);
    },
    uninstall: async (ctx) => {
      await harnessCommand(ctx, ["plugin", "uninstall", "rgraph@rgraph"]);
      await harnessCommand(ctx, ["plugin", "marketplace", "remove", "rgraph"]);
    },
    harnessFiles: [".claude/settings.json", ".claude/plugins"],
  },
  configure: () => Promise.resolve(),
  // issue 28: only a call that can read GitHub starts rgraph's hook; Grep, Glob and ToolSearch start
  // nothing, while the shell's gh call (recorded: the common steps) and rgraph's tool still do.
  extra: async (t, { world, variant }) => {
    await t.step("only the shell and rgraph's tool start rgraph's PreToolUse hook", () => {
      const resource = variant.via === "plugin" ? PLUGIN_TOOL : "mcp__rgraph__resource";
      assert.deepEqual(hookedTools(`${world.root}/claude-debug.txt`), ["Bash", resource].sort());
    });
  },
  // Hook failures, timeouts and MCP server errors are logged to the debug file.
  problems: ({ world }) => {
    try {
      return Deno.readTextFileSync(`${world.root}/claude-debug.txt`).split("\n").filter((l) =>
        /\[(WARN|ERROR)\]/.test(l)
      );
    } catch {
      return [];
    }
  },
  trust: null,
  session: async ({ bin, world, env }, prompt) => {
    const r = await run([
      bin,
      "-p",
      prompt,
      "--allowedTools",
      `Bash,Grep,Glob,mcp__rgraph__resource,${PLUGIN_TOOL}`,
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-hook-events",
      "--debug-file",
      `${world.root}/claude-debug.txt`,
    ], { cwd: world.project, env, timeoutMs: 120_000 });
    let sessionId: string | null = null;
    for (const line of r.stdout.split("\n")) {
      try {
        const event = JSON.parse(line);
        if (typeof event?.session_id === "string") {
          sessionId = event.session_id;
          break;
        }
      } catch {
        // not a JSON line
      }
    }
    return { run: r, sessionId };
  },
});
