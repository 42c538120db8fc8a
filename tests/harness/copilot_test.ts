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
 * sessions" writes). Hook payloads carry no tool-call id. One more run
 * installs rgraph as a plugin instead (issue 20): this checkout as a local
 * marketplace (`.github/plugin/`), which Copilot loads live, never copied.
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
import { CHECKOUT, harnessBinDir, type Run, run, type World } from "./world.ts";

/**
 * Copilot unpacks its ~235 MB package into ~/.cache/copilot/pkg on first run:
 * the world's points at one unpacked copy (per version) the tests share, next
 * to the pinned npm installs, before the first `copilot` command.
 */
async function sharePackage(world: World): Promise<void> {
  const link = `${world.home}/.cache/copilot/pkg`;
  if (await Deno.lstat(link).then(() => true, () => false)) return;
  const shared = `${harnessBinDir()}/../copilot-pkg`;
  await Deno.mkdir(shared, { recursive: true });
  await Deno.mkdir(`${world.home}/.cache/copilot`, { recursive: true });
  await Deno.symlink(shared, link);
}

const STEPS: Step[] = [
  { tool: "bash", args: { command: GH_COMMAND, description: "Read issue 5" } },
  { tool: "rgraph-resource", args: { address: RESOURCE_ADDRESS } },
  { text: FINAL_TEXT },
];

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
    {
      variant: "default",
      label: "through its plugin (copilot plugin marketplace add, plugin install)",
      via: "plugin",
    },
    FIRST_PLUGIN_SESSION,
  ],
  steps: STEPS,
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
  configure: ({ world }) => sharePackage(world),
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
  // issue 20: this checkout as a local marketplace (.github/plugin/), its plugin installed from it.
  plugin: {
    steps: STEPS,
    presentedTool: "rgraph-resource",
    install: async (ctx) => {
      await sharePackage(ctx.world);
      await harnessCommand(ctx, ["plugin", "marketplace", "add", CHECKOUT]);
      await harnessCommand(ctx, ["plugin", "install", "rgraph@rgraph"]);
    },
    uninstall: async (ctx) => {
      await harnessCommand(ctx, ["plugin", "uninstall", "rgraph@rgraph"]);
      await harnessCommand(ctx, ["plugin", "marketplace", "remove", "rgraph"]);
      // Copilot 1.0.102 keeps `enabledPlugins["rgraph@rgraph"]: false` after both (its own record
      // of the name, which loads nothing); anything else of rgraph's in its settings is left behind.
      const settings = JSON.parse(
        await Deno.readTextFile(`${ctx.world.home}/.copilot/settings.json`),
      );
      assert.equal(settings.enabledPlugins?.["rgraph@rgraph"], false, JSON.stringify(settings));
      delete settings.enabledPlugins["rgraph@rgraph"];
      assert.doesNotMatch(JSON.stringify(settings), /rgraph/i, "settings.json after uninstall");
    },
    // settings.json: checked by uninstall above.
    harnessFiles: [".copilot/config.json", ".copilot/installed-plugins"],
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
