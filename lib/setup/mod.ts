/**
 * Setup: wiring rgraph into the harnesses and checking that it works.
 * - `install.ts` — `rgraph install`/`uninstall`: plans every file change for
 *   one harness (`harnesses.ts` says what each harness needs; `jsonc.ts`,
 *   `json_edit.ts` and `toml_edit.ts` edit config text in place so formatting
 *   and comments survive), then applies it;
 * - `command.ts` — the command line harnesses run for rgraph (every one names
 *   the config file);
 * - `hook_bundle.ts` — the hook bundle install builds for speed;
 * - `plugin.ts` — rgraph as a harness's plugin: a session's first-run work
 *   (`doctor_plugin.ts` finds the plugin installs harnesses record);
 * - `doctor.ts` — `rgraph doctor`'s checks, each with its fix (store in
 *   `doctor_store.ts`, automatic Sweeps in `doctor_sweep.ts`, harnesses in
 *   `doctor_harness.ts`, trust in `doctor_trust.ts`, versions in
 *   `doctor_version.ts`, child processes through `child.ts`);
 * - `stats.ts` — `rgraph stats`: what memory saved you;
 * - `touches.ts` — how `rgraph touches` (and `forget --dry-run`) show Touches;
 * - `forget.ts` — `rgraph forget`: Touches, notes and log lines taken back.
 *
 * @example
 * ```ts
 * import { applyPlan, makePlan } from "./mod.ts";
 * const plan = makePlan("install", "claude-code", { scope: "project", dir: "/repo" });
 * await applyPlan(plan); // writes .claude/settings.json and .mcp.json
 * ```
 * @module
 */

export {
  applyPlan,
  type Change,
  HARNESS_IDS,
  type HarnessId,
  makePlan,
  type Plan,
  planDiff,
  type PlanOptions,
  relative,
  type Scope,
  writeFirstConfig,
} from "./install.ts";
export { DENO_FLAGS } from "./command.ts";
export { pluginBuild, pluginBundleDir, pluginStart } from "./plugin.ts";
export { type Check, type DoctorOptions, formatChecks, runChecks } from "./doctor.ts";
export { formatStats, type StatsReport, statsReport } from "./stats.ts";
export { statusText, touchJson, TouchJsonPages, touchTable, TouchTablePages } from "./touches.ts";
export { forget, forgetJson, type ForgetReport, formatForget } from "./forget.ts";
