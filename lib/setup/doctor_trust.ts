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
 * @module
 */

import type { HarnessId, Scope } from "./harnesses.ts";
import { isRgraphHook } from "./command.ts";
import { parseJsonc, toValue } from "./jsonc.ts";
import { parseToml } from "./toml_edit.ts";
import { firstLine } from "../errors.ts";
import { type Check, fail, ok } from "./check.ts";
import { onPath } from "./child.ts";

/** Where one installed harness's trust is checked. */
export interface TrustTarget {
  harness: HarnessId;
  scope: Scope;
  /** The project directory (or the home, for user scope). */
  dir: string;
  /** The hooks file rgraph wrote. */
  hooksPath: string;
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

/** `projects."<dir>".trust_level` in Codex's own config. */
function codexProjectTrust(codexHome: string, dir: string): string | null {
  try {
    const doc = parseToml(Deno.readTextFileSync(`${codexHome}/config.toml`));
    const level = record(record(doc.projects)[dir]).trust_level;
    return typeof level === "string" ? level : null;
  } catch {
    return null;
  }
}

async function codexTrust(t: TrustTarget): Promise<Check> {
  const name = `${t.label} trust`;
  const codexHome = env("CODEX_HOME") ?? `${home()}/.codex`;
  const trustProject =
    `trust the project when Codex asks (or add [projects."${t.dir}"] trust_level = "trusted" to ${codexHome}/config.toml)`;
  const trustHooks = `run codex in ${t.dir}, open /hooks and trust rgraph's hooks`;
  const codex = onPath("codex");
  if (codex === null) {
    // Without Codex to ask, only the project's trust can be read; each hook's trust is a hash only
    // Codex computes.
    if (t.scope === "project" && codexProjectTrust(codexHome, t.dir) !== "trusted") {
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
  const untrusted = ours.filter((h) => h.trustStatus !== "trusted");
  return untrusted.length === 0 ? ok(name, `Codex trusts rgraph's ${ours.length} hooks`) : fail(
    name,
    `Codex skips untrusted hooks silently, and rgraph's are not trusted (${
      untrusted.map((h) => `${h.eventName}: ${h.trustStatus}`).join(", ")
    })`,
    trustHooks,
  );
}

// --- Copilot CLI -----------------------------------------------------------

function copilotTrust(t: TrustTarget): Check {
  const name = `${t.label} trust`;
  const file = `${env("COPILOT_HOME") ?? `${home()}/.copilot`}/config.json`;
  const folders = record(readJson(file)).trustedFolders;
  const dir = real(t.dir);
  const trusted = Array.isArray(folders) &&
    folders.some((f) => typeof f === "string" && within(real(f), dir));
  return trusted ? ok(name, `${t.dir} is a trusted folder (${file})`) : fail(
    name,
    `Copilot CLI loads ${t.dir}/.github/hooks and .github/mcp.json only in a trusted folder, and skips them silently otherwise`,
    `add ${
      JSON.stringify(t.dir)
    } to "trustedFolders" in ${file} (or trust the folder for future sessions when Copilot asks)`,
  );
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

function geminiTrust(t: TrustTarget): Check {
  const name = `${t.label} trust`;
  const geminiDir = `${env("GEMINI_CLI_HOME") ?? home()}/.gemini`;
  if (env("GEMINI_CLI_TRUST_WORKSPACE") === "true") {
    return ok(name, "GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder");
  }
  const settings = record(readJson(`${geminiDir}/settings.json`));
  if (record(record(settings.security).folderTrust).enabled === false) {
    return ok(name, "folder trust is off (security.folderTrust.enabled = false)");
  }
  const file = env("GEMINI_CLI_TRUSTED_FOLDERS_PATH") ?? `${geminiDir}/trustedFolders.json`;
  const trusted = geminiRule(record(readJson(file)), real(t.dir));
  return trusted === true ? ok(name, `${t.dir} is a trusted folder (${file})`) : fail(
    name,
    `Gemini CLI applies ${t.dir}/.gemini/settings.json (rgraph's hooks and MCP server) only in a trusted folder: headless runs exit 55, interactive ones leave it out`,
    `add ${
      JSON.stringify(t.dir)
    }: "TRUST_FOLDER" to ${file} (or trust the folder when Gemini asks)`,
  );
}
