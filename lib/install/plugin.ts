/**
 * rgraph as a harness's plugin (Claude Code, Codex, Copilot CLI, Gemini CLI
 * extension, OpenCode): the first-run work a plugin session does, so a
 * plugin install needs nothing typed after it. `plugin/rgraph.sh` runs
 * `rgraph plugin-start` at every session start: it writes the config when
 * there is none (identity from the login name, as `rgraph install` does; the
 * plugin's `rgraph serve-mcp --plugin` does too, since a harness may start its
 * MCP server first),
 * and when the plugin's hook bundle is missing or stale it starts
 * `rgraph plugin-start --build` in a process of its own, which builds it
 * and fills the Deno caches; the session does not wait for either.
 *
 * The bundle lives inside the plugin's own folder (`dist/hook-bundle/`), so
 * uninstalling the plugin through the harness takes it away too; but Codex
 * trusts a plugin's hooks by a fingerprint of every file in that folder, so
 * its bundle lives in rgraph's data folder. `plugin/rgraph.sh` chooses and
 * passes the folder.
 *
 * @example
 * ```ts
 * import { pluginBundleDir } from "./plugin.ts";
 * pluginBundleDir("/home/me/.claude/plugins/cache/rgraph/rgraph/0.1.0");
 * // "/home/me/.claude/plugins/cache/rgraph/rgraph/0.1.0/dist/hook-bundle"
 * ```
 * @module
 */

import { bundleIsCurrent, readBundleManifest } from "../capture/mod.ts";
import { DENO_FLAGS } from "./command.ts";
import { buildHookBundle, BUNDLE_ENTRY, cacheDependencies } from "./hook_bundle.ts";
import { writeFirstConfig } from "./install.ts";

/** The plugin's hook bundle folder (what `plugin/rgraph.sh` runs when its entry exists). */
export function pluginBundleDir(root: string): string {
  return `${root}/dist/hook-bundle`;
}

/** Whether the plugin's bundle in `dir` is there and built from the sources as they are. */
function bundleReady(dir: string): boolean {
  try {
    Deno.statSync(`${dir}/${BUNDLE_ENTRY}`);
  } catch {
    return false;
  }
  const manifest = readBundleManifest(dir);
  return manifest !== null && bundleIsCurrent(manifest);
}

/** The normal command of this checkout (what a stale bundle hands calls to). */
function normalArgv(root: string): string[] {
  return [Deno.execPath(), "run", ...DENO_FLAGS, `${root}/main.ts`];
}

/**
 * The session-start work: the config when there is none, then the build of
 * the bundle in `dir` started in the background when it is needed.
 */
export function pluginStart(root: string, dir: string): void {
  writeFirstConfig();
  if (!bundleReady(dir)) {
    const [command, ...args] = normalArgv(root);
    new Deno.Command(command, {
      args: [...args, "plugin-start", "--build", "--bundle-dir", dir],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn().unref();
  }
}

/** The background part: builds the bundle in `dir` (when stale) and caches every command's dependencies. */
export async function pluginBuild(root: string, dir: string): Promise<void> {
  const deno = Deno.execPath();
  await buildHookBundle({
    deno,
    checkout: root,
    dir,
    fallback: normalArgv(root),
  });
  await cacheDependencies({ deno, checkout: root });
}
