/**
 * Capture: the first stage of rgraph's loop. A harness hook hands rgraph one
 * payload per tool call or prompt; capture turns it into private Touches of
 * the Addresses it names (never using the network), notes calls of rgraph's
 * own `resource` tool for the MCP server to claim, and renders the session
 * hint and the Nudge in each harness's format — unless capture is paused
 * (`pause.ts`) or the capture policy keeps the event out (`policy.ts`).
 *
 * Everything here may run inside `rgraph hook`, on every tool call: no npm
 * package, MCP SDK, octokit or Bolt driver is imported, and SQLite loads
 * only when a payload names something on GitHub.
 *
 * @example
 * ```ts
 * import { runHook } from "./mod.ts";
 * const out = await runHook("claude-code", JSON.stringify(payload), {});
 * if (out !== null) console.log(out);
 * ```
 * @module
 */

export { type HookOptions, logHookProblem, runHook } from "./hook.ts";
export * from "./harness/mod.ts";
export { isMemoryRead, type TouchContext, touchesFor } from "./touch.ts";
export { readGitRemote } from "./git_remote.ts";
export {
  claimMemoryRead,
  forgetMemoryReads,
  type MemoryReadNote,
  type MemoryReadQuery,
  memoryReadsDir,
} from "./memory_reads.ts";
export { nudgeText, sessionHint, withoutOwnText } from "./nudge.ts";
export { useConfigParser } from "./hook_config.ts";
export {
  BUNDLE_MANIFEST,
  type BundledSource,
  bundleIsCurrent,
  type HookBundleManifest,
  readBundleManifest,
  sourceNow,
} from "./hook_bundle.ts";
export {
  pauseCapture,
  pausedUntil,
  pauseFilePath,
  pauseLine,
  type PauseState,
  pauseState,
  resumeCapture,
} from "./pause.ts";
export { type CaptureSite, capturing, type Exclusion, exclusion, visiblePrompt } from "./policy.ts";
