/**
 * Run by `tests/hook_net_test.ts` as its own process with network permission:
 * reaches the URL given as the first argument, runs the real hook on the
 * payload on standard input, then tries again. Reports on stderr (stdout is
 * the hook's) as one JSON line.
 */

import { main } from "../commands/hook.ts";

async function attempt(url: string): Promise<string> {
  try {
    const r = await fetch(url);
    await r.body?.cancel();
    return "reached";
  } catch (e) {
    return (e as Error).name;
  }
}

const url = Deno.args[0];
const before = await attempt(url);
const code = await main(["claude-code"]);
const after = await attempt(url);
const state = Deno.permissions.querySync({ name: "net" }).state;
console.error(JSON.stringify({ before, code, after, state }));
