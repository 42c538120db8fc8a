/**
 * `rgraph doctor`: checks the whole setup, one {@link Check} per line with a
 * fix for each failure — the config file, identity, store, GitHub token, and
 * for every harness configured in the project directory or the home: its
 * hooks, a probe payload replayed through the installed hook command, and the
 * MCP server answering `tools/list`.
 *
 * The probe is a session start: it exercises the installed command and the
 * harness's output format without recording a Touch.
 *
 * @example
 * ```ts
 * import { runChecks } from "./doctor.ts";
 * const checks = await runChecks({ dir: Deno.cwd(), online: false });
 * checks.every((c) => c.ok);
 * ```
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { type Config, configPath, loadConfig } from "../config.ts";
import { adapterFor } from "../capture/mod.ts";
import { SCHEMA_VERSION } from "../store/mod.ts";
import { HOOK_EVENTS, type Target } from "./harnesses.ts";
import {
  contextFor,
  exists,
  HARNESS_IDS,
  type HarnessId,
  resolvedTargets,
  type Scope,
} from "./install.ts";
import { shellQuote } from "./command.ts";
import { parseToml } from "./toml_edit.ts";

/** One line of the report. */
export interface Check {
  check: string;
  ok: boolean;
  detail: string;
  /** What to do about a failure; empty when ok. */
  fix: string;
}

/** What to check. */
export interface DoctorOptions {
  /** The project directory whose harness configs are checked (the home's always are). */
  dir: string;
  /** Also ask GitHub whether the token is valid. */
  online: boolean;
  /** How long a probe or MCP server may take. */
  timeoutMs?: number;
}

// Built from the code point: a control character in a regex literal trips the linter.
const ANSI = new RegExp(`${String.fromCharCode(27)}(\\[[0-9;?]*[ -/]*[@-~]|[@-Z\\\\-_])`, "g");

/** Text without terminal escapes: a child's colours would garble the report and its JSON. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

const ok = (check: string, detail: string): Check => ({
  check,
  ok: true,
  detail: stripAnsi(detail),
  fix: "",
});
const fail = (check: string, detail: string, fix: string): Check => ({
  check,
  ok: false,
  detail: stripAnsi(detail),
  fix: stripAnsi(fix),
});

/** What a child process of the doctor gets besides the inherited environment: no colours. */
const CHILD_ENV = { NO_COLOR: "1" };

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

