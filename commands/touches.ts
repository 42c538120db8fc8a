/**
 * `rgraph touches [--session S] [--since DATE] [--limit N | --all] [--json]`:
 * the asking user's own Touches, newest first, so a person can see what
 * their agent explored (with a first line saying so while capture is
 * paused). The table shows the newest {@link TABLE_LIMIT} unless asked for
 * more; `--json` is the export, every Touch unless limited, as one JSON
 * array streamed a page at a time (memory stays flat at a million Touches,
 * and whatever parses today's array still parses it). Touches are private:
 * only the configured user's are read, and with no user id configured the
 * command refuses (fail closed).
 *
 * @module
 */

import { DATE_FORMS, dateFlag, noArguments, parseCommand, positiveInt } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { openStore } from "../lib/store/mod.ts";
import { TouchJsonPages, TouchTablePages } from "../lib/user_data/mod.ts";
import { pauseLine, pauseState } from "../lib/capture/mod.ts";

/** How many Touches the table shows when not told: a screenful or two, the newest. */
const TABLE_LIMIT = 50;

/** Touches read per page. */
const PAGE = 1000;

const SPEC = {
  name: "touches",
  summary: "List your own Touches (what your agents read and what you pasted), newest first",
  usage: "rgraph touches [--session S] [--since DATE] [--limit N | --all] [--json]",
  options: {
    session: { type: "string", arg: "S", help: "only Touches of this session" },
    since: {
      type: "string",
      arg: "DATE",
      help: "only Touches recorded since DATE",
    },
    limit: {
      type: "string",
      arg: "N",
      help: `at most the newest N (the table's default: ${TABLE_LIMIT})`,
    },
    all: { type: "boolean", help: "every Touch (what --json prints unless limited)" },
    json: { type: "boolean", help: "print one JSON array, streamed" },
  },
  more: [
    `DATE is ${DATE_FORMS}.`,
    "The read column says FETCHED (your agent's tool), PROMPTED (a link in a prompt) or",
    "CACHE READ (answered from memory); status is pending, resolved, unresolved:REASON or",
    "served:hit|subsumed|miss.",
  ],
  examples: [
    { does: "what your agents read today, newest first", run: "rgraph touches --since today" },
    { does: "the last two hours", run: "rgraph touches --since 2h" },
    { does: "one session", run: "rgraph touches --session 3f2c9a" },
    { does: "every Touch, as a JSON array", run: "rgraph touches --json > touches.json" },
  ],
} as const;

/** Writes all of `text` to stdout. */
async function write(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length;) done += await Deno.stdout.write(bytes.subarray(done));
}

export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  noArguments(SPEC, parsed.positionals);
  const v = parsed.values;
  const asked = positiveInt("touches", "limit", v.limit);
  if (asked !== undefined && v.all) {
    throw new UsageError("rgraph touches: --limit and --all cannot be used together");
  }
  const since = v.since === undefined ? undefined : dateFlag("touches", "since", v.since);
  const limit = v.all ? Infinity : asked ?? (v.json ? Infinity : TABLE_LIMIT);
  const config = loadConfig();
  const userId = requireUserId(config);
  const store = await openStore(config, { sync: "outbox" });
  try {
    const query = {
      ...(v.session === undefined ? {} : { session_id: v.session }),
      ...(since === undefined ? {} : { since }),
    };
    const out = v.json ? new TouchJsonPages() : new TouchTablePages();
    if (!v.json) {
      const paused = pauseLine(pauseState(config.data_dir));
      if (paused !== null) await write(`${paused}\n\n`);
    }
    // One past the limit says whether the table left some out.
    let left = limit === Infinity ? Infinity : limit + 1;
    let more = false;
    for await (const page of store.touchPages(userId, query, Math.min(PAGE, left))) {
      const shown = page.length < left ? page : page.slice(0, left - 1);
      more = shown.length < page.length;
      left -= page.length;
      await write(out.page(shown));
      if (left <= 0) break;
    }
    await write(out.end());
    if (more && !v.json) {
      await write(`(the newest ${limit} shown; --limit N, --since DATE or --all shows more)\n`);
    }
    return 0;
  } catch (e) {
    // A reader that stopped early (`| head`) wanted no more.
    if (e instanceof Deno.errors.BrokenPipe) return 0;
    throw e;
  } finally {
    await store.close();
  }
}
