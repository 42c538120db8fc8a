/**
 * `rgraph doctor`'s checks of each harness configured in the project
 * directory or the home: its hooks are installed, a probe payload replayed
 * through the installed hook command answers validly, and the MCP server
 * answers `tools/list`.
 *
 * The probe is a session start: it exercises the installed command and the
 * harness's output format without recording a Touch.
 *
 * Doctor runs nothing a project supplies (`own.ts`): it starts a hook or
 * server only when the entry is identical to what `rgraph install` writes
 * for this harness, scope and config — and then the argv it computed itself,
 * without a shell — and a project's only where the harness trusts the folder
 * (`folderTrust`). Any other entry named rgraph is reported, never run.
 *
 * @module
 */

import { adapterFor, bundleIsCurrent, readBundleManifest } from "../capture/mod.ts";
import { configPath } from "../config/mod.ts";
import {
  configNamed,
  contextFor,
  exists,
  foreignHooks,
  type HarnessId,
  HOOK_EVENTS,
  NOT_OURS,
  type OwnEntries,
  ownEntries,
  pluginBundleDir,
  provenPlugin,
  provenServer,
  resolvedTargets,
  type Scope,
  type Target,
} from "../install/mod.ts";
import { shellQuote, shellSplit } from "../invocation.ts";
import { absoluteProgram, octal, writableByOthers } from "../host/mod.ts";
import { parseToml } from "../install/formats/mod.ts";
import { runChild } from "./child.ts";
import { folderTrust, trustCheck } from "./trust.ts";
import { versionCheck } from "./version.ts";
import { firstLine } from "../errors.ts";
import { type Check, type DoctorOptions, fail, ok, stripAnsi, warn } from "./check.ts";
import { pluginArgv, type PluginInstall, pluginInstalls } from "./plugin.ts";

/**
 * The environment an installed command may get from its harness: Codex gives
 * hooks and MCP servers only these (plus SHELL and TLS variables), Gemini CLI
 * under CI only these and its own. Doctor runs every installed command with
 * no more (and no colours), so "ok" means it works there too.
 */
const HARNESS_ENV = ["HOME", "PATH", "USER", "LANG", "TERM"];

function harnessEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const k of HARNESS_ENV) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** A session-start payload in each harness's own shape. */
function probePayload(harness: HarnessId, cwd: string): unknown {
  const id = "rgraph-doctor";
  switch (harness) {
    case "claude-code":
    case "codex":
    case "gemini":
      return {
        session_id: id,
        transcript_path: "",
        cwd,
        hook_event_name: "SessionStart",
        source: "startup",
        timestamp: new Date().toISOString(),
      };
    case "copilot":
      return { sessionId: id, timestamp: Date.now(), cwd, source: "new" };
    case "cursor":
      return {
        hook_event_name: "sessionStart",
        conversation_id: id,
        generation_id: id,
        workspace_roots: [cwd],
      };
    case "grok":
      return { hookEventName: "SessionStart", sessionId: id, cwd, workspaceRoot: cwd };
    case "opencode":
      return { event: "session.created", session_id: id, cwd };
  }
}

/** What one harness's files hold in one scope. */
interface Survey {
  scope: Scope;
  /** What install would write here. */
  own: OwnEntries;
  dir: string;
  /** Some file of the harness exists here. */
  configured: boolean;
  /** Some rgraph entry exists here. */
  installed: boolean;
  entries: { target: Target; seen: Seen | null; problem: string }[];
}

type Seen = ReturnType<Target["inspect"]>;

function survey(harness: HarnessId, scope: Scope, dir: string, command?: string): Survey {
  const ctx = contextFor({ scope, dir, command });
  const entries = resolvedTargets(harness, ctx).map((target) => {
    if (!exists(target.path)) {
      return { target, seen: null, problem: `${target.path} does not exist` };
    }
    try {
      return { target, seen: target.inspect(Deno.readTextFileSync(target.path)), problem: "" };
    } catch (e) {
      return { target, seen: null, problem: `${target.path}: ${firstLine(e)}` };
    }
  });
  const installed = entries.some(({ seen }) =>
    seen !== null && (!!seen.server || Object.values(seen.hooks ?? {}).some((c) => c !== null))
  );
  const configured = entries.some(({ target }) => exists(target.path));
  return {
    scope,
    own: ownEntries(harness, ctx, exists),
    dir: ctx.scope === "project" ? ctx.dir : ctx.home,
    configured,
    installed,
    entries,
  };
}

