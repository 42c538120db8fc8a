/**
 * Owner-only by construction (issue 17): under umask 022 and 002, real
 * rgraph commands — install (with its hook bundle), hooks (a Touch, a
 * problem for the log, a `resource` call's note, a Touch spooled while the
 * store is locked), a Sweep against the GitHub emulator, status, pause,
 * doctor — leave every folder of the data directory 0700 and every file in
 * it 0600 (the store's -wal and -shm included, looked at while a Sweep has
 * them open), while the harness files install creates keep the harness's
 * conventional mode (the umask's) and an existing one keeps its own.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { bashCallPayload, runRgraph, type Sandbox, sandbox } from "../helpers.ts";
import { RACY_MS } from "../../lib/capture/hook_config.ts";
import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";

const REPO = `${FACTS.big.owner}/${FACTS.big.name}`;

/** Every folder and file under `root`, relative path → permission bits. */
function modesUnder(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      out.set(path.slice(root.length + 1), Deno.lstatSync(path).mode! & 0o7777);
      if (e.isDirectory) visit(path);
    }
  };
  visit(root);
  return out;
}

const octal = (m: number) => `0${m.toString(8)}`;

/** The entries of `modes` whose mode is not `want` for their kind. */
function wrong(root: string, modes: Map<string, number>): string[] {
  return [...modes].filter(([path, mode]) => {
    const info = Deno.lstatSync(`${root}/${path}`);
    return mode !== (info.isDirectory ? 0o700 : 0o600) || info.isSymlink;
  }).map(([path, mode]) => `${path} ${octal(mode)}`);
}

async function hook(sb: Sandbox, payload: string): Promise<void> {
  const r = await sb.rgraph(["hook", "claude-code"], { stdin: payload });
  assert.deepEqual([r.code, r.stderr], [0, ""]);
}

/** Polls until `path` exists (a Sweep's -wal while it runs); its mode, or null. */
async function modeWhileThere(path: string, ms: number): Promise<number | null> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    try {
      return Deno.lstatSync(path).mode! & 0o7777;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  return null;
}

