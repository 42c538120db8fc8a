/**
 * Gemini CLI, its own npm binary headless (`gemini -p … --yolo --output-format
 * json`), against the scripted model server (`generateContent` /
 * `streamGenerateContent?alt=sse` via `GOOGLE_GEMINI_BASE_URL`), with rgraph
 * installed by `rgraph install gemini --scope project`.
 *
 * Without `security.auth.selectedType: "gemini-api-key"` the base URL selects
 * a gateway auth that headless mode rejects; project settings (rgraph's hooks
 * and MCP server) apply only in a folder trusted in
 * `~/.gemini/trustedFolders.json`. Gemini names MCP tools
 * `mcp_<server>_<tool>`; a stand-in GitHub MCP server (`github`, tool
 * `issue_read`) checks that rgraph recognises that naming.
 */

import assert from "node:assert/strict";
import {
  type Ctx,
  FINAL_TEXT,
  FIRST_PLUGIN_SESSION,
  GH_COMMAND,
  harnessCommand,
  harnessTests,
  RESOURCE_ADDRESS,
  warningBlocks,
} from "./scenario.ts";
import { startModelServer, type Step } from "./model_server.ts";
import { CHECKOUT, REPO, type Run, run, type TouchJson } from "./world.ts";

/** An issue not in memory that the scripted model reads through the GitHub MCP server. */
const MCP_ISSUE = 6;
/** A pull request the scripted model reads through a fetch MCP server. */
const FETCHED_PULL = 7;
const FAKE_GITHUB = new URL("./fake_github_mcp.ts", import.meta.url).pathname;

async function gemini(ctx: Ctx, prompt: string): Promise<{ run: Run; sessionId: string | null }> {
  const r = await run([ctx.bin, "-p", prompt, "--yolo", "--output-format", "json"], {
    cwd: ctx.world.project,
    env: ctx.env,
    timeoutMs: 120_000,
  });
  let sessionId: string | null = null;
  try {
    sessionId = JSON.parse(r.stdout).session_id ?? null;
  } catch {
    // not the JSON answer (an error exit)
  }
  return { run: r, sessionId };
}

const STEPS: Step[] = [
  { tool: "run_shell_command", args: { command: GH_COMMAND, description: "Read issue 5" } },
  {
    tool: "mcp_github_issue_read",
    args: { method: "get", owner: "lumendb", repo: "lumen", issue_number: MCP_ISSUE },
  },
  {
    tool: "mcp_fetch_fetch",
    args: { url: `https://github.com/${REPO}/pull/${FETCHED_PULL}` },
  },
  { tool: "mcp_rgraph_resource", args: { address: RESOURCE_ADDRESS } },
  { text: FINAL_TEXT },
];

