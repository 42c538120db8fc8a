/**
 * Install: wiring rgraph into each harness — the plan of file changes for one harness and its
 * application (`install`/`uninstall`), the command lines harnesses run, the hook bundle, and a
 * plugin's first-run work. May import config, host, capture and the format editors; never doctor.
 *
 * - `install.ts` — plans every file change for one harness (`harnesses.ts` says what each
 *   harness needs; `formats/` edits config text in place), then applies it;
 * - `command.ts` — the command line harnesses run for rgraph (every one names the config file);
 * - `dispatch.ts` — which tool calls reach the hook: each harness's matcher, and the `sh` gate in
 *   front of a tool hook that starts Deno only for a call that can read GitHub;
 * - `own.ts` — which entries of a harness file are rgraph's;
 * - `hook_bundle.ts` — the hook bundle install builds for speed;
 * - `plugin.ts` — rgraph as a harness's plugin: a session's first-run work.
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
// What doctor compares against: the targets a plan resolves to, and how rgraph's own entries are
// recognised among a harness's.
export { contextFor, exists, resolvedTargets } from "./install.ts";
export { HOOK_EVENTS, type Target } from "./harnesses.ts";
export { configNamed, isRgraphHook } from "./command.ts";
export {
  foreignHooks,
  NOT_OURS,
  type OwnEntries,
  ownEntries,
  provenPlugin,
  provenServer,
} from "./own.ts";
