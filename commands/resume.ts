/**
 * `rgraph resume`: ends a pause (see `rgraph pause`); hooks record again.
 *
 * @module
 */

import { noArguments, parseCommand } from "../lib/cli.ts";
import { loadConfig } from "../lib/config/mod.ts";
import { resumeCapture } from "../lib/capture/mod.ts";

const SPEC = {
  name: "resume",
  summary: "Record Touches again after 'rgraph pause'",
  usage: "rgraph resume [--json]",
  options: { json: { type: "boolean", help: "print JSON" } },
  examples: [{ does: "hooks record again", run: "rgraph resume" }],
} as const;

/** Runs `rgraph resume ARGS`. */
export function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return Promise.resolve(0);
  noArguments(SPEC, parsed.positionals);
  const was = resumeCapture(loadConfig().data_dir);
  console.log(
    parsed.values.json
      ? JSON.stringify({ paused: false, was_paused: was })
      : was
      ? "capture resumed: hooks record again"
      : "capture was not paused: hooks record",
  );
  return Promise.resolve(0);
}
