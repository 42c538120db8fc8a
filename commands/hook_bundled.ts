/**
 * The hook's entry point in the bundle `rgraph install` builds for speed
 * (`<data dir>/hook-bundle/<checkout>/hook_bundled.js`, run with
 * `--no-config --no-lock` and read, write, env and run permissions only):
 * the same `rgraph hook`, without deno.json, the lockfile or a module graph to
 * resolve on every tool call. Not a command of its own: main.ts never loads
 * it.
 *
 * Before anything else it gives up the network, then checks the manifest
 * beside it: when a source file changed since the bundle was built, the
 * normal command (`deno run … main.ts …`) gets the call, with this process's
 * standard input, output and error, so a stale bundle never runs old code.
 * Otherwise it gives up `run` too and runs the hook.
 *
 * @module
 */

import {
  bundleIsCurrent,
  logHookProblem,
  readBundleManifest,
  useConfigParser,
} from "../lib/capture/mod.ts";
import { defaultDataDir } from "../lib/config/paths/mod.ts";
import { revokeNetwork, standalone } from "./hook.ts";

/** Hands the call to the normal command; 0 whatever it does (a hook always exits 0). */
async function fallBack(argv: string[]): Promise<number> {
  try {
    await new Deno.Command(argv[0], {
      args: [...argv.slice(1), ...Deno.args],
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
  } catch (e) {
    logHookProblem(defaultDataDir(), "", `the hook bundle is stale and ${argv[0]} failed: ${e}`);
  }
  return 0;
}

/** Runs the bundled hook, or the normal one when the bundle is stale. */
async function bundled(): Promise<number> {
  revokeNetwork();
  const manifest = readBundleManifest(decodeURIComponent(new URL("./", import.meta.url).pathname));
  if (manifest !== null && !bundleIsCurrent(manifest)) return await fallBack(manifest.fallback);
  try {
    Deno.permissions.revokeSync({ name: "run" });
  } catch {
    // No permissions API: nothing granted that could be revoked.
  }
  // A literal import, so the bundler puts config.ts and its TOML parser in a chunk of their own,
  // loaded only when the config file changed.
  useConfigParser(() => import("../lib/config/mod.ts"));
  return await standalone(Deno.args);
}

if (import.meta.main) Deno.exit(await bundled());