/**
 * The checks of one harness: every scope rgraph is installed in; when it is in
 * none but the project has the harness's config, one failure saying so.
 * `wired` says whether rgraph reaches the harness at all (an install or a
 * plugin), so the report can say when no harness records anything.
 */
export async function harnessChecks(
  harness: HarnessId,
  options: DoctorOptions,
): Promise<{ checks: Check[]; wired: boolean }> {
  const surveys = (["project", "user"] as Scope[]).map((scope) =>
    survey(harness, scope, options.dir, options.command)
  );
  const installed = surveys.filter((s) => s.installed);
  const home = contextFor({ scope: "user", dir: options.dir }).home;
  const plugins = pluginInstalls(harness, { home, dir: options.dir });
  if (installed.length === 0 && plugins.length === 0) {
    const project = surveys[0];
    const checks = project.configured
      ? [
        fail(
          `${harness}`,
          `configured in ${project.dir} without rgraph`,
          `rgraph install ${harness} --dir ${shellQuote(project.dir)}`,
        ),
      ]
      : [];
    return { checks, wired: false };
  }
  const out: Check[] = [];
  for (const s of installed) out.push(...await scopeChecks(harness, s, options));
  for (const p of plugins) out.push(...await pluginChecks(p, options));
  const enabled = plugins.filter((p) => p.enabled);
  if (enabled.length > 0 && installed.length > 0) {
    const scopes = installed.map((s) => s.scope);
    out.push(
      warn(
        `${harness} plugin and rgraph install`,
        `rgraph is both the ${enabled[0].id} plugin and installed by 'rgraph install' (${
          scopes.join(", ")
        } scope): each Touch is still recorded once, but the model gets two session hints and two resource tools`,
        scopes.map((s) =>
          `rgraph uninstall ${harness}${
            s === "user" ? " --scope user" : ` --dir ${shellQuote(options.dir)}`
          }`
        ).join("; ") + ` (or uninstall the plugin in ${harness})`,
      ),
    );
  }
  const version = await versionCheck(harness);
  if (version) out.push(version);
  return { checks: out, wired: true };
}

