/**
 * What `rgraph hook` does with one payload: parse it with the harness's
 * adapter, record a private Touch for every GitHub read or pasted link it
 * names, and return what the harness should print (the session hint at
 * session start, a Nudge before a fetch of something in memory), or `null`.
 * While capture is paused (`pause.ts`), or when the capture policy
 * (`policy.ts`) excludes the event, nothing is recorded, noted or nudged;
 * the session hint is still given.
 *
 * Rules a harness depends on: nothing here throws and nothing here prints;
 * every problem goes to `<data_dir>/hook.log`, one line each. The command
 * (`commands/hook.ts`) gives up the network permission before calling this.
 *
 * This module's import graph stays small (no MCP SDK, octokit or Bolt
 * driver, and no npm package at all: config values come through
 * `hook_config.ts`, which loads the TOML parser only when the file changed;
 * SQLite loads only when a payload names something on GitHub): it runs on
 * every tool call.
 *
 * @example
 * ```ts
 * import { runHook } from "./hook.ts";
 * const payload = JSON.stringify({ hook_event_name: "SessionStart", session_id: "s1" });
 * const out = await runHook("claude-code", payload, {});
 * // '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"rgraph: …"}}'
 * ```
 * @module
 */

import type { Address, NewTouch } from "../types.ts";
import { defaultDataDir, privateDataDir } from "../config/paths/mod.ts";
import { appendPrivateFile } from "../host/mod.ts";
import { addressesFromPrompt, addressesFromToolCall, type ParseContext } from "../address/mod.ts";
import { type HookConfig, loadHookConfig } from "./hook_config.ts";
import {
  adapterFor,
  HARNESS_NAMES,
  type HarnessAdapter,
  type ToolStartEvent,
  type UserPromptEvent,
} from "./harness/mod.ts";
import { readGitRemote } from "./git_remote.ts";
import { isMemoryRead, touchesFor } from "./touch.ts";
import { nudgeText, sessionHint, withoutOwnText } from "./nudge.ts";
import { memoryReadsDir, noteMemoryRead } from "./memory_reads.ts";
import { exclusion, visiblePrompt } from "./policy.ts";
import { pauseState } from "./pause.ts";
import { neutralizeLine } from "../untrusted.ts";

/** How the hook was called, beyond the harness name. */
export interface HookOptions {
  /** The event name, for payloads that do not carry one (Copilot CLI). */
  event?: string;
  /** rgraph runs as the harness's plugin (`--plugin`): the hint names the tool as the plugin's. */
  plugin?: boolean;
}

/**
 * How long one statement of the hook waits for another process's lock on the
 * store. Harnesses kill a hook after 5 s (rgraph installs that timeout); two
 * such waits (recording, then the Nudge's read) stay under a second, and a
 * hook's own write holds the lock for a few milliseconds, so dozens of hooks
 * at once never come near it.
 */
const HOOK_BUSY_TIMEOUT_MS = 450;

/**
 * The longest write-ahead log (bytes) the hook leaves behind. Closing the
 * store's last connection checkpoints the log into the database (two
 * fsyncs) and deletes it and its index (`-wal`, `-shm`), and the next hook
 * re-creates both (one more fsync, of the folder): four fsyncs and two
 * unlinks per Touch. So the hook exits without closing (its process ends
 * with `Deno.exit`), which keeps the log: a commit then costs no fsync (WAL
 * with `synchronous = NORMAL`) and is in the log, so a killed hook or
 * harness loses nothing; a power loss or OS crash can lose the Touches
 * recorded since the log was last folded in (at most this many bytes:
 * about fourteen Touches). The next process to open the store rebuilds the
 * log's index by reading all of it, and a log left this way is never
 * restarted (each opener's rebuilt index knows nothing of the last
 * checkpoint), so once the log is this long the hook closes the store,
 * which folds it in and removes it.
 */
const HOOK_WAL_BYTES = 512 * 1024;

/** Whether the store at `path` has a write-ahead log longer than {@link HOOK_WAL_BYTES}. */
function longLog(path: string): boolean {
  try {
    return Deno.statSync(`${path}-wal`).size > HOOK_WAL_BYTES;
  } catch {
    return false; // no log: nothing to fold in
  }
}