for (const umask of [0o022, 0o002]) {
  Deno.test(`umask ${octal(umask)}: everything rgraph keeps is owner-only; harness files keep the harness's mode`, async () => {
    const before = Deno.umask(umask);
    const gh = await startEmulator({ latencyMs: 0 });
    const sb = await sandbox({
      extra: `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\n` +
        `graphql_url = "${gh.graphqlUrl}"\n`,
    });
    try {
      const data = `${sb.dir}/data/rgraph`;
      const project = `${sb.dir}/project`;
      Deno.mkdirSync(project);
      // An existing harness file keeps the mode its owner gave it.
      Deno.writeTextFileSync(`${project}/.mcp.json`, "{}\n", { mode: 0o640 });
      Deno.chmodSync(`${project}/.mcp.json`, 0o640);

      const install = await sb.rgraph(["install", "claude-code", "--dir", project]);
      assert.equal(install.code, 0, install.stderr);
      assert.match(install.stdout, /built the hook bundle/);

      // The hook caches its config only once the file is older than RACY_MS (a newer one
      // may be edited again within the clock's resolution): wait, so hook-config.json is made.
      const { mtime, ctime } = Deno.statSync(sb.configPath);
      const changed = Math.max(mtime!.getTime(), ctime?.getTime() ?? 0);
      await new Promise((r) => setTimeout(r, Math.max(0, changed + RACY_MS + 100 - Date.now())));

      let call = 0;
      const read = (n: number) =>
        bashCallPayload(`gh issue view ${n} -R ${REPO}`, {
          session: "modes",
          toolUse: `toolu_modes_${++call}`,
          cwd: sb.dir,
        });
      await hook(sb, read(FACTS.big.longThread.number));
      await hook(sb, "not json"); // a line for hook.log
      await hook(
        sb,
        JSON.stringify({
          session_id: "modes",
          cwd: sb.dir,
          hook_event_name: "PreToolUse",
          tool_name: "mcp__rgraph__resource",
          tool_input: { address: `github:${REPO}#1` },
          tool_use_id: `toolu_modes_${++call}`,
        }),
      );
      // The store locked by another process: the hook keeps its Touch in the spool.
      const locker = new DatabaseSync(sb.dbPath);
      locker.exec("BEGIN EXCLUSIVE");
      try {
        await hook(sb, read(2));
        const spooled = modesUnder(`${data}/touch-spool`);
        assert.equal(spooled.size, 1, [...spooled.keys()].join(", "));
        assert.deepEqual(wrong(`${data}/touch-spool`, spooled), []);
      } finally {
        locker.exec("ROLLBACK");
        locker.close();
      }

      // An automatic Sweep, as a session's end starts it: it logs to sweep.log.
      const auto = await sb.rgraph(["sweep", "--background"], { stdin: "{}" });
      assert.equal(auto.code, 0, auto.stderr);
      assert.ok(await modeWhileThere(`${data}/sweep.log`, 30_000) !== null, "no sweep.log");
      await new Promise((r) => setTimeout(r, 500)); // its process ends after the line

      // The store's companions, while a Sweep holds the store open.
      await hook(sb, read(3));
      gh.setLatency(150);
      const sweep = sb.rgraph(["sweep"]);
      const wal = await modeWhileThere(`${sb.dbPath}-wal`, 20_000);
      const shm = await modeWhileThere(`${sb.dbPath}-shm`, 1_000);
      const swept = await sweep;
      assert.equal(swept.code, 0, swept.stderr);
      assert.deepEqual([wal, shm].map((m) => m === null ? null : octal(m)), ["0600", "0600"]);

      assert.equal((await sb.rgraph(["status"])).code, 0);
      assert.equal((await sb.rgraph(["pause"])).code, 0);
      const doctor = await sb.rgraph(["doctor", "--dir", project]);
      assert.match(doctor.stdout, /ok {3}data directory: .* \(owner-only\)/);
      assert.match(doctor.stdout, /ok {3}config file secrets: /);

      const modes = modesUnder(data);
      for (
        const name of [
          "rgraph.db",
          "hook.log",
          "sweep.log",
          "sweep.lock",
          "sweep-status.json",
          "paused.json",
          "hook-config.json",
          "memory-reads",
          "touch-spool",
          "hook-bundle",
        ]
      ) assert.ok(modes.has(name), `${name} missing: ${[...modes.keys()].join(", ")}`);
      const bundle = [...modes.keys()].filter((p) => p.startsWith("hook-bundle/"));
      assert.ok(bundle.some((p) => p.endsWith("/hook_bundled.js")), bundle.join(", "));
      assert.ok(bundle.some((p) => p.endsWith("/manifest.json")), bundle.join(", "));
      assert.ok([...modes.keys()].some((p) => p.startsWith("memory-reads/")), "a note kept");
      assert.deepEqual(wrong(data, modes), []);
      assert.equal(Deno.statSync(data).mode! & 0o7777, 0o700);

      // Harness files: what install created takes the umask's mode, as the harness's own would.
      const harness = modesUnder(project);
      assert.equal(harness.get(".claude"), 0o777 & ~umask);
      assert.equal(harness.get(".claude/settings.json"), 0o666 & ~umask);
      assert.equal(harness.get(".mcp.json"), 0o640, "an existing file keeps its mode");
    } finally {
      Deno.umask(before);
      await sb.cleanup();
      await gh.close();
    }
  });
}

for (const umask of [0o022, 0o002]) {
  Deno.test(`umask ${octal(umask)}: a user without a config gets a config folder of their own from install and from a plugin's first session`, async () => {
    const before = Deno.umask(umask);
    const dir = await Deno.makeTempDir({ prefix: "rgraph-modes-" });
    try {
      const deno = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
      const bin = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
      // The plugin's MCP server writes the first config when it starts before the session start.
      const runs = { install: ["install", "claude-code"], plugin: ["serve-mcp", "--plugin"] };
      for (const [who, args] of Object.entries(runs)) {
        const home = `${dir}/${who}`;
        Deno.mkdirSync(home);
        const env = { HOME: home, USER: "bob", PATH: `${bin}:/usr/bin:/bin`, DENO_DIR: deno };
        const r = await runRgraph(args, { env, cwd: home, stdin: "" });
        assert.equal(r.code, 0, `${who}: ${r.stdout}${r.stderr}`);
        for (const folder of [".config", ".config/rgraph"]) {
          assert.equal(
            octal(Deno.statSync(`${home}/${folder}`).mode! & 0o7777),
            "0700",
            `${who}: ~/${folder}`,
          );
        }
        assert.equal(
          octal(Deno.statSync(`${home}/.config/rgraph/config.toml`).mode! & 0o7777),
          "0600",
        );
      }
    } finally {
      Deno.umask(before);
      await Deno.remove(dir, { recursive: true });
    }
  });
}
