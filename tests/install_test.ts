/**
 * `rgraph install` / `rgraph uninstall` end to end: real rgraph processes on
 * copies of realistic harness configs (`fixtures/harness-configs/`), checked
 * by reading the files a harness would read.
 */

import assert from "node:assert/strict";
import { userInfo } from "node:os";
import { parse as parseToml } from "smol-toml";
import { rgraphCommand, runRgraph, type Sandbox, sandbox } from "./helpers.ts";
import {
  gated,
  GATED_EVENTS,
  PRE_TOOL_EVENT,
  PRE_TOOL_MATCHER,
  ungated,
} from "../lib/install/dispatch.ts";

const FIXTURES = new URL("../fixtures/harness-configs/", import.meta.url).pathname;

type Harness = "claude-code" | "codex" | "copilot" | "cursor" | "opencode" | "gemini" | "grok";

/**
 * Where each harness's hooks and MCP server land, the events rgraph must
 * hook, and the event at whose session end it starts a Sweep.
 */
const EXPECT: Record<
  Harness,
  {
    hooks: string;
    events: string[];
    end: string | null;
    grouped: boolean;
    mcp: string;
    mcpPath: string[];
  }
> = {
  "claude-code": {
    hooks: ".claude/settings.json",
    events: ["SessionStart", "UserPromptSubmit", "PreToolUse"],
    end: "SessionEnd",
    grouped: true,
    mcp: ".mcp.json",
    mcpPath: ["mcpServers", "rgraph"],
  },
  codex: {
    hooks: ".codex/hooks.json",
    events: ["SessionStart", "UserPromptSubmit", "PreToolUse"],
    end: "SessionEnd",
    grouped: true,
    mcp: ".codex/config.toml",
    mcpPath: ["mcp_servers", "rgraph"],
  },
  copilot: {
    hooks: ".github/hooks/rgraph.json",
    events: ["sessionStart", "userPromptSubmitted", "preToolUse"],
    end: "sessionEnd",
    grouped: false,
    mcp: ".github/mcp.json",
    mcpPath: ["mcpServers", "rgraph"],
  },
  cursor: {
    hooks: ".cursor/hooks.json",
    events: [
      "sessionStart",
      "beforeSubmitPrompt",
      "beforeShellExecution",
      "beforeMCPExecution",
    ],
    end: "sessionEnd",
    grouped: false,
    mcp: ".cursor/mcp.json",
    mcpPath: ["mcpServers", "rgraph"],
  },
  opencode: {
    hooks: ".opencode/plugins/rgraph.js",
    events: [],
    end: null,
    grouped: false,
    mcp: "opencode.jsonc",
    mcpPath: ["mcp", "rgraph"],
  },
  gemini: {
    hooks: ".gemini/settings.json",
    events: ["SessionStart", "BeforeAgent", "BeforeTool"],
    end: "SessionEnd",
    grouped: true,
    mcp: ".gemini/settings.json",
    mcpPath: ["mcpServers", "rgraph"],
  },
  grok: {
    hooks: ".grok/hooks/rgraph.json",
    events: ["SessionStart", "UserPromptSubmit", "PreToolUse"],
    end: "SessionEnd",
    grouped: true,
    mcp: ".grok/config.toml",
    mcpPath: ["mcp_servers", "rgraph"],
  },
};

/** Every file (with its bytes) and directory under `dir`, by relative path. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(`${dir}/${rel}`)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        out.set(`${path}/`, "");
        await walk(path);
      } else out.set(path, await Deno.readTextFile(`${dir}/${path}`));
    }
  };
  await walk("");
  return out;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/** JSON with comments and trailing commas, the way the harnesses that allow them read it. */
function readJsonc(text: string): any {
  const noComments = text.replace(
    /("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (_, s) => s ?? "",
  );
  return JSON.parse(noComments.replace(/,(\s*[}\]])/g, "$1"));
}

function readConfig(path: string, text: string): any {
  return path.endsWith(".toml") ? parseToml(text) : readJsonc(text);
}