function megabytes(bytes: number | null): string {
  return bytes === null ? "size unknown" : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Runs every check; never throws. */
export async function runChecks(options: DoctorOptions): Promise<Check[]> {
  const checks: Check[] = [];
  const file = configPath();
  let config: Config | null = null;
  try {
    config = loadConfig(file);
    checks.push(
      config.exists ? ok("config file", `${file} (readable)`) : fail(
        "config file",
        `${file} does not exist`,
        `create ${file} with [identity] user_id = "<you>"`,
      ),
    );
  } catch (e) {
    checks.push(
      fail(
        "config file",
        firstLine(e),
        `fix ${file} (it is TOML; see the README's config section)`,
      ),
    );
  }
  if (config) {
    checks.push(
      config.identity.user_id ? ok("identity", `user_id = ${config.identity.user_id}`) : fail(
        "identity",
        "no user_id: Touches cannot be recorded or read",
        `add [identity] user_id = "<you>" to ${config.file}`,
      ),
    );
    checks.push(...await storeChecks(config));
    checks.push(await tokenCheck(config, options.online));
  }
  for (const harness of HARNESS_IDS) checks.push(...await harnessChecks(harness, options));
  return checks;
}

async function storeChecks(config: Config): Promise<Check[]> {
  const out: Check[] = [];
  if (config.store.url === null) {
    const version = schemaOnDisk(config.store.path);
    if (version !== null && version > SCHEMA_VERSION) {
      return [
        fail(
          "store schema",
          `${config.store.path} has schema v${version}, newer than this rgraph (v${SCHEMA_VERSION})`,
          "upgrade rgraph",
        ),
      ];
    }
  }
  try {
    const { openStore } = await import("../store/mod.ts");
    const store = await openStore(config);
    try {
      const m = await store.memoryStats();
      const where = config.store.url ?? config.store.path;
      const resources = Object.values(m.resources).reduce((a, b) => a + b, 0);
      out.push(
        ok(
          "store",
          `${where} (${store.kind}; ${resources} resources, ${m.comments} comments; ${
            megabytes(m.size_bytes)
          })`,
        ),
      );
      if (store.kind === "sqlite") out.push(ok("store schema", `v${SCHEMA_VERSION} (current)`));
    } finally {
      await store.close();
    }
  } catch (e) {
    const where = config.store.url ?? config.store.path;
    out.push(
      fail(
        "store",
        `${where}: ${firstLine(e)}`,
        config.store.url
          ? `start the graph store at ${config.store.url} or fix [store] url/user/password in ${config.file}`
          : `make ${where} writable or set [store] path in ${config.file}`,
      ),
    );
  }
  return out;
}

/** The `user_version` of an existing database file, without changing it. */
function schemaOnDisk(path: string): number | null {
  try {
    Deno.statSync(path);
  } catch {
    return null;
  }
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

async function tokenCheck(config: Config, online: boolean): Promise<Check> {
  const token = config.github.token;
  if (!token) {
    // Not a failure: the sweep works without one, within GitHub's anonymous limit.
    return ok(
      "github token",
      `none: the sweep uses anonymous REST (60 requests an hour); add [github] token to ${config.file} for 5,000`,
    );
  }
  if (!online) return ok("github token", "present (not checked; --online asks GitHub)");
  try {
    const res = await fetch(config.github.graphql_url, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "query { viewer { login } }" }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = await res.json().catch(() => null) as
      | { data?: { viewer?: { login?: string } } }
      | null;
    const login = body?.data?.viewer?.login;
    if (res.ok && login) return ok("github token", `valid (GitHub login ${login})`);
    return fail(
      "github token",
      `rejected by ${config.github.graphql_url} (HTTP ${res.status})`,
      `replace [github] token in ${config.file} with a valid token`,
    );
  } catch (e) {
    return fail(
      "github token",
      `cannot reach ${config.github.graphql_url}: ${firstLine(e)}`,
      "check the network or [github] graphql_url",
    );
  }
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
  dir: string;
  /** Some file of the harness exists here. */
  configured: boolean;
  /** Some rgraph entry exists here. */
  installed: boolean;
  entries: { target: Target; seen: Seen | null; problem: string }[];
}

type Seen = ReturnType<Target["inspect"]>;

function survey(harness: HarnessId, scope: Scope, dir: string): Survey {
  const ctx = contextFor({ scope, dir });
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
    dir: ctx.scope === "project" ? ctx.dir : ctx.home,
    configured,
    installed,
    entries,
  };
}

/**
 * The checks of one harness: every scope rgraph is installed in; when it is in
 * none but the project has the harness's config, one failure saying so.
 */
async function harnessChecks(harness: HarnessId, options: DoctorOptions): Promise<Check[]> {
  const surveys = (["project", "user"] as Scope[]).map((scope) =>
    survey(harness, scope, options.dir)
  );
  const installed = surveys.filter((s) => s.installed);
  if (installed.length === 0) {
    const project = surveys[0];
    return project.configured
      ? [
        fail(
          `${harness}`,
          `configured in ${project.dir} without rgraph`,
          `rgraph install ${harness} --dir ${shellQuote(project.dir)}`,
        ),
      ]
      : [];
  }
  const out: Check[] = [];
  for (const s of installed) out.push(...await scopeChecks(harness, s, options));
  return out;
}

async function scopeChecks(
  harness: HarnessId,
  s: Survey,
  options: DoctorOptions,
): Promise<Check[]> {
  const label = `${harness} (${s.scope})`;
  const install = `rgraph install ${harness}${
    s.scope === "user" ? " --scope user" : ` --dir ${shellQuote(s.dir)}`
  }`;
  const events = harness === "opencode" ? [] : HOOK_EVENTS[harness];
  const out: Check[] = [];
  let sessionCommand: string | null = null;
  let serverArgv: string[] | null = null;
  for (const { target, seen, problem } of s.entries) {
    if (target.what === "hooks") {
      const missing = events.filter((e) => !seen?.hooks?.[e]);
      const why = problem ||
        (missing.length > 0 ? `${target.path}: no rgraph hook for ${missing.join(", ")}` : "");
      if (why) out.push(fail(`${label} hooks`, why, install));
      else {
        out.push(ok(`${label} hooks`, `${events.join(", ")} in ${target.path}`));
        sessionCommand = seen!.hooks![events[0]];
      }
    } else if (target.what === "plugin") {
      if (problem || !seen?.server) {
        out.push(
          fail(`${label} plugin`, problem || `${target.path}: not rgraph's plugin`, install),
        );
      } else {
        out.push(ok(`${label} plugin`, target.path));
        sessionCommand = [...seen.server, "hook", "opencode"].map(shellQuote).join(" ");
      }
    } else if (target.what === "mcp") {
      if (problem || !seen?.server) {
        out.push(
          fail(`${label} MCP server`, problem || `${target.path}: no rgraph server`, install),
        );
      } else serverArgv = seen.server;
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
  if (sessionCommand !== null) {
    out.push(await probe(label, harness, sessionCommand, options, install));
  }
  if (serverArgv !== null) out.push(await mcpCheck(label, harness, serverArgv, options, install));
  return out;
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

/** Replays a session start through the installed hook command, as the harness's shell would. */
async function probe(
  label: string,
  harness: HarnessId,
  command: string,
  options: DoctorOptions,
  install: string,
): Promise<Check> {
  const name = `${label} hook probe`;
  const wantsJson = adapterFor(harness)?.renderSessionHint("x") !== null;
  try {
    const child = new Deno.Command("sh", {
      args: ["-c", command],
      cwd: options.dir,
      env: CHILD_ENV,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(JSON.stringify(probePayload(harness, options.dir))))
      .catch(() => {});
    await w.close().catch(() => {});
    const res = await child.output();
    clearTimeout(timer);
    const stdout = new TextDecoder().decode(res.stdout).trim();
    const stderr = new TextDecoder().decode(res.stderr).trim().split("\n")[0];
    if (res.signal === "SIGKILL") return fail(name, "the hook did not answer in time", install);
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
  } catch (e) {
    return fail(name, firstLine(e), install);
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
  argv: string[],
  options: DoctorOptions,
  install: string,
): Promise<Check> {
  const name = `${label} MCP server`;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "rgraph-doctor", version: "1" });
  const transport = new StdioClientTransport({
    command: argv[0],
    args: argv.slice(1),
    env: { ...Deno.env.toObject(), ...CHILD_ENV },
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

/** The report as lines: `✓`/`✗` on a colour terminal, `ok`/`FAIL` otherwise. */
export function formatChecks(checks: Check[], fancy: boolean): string {
  return checks.map((c) => {
    const mark = fancy ? (c.ok ? "\x1b[32m✓\x1b[0m" : "\x1b[31m✗\x1b[0m") : c.ok ? "ok  " : "FAIL";
    return `${mark} ${c.check}: ${c.detail}${c.ok ? "" : ` — fix: ${c.fix}`}`;
  }).join("\n");
}
