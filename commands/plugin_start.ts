/**
 * `rgraph plugin-start [--build] [--bundle-dir DIR]`: what rgraph's harness plugins run at
 * every session start (`plugin/rgraph.sh`), never typed by a user: the
 * config on the first run, and the hook bundle built or refreshed in the
 * background (`--build` is that background process), in `DIR` (by default
 * the plugin's `dist/hook-bundle`). Prints nothing and
 * exits 0 whatever happens; problems go to `hook.log`.
 *
 * @module
 */

import { defaultDataDir } from "../lib/config/paths/mod.ts";
import { logHookProblem } from "../lib/capture/mod.ts";
import { pluginBuild, pluginBundleDir, pluginStart } from "../lib/install/mod.ts";

/** Runs `rgraph plugin-start ARGS`; always 0. */
export async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
  const at = args.indexOf("--bundle-dir");
  const dir = at >= 0 && args[at + 1] ? args[at + 1] : pluginBundleDir(root);
  try {
    if (args.includes("--build")) await pluginBuild(root, dir);
    else pluginStart(root, dir);
  } catch (e) {
    logHookProblem(defaultDataDir(), "plugin", e);
  }
  return 0;
}