/** `small` is inside `big`: every key with a contained value, every list element at its index. */
function contains(big: unknown, small: unknown): boolean {
  if (Array.isArray(small)) {
    return Array.isArray(big) && small.every((v, i) => contains(big[i], v));
  }
  if (typeof small === "object" && small !== null) {
    return typeof big === "object" && big !== null &&
      Object.entries(small).every(([k, v]) => contains((big as any)[k], v));
  }
  return big === small;
}

function at(doc: any, path: string[]): any {
  return path.reduce((v, k) => (v == null ? undefined : v[k]), doc);
}

/** The hook commands installed for one event (grouped or flat layout). */
function hookCommands(doc: any, event: string, grouped: boolean): string[] {
  const list: any[] = doc?.hooks?.[event] ?? [];
  const handlers = grouped ? list.flatMap((g) => g.hooks ?? []) : list;
  return handlers.map((h) => h.command ?? h.bash).filter((c) => typeof c === "string");
}

async function withProject(harness: Harness, fn: (box: Sandbox, dir: string) => Promise<void>) {
  const box = await sandbox();
  try {
    const dir = `${box.dir}/project`;
    await copyDir(`${FIXTURES}${harness}`, dir);
    await fn(box, dir);
  } finally {
    await box.cleanup();
  }
}

