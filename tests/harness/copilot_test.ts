/**
 * GitHub Copilot CLI, its own npm binary headless (`copilot -p …
 * --allow-all-tools --output-format json`), bring-your-own-model against the
 * scripted model server (OpenAI Chat Completions with SSE via
 * `COPILOT_PROVIDER_BASE_URL`, offline: no GitHub login), with rgraph
 * installed by `rgraph install copilot --scope project`.
 *
 * Prompt mode loads `.github/hooks/*.json` and `.github/mcp.json` only in a
 * trusted folder: the user trusts it for good (`trustedFolders` in
 * `~/.copilot/config.json`, what the trust prompt's "this and future
 * sessions" writes). Hook payloads carry no tool-call id.
 */

import assert from "node:assert/strict";
import {
  type Ctx,
  FINAL_TEXT,
  GH_COMMAND,
  harnessTests,
  RESOURCE_ADDRESS,
  warningBlocks,
} from "./scenario.ts";
import { startModelServer } from "./model_server.ts";
import { harnessBinDir, type Run, run } from "./world.ts";

async function copilot(ctx: Ctx, prompt: string): Promise<{ run: Run; sessionId: string | null }> {
  const r = await run(
    [ctx.bin, "-p", prompt, "--allow-all-tools", "--output-format", "json"],
    { cwd: ctx.world.project, env: ctx.env, timeoutMs: 120_000 },
  );
  let sessionId: string | null = null;
  for (const line of r.stdout.split("\n")) {
    try {
      const event = JSON.parse(line);
      if (event?.type === "result" && typeof event.sessionId === "string") {
        sessionId = event.sessionId;
      }
    } catch {
      // not a JSON line
    }
  }
  return { run: r, sessionId };
}

harnessTests({
  name: "copilot",
  label: "Copilot CLI",
  variants: [
    { variant: "default", label: "config in ~/.config/rgraph" },
    { variant: "RGRAPH_CONFIG", label: "config named by RGRAPH_CONFIG" },
    { variant: "XDG_DATA_HOME", label: "XDG_DATA_HOME set" },
  ],
  steps: [
    { tool: "bash", args: { command: GH_COMMAND, description: "Read issue 5" } },
    { tool: "rgraph-resource", args: { address: RESOURCE_ADDRESS } },
    { text: FINAL_TEXT },
  ],
  shellStep: 0,
  resourceStep: 1,
  callIds: false,
  // issue 11 (fix 3): a flat {"additionalContext"} from sessionStart / userPromptSubmitted /
  // preToolUse reaches the model, so Copilot can have the session hint and the Nudge.
  hintChannel: "issue 11",
  nudgeChannel: "issue 11",
  presentedTool: "rgraph-resource",
  env: ({ model }) => ({
    COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
    COPILOT_PROVIDER_API_KEY: "scripted",
    COPILOT_MODEL: "gpt-4.1",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
  }),
  configure: async ({ world }) => {
    // Copilot unpacks its ~235 MB package into ~/.cache/copilot/pkg on first run: share one unpacked
    // copy (per version) between the tests' temp homes, next to the pinned npm installs.
    const shared = `${harnessBinDir()}/../copilot-pkg`;
    await Deno.mkdir(shared, { recursive: true });
    await Deno.mkdir(`${world.home}/.cache/copilot`, { recursive: true });
    await Deno.symlink(shared, `${world.home}/.cache/copilot/pkg`);
  },
  trust: async ({ world }) => {
    await Deno.mkdir(`${world.home}/.copilot`, { recursive: true });
    await Deno.writeTextFile(
      `${world.home}/.copilot/config.json`,
      JSON.stringify({ trustedFolders: [world.project] }, null, 2),
    );
  },
  untrusted: {
    name: "without a trusted folder, prompt mode skips rgraph's hooks and MCP server silently",
    check: async (ctx) => {
      const model = await startModelServer({
        marker: "lumendb/lumen/issues/8",
        steps: [
          { tool: "bash", args: { command: GH_COMMAND, description: "Read issue 5" } },
          { text: FINAL_TEXT },
        ],
      });
      try {
        const s = await copilot(
          { ...ctx, env: { ...ctx.env, COPILOT_PROVIDER_BASE_URL: `${model.url}/v1` } },
          "look at https://github.com/lumendb/lumen/issues/8",
        );
        assert.equal(s.run.code, 0, s.run.stderr);
        assert.equal(s.run.stderr.trim(), "", "nothing on stderr");
        assert.ok(model.requests.some((r) => r.scripted && r.step === 1), "the session ran");
        assert.ok(
          model.requests.every((r) => !r.tools.includes("rgraph-resource")),
          "rgraph's tool is not offered",
        );
        const recorded = (await ctx.world.touches()).filter((x) => x.session_id !== "seed-session");
        assert.deepEqual(recorded, [], "no hook ran");
      } finally {
        await model.close();
      }
    },
  },
  session: copilot,
  // Copilot logs hook and MCP problems to ~/.copilot/logs, and reports some as JSON events.
  problems: ({ world }, session) => {
    const logs: string[] = [];
    try {
      for (const e of Deno.readDirSync(`${world.home}/.copilot/logs`)) {
        logs.push(
          ...Deno.readTextFileSync(`${world.home}/.copilot/logs/${e.name}`).split("\n").filter((
            l,
          ) => /\[(WARNING|ERROR)\]/.test(l)),
        );
      }
    } catch {
      // no logs
    }
    const events = session.run.stdout.split("\n").flatMap((line) => {
      try {
        const e = JSON.parse(line);
        const bad = /(warning|error)$/i.test(String(e?.type)) || e?.data?.status === "failed";
        return bad ? [JSON.stringify(e)] : [];
      } catch {
        return [];
      }
    });
    return [...logs, ...events, ...warningBlocks(session.run.stderr)];
  },
});