async function scopeChecks(
  harness: HarnessId,
  s: Survey,
  options: DoctorOptions,
): Promise<Check[]> {
  const label = `${harness} (${s.scope})`;
  const install = `rgraph install ${harness}${
    s.scope === "user" ? " --scope user" : ` --dir ${shellQuote(s.dir)}`
  }${options.command === undefined ? "" : ` --command ${shellQuote(options.command)}`}`;
  const events = harness === "opencode" ? [] : HOOK_EVENTS[harness];
  const out: Check[] = [];
  /** What each installed entry would start, for the config-file check (run or not). */
  const installed: string[][] = [];
  /** The argvs doctor proved are rgraph's own, and so may run. */
  let probeArgv: string[] | null = null;
  let serverArgv: string[] | null = null;
  for (const { target, seen, problem } of s.entries) {
    if (target.what === "hooks") {
      const hooks = seen?.hooks ?? {};
      const foreign = foreignHooks(s.own, hooks);
      const missing = events.filter((e) => !hooks[e]);
      if (foreign.length > 0) {
        out.push(
          fail(`${label} hooks`, `${target.path}: ${NOT_OURS} (${foreign.join(", ")})`, install),
        );
      }
      const why = problem ||
        (missing.length > 0 ? `${target.path}: no rgraph hook for ${missing.join(", ")}` : "");
      if (why) out.push(fail(`${label} hooks`, why, install));
      else if (foreign.length === 0) {
        out.push(ok(`${label} hooks`, `${events.join(", ")} in ${target.path}`));
        probeArgv = s.own.probe;
      }
      const everyTool = seen?.everyTool ?? [];
      if (everyTool.length > 0) {
        out.push(
          warn(
            `${label} hooks`,
            `hook runs on every tool: reinstall (${target.path}: ${everyTool.join(", ")})`,
            install,
          ),
        );
      }
      if (hooks[events[0]]) installed.push(shellSplit(hooks[events[0]]!));
    } else if (target.what === "plugin") {
      if (problem || !seen?.server) {
        out.push(
          fail(`${label} plugin`, problem || `${target.path}: not rgraph's plugin`, install),
        );
        continue;
      }
      installed.push(seen.server);
      probeArgv = provenPlugin(s.own, Deno.readTextFileSync(target.path));
      out.push(
        probeArgv === null
          ? fail(`${label} plugin`, `${target.path}: ${NOT_OURS}`, install)
          : ok(`${label} plugin`, target.path),
      );
    } else if (target.what === "mcp") {
      if (problem || !seen?.server) {
        out.push(
          fail(`${label} MCP server`, problem || `${target.path}: no rgraph server`, install),
        );
      } else {
        installed.push(seen.server);
        serverArgv = provenServer(s.own, seen.server);
        if (serverArgv === null) {
          out.push(fail(`${label} MCP server`, `${target.path}: ${NOT_OURS}`, install));
        }
      }
      if (harness === "codex" && !problem) {
        const off = codexHooksOff(Deno.readTextFileSync(target.path));
        if (off) {
          out.push(
            fail(
              `${label} hooks enabled`,
              `${target.path} sets [features] ${off} = false`,
              `set ${off} = true in ${target.path}`,
            ),
          );
        }
      }
    }
  }
  if (installed.length > 0) out.push(configCheck(label, installed, install));
  if (probeArgv !== null) {
    const bundle = bundleCheck(label, s.own, install);
    if (bundle) out.push(bundle);
  }
  // A project's commands run only where the harness itself would run them.
  const trust = s.scope === "project" ? folderTrust(harness, s.dir) : null;
  if (trust && !trust.trusted && (probeArgv !== null || serverArgv !== null)) {
    out.push(
      warn(
        `${label} probes`,
        `not run: ${trust.detail}, and doctor runs a project's commands only where the harness would`,
        trust.fix,
      ),
    );
  } else {
    if (probeArgv !== null) out.push(await probe(label, harness, probeArgv, options, install));
    if (serverArgv !== null) {
      out.push(await mcpCheck(label, harness, serverArgv, options, install));
    }
  }
  const hooks = s.entries.find((e) => e.target.what === "hooks");
  const trustLine = hooks &&
    await trustCheck({ harness, scope: s.scope, dir: s.dir, hooksPath: hooks.target.path, label });
  if (trustLine) out.push(trustLine);
  return out;
}

/**
 * The checks of rgraph installed as the harness's plugin: enabled or not,
 * then, when enabled, the same hook probe and MCP check as an install gets.
 */
async function pluginChecks(p: PluginInstall, options: DoctorOptions): Promise<Check[]> {
  const label = `${p.harness} plugin ${p.id}`;
  const where = `version ${p.version}, ${p.scope} scope, in ${p.root}`;
  if (!p.enabled) {
    return [warn(label, `installed but disabled (${where})`, `enable ${p.id} in ${p.harness}`)];
  }
  const reinstall = `reinstall ${p.id} in ${p.harness}`;
  // Runs only what the harness itself installed, in its own plugin folder (never a project's).
  if (!p.managed) {
    return [
      warn(label, `enabled, from ${p.root} (not run: outside ${p.harness}'s plugin folder)`, ""),
    ];
  }
  // Code every hook of the plugin runs (its bundle): another user who may write it runs as you,
  // and the probe would run it too.
  const bundle = pluginBundleDir(p.root);
  const open = writableByOthers(bundle);
  if (open !== null) {
    return [
      fail(
        label,
        `${open.path} is writable by group or others (mode ${
          octal(open.mode)
        }): every hook of the plugin runs the code in ${bundle}; not run`,
        `chmod -R go-w ${shellQuote(bundle)}`,
      ),
    ];
  }
  const trust = p.harness === "codex"
    ? await trustCheck({
      harness: p.harness,
      scope: "user",
      dir: options.dir,
      plugin: p.id,
      label,
    })
    : null;
  return [
    ok(label, `enabled (${where})`),
    ...(trust ? [trust] : []),
    await probe(label, p.harness, pluginArgv(p, "hook"), options, reinstall),
    await mcpCheck(label, p.harness, pluginArgv(p, "serve-mcp"), options, reinstall),
  ];
}

