/**
 * A Sweep as `rgraph sweep` runs it: the machine's lock, the store and the
 * GitHub source opened from the config, and the record (`record.ts`) written
 * however it ends. An automatic Sweep (`--auto`, what the background
 * scheduler and the session-end command start) does nothing when `[sweep]
 * auto = false`, waits its turn behind any other Sweep of the machine
 * instead of running beside it, leaves the last tenth of GitHub's hourly
 * budget to the agent, and logs one line to `sweep.log`.
 *
 * @example
 * ```ts
 * import { runSweep } from "./runner.ts";
 * const r = await runSweep(loadConfig(), { trigger: "auto", leaseMs: 30_000 });
 * if (r.status === "swept") console.log(r.summary.resolved);
 * ```
 * @module
 */

import { type Config, requireUserId } from "../config/mod.ts";
import { firstLine, UserError } from "../errors.ts";
import { UnsafePathError } from "../host/mod.ts";
import { openSource } from "../github/mod.ts";
import { openStore } from "../store/mod.ts";
import { acquireSweepLock, type LockHolder, sweepLockHolder, type SweepTrigger } from "./lock.ts";
import {
  appendSweepLog,
  logLine,
  nextRecord,
  readSweepRecord,
  type SweepRun,
  worthLogging,
  writeSweepRecord,
} from "./record.ts";
import { sweep } from "./run.ts";
import type { SweepProgress, SweepSummary } from "./summary.ts";

/** The fraction of GitHub's hourly budget an automatic Sweep never spends: the agent's. */
const AGENT_RESERVE = 0.1;

/** What to run. */
export interface SweepRequest {
  trigger: SweepTrigger;
  /** At most this many Touches. */
  limit?: number;
  leaseMs: number;
  onProgress?: (progress: SweepProgress) => void;
}

/** What came of it. */
export type SweepResult =
  | { status: "swept"; summary: SweepSummary }
  /** An automatic Sweep with `[sweep] auto = false`. */
  | { status: "off" }
  /** An automatic Sweep while another Sweep of this machine runs. */
  | { status: "busy"; holder: LockHolder | null };

/** An error's first line, without the configured token. */
function message(e: unknown, token: string | null): string {
  const text = firstLine(e);
  return token ? text.split(token).join("[token]") : text;
}

/**
 * Runs one Sweep for `request`. Throws what the Sweep throws (a refused
 * token, the shared store unreachable), after recording it.
 */
export async function runSweep(config: Config, request: SweepRequest): Promise<SweepResult> {
  // Fail closed, as reads do: a Sweep leases its user's Touches, and without one it has none.
  requireUserId(config);
  const auto = request.trigger === "auto";
  if (auto && !config.sweep.auto) return { status: "off" };
  const lock = await takeLock(config, request.trigger);
  // One run by hand goes ahead beside another Sweep (the lease keeps them apart); an
  // automatic one leaves the machine to the Sweep already running.
  if (!lock && auto) return { status: "busy", holder: sweepLockHolder(config.data_dir) };
  const reserve = auto ? AGENT_RESERVE : 0;
  const startedAt = new Date();
  let run: SweepRun | null = null;
  try {
    const store = await openStore(config);
    try {
      const summary = await sweep(store, () => openSource(config.github, { reserve }), {
        limit: request.limit,
        leaseMs: request.leaseMs,
        onProgress: request.onProgress,
        reserve,
      });
      run = { trigger: request.trigger, startedAt, endedAt: new Date(), summary };
      return { status: "swept", summary };
    } finally {
      await store.close();
    }
  } catch (e) {
    run = {
      trigger: request.trigger,
      startedAt,
      endedAt: new Date(),
      error: message(e, config.github.token),
    };
    throw e;
  } finally {
    // Written before the lock goes, so whoever takes it next reads this run.
    if (run) remember(config, run);
    lock?.release();
  }
}

/** Writes the record (and, for an automatic Sweep, its log line); never throws. */
/**
 * The machine's Sweep lock, or `null` when another process holds it. A data
 * directory the lock cannot be made in is reported as the store's fault
 * where the store is what is broken (its message names the fix), else as
 * one line naming the directory; one that is not private, as such.
 */
async function takeLock(config: Config, trigger: SweepTrigger) {
  try {
    return await acquireSweepLock(config.data_dir, trigger);
  } catch (e) {
    // A folder or lock that is not private says what is wrong with it, and its own fix.
    if (e instanceof UnsafePathError) throw e;
    await (await openStore(config, { sync: "outbox" })).close();
    throw new UserError(
      `cannot take the Sweep lock in ${config.data_dir} (${
        firstLine(e)
      }): make that directory writable`,
    );
  }
}

function remember(config: Config, run: SweepRun): void {
  try {
    writeSweepRecord(config.data_dir, nextRecord(readSweepRecord(config.data_dir), run));
    if (run.trigger === "auto" && worthLogging(run)) appendSweepLog(config.data_dir, logLine(run));
  } catch {
    // A data directory that cannot be written must not turn a Sweep into a failure.
  }
}
