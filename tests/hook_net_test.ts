/**
 * The hook can never reach the network: it revokes its own net permission
 * before anything else, even when started with `--allow-net` (as `deno task
 * rgraph` and a compiled binary are). And its import graph never pulls in the
 * MCP SDK, octokit or the Bolt driver, nor at run time any npm package.
 */

import assert from "node:assert/strict";
import { RGRAPH_FLAGS, sandbox } from "./helpers.ts";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("a network attempt inside the hook process fails once the hook has run", async () => {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return new Response("hello");
  });
  const sb = await sandbox();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...RGRAPH_FLAGS,
        `${ROOT}tests/hook_net_probe.ts`,
        `http://127.0.0.1:${server.addr.port}/`,
      ],
      env: sb.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(
      new TextEncoder().encode(
        await Deno.readTextFile(`${ROOT}fixtures/payloads/claude-code/bash_gh_issue_view.json`),
      ),
    );
    await w.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n");
    const report = JSON.parse(stderr.at(-1)!);
    const { state, ...rest } = report;
    assert.deepEqual(rest, { before: "reached", code: 0, after: "NotCapable" });
    assert.notEqual(state, "granted");
    assert.equal(hits, 1, "only the attempt before the hook reached the server");
    assert.equal(new TextDecoder().decode(out.stdout), "");
  } finally {
    await server.shutdown();
    await sb.cleanup();
  }
});

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string } }>;
}

async function infoOf(module: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", module],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  // `npmPackages` is the lockfile's whole snapshot; `modules` is this graph.
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

/** The specifiers of every module in `module`'s import graph (npm packages as `npm:/name@version`). */
async function graphOf(module: string): Promise<string[]> {
  return (await infoOf(module)).map((m) => m.specifier);
}

/**
 * The modules `module` can load at run time: its graph without what is
 * reached only through type imports (erased when the code runs).
 */
async function runtimeGraphOf(module: string): Promise<string[]> {
  const modules = await infoOf(module);
  const bySpecifier = new Map(modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (d.code) visit(d.code.specifier);
    }
  };
  visit(new URL(module, `file://${ROOT}`).href);
  return [...seen];
}

const HEAVY = /@modelcontextprotocol|octokit|neo4j-driver/;

Deno.test("the hook's import graph has no MCP SDK, octokit or neo4j-driver", async () => {
  const hook = await graphOf("commands/hook.ts");
  assert.ok(hook.some((s) => s.endsWith("/lib/capture/harness/mod.ts")), "the graph was read");
  assert.deepEqual(hook.filter((s) => HEAVY.test(s)), []);
  // The check can fail: the MCP server's graph does include the SDK.
  const serve = await graphOf("commands/serve_mcp.ts");
  assert.ok(serve.some((s) => HEAVY.test(s)));
});

Deno.test("the hook loads no npm package at run time (the TOML parser only when the config changed)", async () => {
  const hook = await runtimeGraphOf("commands/hook.ts");
  assert.ok(hook.some((s) => s.endsWith("/lib/capture/hook_config.ts")), "the graph was walked");
  assert.deepEqual(hook.filter((s) => s.startsWith("npm:")), []);
  // The check can fail: config.ts, which lib/capture/hook_config.ts loads on a cache miss, imports smol-toml.
  assert.ok((await runtimeGraphOf("lib/config/load.ts")).some((s) => s.includes("smol-toml")));
});
