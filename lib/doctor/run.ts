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
 * import { runChecks } from "./run.ts";
 * const checks = await runChecks({ dir: Deno.cwd(), online: false });
 * checks.every((c) => c.ok);
 * ```
 * @module
 */

import { type Config, configPath, loadConfig } from "../config/mod.ts";
import { HARNESS_IDS } from "../install/mod.ts";
import { firstLine } from "../errors.ts";
import { type Check, type DoctorOptions, fail, ok, warn } from "./check.ts";
import { storeChecks, tokenCheck } from "./store.ts";
import { harnessChecks } from "./harness.ts";
import { pausedUntil, pauseState } from "../capture/mod.ts";
import { sweepCheck } from "./sweep.ts";
import { privacyChecks } from "./private.ts";

export { type Check, type DoctorOptions, formatChecks } from "./check.ts";

/**
 * Whether hooks record now, and what the capture policy keeps out. A pause
 * or an exclusion is a choice, so this line is information, never a failure.
 */
function captureCheck(config: Config): Check {
  const p = config.capture;
  const kept = [
    p.exclude_paths.length ? `paths ${p.exclude_paths.join(", ")}` : "",
    p.exclude_harnesses.length ? `harnesses ${p.exclude_harnesses.join(", ")}` : "",
    p.exclude_tools.length ? `tools ${p.exclude_tools.join(", ")}` : "",
    p.prompts ? "" : "prompts",
  ].filter((x) => x !== "");
  const paused = pausedUntil(pauseState(config.data_dir));
  const state = paused === null ? "recording" : `${paused}: hooks record nothing`;
  return ok("capture", kept.length ? `${state}; excluded: ${kept.join("; ")}` : state);
}

/**
 * No harness runs rgraph (no install in the home or the project, no plugin):
 * everything else may pass while nothing is ever recorded, so it is said,
 * with the command that wires one.
 */
function noHarness(dir: string): Check {
  return warn(
    "harnesses",
    `no harness runs rgraph (none wired for your user or in ${dir}): nothing is recorded`,
    `wire one: rgraph install claude-code --scope user (or ${
      HARNESS_IDS.filter((h) => h !== "claude-code").join(", ")
    }; see 'rgraph help install'), or install rgraph's plugin for your harness`,
  );
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
        `run 'rgraph install <harness>' (or start rgraph's harness plugin), which creates it; ` +
          `or create ${file} with [identity] user_id = "<you>"`,
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
    checks.push(captureCheck(config));
    checks.push(...privacyChecks(config));
    const store = await storeChecks(config);
    checks.push(...store.checks);
    checks.push(await tokenCheck(config, options.online));
    const sweeps = sweepCheck(config, store.stats);
    if (sweeps) checks.push(sweeps);
  }
  let wired = 0;
  for (const harness of HARNESS_IDS) {
    const found = await harnessChecks(harness, options);
    checks.push(...found.checks);
    if (found.wired) wired++;
  }
  if (wired === 0) checks.push(noHarness(options.dir));
  return checks;
}
