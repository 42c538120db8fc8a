/**
 * `rgraph touches [--session S] [--json]`: the asking user's own Touches,
 * newest last, so a person can see what their agent explored (with a first
 * line saying so while capture is paused). Touches are
 * private: only the configured user's are read, and with no user id
 * configured the command refuses (fail closed).
 *
 * @module
 */

import { noArguments, parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config.ts";
import { openStore } from "../lib/store/mod.ts";
import { touchJson, touchTable } from "../lib/setup/mod.ts";
import { pauseLine, pauseState } from "../lib/capture/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "touches",
  summary: "List your own Touches (what your agents read and what you pasted), newest last",
  usage: "rgraph touches [--session S] [--json]",
  options: {
    session: { type: "string", arg: "S", help: "only Touches of this session" },
    json: { type: "boolean", help: "print one JSON array" },
  },
} as const;

export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  noArguments(SPEC, parsed.positionals);
  const config = loadConfig();
  const userId = requireUserId(config);
  const store = await openStore(config);
  try {
    const query = parsed.values.session === undefined ? {} : { session_id: parsed.values.session };
    const touches = await store.listTouches(userId, query);
    if (parsed.values.json) console.log(terminalJson(touches.map(touchJson), 2));
    else {
      const paused = pauseLine(pauseState(config.data_dir));
      console.log(paused === null ? touchTable(touches) : `${paused}\n\n${touchTable(touches)}`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
