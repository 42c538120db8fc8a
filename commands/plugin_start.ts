/**
 * `rgraph plugin-start [--build]`: what rgraph's harness plugins run at
 * every session start (`plugin/rgraph.sh`), never typed by a user: the
 * config on the first run, and the hook bundle built or refreshed in the
 * background (`--build` is that background process). Prints nothing and
 * exits 0 whatever happens; problems go to `hook.log`.
 *
 * @module
 */

import { defaultDataDir } from "../lib/config_path.ts";
import { logHookProblem } from "../lib/capture/mod.ts";
import { pluginBuild, pluginStart } from "../lib/setup/mod.ts";

/** Runs `rgraph plugin-start ARGS`; always 0. */
export async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
  try {
    if (args.includes("--build")) await pluginBuild(root);
    else await pluginStart(root);
  } catch (e) {
    logHookProblem(defaultDataDir(), "plugin", e);
  }
  return 0;
}
