/**
 * `rgraph doctor`'s check of the trust a harness wants before it runs what
 * `rgraph install` wrote into a project — the silent skips the real runs
 * showed (tests/harness/), each with the one step that fixes it:
 *
 * | harness | skipped until | how doctor knows |
 * |---|---|---|
 * | Codex | the project is trusted (else `.codex/` is not read) and each hook is trusted (`/hooks`; a changed command needs it again) | `codex app-server` `hooks/list` (each hook's `trustStatus`), else `projects."<dir>".trust_level` in `$CODEX_HOME/config.toml` |
 * | Copilot CLI | the folder is trusted: `trustedFolders` in `$COPILOT_HOME/config.json` (else `.github/hooks` and `.github/mcp.json` are skipped, exit 0) | that list |
 * | Gemini CLI | the folder is trusted in `~/.gemini/trustedFolders.json` (else headless runs exit 55) | that file, with Gemini's longest-rule match |
 *
 * {@link folderTrust} is the same knowledge as a yes or no for every harness,
 * which decides whether doctor may run a project's commands at all: only
 * where the harness itself would run them —
 *
 * | harness | a project folder is trusted when |
 * |---|---|
 * | Claude Code | `projects["<dir or a folder above>"].hasTrustDialogAccepted` is true in `$CLAUDE_CONFIG_DIR/.claude.json` (else `~/.claude.json`) |
 * | Codex | `[projects."<dir>"] trust_level = "trusted"` in `$CODEX_HOME/config.toml` |
 * | Copilot CLI | `trustedFolders` in `$COPILOT_HOME/config.json` holds it or a folder above |
 * | Gemini CLI | its trusted-folders rules say so (or folder trust is off) |
 * | Grok Build | `[folders."<dir>"] trusted = true` in `$GROK_HOME/trusted_folders.toml` (what `/hooks-trust` writes) |
 * | Cursor | never: doctor cannot read Cursor's trust |
 * | OpenCode | always: it loads a project's plugins and `opencode.json` without asking |
 *
 * @module
 */

import { type HarnessId, isRgraphHook, type Scope } from "../install/mod.ts";
import { parseJsonc, toValue } from "../install/formats/mod.ts";
import { parseToml } from "../install/formats/mod.ts";
import { firstLine } from "../errors.ts";
import { type Check, fail, ok } from "./check.ts";
import { which } from "../host/mod.ts";

/** Where one installed harness's trust is checked. */
export interface TrustTarget {
  harness: HarnessId;
  scope: Scope;
  /** The project directory (or the home, for user scope). */
  dir: string;
  /** The hooks file rgraph wrote; for rgraph as a plugin, none and the plugin's id. */
  hooksPath?: string;
  plugin?: string;
  /** The check's label, `codex (project)`. */
  label: string;
}

function env(name: string): string | undefined {
  return Deno.env.get(name) || undefined;
}

function home(): string {
  return env("HOME") ?? "/";
}

