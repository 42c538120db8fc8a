/**
 * Plugin installs of rgraph that a harness records, for `rgraph doctor`:
 * which harness, the plugin's id and version, where its files are, and
 * whether the harness has it enabled. Reads the harness's own registries;
 * changes nothing.
 *
 * | harness | registry | enabled |
 * |---|---|---|
 * | claude-code | `~/.claude/plugins/installed_plugins.json` (`plugins["rgraph@<marketplace>"]`) | `enabledPlugins` in `~/.claude/settings.json`, then the project's `.claude/settings.json` |
 * | copilot | `~/.copilot/settings.json`: a local marketplace (`extraKnownMarketplaces[<m>].source.path`, loaded live from that checkout) whose plugin `rgraph@<m>` is recorded | `enabledPlugins["rgraph@<m>"]` in the same file |
 * | opencode | `plugin` entries of `~/.config/opencode/opencode.json[c]` (user), `.opencode/opencode.json[c]` and `opencode.json[c]` (project) naming a folder whose `package.json` is rgraph's | always: OpenCode loads every plugin its config names |
 * | codex | `$CODEX_HOME/config.toml` (`~/.codex`): a `[plugins."rgraph@<m>"]` table, the plugin copied into `plugins/cache/<m>/rgraph/<version>/` | that table's `enabled` |
 * | gemini | `~/.gemini/extensions/rgraph/` (`.gemini-extension-install.json` names a linked folder) | `~/.gemini/extensions/extension-enablement.json`: the last of `rgraph.overrides` (`[!]<dir>/*`) matching the project |
 *
 * @example
 * ```ts
 * import { pluginInstalls } from "./plugin.ts";
 * pluginInstalls("claude-code", { home: "/home/me", dir: "/repo" });
 * // [{ harness: "claude-code", id: "rgraph@rgraph", version: "0.1.0", scope: "user", root: "…", enabled: true, managed: true }]
 * ```
 * @module
 */

import type { HarnessId } from "../install/mod.ts";
import { parseJsonc, toValue } from "../install/formats/mod.ts";
import { parseToml } from "../install/formats/mod.ts";

/** rgraph installed as a harness's plugin. */
export interface PluginInstall {
  harness: HarnessId;
  /** The harness's name for it (`rgraph@rgraph`). */
  id: string;
  version: string;
  scope: string;
  /** The plugin's installed folder. */
  root: string;
  /** The plugin's `plugin/rgraph.sh`, which runs every hook and the MCP server. */
  launcher: string;
  enabled: boolean;
  /** The folder is inside the harness's own plugin folder (what it copied there itself). */
  managed: boolean;
}

type Json = Record<string, unknown>;

