/**
 * What `rgraph hook` does with one payload: parse it with the harness's
 * adapter, record a private Touch for every GitHub read or pasted link it
 * names, and return what the harness should print (the session hint at
 * session start, a Nudge before a fetch of something in memory), or `null`.
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

import type { Address } from "../types.ts";
import { defaultDataDir } from "../config_path.ts";
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

/** How the hook was called, beyond the harness name. */
export interface HookOptions {
  /** The event name, for payloads that do not carry one (Copilot CLI). */
  event?: string;
}

/** Appends one line per problem to `<dataDir>/hook.log`; never throws. */
export function logHookProblem(dataDir: string, harness: string, problem: unknown): void {
  const text = problem instanceof Error ? problem.message : String(problem);
  const line = text.split("\n")[0].slice(0, 500);
  try {
    Deno.mkdirSync(dataDir, { recursive: true });
    Deno.writeTextFileSync(
      `${dataDir}/hook.log`,
      `${new Date().toISOString()} ${harness || "-"}: ${line}\n`,
      { append: true },
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
  const input = event.tool_input as { address?: unknown } | null;
  if (!userId || typeof input?.address !== "string") return;
  noteMemoryRead(memoryReadsDir(config.data_dir), {
    user_id: userId,
    session_id: event.session_id,
    tool_use_id: event.tool_use_id,
    agent_id: event.agent_id,
    harness: adapter.name,
    address: input.address.trim(),
    noted_at: new Date().toISOString(),
  });
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

  // Loaded only now: most tool calls name nothing on GitHub and never pay for SQLite.
  const { openEmbeddedStore } = await import("../store/sqlite/mod.ts");
  const store = openEmbeddedStore(config.store.path);
  try {
    if (userId) {
      await store.recordTouches(
        touchesFor(event, addresses, { userId, harness: adapter.name, now }),
      );
    }
    if (!wantsNudge || event.type !== "tool_start") return null;
    for (const address of addresses) {
      const line = await nudgeText(store, address, now);
      if (line !== null) return adapter.renderNudge(line, event);
    }
    return null;
  } finally {
    // Closing is the cheaper way out: the last connection's close checkpoints
    // the WAL and removes it. Exiting without it loses nothing committed, but
    // leaves the next hook to rebuild the WAL index on open (measured: over
    // 300 hooks that open grew from 0.3 ms to 5 ms).
    await store.close();
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
    const config = await loadHookConfig();
    dataDir = config.data_dir;
    let payload: unknown;
    try {
      payload = JSON.parse(input);
    } catch {
      log(`payload is not JSON (${input.length} characters)`);
      return null;
    }
    const event = adapter.parse(payload, { event: options.event });
    if (event.type === "session_start") {
      return adapter.renderSessionHint(sessionHint(adapter.resourceTool));
    }
    if (event.type === "ignored") return null;
    return await capture(adapter, event, config, log);
  } catch (e) {
    log(e);
    return null;
  }
}