/** `path` with symlinks resolved, as the harnesses compare folders; as given when it does not exist. */
function real(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** Whether `child` is `parent` or inside it. */
function within(parent: string, child: string): boolean {
  const p = parent.replace(/\/+$/, "") || "/";
  return child === p || child.startsWith(p === "/" ? "/" : `${p}/`);
}

function readJson(path: string): unknown {
  try {
    return toValue(parseJsonc(Deno.readTextFileSync(path), true));
  } catch {
    return null;
  }
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {};

/** The trust check of one installed harness, or null where the harness asks for none. */
export async function trustCheck(t: TrustTarget): Promise<Check | null> {
  if (t.harness === "codex") return await codexTrust(t);
  if (t.scope !== "project") return null;
  if (t.harness === "copilot") return copilotTrust(t);
  if (t.harness === "gemini") return geminiTrust(t);
  return null;
}

// --- Codex ---------------------------------------------------------------

/** One hook as `codex app-server` lists it. */
interface CodexHook {
  command?: string;
  sourcePath?: string;
  /** `plugin` for a plugin's hooks, named by `pluginId`. */
  source?: string;
  pluginId?: string;
  eventName?: string;
  trustStatus?: string;
}

/**
 * The hooks Codex would run in `dir`, as its app-server lists them (what its
 * `/hooks` screen shows), or why it could not say.
 */
async function codexHooks(codex: string, dir: string): Promise<CodexHook[] | string> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(codex, {
      args: ["app-server"],
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
  } catch (e) {
    return firstLine(e);
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const requests = [
    {
      method: "initialize",
      id: 1,
      params: {
        clientInfo: { name: "rgraph-doctor", title: null, version: "1" },
        capabilities: null,
      },
    },
    { method: "initialized" },
    { method: "hooks/list", id: 2, params: { cwds: [dir] } },
  ];
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    // It answers only while its input is open: the three requests go at once, stdin stays open.
    await writer.write(
      new TextEncoder().encode(requests.map((r) => JSON.stringify(r)).join("\n") + "\n"),
    );
    let buffer = "";
    for (;;) {
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message?.id !== 2) continue;
        if (message.error) return `hooks/list: ${JSON.stringify(message.error).slice(0, 200)}`;
        const data = message.result?.data;
        return Array.isArray(data)
          ? data.flatMap((d) => Array.isArray(d?.hooks) ? d.hooks : [])
          : [];
      }
      const { value, done } = await reader.read();
      if (done) return "codex app-server closed before answering hooks/list";
      buffer += value;
    }
  } catch (e) {
    return firstLine(e);
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL");
    } catch {
      // gone
    }
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await child.status;
  }
}

function codexProjectFix(codexHome: string, dir: string): string {
  return `trust the project when Codex asks (or add [projects."${dir}"] trust_level = "trusted" to ${codexHome}/config.toml)`;
}

async function codexTrust(t: TrustTarget): Promise<Check> {
  const name = `${t.label} trust`;
  const codexHome = env("CODEX_HOME") ?? `${home()}/.codex`;
  const trustProject = codexProjectFix(codexHome, t.dir);
  const trustHooks = `run codex in ${t.dir}, open /hooks and trust rgraph's hooks`;
  if (t.plugin !== undefined) return await codexPluginTrust(t, name, trustHooks);
  const codex = which("codex");
  if (codex === null) {
    // Without Codex to ask, only the project's trust can be read; each hook's trust is a hash only
    // Codex computes.
    if (t.scope === "project" && !folderTrust("codex", t.dir).trusted) {
      return fail(
        name,
        `Codex reads ${t.dir}/.codex/ only in a trusted project, and it is not one: it skips rgraph's hooks and MCP server silently`,
        trustProject,
      );
    }
    return ok(name, "hook trust not checked: codex is not on PATH");
  }
  const listed = await codexHooks(codex, t.dir);
  if (typeof listed === "string") {
    return fail(name, `could not ask Codex which hooks it trusts: ${listed}`, trustHooks);
  }
  const ours = listed.filter((h) =>
    h.sourcePath === t.hooksPath && isRgraphHook(h.command, "codex")
  );
  if (ours.length === 0) {
    return t.scope === "project"
      ? fail(
        name,
        `Codex lists none of rgraph's hooks: it reads ${t.dir}/.codex/ only in a trusted project, and skips it silently otherwise`,
        trustProject,
      )
      : fail(name, `Codex lists none of rgraph's hooks in ${t.hooksPath}`, trustHooks);
  }
  return untrustedCheck(name, ours, trustHooks);
}

/**
 * Codex trusts a plugin's hooks as it trusts any others (`/hooks`), by a
 * fingerprint of every file in the plugin's folder too: a changed plugin shows
 * `modified`, and Codex skips its hooks silently.
 */
async function codexPluginTrust(t: TrustTarget, name: string, fix: string): Promise<Check> {
  const codex = which("codex");
  if (codex === null) return ok(name, "hook trust not checked: codex is not on PATH");
  const listed = await codexHooks(codex, t.dir);
  if (typeof listed === "string") {
    return fail(name, `could not ask Codex which hooks it trusts: ${listed}`, fix);
  }
  const ours = listed.filter((h) => h.source === "plugin" && h.pluginId === t.plugin);
  if (ours.length === 0) {
    return fail(
      name,
      `Codex lists none of the ${t.plugin} plugin's hooks`,
      `reinstall ${t.plugin} in codex`,
    );
  }
  return untrustedCheck(name, ours, fix);
}

