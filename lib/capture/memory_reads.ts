/**
 * Notes of `resource` calls the harness reported, so a Cache Read can be tied
 * to the session and tool-call id the harness gave that call. The hook writes
 * one note on the tool's PreToolUse (it runs before the call reaches the MCP
 * server); the server claims it when it answers. MCP over stdio carries no
 * session, and a long-lived server cannot know which session of its harness
 * asked (it outlives `/clear`, and subagents share it): the hook payload can.
 *
 * Notes are small JSON files in `<data_dir>/memory-reads/`, readable only by
 * their owner: no network, no schema, and the same whichever store holds
 * memory (the hook only ever writes locally). Claiming removes the file, so
 * two servers never claim one note. Unclaimed notes expire.
 *
 * @example
 * ```ts
 * import { claimMemoryRead, noteMemoryRead } from "./memory_reads.ts";
 * noteMemoryRead(dir, { user_id: "alice", session_id: "s1", tool_use_id: "toolu_1", agent_id: null,
 *   harness: "claude-code", address: "o/r#5", noted_at: new Date().toISOString() });
 * claimMemoryRead(dir, { userId: "alice", toolUseId: null, sessionId: "s1", address: "o/r#5", now: new Date() });
 * // → the note above, once
 * ```
 * @module
 */

import { privateDir, writePrivateFile } from "../host/mod.ts";

/** What the hook knows about one `resource` call. */
export interface MemoryReadNote {
  user_id: string;
  session_id: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  harness: string | null;
  /** The `address` argument exactly as the model passed it (trimmed). */
  address: string;
  /** ISO 8601 UTC. */
  noted_at: string;
}

/** Which note a server's call matches. */
export interface MemoryReadQuery {
  userId: string;
  /** The harness's tool-call id when the MCP request carries it: then only that note matches. */
  toolUseId: string | null;
  /**
   * The session the server knows the call belongs to (from the request or its
   * environment), if any: a claim by address then stays within it.
   */
  sessionId: string | null;
  /** The `address` argument of the call (compared trimmed). */
  address: string;
  now: Date;
}

/** How long after its PreToolUse a call without a tool-call id may still claim a note by its address. */
const CLAIM_WINDOW_MS = 60_000;

/** Unclaimed notes older than this are removed (their call never reached this machine's server). */
const EXPIRE_MS = 10 * 60_000;

/** The notes' folder under `dataDir`. */
export function memoryReadsDir(dataDir: string): string {
  return `${dataDir}/memory-reads`;
}

/**
 * Writes one note (atomically: a reader never sees half a file). Throws on
 * I/O errors; the hook logs them.
 */
export function noteMemoryRead(dir: string, note: MemoryReadNote): void {
  privateDir(dir, { narrow: true });
  const name = `${Date.parse(note.noted_at)}-${crypto.randomUUID()}`;
  writePrivateFile(`${dir}/${name}.json`, JSON.stringify(note));
}

function readNote(path: string): MemoryReadNote | null {
  try {
    const n = JSON.parse(Deno.readTextFileSync(path));
    return typeof n?.user_id === "string" && typeof n?.address === "string" &&
        typeof n?.noted_at === "string"
      ? n as MemoryReadNote
      : null;
  } catch {
    return null;
  }
}

function removed(path: string): boolean {
  try {
    Deno.removeSync(path);
    return true;
  } catch {
    return false; // claimed by another server, or already expired
  }
}

/**
 * Claims the note of this call: by tool-call id when the request carries
 * one; otherwise the most recent note of this user for the same address
 * within {@link CLAIM_WINDOW_MS} — of the server's session when it knows
 * one, so a claim never crosses sessions. Returns null when none matches (or
 * the folder does not exist); never throws. Expired notes are removed on the
 * way.
 */
export function claimMemoryRead(dir: string, q: MemoryReadQuery): MemoryReadNote | null {
  const nowMs = q.now.getTime();
  const address = q.address.trim();
  const candidates: { path: string; note: MemoryReadNote; at: number }[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const at = Number(entry.name.slice(0, entry.name.indexOf("-")));
      const path = `${dir}/${entry.name}`;
      if (!Number.isFinite(at) || nowMs - at > EXPIRE_MS) {
        removed(path);
        continue;
      }
      if (!entry.name.endsWith(".json")) continue;
      const note = readNote(path);
      if (note === null || note.user_id !== q.userId) continue;
      const matches = q.toolUseId !== null
        ? note.tool_use_id === q.toolUseId
        : note.address === address && nowMs - at <= CLAIM_WINDOW_MS &&
          (q.sessionId === null || note.session_id === q.sessionId);
      if (matches) candidates.push({ path, note, at });
    }
  } catch {
    return null;
  }
  candidates.sort((a, b) => b.at - a.at);
  return candidates.find((c) => removed(c.path))?.note ?? null;
}

/**
 * `rgraph forget`: removes the notes of `userId` that `matches` selects and
 * returns how many there were; with `dryRun` it only counts them. Notes of
 * other users stay, whatever `matches` says. A missing folder holds none.
 */
export function forgetMemoryReads(
  dir: string,
  userId: string,
  matches: (note: MemoryReadNote) => boolean,
  dryRun: boolean,
): number {
  let count = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
  for (const entry of entries) {
    if (!entry.name.endsWith(".json")) continue;
    const path = `${dir}/${entry.name}`;
    const note = readNote(path);
    if (note === null || note.user_id !== userId || !matches(note)) continue;
    // A note claimed by a server meanwhile is gone already: it counts only if this removed it.
    if (dryRun || removed(path)) count++;
  }
  return count;
}
