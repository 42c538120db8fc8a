/**
 * Pausing capture: `rgraph pause [--for DURATION]` writes a small JSON file
 * in the data directory and `rgraph resume` removes it. Hooks check it before
 * anything else, with one file read and no TOML parse, so a paused hook costs
 * less than a recording one. A pause with an end time ends by itself: past
 * `until` the file is ignored (and the next `pause` or `resume` replaces or
 * removes it).
 *
 * A pause file that cannot be read as one counts as a pause with no end:
 * capture fails closed, and `rgraph resume` clears it.
 *
 * @example
 * ```ts
 * import { pauseCapture, pauseState, resumeCapture } from "./pause.ts";
 * pauseCapture(dataDir, new Date(Date.now() + 3_600_000));
 * pauseState(dataDir); // { paused: true, since: "…", until: "…" }
 * resumeCapture(dataDir); // true
 * ```
 * @module
 */

import { privateDataDir } from "../config/paths/mod.ts";
import { writePrivateFile } from "../host/mod.ts";

/** Whether capture is paused now, since when and until when (`null`: until `rgraph resume`). */
export type PauseState =
  | { paused: false }
  | { paused: true; since: string | null; until: string | null };

interface PauseFile {
  paused_at: string;
  until: string | null;
}

const PAUSE_FILE = "paused.json";

/** The pause file in `dataDir`. */
export function pauseFilePath(dataDir: string): string {
  return `${dataDir}/${PAUSE_FILE}`;
}

/**
 * Whether `dataDir` holds a pause file. Listing the folder (a handful of
 * entries) costs the hook a third of what a failed open does: that throws,
 * and the first error a process throws is slow to build. Most hooks find no
 * pause. A folder that exists but cannot be listed counts as holding one.
 */
function hasPauseFile(dataDir: string): boolean {
  try {
    for (const entry of Deno.readDirSync(dataDir)) if (entry.name === PAUSE_FILE) return true;
    return false;
  } catch (e) {
    return !(e instanceof Deno.errors.NotFound);
  }
}

/** The pause as it stands at `now`; never throws. */
export function pauseState(dataDir: string, now: Date = new Date()): PauseState {
  if (!hasPauseFile(dataDir)) return { paused: false };
  let text: string;
  try {
    text = Deno.readTextFileSync(pauseFilePath(dataDir));
  } catch (e) {
    // Not there: recording. Unreadable for another reason: paused, failing closed.
    return e instanceof Deno.errors.NotFound ? { paused: false } : unreadable();
  }
  let file: Partial<PauseFile>;
  try {
    file = JSON.parse(text);
  } catch {
    return unreadable();
  }
  const until = file?.until ?? null;
  if (until !== null && !Number.isFinite(Date.parse(until))) return unreadable();
  if (until !== null && Date.parse(until) <= now.getTime()) return { paused: false };
  return { paused: true, since: typeof file.paused_at === "string" ? file.paused_at : null, until };
}

function unreadable(): PauseState {
  return { paused: true, since: null, until: null };
}

/**
 * Pauses capture until `until` (`null`: until {@link resumeCapture}),
 * replacing any pause in place. Written in one rename, so a hook reads the
 * old pause or the new one, never half of one.
 */
export function pauseCapture(dataDir: string, until: Date | null, now: Date = new Date()) {
  const path = pauseFilePath(dataDir);
  const file: PauseFile = { paused_at: now.toISOString(), until: until?.toISOString() ?? null };
  privateDataDir(dataDir);
  writePrivateFile(path, JSON.stringify(file));
}

/** Ends a pause; returns whether one was in effect. */
export function resumeCapture(dataDir: string, now: Date = new Date()): boolean {
  const was = pauseState(dataDir, now).paused;
  try {
    Deno.removeSync(pauseFilePath(dataDir));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return was;
}

/** `paused until …` while capture is paused, `null` while it records. */
export function pausedUntil(state: PauseState): string | null {
  if (!state.paused) return null;
  return `paused until ${state.until ?? "'rgraph resume'"}`;
}

/** One line saying capture is paused and until when, or `null` while it records. */
export function pauseLine(state: PauseState): string | null {
  const paused = pausedUntil(state);
  return paused === null ? null : `capture is ${paused}: hooks record nothing`;
}
