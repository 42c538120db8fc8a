/**
 * One Sweep at a time on a machine, across every process: an exclusive
 * advisory lock on `<data dir>/sweep.lock`, which also names its holder
 * (pid, trigger, start) for `rgraph status`. The operating system drops the
 * lock when its process ends, however it ends, so a killed Sweep never leaves
 * a stale one behind. (The lease on Touches still keeps Sweeps on other
 * machines of a shared store from fetching the same thing.)
 *
 * @example
 * ```ts
 * import { acquireSweepLock } from "./lock.ts";
 * const lock = await acquireSweepLock(config.data_dir, "auto");
 * if (lock) try { await sweepNow(); } finally { lock.release(); }
 * ```
 * @module
 */

import { privateDataDir } from "../config/paths/mod.ts";
import { checkPrivateFile, openPrivateFile } from "../host/mod.ts";

/** What started a Sweep. */
export type SweepTrigger = "auto" | "manual";

/** Who holds the lock. */
export interface LockHolder {
  /** `null` when the holder has not written its name yet. */
  pid: number | null;
  trigger: SweepTrigger | null;
  started_at: string | null;
}

/** A held lock. */
export interface SweepLock {
  release(): void;
}

function lockPath(dataDir: string): string {
  return `${dataDir}/sweep.lock`;
}

/** How often, 20 ms apart, a Sweep tries a lock it found taken (a status probe holds it for an instant). */
const ATTEMPTS = 4;

/** Takes the machine's Sweep lock, or returns `null` when another process holds it. */
export async function acquireSweepLock(
  dataDir: string,
  trigger: SweepTrigger,
): Promise<SweepLock | null> {
  privateDataDir(dataDir);
  // Emptied only once locked, and never through a planted link (one truncated its target).
  const file = openPrivateFile(lockPath(dataDir));
  try {
    let held = file.tryLockSync(true);
    for (let i = 1; !held && i < ATTEMPTS; i++) {
      await new Promise((r) => setTimeout(r, 20));
      held = file.tryLockSync(true);
    }
    if (!held) {
      file.close();
      return null;
    }
    const holder: LockHolder = { pid: Deno.pid, trigger, started_at: new Date().toISOString() };
    file.truncateSync(0);
    file.writeSync(new TextEncoder().encode(JSON.stringify(holder)));
  } catch (e) {
    file.close();
    throw e;
  }
  return {
    release() {
      try {
        file.truncateSync(0);
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}

/**
 * Who holds the machine's Sweep lock now, or `null` when no Sweep runs. It
 * asks by trying the lock for an instant, which {@link acquireSweepLock}
 * tolerates.
 */
export function sweepLockHolder(dataDir: string): LockHolder | null {
  let file: Deno.FsFile;
  try {
    if (!checkPrivateFile(lockPath(dataDir))) return null;
    file = Deno.openSync(lockPath(dataDir), { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    if (file.tryLockSync(true)) {
      file.unlockSync();
      return null;
    }
    try {
      const held = JSON.parse(Deno.readTextFileSync(lockPath(dataDir))) as LockHolder;
      return { pid: held.pid ?? null, trigger: held.trigger ?? null, started_at: held.started_at };
    } catch {
      // Taken a moment ago, its holder not written yet.
      return { pid: null, trigger: null, started_at: null };
    }
  } finally {
    file.close();
  }
}