function readJson(path: string): Json | null {
  try {
    const v = JSON.parse(Deno.readTextFileSync(path));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** `enabledPlugins[id]` in a Claude Code settings file, or undefined when it says nothing. */
function claudeEnabled(path: string, id: string): boolean | undefined {
  const plugins = readJson(path)?.enabledPlugins;
  const v = typeof plugins === "object" && plugins !== null ? (plugins as Json)[id] : undefined;
  return typeof v === "boolean" ? v : undefined;
}

function claudeInstalls(home: string, dir: string): PluginInstall[] {
  const plugins = readJson(`${home}/.claude/plugins/installed_plugins.json`)?.plugins;
  if (typeof plugins !== "object" || plugins === null) return [];
  return Object.entries(plugins as Json).flatMap(([id, list]) => {
    if (!id.startsWith("rgraph@") || !Array.isArray(list)) return [];
    // The project's settings win over the user's, as in Claude Code.
    const enabled = claudeEnabled(`${dir}/.claude/settings.json`, id) ??
      claudeEnabled(`${home}/.claude/settings.json`, id) ?? false;
    return list.flatMap((e: Json) =>
      typeof e?.installPath === "string"
        ? [{
          harness: "claude-code" as const,
          id,
          version: String(e.version ?? "?"),
          scope: String(e.scope ?? "user"),
          root: e.installPath,
          launcher: `${e.installPath}/plugin/rgraph.sh`,
          enabled,
          managed: e.installPath.startsWith(`${home}/.claude/plugins/`),
        }]
        : []
    );
  });
}

/**
 * rgraph as a Codex plugin: `codex plugin add rgraph@<m>` records a
 * `[plugins."rgraph@<m>"]` table in Codex's config and copies the plugin
 * into its cache, one folder per version.
 */
function codexInstalls(home: string): PluginInstall[] {
  const codexHome = Deno.env.get("CODEX_HOME") || `${home}/.codex`;
  let plugins: unknown;
  try {
    plugins = parseToml(Deno.readTextFileSync(`${codexHome}/config.toml`)).plugins;
  } catch {
    return [];
  }
  if (typeof plugins !== "object" || plugins === null) return [];
  return Object.entries(plugins as Json).flatMap(([id, table]) => {
    if (!id.startsWith("rgraph@")) return [];
    const market = id.slice("rgraph@".length);
    const base = `${codexHome}/plugins/cache/${market}/rgraph`;
    let versions: string[];
    try {
      versions = [...Deno.readDirSync(base)].filter((e) => e.isDirectory).map((e) => e.name);
    } catch {
      return [];
    }
    return versions.flatMap((v) => {
      const root = `${base}/${v}`;
      const manifest = readJson(`${root}/.codex-plugin/plugin.json`);
      if (manifest?.name !== "rgraph") return [];
      return [{
        harness: "codex" as const,
        id,
        version: String(manifest.version ?? v),
        scope: "user",
        root,
        launcher: `${root}/plugin/rgraph.sh`,
        enabled: (table as Json | null)?.enabled !== false,
        managed: true,
      }];
    });
  });
}

/**
 * Whether Gemini CLI enables an extension in `dir`: its overrides are
 * `<path>/*` (enabled under it) or `!<path>/*` (disabled); the last that
 * matches decides, and none means enabled.
 */
function geminiEnabled(overrides: unknown, dir: string): boolean {
  let enabled = true;
  for (const o of Array.isArray(overrides) ? overrides : []) {
    if (typeof o !== "string") continue;
    const off = o.startsWith("!");
    const pattern = off ? o.slice(1) : o;
    const base = pattern.endsWith("/*") ? pattern.slice(0, -2) : pattern;
    if (dir === base || dir.startsWith(`${base}/`)) enabled = !off;
  }
  return enabled;
}

function geminiInstalls(home: string, dir: string): PluginInstall[] {
  const installed = `${home}/.gemini/extensions/rgraph`;
  // `gemini extensions link` leaves only this record, naming the linked folder.
  const record = readJson(`${installed}/.gemini-extension-install.json`);
  const root = record?.type === "link" && typeof record.source === "string"
    ? record.source
    : installed;
  const manifest = readJson(`${root}/gemini-extension.json`);
  if (manifest === null) return [];
  const enablement = readJson(`${home}/.gemini/extensions/extension-enablement.json`);
  const entry = enablement?.rgraph as Json | undefined;
  return [{
    harness: "gemini",
    id: "rgraph",
    version: String(manifest.version ?? "?"),
    scope: "user",
    root,
    // The extension is plugin/gemini of a checkout: the launcher is beside it.
    launcher: `${root.slice(0, root.lastIndexOf("/"))}/rgraph.sh`,
    enabled: geminiEnabled(entry?.overrides, dir),
    managed: true,
  }];
}

function readJsonc(path: string): Json | null {
  try {
    const v = toValue(parseJsonc(Deno.readTextFileSync(path), true));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : null;
  } catch {
    return null;
  }
}

/**
 * rgraph from a checkout added as a Copilot CLI marketplace: Copilot loads a
 * local marketplace's plugins live from its folder (nothing copied), and
 * keeps `enabledPlugins["rgraph@<marketplace>"]` (false after an uninstall).
 */
function copilotInstalls(home: string): PluginInstall[] {
  const settings = readJson(`${home}/.copilot/settings.json`);
  const markets = settings?.extraKnownMarketplaces;
  const enabled = settings?.enabledPlugins as Json | undefined;
  if (typeof markets !== "object" || markets === null) return [];
  return Object.entries(markets as Json).flatMap(([name, m]) => {
    const source = (m as Json | null)?.source as Json | undefined;
    const id = `rgraph@${name}`;
    if (source?.source !== "directory" || typeof source.path !== "string") return [];
    if (enabled?.[id] === undefined) return [];
    const root = source.path.replace(/\/+$/, "");
    const manifest = readJson(`${root}/.github/plugin/plugin.json`);
    if (manifest?.name !== "rgraph") return [];
    return [{
      harness: "copilot" as const,
      id,
      version: String(manifest.version ?? "?"),
      scope: "user",
      root,
      launcher: `${root}/plugin/rgraph.sh`,
      enabled: enabled[id] === true,
      managed: true,
    }];
  });
}

/**
 * rgraph's OpenCode plugin package (plugin/opencode of a checkout) named in
 * an OpenCode config's `plugin` list, as `opencode plugin <folder>` writes it
 * (a path, or a `file://` URL).
 */
function opencodeInstalls(home: string, dir: string): PluginInstall[] {
  const configs: { folder: string; scope: string }[] = [
    { folder: `${home}/.config/opencode`, scope: "user" },
    { folder: `${dir}/.opencode`, scope: "project" },
    { folder: dir, scope: "project" },
  ];
  return configs.flatMap(({ folder, scope }) =>
    ["opencode.json", "opencode.jsonc"].flatMap((name) => {
      const list = readJsonc(`${folder}/${name}`)?.plugin;
      return (Array.isArray(list) ? list : []).flatMap((entry: unknown) => {
        const spec = Array.isArray(entry) ? entry[0] : entry;
        if (typeof spec !== "string") return [];
        const path = spec.startsWith("file://") ? decodeURI(spec.slice(7)) : spec;
        if (!path.startsWith("/")) return [];
        const root = path.replace(/\/+$/, "");
        const manifest = readJson(`${root}/package.json`);
        if (manifest?.name !== "rgraph") return [];
        return [{
          harness: "opencode" as const,
          id: "rgraph",
          version: String(manifest.version ?? "?"),
          scope,
          root,
          // The package is plugin/opencode of a checkout: the launcher is beside it.
          launcher: `${root.slice(0, root.lastIndexOf("/"))}/rgraph.sh`,
          enabled: true,
          // A project's config naming a folder is the project's choice, not the user's: never run.
          managed: scope === "user",
        }];
      });
    })
  );
}

/** The plugin installs of rgraph `harness` records (none where rgraph has no plugin for it). */
export function pluginInstalls(
  harness: HarnessId,
  where: { home: string; dir: string },
): PluginInstall[] {
  if (harness === "claude-code") return claudeInstalls(where.home, where.dir);
  if (harness === "gemini") return geminiInstalls(where.home, where.dir);
  if (harness === "opencode") return opencodeInstalls(where.home, where.dir);
  if (harness === "copilot") return copilotInstalls(where.home);
  if (harness === "codex") return codexInstalls(where.home);
  return [];
}

/** The command a plugin runs for `what` (`hook`, `serve-mcp`), as its manifests write it. */
export function pluginArgv(p: PluginInstall, what: "hook" | "serve-mcp"): string[] {
  const argv = ["sh", p.launcher, p.harness, what];
  // Copilot's payloads do not name their event: its manifest passes it, as for a session start here.
  return p.harness === "copilot" && what === "hook" ? [...argv, "--event", "sessionStart"] : argv;
}