/**
 * Whether the installed commands name the config file this doctor reads:
 * harnesses that pass their children no environment (Codex; Gemini CLI under
 * CI) leave a command that names none with the default config, or none.
 */
function configCheck(label: string, commands: string[][], install: string): Check {
  const name = `${label} config file`;
  const want = configPath();
  const named = commands.map(configNamed);
  if (named.some((c) => c === null)) {
    return fail(
      name,
      "the installed commands do not name the config file, and Codex and Gemini CLI (under CI) pass them no RGRAPH_CONFIG or XDG_* variables",
      install,
    );
  }
  const other = named.find((c) => c !== want);
  return other === undefined ? ok(name, `every installed command names ${want}`) : fail(
    name,
    `the installed commands name ${other}, but this doctor reads ${want}`,
    `${install} (or run 'rgraph --config ${shellQuote(other!)} doctor')`,
  );
}

/** The state of the hook bundle a hook command runs, or null when it runs none. */
function bundleCheck(label: string, own: OwnEntries, install: string): Check | null {
  const entry = own.bundleEntry;
  if (entry === null) return null;
  const dir = entry.slice(0, entry.lastIndexOf("/"));
  const name = `${label} hook bundle`;
  const manifest = exists(entry) ? readBundleManifest(dir) : null;
  if (manifest === null) {
    return fail(name, `${dir} has no hook bundle: hooks run the normal, slower command`, install);
  }
  return bundleIsCurrent(manifest) ? ok(name, `${dir} (current)`) : fail(
    name,
    `${dir} is stale (rgraph changed since it was built): hooks hand every call to the normal, slower command`,
    install,
  );
}

/** The feature key that switches Codex's hooks off in this config.toml, if any. */
function codexHooksOff(text: string): string | null {
  try {
    const features = parseToml(text).features as Record<string, unknown> | undefined;
    return ["hooks", "codex_hooks"].find((k) => features?.[k] === false) ?? null;
  } catch {
    return null;
  }
}

/**
 * `argv` with its program as an absolute path (a bare name, as `--command
 * rgraph` writes, looked up in PATH's absolute entries only), or why not.
 */
function startable(argv: string[]): string[] | string {
  const program = absoluteProgram(argv[0], harnessEnv().PATH ?? "");
  return program === null
    ? `${argv[0]} is in no absolute PATH directory: not run`
    : [program, ...argv.slice(1)];
}

/** Replays a session start through rgraph's own hook command, as the harness would start it. */
async function probe(
  label: string,
  harness: HarnessId,
  command: string[],
  options: DoctorOptions,
  install: string,
): Promise<Check> {
  const name = `${label} hook probe`;
  const wantsJson = adapterFor(harness)?.renderSessionHint("x") !== null;
  const argv = startable(command);
  if (typeof argv === "string") return fail(name, argv, install);
  const res = await runChild(argv, {
    cwd: options.dir,
    env: harnessEnv(),
    stdin: JSON.stringify(probePayload(harness, options.dir)),
    timeoutMs: options.timeoutMs ?? 20_000,
  });
  const stdout = res.stdout.trim();
  const stderr = res.stderr.trim().split("\n")[0];
  if (res.error !== null) return fail(name, res.error, install);
  if (res.timedOut) return fail(name, "the hook did not answer in time", install);
  if (res.code !== 0) {
    return fail(
      name,
      `exit ${res.code}${stderr ? `: ${stderr}` : ""}`,
      `${install} (the installed command fails)`,
    );
  }
  if (stdout === "") {
    return wantsJson
      ? fail(name, "no session hint printed", "run the hook by hand and read <data_dir>/hook.log")
      : ok(name, "exit 0, no output (as expected)");
  }
  try {
    JSON.parse(stdout);
    return ok(name, "exit 0, valid JSON answer");
  } catch {
    return fail(
      name,
      `output is not JSON: ${stdout.slice(0, 60)}`,
      "a harness would misread it: report this as a bug",
    );
  }
}

