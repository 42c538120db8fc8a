/**
 * `rgraph plugin-start [--build] [--bundle-dir DIR]`: what rgraph's harness plugins run at
 * every session start (`plugin/rgraph.sh`), never typed by a user: the
 * config on the first run, and the hook bundle built or refreshed in the
 * background (`--build` is that background process), in `DIR` (by default
 * the plugin's `dist/hook-bundle`). Prints nothing and exits 0 whatever
 * happens; problems go to `hook.log`. `--help` prints help and does nothing
 * else (it used to write the config and build a bundle).
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { defaultDataDir } from "../lib/config/paths/mod.ts";
import { logHookProblem } from "../lib/capture/mod.ts";
import { pluginBuild, pluginBundleDir, pluginStart } from "../lib/install/mod.ts";

const SPEC = {
  name: "plugin-start",
  summary:
    "A harness plugin's session-start work: the first config, and the hook bundle built in the " +
    "background (run by rgraph's plugins, not by hand; always exits 0)",
  usage: "rgraph plugin-start [--build] [--bundle-dir DIR]",
  options: {
    build: { type: "boolean", help: "build the hook bundle in this process (the background part)" },
    "bundle-dir": {
      type: "string",
      arg: "DIR",
      help: "where the bundle goes (default: the plugin's dist/hook-bundle)",
    },
  },
  examples: [
    {
      does: "what plugin/rgraph.sh runs at every session start",
      run: "rgraph plugin-start --bundle-dir ~/.local/share/rgraph/hook-bundle/codex-plugin",
    },
  ],
} as const;

/** Runs `rgraph plugin-start ARGS`; always 0. */
export async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
  try {
    const parsed = parseCommand(SPEC, args);
    if (parsed === null) return 0;
    const dir = parsed.values["bundle-dir"] || pluginBundleDir(root);
    if (parsed.values.build) await pluginBuild(root, dir);
    else pluginStart(root, dir);
  } catch (e) {
    logHookProblem(defaultDataDir(), "plugin", e);
  }
  return 0;
}