/** ok when Codex trusts every hook in `ours`, else a failure listing each one's status. */
function untrustedCheck(name: string, ours: CodexHook[], fix: string): Check {
  const untrusted = ours.filter((h) => h.trustStatus !== "trusted");
  return untrusted.length === 0 ? ok(name, `Codex trusts rgraph's ${ours.length} hooks`) : fail(
    name,
    `Codex skips untrusted hooks silently, and rgraph's are not trusted (${
      untrusted.map((h) => `${h.eventName}: ${h.trustStatus}`).join(", ")
    })`,
    fix,
  );
}

// --- Copilot CLI -----------------------------------------------------------

function copilotTrusted(dir: string): { trusted: boolean; file: string } {
  const file = `${env("COPILOT_HOME") ?? `${home()}/.copilot`}/config.json`;
  const folders = record(readJson(file)).trustedFolders;
  const real_ = real(dir);
  const trusted = Array.isArray(folders) &&
    folders.some((f) => typeof f === "string" && within(real(f), real_));
  return { trusted, file };
}

function copilotTrust(t: TrustTarget): Check {
  const name = `${t.label} trust`;
  const { trusted, file } = copilotTrusted(t.dir);
  return trusted ? ok(name, `${t.dir} is a trusted folder (${file})`) : fail(
    name,
    `Copilot CLI loads ${t.dir}/.github/hooks and .github/mcp.json only in a trusted folder, and skips them silently otherwise`,
    copilotFix(t.dir, file),
  );
}

function copilotFix(dir: string, file: string): string {
  return `add ${
    JSON.stringify(dir)
  } to "trustedFolders" in ${file} (or trust the folder for future sessions when Copilot asks)`;
}

// --- Gemini CLI -------------------------------------------------------------

/** Gemini CLI's verdict on `dir` from its trusted-folders rules: the longest matching rule wins. */
function geminiRule(rules: Record<string, unknown>, dir: string): boolean | null {
  let best = -1;
  let verdict: boolean | null = null;
  for (const [path, level] of Object.entries(rules)) {
    // TRUST_PARENT trusts the folder the rule names the parent of.
    const applies = level === "TRUST_PARENT" ? path.slice(0, path.lastIndexOf("/")) || "/" : path;
    if (!within(real(applies), dir) || path.length <= best) continue;
    best = path.length;
    verdict = level === "DO_NOT_TRUST"
      ? false
      : level === "TRUST_FOLDER" || level === "TRUST_PARENT"
      ? true
      : null;
  }
  return verdict;
}

/** Gemini CLI's verdict on `dir`: true when it applies the folder's settings. */
function geminiTrusted(dir: string): { trusted: boolean; file: string; why: string } {
  const geminiDir = `${env("GEMINI_CLI_HOME") ?? home()}/.gemini`;
  const file = env("GEMINI_CLI_TRUSTED_FOLDERS_PATH") ?? `${geminiDir}/trustedFolders.json`;
  if (env("GEMINI_CLI_TRUST_WORKSPACE") === "true") {
    return { trusted: true, file, why: "GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder" };
  }
  const settings = record(readJson(`${geminiDir}/settings.json`));
  if (record(record(settings.security).folderTrust).enabled === false) {
    return {
      trusted: true,
      file,
      why: "folder trust is off (security.folderTrust.enabled = false)",
    };
  }
  const trusted = geminiRule(record(readJson(file)), real(dir)) === true;
  return { trusted, file, why: `${dir} is a trusted folder (${file})` };
}

function geminiFix(dir: string, file: string): string {
  return `add ${
    JSON.stringify(dir)
  }: "TRUST_FOLDER" to ${file} (or trust the folder when Gemini asks)`;
}

