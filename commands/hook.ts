/**
 * `rgraph hook <harness> [--event NAME]`: reads one hook payload from
 * standard input, records a private Touch for every GitHub read or pasted
 * link it names, and answers a session start with the session hint and a
 * fetch of something in memory with a Nudge, in the harness's own format.
 *
 * Rules a harness depends on: the process gives up its network permission
 * before anything else (a hook can never reach GitHub, even from a binary
 * compiled with broad permissions); it always exits 0; standard output holds
 * only what the harness can read (valid JSON or nothing); every problem goes
 * to `<data_dir>/hook.log`, one line each.
 *
 * This module's import graph stays small (no MCP SDK, octokit or Bolt
 * driver, and no npm package at all: config values come through
 * `lib/hook_config.ts`, which loads the TOML parser only when the file
 * changed): it runs on every tool call.
 *
 * @module
 */

import { defaultDataDir } from "../lib/config_path.ts";
import { type HookConfig, loadHookConfig } from "../lib/capture/hook_config.ts";
import { adapterFor, type HarnessAdapter } from "../lib/capture/harness/mod.ts";
import type { ToolStartEvent, UserPromptEvent } from "../lib/capture/harness/event.ts";
import {
  addressesFromPrompt,
  addressesFromToolCall,
  type ParseContext,
} from "../lib/address/parse.ts";
import { readGitRemote } from "../lib/capture/git_remote.ts";
import { isMemoryRead, touchesFor } from "../lib/capture/touch.ts";
import { nudgeText, SESSION_HINT } from "../lib/capture/nudge.ts";
import { memoryReadsDir, noteMemoryRead } from "../lib/capture/memory_reads.ts";
import type { Address } from "../lib/types.ts";

const USAGE = "rgraph hook <claude-code|codex|copilot|cursor|opencode|gemini|grok> [--event NAME]";

const HELP = `Record a Touch from a harness hook payload on standard input (always exits 0)

Usage: ${USAGE}

Options:
      --event NAME             the event name, for payloads that do not carry one (Copilot CLI)
  -h, --help                   show this help
`;

/**
 * Gives up this process's network permission. Guarded: where the permission
 * API is unavailable there is nothing to revoke from.
 */
function revokeNetwork(): void {
  try {
    Deno.permissions.revokeSync({ name: "net" });
  } catch {
    // No permissions API in this runtime: nothing granted that could be revoked.
  }
}

/** Appends one line per problem to `<dataDir>/hook.log`; never throws. */
function logProblem(dataDir: string, harness: string, problem: unknown): void {
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
    ? addressesFromPrompt(event.prompt, ctx)
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
  const { openEmbeddedStore } = await import("../lib/store/sqlite.ts");
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
 * The command line: `<harness> [--event NAME]`. Parsed by hand: the shared
 * parser (`lib/cli.ts`) loads `node:util`, which alone costs the hook 10–30 ms
 * of start-up.
 */
function parseArgs(args: string[]): { harness: string; event?: string } | "help" {
  let harness: string | undefined;
  let event: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") return "help";
    if (a === "--event") {
      if (i + 1 >= args.length) throw new Error("rgraph hook: --event needs a value");
      event = args[++i];
    } else if (a.startsWith("--event=")) event = a.slice("--event=".length);
    else if (a.startsWith("-")) throw new Error(`rgraph hook: unknown option '${a}'`);
    else if (harness === undefined) harness = a;
    else throw new Error(`rgraph hook: unexpected argument '${a}'`);
  }
  return { harness: harness ?? "", event };
}

/** All of standard input, read synchronously (a web stream costs the hook ~20 ms to set up). */
function readStdin(): string {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  let total = 0;
  for (;;) {
    const n = Deno.stdin.readSync(buf);
    if (n === null) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}

function writeOut(text: string): void {
  const bytes = new TextEncoder().encode(`${text}\n`);
  let off = 0;
  while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
}

/** The hook: always 0, whatever happens. */
export async function main(args: string[]): Promise<number> {
  revokeNetwork();
  let dataDir = defaultDataDir();
  let harness = "";
  const log = (problem: unknown) => logProblem(dataDir, harness, problem);
  try {
    const parsed = parseArgs(args);
    if (parsed === "help") {
      console.log(HELP);
      return 0;
    }
    harness = parsed.harness;
    const input = readStdin();
    const adapter = adapterFor(harness);
    if (!adapter) {
      log(`unknown harness '${harness}' (expected one of ${USAGE.split(" ")[2]})`);
      return 0;
    }
    const config = await loadHookConfig();
    dataDir = config.data_dir;
    let payload: unknown;
    try {
      payload = JSON.parse(input);
    } catch {
      log(`payload is not JSON (${input.length} characters)`);
      return 0;
    }
    const event = adapter.parse(payload, { event: parsed.event });
    let output: string | null = null;
    if (event.type === "session_start") output = adapter.renderSessionHint(SESSION_HINT);
    else if (event.type !== "ignored") output = await capture(adapter, event, config, log);
    if (output !== null) writeOut(output);
  } catch (e) {
    log(e);
  }
  return 0;
}

// Runnable on its own (`deno run … commands/hook.ts claude-code`): skips
// main.ts, whose dispatch table makes deno load every command's module graph.
if (import.meta.main) Deno.exit(await main(Deno.args));
