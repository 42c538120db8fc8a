/**
 * Automatic Sweeps in the background. `serve-mcp` lives as long as its
 * session, so it watches for new Touches and starts `rgraph sweep --auto` in
 * a process of its own: the Sweep's synchronous SQLite writes and its
 * parsing never stall the server's answers, and the Sweep finishes even if
 * the session ends first. The session-end command starts the same process.
 *
 * When: a few times a second at most, the scheduler reads two indexes of the
 * local database (`SqliteStore.sweepSignal`) and the record of the last Sweep.
 * A Sweep starts once Touches recorded since the last Sweep began have
 * stopped arriving for `[sweep] debounce_seconds` (a burst is one Sweep), or
 * once the oldest of them has waited ten times that; and when the last
 * Sweep left work behind (rate limited, errors), again at its `retry_at`.
 * Never while a Sweep of this machine runs (the lock, `lock.ts`).
 *
 * @example
 * ```ts
 * import { startBackgroundSweeps } from "./background.ts";
 * const sweeps = startBackgroundSweeps(config, ["/usr/local/bin/rgraph"]);
 * // … serve …
 * await sweeps.stop();
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import { firstLine } from "../errors.ts";
import { drainSpool, openEmbeddedStore, type SqliteStore, type SweepSignal } from "../store/mod.ts";
import { sweepLockHolder } from "./lock.ts";
import { appendSweepLog, readSweepRecord, type SweepRecord } from "./record.ts";

/** A burst that never pauses still gets a Sweep once its oldest Touch waited this many debounces. */
const MAX_WAIT_DEBOUNCES = 10;
/** The longest the scheduler holds back after Sweeps that ended without a record. */
const RETRY_MAX_MS = 30 * 60_000;

/**
 * Starts `rgraph sweep --auto` (`rgraph` is the argv that starts rgraph) as a
 * process of its own, detached, so it outlives whoever started it.
 */
export function startAutomaticSweep(rgraph: string[], configFile: string): Deno.ChildProcess {
  const [command, ...args] = rgraph;
  return new Deno.Command(command, {
    args: [...args, "sweep", "--auto"],
    // The same config file, whichever way this process found it.
    env: { RGRAPH_CONFIG: configFile },
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
}

/** What the scheduler decides from. */
export interface Due {
  now: number;
  /** Pending Touches recorded since the latest Sweep began. */
  signal: SweepSignal;
  record: SweepRecord;
  debounceMs: number;
}

/** Whether an automatic Sweep is due now (pure). */
export function sweepDue(d: Due): boolean {
  const { now, signal, record } = d;
  // After a failure or a rate limit, nothing starts before the retry time.
  if (record.retry_at !== null && now < Date.parse(record.retry_at)) return false;
  if (signal.fresh > 0 && signal.newest !== null && signal.oldest !== null) {
    const quiet = now - Date.parse(signal.newest) >= d.debounceMs;
    const overdue = now - Date.parse(signal.oldest) >= MAX_WAIT_DEBOUNCES * d.debounceMs;
    if (quiet || overdue) return true;
  }
  return record.retry_at !== null && signal.waiting;
}

/** The background scheduler of one `serve-mcp`. */
export interface BackgroundSweeps {
  /** Stops watching; a Sweep already started runs to its end on its own. */
  stop(): Promise<void>;
}

/**
 * Starts watching for Touches to sweep, for as long as this process serves.
 * Problems go to `sweep.log`, once each; they never reach the MCP client.
 */
export function startBackgroundSweeps(config: Config, rgraph: string[]): BackgroundSweeps {
  const dataDir = config.data_dir;
  const debounceMs = config.sweep.debounce_ms;
  let local: SqliteStore | null = null;
  let child: Deno.ChildProcess | null = null;
  let logged = "";
  // A started Sweep that ended without a record (it could not start, or found the machine
  // busy) holds the next one back, longer each time in a row.
  let quietUntil = 0;
  let unrecorded = 0;
  let ticking = false;
  const tick = async () => {
    if (ticking || child !== null || Date.now() < quietUntil) return;
    ticking = true;
    try {
      local ??= openEmbeddedStore(config.store.path);
      // Touches hooks kept back while the store was busy count as new ones.
      await drainSpool(local);
      const record = readSweepRecord(dataDir);
      const signal = local.sweepSignal(record.checked_at);
      if (!sweepDue({ now: Date.now(), signal, record, debounceMs })) return;
      if (sweepLockHolder(dataDir) !== null) return;
      const before = record.checked_at;
      const started = startAutomaticSweep(rgraph, config.file);
      child = started;
      // Only this scheduler waits for it, and only to know when it may start the next.
      started.unref();
      started.status.finally(() => {
        child = null;
        if (readSweepRecord(dataDir).checked_at !== before) unrecorded = 0;
        else quietUntil = Date.now() + Math.min(RETRY_MAX_MS, debounceMs * 2 ** ++unrecorded);
      });
    } catch (e) {
      const problem = firstLine(e);
      if (problem !== logged) {
        logged = problem;
        try {
          appendSweepLog(dataDir, `${new Date().toISOString()} serve-mcp: ${problem}`);
        } catch {
          // Nowhere to say it: the next tick tries again.
        }
      }
    } finally {
      ticking = false;
    }
  };
  // A few times per debounce, at most twice a second, at least every two seconds.
  const every = Math.min(2000, Math.max(500, debounceMs / 4));
  const timer = setInterval(() => void tick(), every);
  return {
    async stop() {
      clearInterval(timer);
      await local?.close();
    },
  };
}