function geminiTrust(t: TrustTarget): Check {
  const name = `${t.label} trust`;
  const { trusted, file, why } = geminiTrusted(t.dir);
  return trusted ? ok(name, why) : fail(
    name,
    `Gemini CLI applies ${t.dir}/.gemini/settings.json (rgraph's hooks and MCP server) only in a trusted folder: headless runs exit 55, interactive ones leave it out`,
    geminiFix(t.dir, file),
  );
}

// --- every harness -----------------------------------------------------------

/** Whether a harness runs what a project folder configures, and how to make it. */
export interface FolderTrust {
  trusted: boolean;
  /** Why not (or what says so), for the report. */
  detail: string;
  /** The step that trusts the folder, when it is not trusted. */
  fix: string;
}

/** `path` and every folder above it, each as given and with symlinks resolved. */
function selfAndAbove(path: string): string[] {
  const out = new Set<string>();
  for (let p of [path, real(path)]) {
    for (;;) {
      out.add(p);
      const up = p.slice(0, p.lastIndexOf("/")) || "/";
      if (up === p) break;
      p = up;
    }
  }
  return [...out];
}

function readToml(path: string): Record<string, unknown> {
  try {
    return parseToml(Deno.readTextFileSync(path));
  } catch {
    return {};
  }
}

/**
 * Whether `harness` trusts the project folder `dir` as its own records say —
 * doctor runs a project's commands only then, as the harness would.
 *
 * @example
 * ```ts
 * folderTrust("cursor", "/repo"); // { trusted: false, … }: Cursor's trust cannot be read
 * ```
 */
export function folderTrust(harness: HarnessId, dir: string): FolderTrust {
  const yes = (detail: string): FolderTrust => ({ trusted: true, detail, fix: "" });
  const no = (detail: string, fix: string): FolderTrust => ({ trusted: false, detail, fix });
  switch (harness) {
    case "claude-code": {
      const file = `${env("CLAUDE_CONFIG_DIR") ?? home()}/.claude.json`;
      const projects = record(record(readJson(file)).projects);
      const at = selfAndAbove(dir).find((p) => record(projects[p]).hasTrustDialogAccepted === true);
      return at !== undefined ? yes(`Claude Code trusts ${at} (${file})`) : no(
        `Claude Code has not been trusted in ${dir}`,
        `start claude in ${dir} and accept the trust dialog (it records projects[${
          JSON.stringify(dir)
        }].hasTrustDialogAccepted in ${file})`,
      );
    }
    case "codex": {
      const codexHome = env("CODEX_HOME") ?? `${home()}/.codex`;
      const projects = record(readToml(`${codexHome}/config.toml`).projects);
      return [dir, real(dir)].some((p) => record(projects[p]).trust_level === "trusted")
        ? yes(`Codex trusts ${dir}`)
        : no(`Codex does not trust ${dir}`, codexProjectFix(codexHome, dir));
    }
    case "copilot": {
      const { trusted, file } = copilotTrusted(dir);
      return trusted
        ? yes(`${dir} is a trusted folder (${file})`)
        : no(`Copilot CLI does not trust ${dir}`, copilotFix(dir, file));
    }
    case "gemini": {
      const { trusted, file, why } = geminiTrusted(dir);
      return trusted ? yes(why) : no(`Gemini CLI does not trust ${dir}`, geminiFix(dir, file));
    }
    case "grok": {
      const file = `${env("GROK_HOME") ?? `${home()}/.grok`}/trusted_folders.toml`;
      const folders = record(readToml(file).folders);
      return [dir, real(dir)].some((p) => record(folders[p]).trusted === true)
        ? yes(`Grok Build trusts ${dir} (${file})`)
        : no(
          `Grok Build does not trust ${dir}`,
          `run /hooks-trust in Grok Build in ${dir} (or start it there with --trust)`,
        );
    }
    case "cursor":
      return no(
        "Cursor keeps its trust of a folder where doctor cannot read it",
        "check rgraph in Cursor itself; a user-scope install (rgraph install cursor --scope user) is probed",
      );
    case "opencode":
      return yes("OpenCode loads a project's plugins and opencode.json without asking");
  }
}
