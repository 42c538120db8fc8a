/**
 * `rgraph pause [--for DURATION]`: hooks record nothing until `rgraph resume`
 * or, with `--for`, until the duration has passed (see
 * `lib/capture/pause.ts`). Pausing again replaces the pause.
 *
 * @module
 */

import { noArguments, parseCommand } from "../lib/cli.ts";
import { loadConfig } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { parseDuration } from "../lib/time.ts";
import { pauseCapture, pauseLine, pauseState } from "../lib/capture/mod.ts";

const SPEC = {
  name: "pause",
  summary: "Stop recording Touches until 'rgraph resume' (or for a while)",
  usage: "rgraph pause [--for DURATION] [--json]",
  options: {
    for: {
      type: "string",
      arg: "DURATION",
      help: "end the pause by itself after this long: 30m, 2h, 1d, 1h30m (s m h d w)",
    },
    json: { type: "boolean", help: "print the pause as JSON" },
  },
  examples: [
    { does: "record nothing until 'rgraph resume'", run: "rgraph pause" },
    { does: "record nothing for the next two hours", run: "rgraph pause --for 2h" },
  ],
} as const;

/** Runs `rgraph pause ARGS`. */
export function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return Promise.resolve(0);
  noArguments(SPEC, parsed.positionals);
  let forMs: number | null = null;
  if (parsed.values.for !== undefined) {
    forMs = parseDuration(parsed.values.for);
    if (forMs === null) {
      throw new UsageError(
        `rgraph pause: --for takes a duration like 30m, 2h or 1d, not '${parsed.values.for}'`,
      );
    }
  }
  // The data directory the hook reads the pause file from: the folder of the config's store.
  const dataDir = loadConfig().data_dir;
  const now = new Date();
  pauseCapture(dataDir, forMs === null ? null : new Date(now.getTime() + forMs), now);
  const state = pauseState(dataDir, now);
  console.log(parsed.values.json ? JSON.stringify(state) : pauseLine(state));
  return Promise.resolve(0);
}
