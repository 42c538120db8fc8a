/**
 * `rgraph forget`: deletes the asking user's own Touches that the flags
 * select — from the embedded store, or from the hooks' outbox and the shared
 * graph store — with their memory-read notes and the log lines naming what
 * went (see `lib/user_data/forget.ts`). Resources stay. Refuses without an
 * identity (fail closed).
 *
 * @module
 */

import { DATE_FORMS, dateFlag, noArguments, parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { forget, forgetJson, formatForget } from "../lib/user_data/mod.ts";
import { notAnAddress, parseAsked } from "../lib/serve/mod.ts";
import type { ForgetQuery } from "../lib/store/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "forget",
  summary: "Delete your own Touches (and the notes and log lines naming them); never Resources",
  usage:
    "rgraph forget [--session S] [--since DATE] [--before DATE] [--address KEY] | --all  [--dry-run] [--json]",
  options: {
    session: { type: "string", arg: "S", help: "Touches of this session" },
    since: { type: "string", arg: "DATE", help: "Touches recorded at or after DATE" },
    before: { type: "string", arg: "DATE", help: "Touches recorded before DATE" },
    address: {
      type: "string",
      arg: "KEY",
      help: "Touches of this address (any form lookup accepts, or a search: as touches shows it)",
    },
    all: { type: "boolean", help: "every Touch of yours" },
    "dry-run": { type: "boolean", help: "show what would go; delete nothing" },
    json: { type: "boolean", help: "print JSON" },
  },
  more: [
    `DATE is ${DATE_FORMS}.`,
    "Filters combine: a Touch goes when it matches every one given.",
  ],
  examples: [
    {
      does: "see what the last hour's Touches would take",
      run: "rgraph forget --since 1h --dry-run",
    },
    { does: "forget one session", run: "rgraph forget --session 3f2c9a" },
    { does: "forget every read of one issue", run: "rgraph forget --address denoland/deno#123" },
    { does: "forget everything of yours (Resources stay)", run: "rgraph forget --all" },
  ],
} as const;

const HELP_HINT = "(see 'rgraph forget --help')";

/** Runs `rgraph forget ARGS`. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  const v = parsed.values;
  noArguments(SPEC, parsed.positionals);
  if ([v.session, v.since, v.before, v.address].some((x) => x?.trim() === "")) {
    throw new UsageError(`rgraph forget: a filter needs a value ${HELP_HINT}`);
  }
  const filtered = [v.session, v.since, v.before, v.address].some((x) => x !== undefined);
  if (v.all && filtered) {
    throw new UsageError(`rgraph forget: --all forgets everything; give it no other filter`);
  }
  if (!v.all && !filtered) {
    throw new UsageError(
      `rgraph forget: say what to forget: --session, --since, --before, --address or --all ${HELP_HINT}`,
    );
  }
  const since = v.since === undefined ? undefined : dateFlag("forget", "since", v.since);
  const before = v.before === undefined ? undefined : dateFlag("forget", "before", v.before);
  if (since !== undefined && before !== undefined && since >= before) {
    throw new UsageError(`rgraph forget: --since must be earlier than --before`);
  }
  const config = loadConfig();
  requireUserId(config);
  let address: string | undefined;
  if (v.address?.startsWith("search:")) {
    // A search of memory: its Touch's address is the query as `rgraph touches` shows it.
    address = v.address.trim();
  } else if (v.address !== undefined) {
    const asked = parseAsked(v.address, config);
    if (asked === null) {
      throw new UsageError(
        `rgraph forget: ${notAnAddress(v.address, config.identity.github_login)}`,
      );
    }
    address = asked.key;
  }
  const query: ForgetQuery = v.all
    ? { all: true }
    : { session_id: v.session, since, before, address };
  const report = await forget(config, query, { dryRun: v["dry-run"] === true });
  console.log(v.json ? terminalJson(forgetJson(report), 2) : formatForget(report));
  return 0;
}