harnessTests({
  name: "gemini",
  label: "Gemini CLI",
  variants: [
    { variant: "default", label: "config in ~/.config/rgraph" },
    { variant: "RGRAPH_CONFIG", label: "config named by RGRAPH_CONFIG" },
    { variant: "XDG_DATA_HOME", label: "XDG_DATA_HOME set" },
    // issue 11: under a CI-like environment Gemini strips unknown variables, RGRAPH_CONFIG among
    // them, from hooks and MCP servers: nothing is recorded and serve-mcp has no identity.
    {
      variant: "RGRAPH_CONFIG",
      label: "config named by RGRAPH_CONFIG under CI (GITHUB_SHA set)",
      // What GitHub Actions sets: Gemini then strips unknown variables from hooks and MCP servers.
      env: { GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567" },
    },
    {
      variant: "default",
      label: "through its extension (gemini extensions link)",
      via: "plugin",
    },
    FIRST_PLUGIN_SESSION,
  ],
  steps: STEPS,
  shellStep: 0,
  resourceStep: 3,
  // BeforeTool carries no tool-call id.
  callIds: false,
  hintChannel: true,
  // BeforeTool output can only decide or rewrite the call: nothing reaches the model.
  nudgeChannel: false,
  presentedTool: "mcp_rgraph_resource",
  env: ({ model }) => ({ GEMINI_API_KEY: "scripted", GOOGLE_GEMINI_BASE_URL: model.url }),
  configure: async ({ world }) => {
    await Deno.mkdir(`${world.home}/.gemini`, { recursive: true });
    await Deno.writeTextFile(
      `${world.home}/.gemini/settings.json`,
      JSON.stringify(
        {
          security: { auth: { selectedType: "gemini-api-key" } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          // The user's GitHub MCP server (a stand-in: GitHub is out of reach).
          mcpServers: {
            github: { command: Deno.execPath(), args: ["run", "--quiet", FAKE_GITHUB] },
            // The user's fetch MCP server (a stand-in too).
            fetch: { command: Deno.execPath(), args: ["run", "--quiet", FAKE_GITHUB, "fetch"] },
          },
        },
        null,
        2,
      ),
    );
  },
  trust: async ({ world }) => {
    await Deno.writeTextFile(
      `${world.home}/.gemini/trustedFolders.json`,
      JSON.stringify({ [world.project]: "TRUST_FOLDER" }),
    );
  },
  untrusted: {
    name:
      "in an untrusted folder Gemini's headless mode refuses to run (exit 55) and records nothing",
    check: async (ctx) => {
      const model = await startModelServer({
        marker: "lumendb/lumen/issues/8",
        steps: [{ text: FINAL_TEXT }],
      });
      try {
        const s = await gemini(
          { ...ctx, env: { ...ctx.env, GOOGLE_GEMINI_BASE_URL: model.url } },
          "look at https://github.com/lumendb/lumen/issues/8",
        );
        assert.equal(s.run.code, 55, `exit ${s.run.code}: ${s.run.stderr.slice(0, 1000)}`);
        const recorded = (await ctx.world.touches()).filter((x) => x.session_id !== "seed-session");
        assert.deepEqual(recorded, []);
      } finally {
        await model.close();
      }
    },
  },
  // issue 20: this checkout installed as a Gemini CLI extension (gemini-extension.json, hooks/).
  plugin: {
    steps: STEPS,
    presentedTool: "mcp_rgraph_resource",
    // The extension is plugin/gemini, linked: its commands run the checkout beside it.
    install: (ctx) =>
      harnessCommand(ctx, ["extensions", "link", `${CHECKOUT}/plugin/gemini`, "--consent"]),
    uninstall: (ctx) => harnessCommand(ctx, ["extensions", "uninstall", "rgraph"]),
    harnessFiles: [".gemini/extensions", ".gemini/settings.json"],
  },
  session: gemini,
  problems: (_, session) => warningBlocks(session.run.stderr),
  expectedProblems: [{
    pattern: /^WARNING: The following project-level hooks have been detected in this workspace:/,
    why: "Gemini lists every project-level hook on every run, whoever wrote it",
  }],
  extra: async (t, { world }, session, touches: TouchJson[]) => {
    // issue 11 (fix 5): Gemini's `mcp_<server>_<tool>` names are recognised for the GitHub MCP
    // server and for fetch tools.
    const reads: [server: string, tool: string, n: number][] = [
      ["a GitHub MCP server", "mcp_github_issue_read", MCP_ISSUE],
      ["a fetch MCP server", "mcp_fetch_fetch", FETCHED_PULL],
    ];
    for (const [server, tool, n] of reads) {
      await t.step(
        `issue 11: ${server} read under Gemini's naming (${tool}) is a FETCHED Touch`,
        () => {
          const mine = touches.filter((x) => x.session_id === session.sessionId);
          const fetched = mine.filter((x) =>
            x.provenance === "FETCHED" && x.address === `github:${REPO}#${n}`
          );
          assert.equal(
            fetched.length,
            1,
            `touches of the session: ${JSON.stringify(mine)}\nhook.log: ${world.hookLog()}`,
          );
          assert.equal(fetched[0].tool_name, tool);
        },
      );
    }
  },
});
