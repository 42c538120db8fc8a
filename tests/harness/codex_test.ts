/**
 * Codex CLI, its own npm binary headless (`codex exec --json`), against the
 * scripted model server (a custom provider with `wire_api = "responses"`:
 * the Responses API with SSE), with rgraph installed into the project by
 * `rgraph install codex --scope project`.
 *
 * Codex reads a project's `.codex/` only in a trusted project and runs only
 * trusted hooks, skipping the others silently. A user trusts them in the
 * `/hooks` screen; the test does what that screen does, through
 * `codex app-server` JSON-RPC: `hooks/list`, then `config/batchWrite` of
 * each hook's `hooks.state."<key>".trusted_hash`.
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
import { CHECKOUT, type Run, run, waitFor } from "./world.ts";

/** A JSON-RPC session with `codex app-server` over stdio (newline-delimited JSON). */
async function appServer(
  ctx: Ctx,
  talk: (call: (method: string, params: unknown) => Promise<any>) => Promise<void>,
): Promise<void> {
  const child = new Deno.Command("setsid", {
    args: [ctx.bin, "app-server"],
    cwd: ctx.world.project,
    env: ctx.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const kill = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  };
  const timer = setTimeout(kill, 30_000);
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  (async () => {
    while (!(await stderr.read()).done) {
      // drained: Codex logs warnings there
    }
  })();
  let buffer = "";
  let nextId = 1;
  const call = async (method: string, params: unknown): Promise<any> => {
    const id = nextId++;
    await writer.write(new TextEncoder().encode(JSON.stringify({ method, id, params }) + "\n"));
    for (;;) {
      const nl = buffer.indexOf("\n");
      if (nl >= 0) {
        const message = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (message.id !== id) continue; // notifications and server requests
        if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
        return message.result;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`codex app-server closed before answering ${method}`);
      buffer += value;
    }
  };
  try {
    await call("initialize", {
      clientInfo: { name: "rgraph-harness-test", title: null, version: "1" },
      capabilities: null,
    });
    await writer.write(new TextEncoder().encode(JSON.stringify({ method: "initialized" }) + "\n"));
    await talk(call);
  } finally {
    clearTimeout(timer);
    await writer.close().catch(() => {});
    kill();
    await child.status;
    await reader.cancel().catch(() => {});
  }
}

/** Trusts the project (`trust_level`), and with `hooks` every hook Codex lists for it. */
async function trust(ctx: Ctx, hooks: boolean): Promise<void> {
  const project = ctx.world.project;
  await appServer(ctx, async (call) => {
    const edits: unknown[] = [{
      keyPath: `projects."${project}".trust_level`,
      value: "trusted",
      mergeStrategy: "upsert",
    }];
    if (hooks) {
      // The project's .codex/ is read only once it is trusted: list the hooks after that.
      await call("config/batchWrite", { edits });
      edits.length = 0;
      const listed = await call("hooks/list", { cwds: [project] });
      const all = listed.data.flatMap((e: { hooks: unknown[] }) => e.hooks) as {
        key: string;
        currentHash: string;
        trustStatus: string;
      }[];
      assert.ok(all.length >= 3, `codex lists rgraph's hooks: ${JSON.stringify(listed)}`);
      // Codex checks each hooks file as it lists it (a SessionEnd timeout over its 3 s cap, say).
      const problems = listed.data.flatMap((e: { warnings: string[]; errors: unknown[] }) => [
        ...e.warnings,
        ...e.errors.map((x) => JSON.stringify(x)),
      ]);
      assert.deepEqual(problems, [], "Codex's warnings and errors about the hooks it lists");
      for (const h of all) {
        edits.push({
          keyPath: `hooks.state."${h.key}".trusted_hash`,
          value: h.currentHash,
          mergeStrategy: "upsert",
        });
      }
    }
    await call("config/batchWrite", { edits });
    if (hooks) {
      const after = await call("hooks/list", { cwds: [project] });
      const untrusted = after.data.flatMap((e: { hooks: { trustStatus: string }[] }) => e.hooks)
        .filter((h: { trustStatus: string }) => h.trustStatus !== "trusted");
      assert.deepEqual(untrusted, [], "every hook is trusted now");
    }
  });
}

/** One `codex exec --json` session; its id is the `thread.started` thread id. */
async function exec(ctx: Ctx, prompt: string): Promise<{ run: Run; sessionId: string | null }> {
  const r = await run([ctx.bin, "exec", "--json", prompt], {
    cwd: ctx.world.project,
    env: ctx.env,
    timeoutMs: 120_000,
  });
  let sessionId: string | null = null;
  for (const line of r.stdout.split("\n")) {
    try {
      const event = JSON.parse(line);
      if (event?.type === "thread.started") sessionId = event.thread_id ?? null;
    } catch {
      // not a JSON line
    }
  }
  return { run: r, sessionId };
}

/** The `error` items of a `codex exec --json` run (Codex reports hook and config problems so). */
function errorItems(stdout: string): string[] {
  return stdout.split("\n").flatMap((line) => {
    try {
      const event = JSON.parse(line);
      return event?.item?.type === "error" ? [String(event.item.message)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * One more session, on a model server of its own (the main script's requests stay untouched):
 * the model runs the gh command for issue 8 and is done.
 */
async function sideSession(ctx: Ctx): Promise<{ run: Run; sessionId: string | null }> {
  const model = await startModelServer({
    marker: "lumendb/lumen/issues/8",
    steps: [{ tool: "exec_command", args: { cmd: GH_COMMAND } }, { text: FINAL_TEXT }],
  });
  const path = `${ctx.world.home}/.codex/config.toml`;
  try {
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace(ctx.model.url, model.url),
    );
    const s = await exec(ctx, "look at https://github.com/lumendb/lumen/issues/8");
    assert.equal(s.run.code, 0, s.run.stderr);
    assert.ok(s.sessionId);
    assert.ok(model.requests.some((r) => r.scripted && r.step === 1), "the session ran");
    return s;
  } finally {
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace(model.url, ctx.model.url),
    );
    await model.close();
  }
}

const STEPS: Step[] = [
  { tool: "exec_command", args: { cmd: GH_COMMAND } },
  // Codex offers MCP tools in a namespace per server.
  { tool: "resource", namespace: "mcp__rgraph", args: { address: RESOURCE_ADDRESS } },
  { text: FINAL_TEXT },
];

function providerConfig(url: string): string {
  return `model = "gpt-5.1"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.scripted]
name = "Scripted model"
base_url = "${url}/v1"
wire_api = "responses"
env_key = "RGRAPH_SCRIPTED_KEY"
`;
}

harnessTests({
  name: "codex",
  label: "Codex",
  variants: [
    { variant: "default", label: "config in ~/.config/rgraph" },
    // issue 11: Codex gives MCP servers an allow-listed environment without RGRAPH_CONFIG, so
    // serve-mcp exits "no identity configured" and the resource tool never reaches the model.
    { variant: "RGRAPH_CONFIG", label: "config named by RGRAPH_CONFIG" },
    // issue 11: nor XDG_DATA_HOME: the hook notes the resource call under one data directory and
    // serve-mcp looks in another, so the Cache Read loses its session and call.
    { variant: "XDG_DATA_HOME", label: "XDG_DATA_HOME set" },
    {
      variant: "default",
      label: "through its plugin (codex plugin marketplace add, plugin add)",
      via: "plugin",
    },
    FIRST_PLUGIN_SESSION,
  ],
  steps: STEPS,
  shellStep: 0,
  resourceStep: 1,
  callIds: true,
  hintChannel: true,
  nudgeChannel: true,
  presentedTool: "mcp__rgraph",
  env: () => ({ RGRAPH_SCRIPTED_KEY: "scripted" }),
  configure: async ({ world, model }) => {
    await Deno.mkdir(`${world.home}/.codex`, { recursive: true });
    // A plugin install wrote its tables here already: the provider's top-level keys go before them.
    const path = `${world.home}/.codex/config.toml`;
    const written = await Deno.readTextFile(path).catch(() => "");
    await Deno.writeTextFile(path, providerConfig(model.url) + written);
  },
  trust: (ctx) => trust(ctx, true),
  untrusted: {
    name: "with the project trusted but its hooks not, Codex skips rgraph's hooks silently",
    check: async (ctx) => {
      await trust(ctx, false);
      const s = await sideSession(ctx);
      const recorded = (await ctx.world.touches()).filter((x) => x.session_id === s.sessionId);
      assert.deepEqual(recorded, [], "no hook ran");
    },
  },
  extra: async (t, ctx) => {
    if (ctx.variant.via !== "plugin") return;
    // Codex trusts a plugin's hooks by a fingerprint of every file in its folder: a hook bundle
    // built there would make the next sessions skip them all as "modified".
    await t.step(
      "once the plugin's hook bundle is built, the next session still runs rgraph's hooks",
      async () => {
        const manifest =
          `${ctx.world.home}/.local/share/rgraph/hook-bundle/codex-plugin/manifest.json`;
        assert.ok(
          await waitFor(() => Deno.stat(manifest).then(() => true, () => false), (x) => x, 60_000),
          "the hook bundle was never built",
        );
        const s = await sideSession(ctx);
        const fetched = (await ctx.world.touches()).filter((x) =>
          x.session_id === s.sessionId && x.provenance === "FETCHED"
        );
        assert.equal(fetched.length, 1, "the gh command's Touch");
      },
    );
  },
  plugin: {
    steps: STEPS,
    presentedTool: "mcp__rgraph",
    install: async (ctx) => {
      await harnessCommand(ctx, ["plugin", "marketplace", "add", CHECKOUT]);
      await harnessCommand(ctx, ["plugin", "add", "rgraph@rgraph"]);
    },
    uninstall: async (ctx) => {
      await harnessCommand(ctx, ["plugin", "remove", "rgraph@rgraph"]);
      await harnessCommand(ctx, ["plugin", "marketplace", "remove", "rgraph"]);
      // Codex 0.171.0 keeps the trust it recorded for the plugin's hooks (`[hooks.state."rgraph@rgraph:…"]`
      // tables, which run nothing once the plugin is gone); anything else of rgraph's is left behind.
      const path = `${ctx.world.home}/.codex/config.toml`;
      const tables = (await Deno.readTextFile(path)).split(/^(?=\[)/m);
      const trust = tables.filter((t) => t.startsWith(`[hooks.state."rgraph@rgraph:`));
      assert.equal(trust.length, 4, "one trust record per hook");
      // The world's own temp folder is named after rgraph.
      const rest = tables.filter((t) => !trust.includes(t)).join("").replaceAll(
        ctx.world.root,
        "<world>",
      );
      assert.doesNotMatch(rest, /\brgraph\b/i, `config.toml after uninstall:\n${rest}`);
    },
    // config.toml: checked by uninstall above.
    harnessFiles: [".codex/plugins", ".codex/hooks.json"],
  },
  session: (ctx, prompt) => exec(ctx, prompt),
  problems: (
    _,
    session,
  ) => [...errorItems(session.run.stdout), ...warningBlocks(session.run.stderr)],
});