/** Which Touches, of what session: for a log line. */
function which(touches: NewTouch[]): string {
  const shown = touches.slice(0, 3).map((t) => t.address.slice(0, 120)).join(", ");
  const more = touches.length > 3 ? ` and ${touches.length - 3} more` : "";
  const count = `${touches.length} Touch${touches.length === 1 ? "" : "es"}`;
  return `${count} (${shown}${more}; session ${touches[0].session_id ?? "-"})`;
}

function why(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** The log line for Touches neither the store nor the spool could take. */
function lostTouches(touches: NewTouch[], cause: unknown): string {
  return `lost ${which(touches)}, not recorded: ${why(cause)}`;
}

/** The log line for Touches kept in the spool because the store could not take them. */
function keptTouches(touches: NewTouch[], spool: string, cause: unknown): string {
  return `kept ${which(touches)} in ${spool} until the store can take them: ${why(cause)}`;
}

/**
 * Appends one line per problem to `<dataDir>/hook.log`; never throws. A data
 * directory or log that is not private (another user's, writable by others,
 * a planted link) gets nothing.
 */
export function logHookProblem(dataDir: string, harness: string, problem: unknown): void {
  const text = problem instanceof Error ? problem.message : String(problem);
  const line = neutralizeLine(text.split("\n")[0].slice(0, 500));
  try {
    privateDataDir(dataDir);
    appendPrivateFile(
      `${dataDir}/hook.log`,
      `${new Date().toISOString()} ${neutralizeLine(harness || "-")}: ${line}\n`,
    );
  } catch {
    // Nowhere to log: staying silent is the rule.
  }
}

function repoOfCwd(cwd: string): { owner: string; repo: string } | null {
  try {
    return readGitRemote(cwd);
  } catch {
    return null;
  }
}

function addressesOf(event: UserPromptEvent | ToolStartEvent, config: HookConfig): Address[] {
  const ctx: ParseContext = {
    cwd: event.cwd,
    githubLogin: config.identity.github_login,
    repoOfCwd,
  };
  return event.type === "user_prompt"
    ? addressesFromPrompt(withoutOwnText(event.prompt), ctx)
    : addressesFromToolCall({ tool: event.tool_name, input: event.tool_input }, ctx);
}

/**
 * A call of rgraph's own `resource` tool: no Touch (the server records the
 * Cache Read), only a note of this call's session and tool-call id for the
 * server to claim, so the Cache Read is tied to them.
 */
function noteResourceCall(event: ToolStartEvent, adapter: HarnessAdapter, config: HookConfig) {
  const userId = config.identity.user_id;
  const input = event.tool_input as { address?: unknown; search?: unknown } | null;
  // A search is noted under its query (the server claims it the same way: see lib/serve/mcp.ts).
  const asked = typeof input?.address === "string"
    ? input.address
    : typeof input?.search === "string"
    ? `search:${input.search}`
    : null;
  if (!userId || asked === null) return;
  noteMemoryRead(memoryReadsDir(config.data_dir), {
    user_id: userId,
    session_id: event.session_id,
    tool_use_id: event.tool_use_id,
    agent_id: event.agent_id,
    harness: adapter.name,
    address: asked.trim(),
    noted_at: new Date().toISOString(),
  });
}

/**
 * The event as capture may see it, or `null` when the capture policy keeps
 * it out: an excluded working directory, harness or tool, or a prompt when
 * prompts are off. A prompt keeps only its text outside `<private>` blocks,
 * so nothing downstream (parser, dedup hash) ever sees the rest.
 */
function allowed(
  adapter: HarnessAdapter,
  event: UserPromptEvent | ToolStartEvent,
  config: HookConfig,
): UserPromptEvent | ToolStartEvent | null {
  const policy = config.capture;
  const tool = event.type === "tool_start" ? event.tool_name : null;
  if (exclusion(policy, { cwd: event.cwd, harness: adapter.name, tool }) !== null) return null;
  if (event.type === "tool_start") return event;
  return policy.prompts ? { ...event, prompt: visiblePrompt(event.prompt) } : null;
}

/**
 * Records the Touches of one prompt or tool start and returns the Nudge
 * output, if any. Problems are reported through `log`; nothing here throws
 * past the store's own errors.
 */
async function capture(
  adapter: HarnessAdapter,
  event: UserPromptEvent | ToolStartEvent,
  config: HookConfig,
  log: (problem: unknown) => void,
): Promise<string | null> {
  if (event.type === "tool_start" && isMemoryRead(event.tool_name)) {
    noteResourceCall(event, adapter, config);
    return null;
  }
  const addresses = addressesOf(event, config);
  if (addresses.length === 0) return null;
  const now = new Date();
  // A harness with no context channel renders no Nudge at all: skip the lookup for it.
  const wantsNudge = event.type === "tool_start" && adapter.renderNudge("", event) !== null;
  const userId = config.identity.user_id;
  if (!userId) log("no [identity] user_id in the config file: nothing recorded");
  if (!userId && !wantsNudge) return null;

  const touches = userId
    ? touchesFor(event, addresses, { userId, harness: adapter.name, now })
    : [];
  // Loaded only now: most tool calls name nothing on GitHub and never pay for SQLite.
  const sqlite = await import("../store/sqlite/mod.ts");
  let store;
  try {
    store = sqlite.openEmbeddedStore(config.store.path, { busyTimeoutMs: HOOK_BUSY_TIMEOUT_MS });
    if (touches.length) await store.recordTouches(touches);
  } catch (e) {
    // No Nudge either: the store cannot be used, and the harness is waiting.
    await store?.close().catch(() => {});
    if (touches.length === 0) {
      log(e);
      return null;
    }
    try {
      // Kept in the spool, the next command records them. A store merely busy (other hooks,
      // a Sweep) is no news to anyone; any other fault is worth a line.
      sqlite.spoolTouches(config.store.path, touches);
      if (!(e instanceof sqlite.StoreFaultError && e.fault === "locked")) {
        log(keptTouches(touches, sqlite.spoolDir(config.store.path), e));
      }
    } catch {
      log(lostTouches(touches, e));
    }
    return null;
  }
  try {
    if (!wantsNudge || event.type !== "tool_start") return null;
    for (const address of addresses) {
      const line = await nudgeText(store, address, now);
      if (line !== null) return adapter.renderNudge(line, event);
    }
    return null;
  } finally {
    // Open, the store keeps its write-ahead log for the next hook; see HOOK_WAL_BYTES.
    if (longLog(config.store.path)) await store.close();
  }
}

/**
 * Handles one hook payload (`input`, the text the harness wrote on standard
 * input) for `harness`: returns the text to print, or `null` for nothing.
 * Never throws: every problem is logged to `hook.log` in the data directory.
 */
export async function runHook(
  harness: string,
  input: string,
  options: HookOptions,
): Promise<string | null> {
  let dataDir = defaultDataDir();
  const log = (problem: unknown) => logHookProblem(dataDir, harness, problem);
  try {
    const adapter = adapterFor(harness);
    if (!adapter) {
      log(`unknown harness '${harness}' (expected one of ${HARNESS_NAMES.join("|")})`);
      return null;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(input);
    } catch {
      log(`payload is not JSON (${input.length} characters)`);
      return null;
    }
    const event = adapter.parse(payload, { event: options.event });
    const config = await loadHookConfig();
    dataDir = config.data_dir;
    // A data directory another user owns or may write is refused: nothing read, written or said.
    privateDataDir(dataDir);
    if (event.type === "session_start") {
      // The session hint records nothing and only points the model at memory, so a pause (or
      // the capture policy) never withholds it.
      const tool = options.plugin
        ? adapter.pluginTool ?? adapter.resourceTool
        : adapter.resourceTool;
      return adapter.renderSessionHint(sessionHint(tool));
    }
    // A paused hook records nothing: one small file read, in the data directory the config names.
    if (pauseState(dataDir).paused) return null;
    if (event.type === "ignored") return null;
    const seen = allowed(adapter, event, config);
    return seen === null ? null : await capture(adapter, seen, config, log);
  } catch (e) {
    log(e);
    return null;
  }
}
