/**
 * OpenCode, its own npm binary headless (`opencode run --auto --format json`),
 * against the scripted model server (an `@ai-sdk/openai-compatible` provider:
 * Chat Completions with SSE), with rgraph installed by `rgraph install
 * opencode --scope project` (a plugin in `.opencode/plugins/` and the MCP
 * server in `opencode.json`).
 *
 * OpenCode takes its directory from `$PWD`, and npm-installs
 * `@opencode-ai/plugin` into the project's `.opencode/` and into
 * `~/.config/opencode/` at start; the test gives that npm a cache shared
 * between runs (as a user's `~/.npm` is) and prefers it, which halves the
 * start. In the default variant a witness plugin (tests/harness/
 * opencode_witness.js) records where OpenCode puts what rgraph's plugin needs.
 * One more run installs rgraph as a plugin package instead (issue 20):
 * `opencode plugin -g <checkout>/plugin/opencode`, which OpenCode loads in place.
 */

import assert from "node:assert/strict";
import {
  FINAL_TEXT,
  GH_COMMAND,
  harnessCommand,
  harnessTests,
  RESOURCE_ADDRESS,
  warningBlocks,
} from "./scenario.ts";
import type { Step } from "./model_server.ts";
import { CHECKOUT, harnessBinDir, run } from "./world.ts";

/** What `opencode plugin` names in the config: the plugin package folder of this checkout. */
const PACKAGE = `${CHECKOUT}/plugin/opencode`;

const WITNESS = new URL("./opencode_witness.js", import.meta.url).pathname;
const WITNESS_LINE = "rgraph-witness: a line from a plugin's system transform";

const STEPS: Step[] = [
  { tool: "bash", args: { command: GH_COMMAND, description: "Read issue 5" } },
  { tool: "rgraph_resource", args: { address: RESOURCE_ADDRESS } },
  { text: FINAL_TEXT },
];

/** The user's OpenCode config (what `opencode plugin -g` edits). */
const userConfig = (home: string) => `${home}/.config/opencode/opencode.json`;