for (const harness of Object.keys(EXPECT) as Harness[]) {
  const expect = EXPECT[harness];

  Deno.test(`install ${harness}: --dry-run prints a diff and changes nothing; install merges into realistic configs, is idempotent, and uninstall restores every byte`, async () => {
    await withProject(harness, async (box, dir) => {
      const original = await snapshot(dir);

      const dry = await box.rgraph(["install", harness, "--dir", dir, "--dry-run"]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^--- (a\/|\/dev\/null)/m);
      assert.match(dry.stdout, /^\+\+\+ b\//m);
      assert.match(dry.stdout, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
      assert.match(dry.stdout, /^\+.*serve-mcp/m);
      assert.deepEqual(await snapshot(dir), original);

      const first = await box.rgraph(["install", harness, "--dir", dir]);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, new RegExp(`${harness}: installed`));
      const installed = await snapshot(dir);

      // The user's own settings, hooks and servers are all still there.
      for (const [path, text] of original) {
        if (path.endsWith("/") || !/\.(json|jsonc|toml)$/.test(path)) {
          assert.equal(installed.get(path), text, `${path} changed`);
          continue;
        }
        assert.ok(
          contains(readConfig(path, installed.get(path)!), readConfig(path, text)),
          `${path} lost content`,
        );
      }
      // Comments survive where the format has them.
      for (const [path, text] of original) {
        for (const comment of text.match(/(\/\/|#|\/\*)[^\n]*/g) ?? []) {
          if (/^(\/\/|#|\/\*) /.test(comment)) {
            assert.ok(installed.get(path)!.includes(comment), `${path}: lost ${comment}`);
          }
        }
      }

      // rgraph's hooks: one per event, running `hook <harness>`.
      const hooksText = installed.get(expect.hooks);
      assert.ok(hooksText, `${expect.hooks} was not written`);
      // Every command names the config file by absolute path: harnesses may pass no RGRAPH_CONFIG.
      const named = `--config ${box.configPath}`;
      if (harness === "opencode") {
        assert.match(hooksText, /"hook", "opencode"|hook.*opencode/);
        assert.match(hooksText, /"session\.idle"/);
        assert.match(hooksText, /"sweep", "--background"/);
        assert.match(hooksText, /^const RGRAPH_COMMAND = \[.+\];/m);
        const argv = JSON.parse(/^const RGRAPH_COMMAND = (\[.+\]);/m.exec(hooksText)![1]);
        assert.deepEqual(argv.slice(-2), ["--config", box.configPath]);
      } else {
        const doc = readConfig(expect.hooks, hooksText);
        for (const event of expect.events) {
          const ours = hookCommands(doc, event, expect.grouped).filter((c) => / hook /.test(c));
          const tail = harness === "copilot" ? `hook copilot --event ${event}` : `hook ${harness}`;
          assert.equal(ours.length, 1, `${event}: ${ours.length} rgraph hooks`);
          // A tool hook sits behind its gate: it starts rgraph only for a call that can read GitHub.
          const gate = (GATED_EVENTS as Record<string, string[]>)[harness].includes(event);
          const inner = gate ? ungated(ours[0]) : ours[0];
          assert.ok(inner?.endsWith(`${named} ${tail}`), `${event}: ${ours[0]}`);
        }
        // Only tools that can read GitHub reach the hook.
        if (Object.hasOwn(PRE_TOOL_MATCHER, harness)) {
          const h = harness as keyof typeof PRE_TOOL_MATCHER;
          assert.equal(doc.hooks[PRE_TOOL_EVENT[h]].at(-1).matcher, PRE_TOOL_MATCHER[h]);
        }
        if (harness === "cursor") assert.equal(doc.hooks.preToolUse, undefined);
        // At session end: an automatic Sweep in the background, never `rgraph hook`.
        const end = hookCommands(doc, expect.end!, expect.grouped);
        assert.equal(end.length, 1, `${expect.end}: ${JSON.stringify(end)}`);
        assert.ok(end[0].endsWith(" sweep --background"), end[0]);
      }
      const server = at(readConfig(expect.mcp, installed.get(expect.mcp)!), expect.mcpPath);
      const argv = [server.command, ...(server.args ?? [])].flat();
      assert.deepEqual(argv.slice(-3), ["--config", box.configPath, "serve-mcp"]);

      // Twice changes nothing.
      const second = await box.rgraph(["install", harness, "--dir", dir]);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /already installed, nothing to change/);
      assert.deepEqual(await snapshot(dir), installed);

      // Uninstall removes exactly what install added.
      const removed = await box.rgraph(["uninstall", harness, "--dir", dir]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.deepEqual(await snapshot(dir), original);
    });
  });
}

Deno.test("an older install whose hook runs on every tool: doctor says so, and install narrows it", async () => {
  const box = await sandbox();
  try {
    const dir = `${box.dir}/older`;
    await Deno.mkdir(dir);
    /** What rgraph before the narrowed dispatch wrote, made from this install's own entries. */
    const older: Record<string, [string, (doc: any) => void]> = {
      "claude-code": [".claude/settings.json", (doc) => doc.hooks.PreToolUse[0].matcher = "*"],
      copilot: [".github/hooks/rgraph.json", (doc) => {
        const handler = doc.hooks.preToolUse[0];
        handler.bash = ungated(handler.bash);
      }],
      cursor: [".cursor/hooks.json", (doc) => {
        doc.hooks.preToolUse = [{ command: doc.hooks.beforeShellExecution[0].command }];
      }],
    };
    for (const [harness, [file, age]] of Object.entries(older)) {
      assert.equal((await box.rgraph(["install", harness, "--dir", dir])).code, 0);
      const path = `${dir}/${file}`;
      const doc = JSON.parse(await Deno.readTextFile(path));
      age(doc);
      await Deno.writeTextFile(path, JSON.stringify(doc, null, 2));
      const before = await box.rgraph(["doctor", "--dir", dir]);
      const warning = new RegExp(
        `${harness} \\(project\\) hooks.*hook runs on every tool: reinstall`,
      );
      assert.match(before.stdout, warning, before.stdout);
      assert.doesNotMatch(before.stdout, /did not write/, "an older install is still rgraph's own");
      const upgraded = await box.rgraph(["install", harness, "--dir", dir]);
      assert.equal(upgraded.code, 0, upgraded.stderr);
      assert.match(upgraded.stdout, new RegExp(`updated ${file.replaceAll(".", "\\.")}`));
      const after = await box.rgraph(["doctor", "--dir", dir]);
      assert.doesNotMatch(after.stdout, /hook runs on every tool/, after.stdout);
      assert.equal((await box.rgraph(["uninstall", harness, "--dir", dir])).code, 0);
    }
  } finally {
    await box.cleanup();
  }
});

Deno.test("install into an empty project then uninstall leaves nothing behind", async () => {
  const box = await sandbox();
  try {
    const dir = `${box.dir}/empty`;
    await Deno.mkdir(dir);
    for (const harness of Object.keys(EXPECT)) {
      const r = await box.rgraph(["install", harness, "--dir", dir]);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.ok((await snapshot(dir)).size > 10);
    for (const harness of Object.keys(EXPECT)) {
      const r = await box.rgraph(["uninstall", harness, "--dir", dir]);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.deepEqual([...(await snapshot(dir)).keys()], []);
    const again = await box.rgraph(["uninstall", "cursor", "--dir", dir]);
    assert.match(again.stdout, /nothing of rgraph's to remove/);
  } finally {
    await box.cleanup();
  }
});

Deno.test("a file that cannot be parsed is left untouched, nothing else is written, and the error is one line", async () => {
  const cases: [Harness, string, string][] = [
    ["claude-code", ".claude/settings.json", '{\n  "hooks": {\n    "PreToolUse": [\n'],
    ["cursor", ".cursor/hooks.json", '{\n  // comments are not JSON\n  "version": 1\n}\n'],
    ["codex", ".codex/config.toml", "[features]\nhooks = true\nhooks = false\n"],
    ["gemini", ".gemini/settings.json", '{ "hooks": [1, 2,, 3] }'],
  ];
  for (const [harness, file, text] of cases) {
    const box = await sandbox();
    try {
      const dir = `${box.dir}/project`;
      await Deno.mkdir(`${dir}/${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${file}`, text);
      const before = await snapshot(dir);
      const r = await box.rgraph(["install", harness, "--dir", dir]);
      assert.equal(r.code, 1, `${harness}: ${r.stdout}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(r.stderr.includes(file), r.stderr);
      assert.match(r.stderr, /no file was changed/);
      assert.doesNotMatch(r.stderr, /\bat .*\.ts:\d+/); // no stack trace
      assert.deepEqual(await snapshot(dir), before);
      const u = await box.rgraph(["uninstall", harness, "--dir", dir]);
      assert.equal(u.code, 1);
      assert.deepEqual(await snapshot(dir), before);
    } finally {
      await box.cleanup();
    }
  }
});

Deno.test("an unknown harness or scope is a one-line usage error (exit 2) naming the valid ones", async () => {
  const box = await sandbox();
  try {
    const r = await box.rgraph(["install", "vim"]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(
      r.stderr,
      /unknown harness 'vim'.*claude-code, codex, copilot, cursor, opencode, gemini, grok/,
    );
    const s = await box.rgraph(["uninstall", "codex", "--scope", "global"]);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /--scope takes project or user/);
    const none = await box.rgraph(["install"]);
    assert.equal(none.code, 2);
  } finally {
    await box.cleanup();
  }
});

Deno.test("user scope: Claude Code's ~/.claude.json keeps all its state and gets the server; uninstall restores it", async () => {
  const box = await sandbox();
  try {
    await Deno.copyFile(`${FIXTURES}claude-code-user/.claude.json`, `${box.dir}/.claude.json`);
    const original = await Deno.readTextFile(`${box.dir}/.claude.json`);
    const r = await box.rgraph(["install", "claude-code", "--scope", "user"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(await Deno.readTextFile(`${box.dir}/.claude.json`));
    assert.ok(contains(doc, JSON.parse(original)));
    assert.equal(doc.mcpServers.rgraph.args.at(-1), "serve-mcp");
    const settings = JSON.parse(await Deno.readTextFile(`${box.dir}/.claude/settings.json`));
    assert.equal(hookCommands(settings, "PreToolUse", true).length, 1);

    const u = await box.rgraph(["uninstall", "claude-code", "--scope", "user"]);
    assert.equal(u.code, 0, u.stderr);
    assert.equal(await Deno.readTextFile(`${box.dir}/.claude.json`), original);
    await assert.rejects(Deno.stat(`${box.dir}/.claude`), Deno.errors.NotFound);
  } finally {
    await box.cleanup();
  }
});

Deno.test("a symlinked user config file (dotfiles) stays a symlink; the file it points at gets the change", async () => {
  const box = await sandbox();
  try {
    // At user scope only: a project's link leading out of the project is refused (tests/security/).
    const link = `${box.dir}/.cursor/mcp.json`;
    await Deno.mkdir(`${box.dir}/.cursor`, { recursive: true });
    await Deno.mkdir(`${box.dir}/dotfiles`);
    const real = `${box.dir}/dotfiles/cursor-mcp.json`;
    const original = '{"mcpServers": {"pg": {"command": "pg-mcp"}}}\n';
    await Deno.writeTextFile(real, original);
    await Deno.symlink(real, link);
    const r = await box.rgraph(["install", "cursor", "--scope", "user"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal(
      JSON.parse(await Deno.readTextFile(real)).mcpServers.rgraph.args.at(-1),
      "serve-mcp",
    );
    const u = await box.rgraph(["uninstall", "cursor", "--scope", "user"]);
    assert.equal(u.code, 0, u.stderr);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal(await Deno.readTextFile(real), original);
  } finally {
    await box.cleanup();
  }
});

Deno.test("user scope honours CODEX_HOME; a changed --command replaces rgraph's entries instead of adding more", async () => {
  const box = await sandbox();
  try {
    const codexHome = `${box.dir}/codex-home`;
    const env = { CODEX_HOME: codexHome };
    const a = await box.rgraph(["install", "codex", "--scope", "user"], { env });
    assert.equal(a.code, 0, a.stderr);
    const b = await box.rgraph(["install", "codex", "--scope", "user", "--command", "rgraph"], {
      env,
    });
    assert.equal(b.code, 0, b.stderr);
    const hooks = JSON.parse(await Deno.readTextFile(`${codexHome}/hooks.json`));
    for (const event of EXPECT.codex.events) {
      // The config file is named even after --command: a harness may pass no RGRAPH_CONFIG.
      const command = `rgraph --config ${box.configPath} hook codex`;
      assert.deepEqual(hookCommands(hooks, event, true), [
        GATED_EVENTS.codex.includes(event) ? gated("codex", command) : command,
      ]);
    }
    const config = parseToml(await Deno.readTextFile(`${codexHome}/config.toml`)) as any;
    assert.deepEqual(config.mcp_servers.rgraph, {
      command: "rgraph",
      args: ["--config", box.configPath, "serve-mcp"],
    });
    assert.equal(config.features.hooks, true);
    const u = await box.rgraph(["uninstall", "codex", "--scope", "user"], { env });
    assert.equal(u.code, 0, u.stderr);
    await assert.rejects(Deno.stat(codexHome), Deno.errors.NotFound);
  } finally {
    await box.cleanup();
  }
});

Deno.test("without USER or LOGNAME, install takes the system account's name for the identity, never a shared placeholder", async () => {
  const box = await sandbox();
  try {
    await Deno.remove(box.configPath);
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    const r = await box.rgraph(["install", "claude-code", "--dir", dir], {
      env: { USER: "", LOGNAME: "" },
    });
    assert.equal(r.code, 0, r.stderr);
    const config = parseToml(await Deno.readTextFile(box.configPath)) as any;
    assert.equal(config.identity.user_id, userInfo().username);
  } finally {
    await box.cleanup();
  }
});

Deno.test("when no login name can be found, install writes the config without an identity and says to set one; doctor fails on it", async () => {
  const box = await sandbox();
  try {
    await Deno.remove(box.configPath);
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    // Without sys permission rgraph cannot ask the system for the account name either.
    const { command, args } = rgraphCommand();
    const child = await new Deno.Command(command, {
      args: [...args.filter((a) => a !== "--allow-sys"), "install", "claude-code", "--dir", dir],
      env: { ...box.env, USER: "", LOGNAME: "" },
      cwd: box.dir,
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(child.stdout);
    assert.equal(child.code, 0, new TextDecoder().decode(child.stderr));
    assert.match(
      stdout,
      new RegExp(`^note: .*set \\[identity\\] user_id in ${box.configPath}`, "m"),
    );
    const config = parseToml(await Deno.readTextFile(box.configPath)) as any;
    assert.equal(config.identity?.user_id, undefined);

    const doctor = await runRgraph(["doctor", "--json", "--dir", dir], {
      env: box.env,
      cwd: box.dir,
    });
    assert.equal(doctor.code, 1);
    const identity = JSON.parse(doctor.stdout).find((c: { check: string }) =>
      c.check === "identity"
    );
    assert.equal(identity.ok, false);
    assert.match(identity.fix, /\[identity\] user_id/);
  } finally {
    await box.cleanup();
  }
});

Deno.test("with XDG_DATA_HOME set, install makes the config name its store, so harnesses that drop the variable use the same one", async () => {
  const box = await sandbox();
  try {
    const dir = `${box.dir}/project`;
    await Deno.mkdir(dir);
    const xdg = { XDG_DATA_HOME: `${box.dir}/xdg-data` };
    // An existing config without [store] path: the line is added, marked, and said.
    await box.writeConfig('[identity]\nuser_id = "alice"\n');
    const r = await box.rgraph(["install", "codex", "--dir", dir], { env: xdg });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /names its store now \(\[store\] path\): XDG_DATA_HOME is set here/);
    const text = await Deno.readTextFile(box.configPath);
    assert.equal(
      (parseToml(text) as any).store.path,
      "~/xdg-data/rgraph/rgraph.db",
      "written under ~/ when it is in the home",
    );
    assert.match(text, /# added by rgraph install/);
    // Without XDG_DATA_HOME the variable can change nothing: a config without a store stays as it is.
    await box.writeConfig('[identity]\nuser_id = "alice"\n');
    const plain = await box.rgraph(["install", "codex", "--dir", dir], {
      env: { XDG_DATA_HOME: "" },
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(await Deno.readTextFile(box.configPath), '[identity]\nuser_id = "alice"\n');
    // A config that names its store is never touched.
    await box.writeConfig('[identity]\nuser_id = "alice"\n[store]\npath = "/srv/r.db"\n');
    await box.rgraph(["install", "codex", "--dir", dir], { env: xdg });
    assert.match(await Deno.readTextFile(box.configPath), /^path = "\/srv\/r\.db"$/m);
    // A new config gets it from the start.
    await Deno.remove(box.configPath);
    await box.rgraph(["install", "codex", "--dir", dir], { env: { ...xdg, USER: "erin" } });
    const created = parseToml(await Deno.readTextFile(box.configPath)) as any;
    assert.deepEqual([created.identity.user_id, created.store.path], [
      "erin",
      "~/xdg-data/rgraph/rgraph.db",
    ]);
  } finally {
    await box.cleanup();
  }
});

Deno.test("install fills the Deno cache a harness's emptied environment reads, so the MCP server it starts answers at once", async () => {
  const box = await sandbox();
  try {
    // A HOME whose Deno cache is empty (as on a new machine), while this install runs with a
    // DENO_DIR of its own (the sandbox's): Codex would start serve-mcp with HOME's cache.
    await Deno.remove(`${box.dir}/.cache/deno`);
    const r = await box.rgraph(["install", "claude-code", "--scope", "user"]);
    assert.equal(r.code, 0, r.stderr);
    const sdk = `${box.dir}/.cache/deno/npm/registry.npmjs.org/@modelcontextprotocol/sdk`;
    assert.ok((await Deno.stat(sdk)).isDirectory, "the MCP SDK is in HOME's Deno cache");
    // doctor starts the server with only HOME, PATH, USER, LANG and TERM, as Codex does.
    const d = await box.rgraph(["doctor", "--json"]);
    const checks = JSON.parse(d.stdout) as { check: string; ok: boolean; detail: string }[];
    const server = checks.find((c) => c.check === "claude-code (user) MCP server");
    assert.equal(server?.ok, true, JSON.stringify(server));
  } finally {
    await box.cleanup();
  }
});
