/**
 * A Sweep's world for end-to-end tests: a fresh GitHub emulator, a sandbox
 * whose config points at it (with the emulator's token, another token, or
 * none: anonymous REST), and the commands a person runs against it — Touches
 * recorded by real `rgraph hook` processes, `rgraph sweep --json`, `rgraph
 * touches --json`, `rgraph lookup --json` — plus the store read directly
 * where a field is not shown.
 *
 * @example
 * ```ts
 * const w = await world({ token: null });
 * await w.fetched("gh issue view 3 -R lumendb/lumen");
 * (await w.sweep()).resolved; // 1
 * await w.close();
 * ```
 * @module
 */

import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { type Sandbox, sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import type { Resource } from "../lib/types.ts";
import type { SweepSummary } from "../lib/sweep/mod.ts";

/** A Touch as `rgraph touches --json` shows it. */
export interface TouchJson {
  id: string;
  address: string;
  provenance: string;
  status: string;
  reason: string | null;
  target: string | null;
  detail?: string | null;
  failures?: number;
}

/** A running emulator and a sandbox pointed at it. */
export interface World {
  gh: Emulator;
  sb: Sandbox;
  /** Records a FETCHED Touch the way Claude Code's Bash tool call is captured. */
  fetched(command: string): Promise<void>;
  /** Records PROMPTED Touches from a pasted prompt. */
  prompted(text: string): Promise<void>;
  sweep(args?: string[]): Promise<SweepSummary>;
  touches(): Promise<TouchJson[]>;
  lookup(
    key: string,
  ): Promise<{ outcome: string; resource?: Resource; thread?: { paging: { total: number } } }>;
  /** Reads the store directly (edges, counts, full comment lists). */
  read<T>(f: (store: ReturnType<typeof openEmbeddedStore>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

let toolUse = 0;

/** Starts a world (`token` undefined: the emulator's; null: none). */
export async function world(
  options: {
    token?: string | null;
    anonymousLimit?: number;
    graphqlLimit?: number;
    latencyMs?: number;
  } = {},
): Promise<World> {
  const gh = await startEmulator({
    latencyMs: options.latencyMs ?? 0,
    anonymousLimit: options.anonymousLimit,
    graphqlLimit: options.graphqlLimit,
  });
  const token = options.token === undefined ? gh.token : options.token;
  const extra = `[github]\n${token ? `token = "${token}"\n` : ""}api_url = "${gh.apiUrl}"\n` +
    `graphql_url = "${gh.graphqlUrl}"\n`;
  const sb = await sandbox({ extra });
  const w: World = {
    gh,
    sb,
    ...commands(sb),
    async read(f) {
      const store = openEmbeddedStore(sb.dbPath);
      try {
        return await f(store);
      } finally {
        await store.close();
      }
    },
    async close() {
      await gh.close();
      await sb.cleanup();
    },
  };
  return w;
}

/** What a person runs in a sandbox: Touches through the Claude Code hook, and the reading commands. */
export type Commands = Pick<World, "fetched" | "prompted" | "sweep" | "touches" | "lookup">;

/** The {@link Commands} of a sandbox, whatever GitHub its config points at (emulator, replay). */
export function commands(sb: Sandbox): Commands {
  const hook = async (payload: Record<string, unknown>) => {
    const r = await sb.rgraph(["hook", "claude-code"], {
      stdin: JSON.stringify({ session_id: "s1", cwd: sb.dir, ...payload }),
    });
    assert.equal(r.code, 0, r.stderr);
  };
  return {
    fetched: (command) =>
      hook({
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: `toolu_sweep_${++toolUse}`,
      }),
    prompted: (prompt) => hook({ hook_event_name: "UserPromptSubmit", prompt }),
    async sweep(args = []) {
      const r = await sb.rgraph(["sweep", "--json", ...args]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as SweepSummary;
    },
    async touches() {
      const r = await sb.rgraph(["touches", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as TouchJson[];
    },
    async lookup(key) {
      const r = await sb.rgraph(["lookup", "--json", key]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    },
  };
}

/** The Touch of `address` (there must be one). */
export function byAddress(touches: TouchJson[], address: string): TouchJson {
  const t = touches.find((x) => x.address === address);
  assert.ok(t, `no Touch of ${address} in ${JSON.stringify(touches.map((x) => x.address))}`);
  return t;
}