harnessTests({
  name: "opencode",
  label: "OpenCode",
  variants: [
    { variant: "default", label: "config in ~/.config/rgraph" },
    { variant: "RGRAPH_CONFIG", label: "config named by RGRAPH_CONFIG" },
    { variant: "XDG_DATA_HOME", label: "XDG_DATA_HOME set" },
    {
      variant: "default",
      label: "through its plugin package (opencode plugin -g)",
      via: "plugin",
    },
  ],
  steps: STEPS,
  shellStep: 0,
  resourceStep: 1,
  // tool.execute.before has the model's call id. issue 11: the plugin does not wait for
  // `rgraph hook`, so its note of the resource call lands after serve-mcp answered and the Cache
  // Read has no session (the Cache Read step fails in every variant).
  callIds: true,
  // issue 11 (fix 3): a plugin's experimental.chat.system.transform reaches every request.
  hintChannel: "issue 11",
  // No context channel before a tool.
  nudgeChannel: false,
  presentedTool: "rgraph_resource",
  env: ({ world }) => ({
    PWD: world.project,
    OPENCODE_DISABLE_AUTOUPDATE: "true",
    OPENCODE_DISABLE_SHARE: "true",
    OPENCODE_DISABLE_MODELS_FETCH: "true",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "true",
    npm_config_cache: `${harnessBinDir()}/../npm-cache`,
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    RGRAPH_WITNESS_LOG: `${world.root}/witness.jsonl`,
  }),
  configure: async ({ world, model, variant }) => {
    await Deno.mkdir(`${world.home}/.config/opencode`, { recursive: true });
    // The plugin run's `opencode plugin -g` came first: its entry stays.
    const had = JSON.parse(
      await Deno.readTextFile(userConfig(world.home)).catch(() => "{}"),
    );
    await Deno.writeTextFile(
      userConfig(world.home),
      JSON.stringify(
        {
          ...had,
          $schema: "https://opencode.ai/config.json",
          autoupdate: false,
          share: "disabled",
          provider: {
            scripted: {
              npm: "@ai-sdk/openai-compatible",
              name: "Scripted model",
              options: { baseURL: `${model.url}/v1`, apiKey: "scripted" },
              models: { "scripted-model": { name: "Scripted model", tool_call: true } },
            },
          },
          model: "scripted/scripted-model",
        },
        null,
        2,
      ),
    );
    if (variant.variant === "default" && variant.via !== "plugin") {
      await Deno.copyFile(WITNESS, `${world.project}/.opencode/plugins/rgraph-witness.js`);
    }
  },
  trust: null,
  // issue 20: the plugin package, added to the user's config by OpenCode's own command.
  plugin: {
    steps: STEPS,
    presentedTool: "rgraph_resource",
    install: (ctx) => harnessCommand(ctx, ["plugin", "-g", PACKAGE], 120_000),
    // OpenCode has no command that removes a plugin: its user deletes the entry from the config.
    uninstall: async ({ world }) => {
      const config = JSON.parse(
        await Deno.readTextFile(userConfig(world.home)),
      );
      config.plugin = (config.plugin ?? []).filter((p: unknown) => p !== PACKAGE);
      await Deno.writeTextFile(
        userConfig(world.home),
        JSON.stringify(config, null, 2),
      );
    },
    // Its config, and the caches and packages it keeps beside them.
    harnessFiles: [".config/opencode", ".cache/opencode"],
  },
  session: async ({ bin, world, env }, prompt) => {
    const r = await run([
      bin,
      "run",
      "--auto",
      "--format",
      "json",
      "--dir",
      world.project,
      "-m",
      "scripted/scripted-model",
      prompt,
    ], { cwd: world.project, env, timeoutMs: 180_000 });
    let sessionId: string | null = null;
    for (const line of r.stdout.split("\n")) {
      try {
        const event = JSON.parse(line);
        if (typeof event?.sessionID === "string") {
          sessionId = event.sessionID;
          break;
        }
      } catch {
        // not a JSON line
      }
    }
    return { run: r, sessionId };
  },
  // OpenCode logs plugin and MCP problems as level=WARN / level=ERROR lines in its log folder.
  problems: ({ world }, session) => {
    const dir = `${world.home}/.local/share/opencode/log`;
    const lines: string[] = [];
    try {
      for (const e of Deno.readDirSync(dir)) {
        lines.push(
          ...Deno.readTextFileSync(`${dir}/${e.name}`).split("\n").filter((l) =>
            /\blevel=(WARN|ERROR)\b/.test(l)
          ),
        );
      }
    } catch {
      // no log
    }
    return [...lines, ...warningBlocks(session.run.stderr)];
  },
  extra: async (t, { world, model, variant }) => {
    if (variant.variant !== "default" || variant.via === "plugin") return;
    const witnessed = (await Deno.readTextFile(`${world.root}/witness.jsonl`).catch(() => ""))
      .split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    await t.step(
      "harness fact: chat.message gives the message id and agent at output.message, not on input",
      () => {
        const m = witnessed.find((w) => w.hook === "chat.message");
        assert.ok(m, `the witness saw no chat.message: ${JSON.stringify(witnessed)}`);
        assert.deepEqual([m.input.messageID, m.input.agent], [null, null], JSON.stringify(m));
        assert.match(m.output.id ?? "", /^msg_/);
        assert.equal(m.output.agent, "build");
      },
    );
    await t.step(
      "harness fact: a plugin's experimental.chat.system.transform line reaches every model request",
      () => {
        const asked = model.requests.filter((r) => r.api === "chat");
        assert.ok(asked.length > 0);
        assert.deepEqual(
          asked.filter((r) => !r.strings.includes(WITNESS_LINE)).map((r) => r.path),
          [],
        );
      },
    );
  },
});