/**
 * Starts the registered MCP server and asks for its tools. A server that
 * exits at start says why on stderr: that line is the detail, and unless the
 * command itself is missing or broken the fix is the server's own, since
 * reinstalling would register the same command again.
 */
async function mcpCheck(
  label: string,
  harness: HarnessId,
  server: string[],
  options: DoctorOptions,
  install: string,
): Promise<Check> {
  const name = `${label} MCP server`;
  const argv = startable(server);
  if (typeof argv === "string") return fail(name, argv, install);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "rgraph-doctor", version: "1" });
  const transport = new StdioClientTransport({
    command: argv[0],
    args: argv.slice(1),
    env: harnessEnv(),
    cwd: options.dir,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr);
  const limit = options.timeoutMs ?? 20_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const listed = await Promise.race([
      client.connect(transport).then(() => client.listTools()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${limit / 1000} s`)), limit);
      }),
    ]);
    const names = listed.tools.map((t: { name: string }) => t.name);
    return names.includes("resource")
      ? ok(name, `${argv[0]} … ${argv.at(-1)} answers tools/list (${names.join(", ")})`)
      : fail(
        name,
        `tools/list has no 'resource' tool (${names.join(", ") || "none"})`,
        "reinstall rgraph",
      );
  } catch (e) {
    const said = stripAnsi(await stderr.first(1_000));
    const own = rgraphMessage(said);
    if (own !== null) return fail(name, said, fixIn(own));
    return fail(
      name,
      `${argv[0]}: ${said || firstLine(e)}`,
      `${install} (the registered ${harness} server does not start)`,
    );
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

/** Gathers a child's stderr (its first few KB) while it runs. */
function collect(stream: { on(event: string, f: (x?: unknown) => void): unknown } | null) {
  let text = "";
  const ended = new Promise<void>((resolve) => {
    if (stream === null) return resolve();
    stream.on("data", (chunk) => {
      if (text.length < 4096) text += new TextDecoder().decode(chunk as Uint8Array);
    });
    stream.on("end", () => resolve());
    stream.on("error", () => resolve());
  });
  return {
    /** The first non-empty line, once the stream ended or `waitMs` passed. */
    async first(waitMs: number): Promise<string> {
      let t: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ended, new Promise((r) => t = setTimeout(r, waitMs))]);
      clearTimeout(t);
      return text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
    },
  };
}

/**
 * The message of rgraph's own one-line error (`rgraph serve-mcp: …`), which
 * means the registered command ran; null for anything else (a missing
 * entry module, a crash).
 */
export function rgraphMessage(line: string): string | null {
  const m = /^rgraph serve-mcp: (.+)$/.exec(line);
  return m && !m[1].startsWith("internal error") ? m[1] : null;
}

/**
 * The instruction in an rgraph error message (`no identity configured: set
 * [identity] user_id in F` → `set [identity] user_id in F`), else a pointer
 * to the checks that name the same problem with their own fix.
 *
 * @example
 * ```ts
 * fixIn("no identity configured: set [identity] user_id in /c.toml"); // "set [identity] user_id in /c.toml"
 * ```
 */
export function fixIn(message: string): string {
  const m = /(?:^|: )((?:set|add|make|fix|start|create|remove|replace|upgrade|run) .*)$/.exec(
    message,
  );
  return m
    ? m[1]
    : "fix what the server reports (the config file and store checks say how); reinstalling would not help";
}
