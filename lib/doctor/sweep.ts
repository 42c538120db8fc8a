/**
 * `rgraph doctor`'s check of automatic Sweeps: whether they are on, and,
 * when they are, whether your Touches are really being swept — a Touch
 * still pending after an hour means memory is not filling itself (no
 * session's MCP server ran, GitHub was unreachable, the token was refused…),
 * which the check says with where to look.
 *
 * @module
 */

import type { Config } from "../config/mod.ts";
import type { UserStats } from "../store/mod.ts";
import { readSweepRecord } from "../sweep/mod.ts";
import { ago } from "../time.ts";
import { firstLine } from "../errors.ts";
import { type Check, ok, warn } from "./check.ts";

/** Pending longer than this, with automatic Sweeps on, is worth a warning. */
const WAITED_TOO_LONG_MS = 60 * 60_000;

const NAME = "automatic sweep";

/**
 * The check from the user's counts as doctor's store check read them (the
 * store is opened once), or why they could not be read; `null` without an
 * identity (whose Touches would it count?).
 */
export function sweepCheck(
  config: Config,
  stats: UserStats | Error | null,
  now = new Date(),
): Check | null {
  if (!config.sweep.auto) {
    return ok(NAME, `off ([sweep] auto = false in ${config.file}): run 'rgraph sweep' yourself`);
  }
  if (!config.identity.user_id || stats === null) return null;
  const record = readSweepRecord(config.data_dir);
  const last = record.last
    ? `last Sweep ${ago(record.last.ended_at, now)}, ${record.last.outcome}`
    : "no Sweep yet";
  if (stats instanceof Error) {
    // The store check above says what is wrong with it.
    return ok(NAME, `on; ${last} (pending Touches unknown: ${firstLine(stats)})`);
  }
  const oldest = stats.oldest_pending;
  const why = record.last_error
    ? `; last error ${ago(record.last_error.at, now)}: ${record.last_error.message}`
    : "";
  if (oldest !== null && now.getTime() - Date.parse(oldest) > WAITED_TOO_LONG_MS) {
    return warn(
      NAME,
      `on, but ${stats.pending} Touch${stats.pending === 1 ? " has" : "es have"} waited since ` +
        `${ago(oldest, now)} (over an hour); ${last}${why}`,
      "'rgraph status' shows what the Sweeps met; 'rgraph sweep' fetches them now",
    );
  }
  // A last Sweep that did not finish cleanly says what it met, before anything has waited long.
  const met = record.last !== null && record.last.outcome !== "done" ? why : "";
  return ok(NAME, `on; ${stats.pending} pending; ${last}${met}`);
}
