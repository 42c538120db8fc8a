/**
 * What doctor may run of a harness's files: only what it can prove is
 * rgraph's own — an entry identical to what `rgraph install` would write
 * for that harness, scope and config. Everything else named rgraph in those
 * files (a cloned repository's `.claude/settings.json` hook `sh ./pwn.sh
 * main.ts hook claude-code`, an `.mcp.json` server `rgraph` → `sh -c …`) is
 * reported and never run, and what is run is the argv computed here, started
 * without a shell — never the entry's own text.
 *
 * @example
 * ```ts
 * import { ownEntries, provenServer } from "./own.ts";
 * const own = ownEntries("claude-code", ctx, (p) => exists(p));
 * provenServer(own, ["sh", "-c", "curl … | sh"]); // null: not run
 * ```
 * @module
 */

import { hookArgv, rgraphArgv } from "./command.ts";
import {
  type Context,
  eventArgument,
  type HarnessId,
  HOOK_EVENTS,
  hookEntryCommand,
  pluginText,
  ungatedEntryCommand,
} from "./harnesses.ts";

/** What `rgraph install` writes for one harness in one context. */
export interface OwnEntries {
  /** Each hook event's command (none for OpenCode, whose plugin runs rgraph). */
  hooks: Record<string, string>;
  /** What an older install wrote where only the dispatch changed (see `ungatedEntryCommand`). */
  earlier: Record<string, string>;
  /** The MCP server's argv. */
  server: string[];
  /** OpenCode's plugin file, as install writes it; null for the other harnesses. */
  plugin: string | null;
  /** The argv that replays a session start, as the installed hook or plugin starts it. */
  probe: string[];
  /** The hook bundle's entry file the hook commands run when it exists; null without one. */
  bundleEntry: string | null;
}

/**
 * rgraph's own entries for `harness` in `ctx` (its scope, directory and
 * invocation: this rgraph, its config file, `--command` if given).
 * `bundleExists` says whether the hook bundle's file is there, which decides
 * what the installed bundle-or-normal command runs.
 */
export function ownEntries(
  harness: HarnessId,
  ctx: Context,
  bundleExists: (path: string) => boolean,
): OwnEntries {
  const inv = ctx.invocation;
  const server = rgraphArgv(inv, ["serve-mcp"]);
  if (harness === "opencode") {
    return {
      hooks: {},
      earlier: {},
      server,
      plugin: pluginText(ctx.pluginSource, inv),
      probe: rgraphArgv(inv, ["hook", "opencode"]),
      // OpenCode's plugin runs the normal command: it does not wait for most hooks.
      bundleEntry: null,
    };
  }
  const events = HOOK_EVENTS[harness];
  const hooks = Object.fromEntries(events.map((e) => [e, hookEntryCommand(harness, e, inv)]));
  const earlier = Object.fromEntries(
    events.flatMap((e) => {
      const c = ungatedEntryCommand(harness, e, inv);
      return c === null ? [] : [[e, c]];
    }),
  );
  return {
    hooks,
    earlier,
    server,
    plugin: null,
    probe: hookArgv(inv, harness, eventArgument(harness, events[0]), bundleExists),
    bundleEntry: inv.bundle?.entry ?? null,
  };
}

/**
 * The events whose installed rgraph entry is neither the one install writes
 * nor the one an older install wrote there.
 */
export function foreignHooks(own: OwnEntries, installed: Record<string, string | null>): string[] {
  return Object.entries(installed).filter(([event, command]) =>
    command !== null && command !== own.hooks[event] && command !== own.earlier[event]
  ).map(([event]) => event);
}

/** The server argv to start, when the installed entry is exactly rgraph's; else null. */
export function provenServer(own: OwnEntries, installed: string[] | null): string[] | null {
  return installed !== null && installed.length === own.server.length &&
      installed.every((w, i) => w === own.server[i])
    ? own.server
    : null;
}

/** The probe argv, when the installed OpenCode plugin is exactly rgraph's; else null. */
export function provenPlugin(own: OwnEntries, text: string): string[] | null {
  return own.plugin !== null && text === own.plugin ? own.probe : null;
}

/** The line doctor prints for an entry it will not run. */
export const NOT_OURS = "an entry named rgraph that rgraph did not write: not run";
