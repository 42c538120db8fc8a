/**
 * Owner-only files and folders, whatever the umask, and never through a
 * planted link. Everything rgraph keeps in its data directory (the store,
 * logs, caches, locks, the hook bundle) is a record of what one person read
 * or code every hook runs, so it is made here:
 *
 * - {@link privateDir} creates a folder 0700, and refuses an existing one
 *   owned by another user or writable by group or others — as ssh refuses
 *   a too-open `~/.ssh` — with the one line that fixes it.
 * - {@link writePrivateFile}, {@link createPrivateFile}, {@link appendPrivateFile}
 *   and {@link openPrivateFile} create files 0600, and open an existing one only
 *   when it is a regular file of ours: a symbolic link, a hard link, another
 *   user's file or one group or others may write is refused
 *   ({@link UnsafePathError}) before a byte is written or truncated. An
 *   existing file of ours that others may only read (an older rgraph made
 *   them 0644) is narrowed to 0600.
 *
 * Deno has no `O_NOFOLLOW`, so "never through a link" is built from what it
 * has: a new file is created with `createNew` (`O_CREAT|O_EXCL`, which fails
 * on any existing name, a dangling link included); an existing one is
 * `lstat`ed, opened without truncating, and its `fstat` must be the same
 * file (device and inode) — a link swapped in between is caught.
 *
 * Loaded by the hook on every tool call: Deno built-ins only.
 *
 * @example
 * ```ts
 * import { appendPrivateFile, privateDir } from "./private_files.ts";
 * const dir = privateDir(`${Deno.env.get("HOME")}/.local/share/rgraph`); // 0700
 * appendPrivateFile(`${dir}/hook.log`, "one line\n"); // 0600
 * ```
 * @module
 */

import { redact, UserError } from "../errors.ts";
import { shellQuote } from "../invocation.ts";

/** Owner read and write: every file rgraph keeps. */
export const PRIVATE_FILE_MODE = 0o600;
/** Owner only: every folder rgraph keeps. */
export const PRIVATE_DIR_MODE = 0o700;

const GROUP_OTHER_WRITE = 0o022;
const GROUP_OTHER_ANY = 0o077;
const STICKY = 0o1000;

/**
 * A path rgraph will not use: another user's, open to others' writes, or
 * a link where a file of ours belongs. The message is one line ending in
 * the fix.
 *
 * @example
 * ```ts
 * import { UnsafePathError } from "./private_files.ts";
 * const e = new UnsafePathError("/tmp/d", "writable", "is writable by group or others (mode 0777)", "chmod 700 /tmp/d");
 * e.message; // "/tmp/d is writable by group or others (mode 0777): chmod 700 /tmp/d"
 * ```
 */
export class UnsafePathError extends UserError {
  constructor(
    readonly path: string,
    readonly reason: UnsafeReason,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${path} ${problem}: ${fix}`);
    this.name = "UnsafePathError";
  }
}

/**
 * Why a path was refused: another user's (`owner`), writable by group or
 * others (`writable`), a symbolic or hard link or a file swapped while being
 * opened (`link`), or a file where a folder belongs or the reverse (`kind`).
 */
export type UnsafeReason = "owner" | "writable" | "link" | "kind";

/** A path as one shell word, for a fix line a person pastes. */
const q = shellQuote;

/**
 * Permission bits as `ls -l`'s reader writes them: `0644`, `01777`.
 *
 * @example
 * ```ts
 * import { octal } from "./private_files.ts";
 * octal(0o100644); // "0644"
 * ```
 */
export function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}

let uidOfProcess: number | null | undefined;

/**
 * This process's user id, or `null` where there is none (Windows). The
 * bundled hook runs without `--allow-sys`, so there it is read from a file
 * the process creates (and removes) in the temporary folder.
 *
 * @example
 * ```ts
 * import { currentUid } from "./private_files.ts";
 * currentUid(); // 1000
 * ```
 */
export function currentUid(): number | null {
  if (uidOfProcess !== undefined) return uidOfProcess;
  // Asked first, not tried: the first error a process throws is slow to build (the hook's cost).
  if (Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted") {
    uidOfProcess = Deno.uid();
  } else {
    try {
      const probe = Deno.makeTempFileSync({ prefix: "rgraph-uid-" });
      try {
        uidOfProcess = Deno.lstatSync(probe).uid;
      } finally {
        Deno.removeSync(probe);
      }
    } catch {
      uidOfProcess = null;
    }
  }
  return uidOfProcess;
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (e) {
    // A file where a parent folder belongs: nothing there either.
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return null;
    throw e;
  }
}

/** Refuses what another user owns or may write; `what` names it in the message. */
function checkOwner(path: string, info: Deno.FileInfo, what: "folder" | "file"): void {
  const me = currentUid();
  if (me !== null && info.uid !== null && info.uid !== me) {
    const fix = what === "folder"
      ? `rgraph keeps private data only in a folder of yours; move it away (mv ${q(path)} ${
        q(`${path}.untrusted`)
      }) or point XDG_DATA_HOME or [store] path elsewhere`
      : `remove it (rm ${q(path)}) and let rgraph create its own`;
    throw new UnsafePathError(path, "owner", `is owned by another user (uid ${info.uid})`, fix);
  }
  if (info.mode !== null && (info.mode & GROUP_OTHER_WRITE) !== 0) {
    const shared = what === "folder" && (info.mode & STICKY) !== 0;
    const fix = shared
      ? "it is a shared folder (like /tmp): keep rgraph's data in a folder of your own (set XDG_DATA_HOME or [store] path)"
      : what === "folder"
      ? `if its contents are yours, chmod go-w ${q(path)}; else move it away`
      : `if it is yours, chmod 600 ${q(path)}; else remove it`;
    throw new UnsafePathError(
      path,
      "writable",
      `is writable by group or others (mode ${octal(info.mode)})`,
      fix,
    );
  }
}

/**
 * Verifies the existing folder `path` (a link to a folder is followed: the
 * link must be ours, the folder too): ours, not writable by group or
 * others. Narrows a folder others may only read to 0700 when `narrow`.
 */
function checkDir(path: string, narrow: boolean): void {
  const link = Deno.lstatSync(path);
  if (link.isSymlink) checkOwner(path, { ...link, mode: null }, "file");
  const info = link.isSymlink ? Deno.statSync(path) : link;
  if (!info.isDirectory) {
    throw new UnsafePathError(
      path,
      "kind",
      "is not a folder",
      `move it aside (mv ${q(path)} ${q(`${path}.aside`)})`,
    );
  }
  checkOwner(path, info, "folder");
  if (narrow && info.mode !== null && (info.mode & GROUP_OTHER_ANY) !== 0) {
    Deno.chmodSync(path, info.mode & PRIVATE_DIR_MODE);
  }
}

/** Options of {@link privateDir}. */
export interface PrivateDirOptions {
  /**
   * Narrow an existing folder others may read to 0700. For folders only
   * rgraph uses (its default data directory and what it makes inside);
   * a folder the config names (`[store] path`'s) keeps the mode its owner
   * gave it, as long as others cannot write to it.
   */
  narrow?: boolean;
}

/**
 * Creates `path` (and missing parents) 0700, or verifies the existing
 * folder: refused with {@link UnsafePathError} when another user owns it or
 * group or others may write to it. Returns `path`.
 *
 * @example
 * ```ts
 * import { privateDir } from "./private_files.ts";
 * const spool = privateDir("/home/me/.local/share/rgraph/spool", { narrow: true });
 * ```
 */
export function privateDir(path: string, options: PrivateDirOptions = {}): string {
  try {
    Deno.mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    // Something else by that name: checkDir says what.
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
  checkDir(path, options.narrow ?? false);
  return path;
}

/**
 * Verifies the existing folder `path` as {@link privateDir} does, without
 * creating it; `false` when it does not exist.
 *
 * @example
 * ```ts
 * import { checkPrivateDir } from "./private_files.ts";
 * checkPrivateDir("/tmp/nowhere"); // false
 * ```
 */
export function checkPrivateDir(path: string, options: PrivateDirOptions = {}): boolean {
  if (lstatOrNull(path) === null) return false;
  checkDir(path, options.narrow ?? false);
  return true;
}

/**
 * Refuses an existing `path` that is not a regular file of ours with a
 * single link and no write for group or others; narrows one others may
 * read to 0600. Returns what `lstat` saw, or `null` when nothing is there.
 */
function checkExistingFile(path: string): Deno.FileInfo | null {
  const info = lstatOrNull(path);
  if (info === null) return null;
  if (info.isSymlink) {
    throw new UnsafePathError(
      path,
      "link",
      "is a symbolic link where rgraph keeps a file of its own",
      `remove the link (rm ${q(path)})`,
    );
  }
  if (!info.isFile) {
    throw new UnsafePathError(
      path,
      "kind",
      "is not a regular file",
      `move it aside (mv ${q(path)} ${q(`${path}.aside`)})`,
    );
  }
  checkOwner(path, info, "file");
  if (info.nlink !== null && info.nlink > 1) {
    throw new UnsafePathError(
      path,
      "link",
      `has ${info.nlink} hard links, so it is also another file`,
      `remove it (rm ${q(path)}) and let rgraph create its own`,
    );
  }
  if (info.mode !== null && (info.mode & GROUP_OTHER_ANY) !== 0) {
    Deno.chmodSync(path, info.mode & PRIVATE_DIR_MODE & ~0o111);
  }
  return info;
}

/**
 * Verifies an existing file at `path` the way {@link openPrivateFile} does
 * (refusing a link or another user's file, narrowing one others may read to
 * 0600), without opening it; `false` when there is none. For files another
 * library opens (SQLite's database and its `-wal`, `-shm`, `-journal`).
 *
 * @example
 * ```ts
 * import { checkPrivateFile } from "./private_files.ts";
 * checkPrivateFile("/home/me/.local/share/rgraph/rgraph.db-wal"); // true, now 0600
 * ```
 */
export function checkPrivateFile(path: string): boolean {
  return checkExistingFile(path) !== null;
}

/**
 * What is wrong with the existing `path` as a private folder or file of
 * rgraph's, changing nothing (for `rgraph doctor`): the refusal rgraph would
 * give, `"readable"` when others may only read it (narrowed the next time
 * rgraph writes it), or `null` when it is owner-only (or not there).
 *
 * @example
 * ```ts
 * import { inspectPrivate } from "./private_files.ts";
 * inspectPrivate("/home/me/.local/share/rgraph/hook.log", "file"); // null, or "readable"
 * ```
 */
export function inspectPrivate(
  path: string,
  what: "folder" | "file",
): UnsafePathError | "readable" | null {
  try {
    const link = lstatOrNull(path);
    if (link === null) return null;
    let info = link;
    if (what === "file") {
      if (link.isSymlink) {
        checkExistingFile(path); // throws: a link
      }
      if (!link.isFile) {
        return new UnsafePathError(path, "kind", "is not a regular file", "move it aside");
      }
    } else {
      if (link.isSymlink) checkOwner(path, { ...link, mode: null }, "file");
      info = link.isSymlink ? Deno.statSync(path) : link;
      if (!info.isDirectory) {
        return new UnsafePathError(path, "kind", "is not a folder", "move it aside");
      }
    }
    checkOwner(path, info, what);
    return info.mode !== null && (info.mode & GROUP_OTHER_ANY) !== 0 ? "readable" : null;
  } catch (e) {
    if (e instanceof UnsafePathError) return e;
    throw e;
  }
}

/** How {@link openPrivateFile} opens: reading and writing, appending, or emptied first. */
export interface PrivateOpenOptions {
  /** Writes go to the end (`O_APPEND`). */
  append?: boolean;
  /** Emptied once it is known to be ours (never before). */
  truncate?: boolean;
}

/**
 * Opens `path` for reading and writing, creating it 0600, never through a
 * planted link: see the module doc. Throws {@link UnsafePathError} for a
 * path that is not a regular file of ours.
 *
 * @example
 * ```ts
 * import { openPrivateFile } from "./private_files.ts";
 * using lock = openPrivateFile("/home/me/.local/share/rgraph/sweep.lock");
 * lock.lockSync(true);
 * ```
 */
export function openPrivateFile(path: string, options: PrivateOpenOptions = {}): Deno.FsFile {
  const access = { read: true, write: !options.append, append: options.append ?? false };
  // Two tries: a file removed between the failed create and the lstat is created on the second.
  for (let attempt = 0;; attempt++) {
    try {
      return Deno.openSync(path, { ...access, createNew: true, mode: PRIVATE_FILE_MODE });
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists) || attempt > 0) throw e;
    }
    const seen = checkExistingFile(path);
    if (seen === null) continue;
    const file = Deno.openSync(path, access);
    try {
      const opened = file.statSync();
      if (opened.ino !== seen.ino || opened.dev !== seen.dev || !opened.isFile) {
        throw new UnsafePathError(
          path,
          "link",
          "was replaced while rgraph opened it",
          `check who else writes to ${q(path.slice(0, path.lastIndexOf("/")) || "/")}`,
        );
      }
      if (options.truncate) file.truncateSync(0);
      return file;
    } catch (e) {
      file.close();
      throw e;
    }
  }
}

const encoder = new TextEncoder();

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
}

/**
 * Appends `text` to `path` (created 0600), never through a planted link, with
 * every secret the process holds redacted (`redact` in `errors.ts`): rgraph's
 * logs are written here.
 *
 * @example
 * ```ts
 * import { appendPrivateFile } from "./private_files.ts";
 * appendPrivateFile("/home/me/.local/share/rgraph/sweep.log", "2026-01-01T00:00:00Z swept 3\n");
 * ```
 */
export function appendPrivateFile(path: string, text: string): void {
  using file = openPrivateFile(path, { append: true });
  // Every log rgraph keeps is appended here: a password or token a message quotes stays out.
  writeAll(file, encoder.encode(redact(text)));
}

/**
 * Replaces `path` with `data` in one rename (a reader sees the old file or
 * the new one), written 0600 under a fresh name in the same folder.
 * Refuses a `path` that is a link or another user's file rather than
 * replacing it.
 *
 * @example
 * ```ts
 * import { writePrivateFile } from "./private_files.ts";
 * writePrivateFile("/home/me/.local/share/rgraph/hook-config.json", "{}");
 * ```
 */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  checkExistingFile(path);
  const tmp = writeAside(path, data);
  try {
    Deno.renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

/**
 * Creates `path` holding `data` unless something is there already (a link
 * included, which is left alone); returns whether it did. The file appears
 * whole and 0600: written under a fresh name in the same folder, then
 * hard-linked into place, which fails on any existing name. Of two processes
 * creating it at once one wins, and neither (nor any reader) ever sees it
 * empty or half written, as a file made `createNew` and then written could be.
 *
 * @example
 * ```ts
 * import { createPrivateFile } from "./private_files.ts";
 * createPrivateFile("/home/me/.config/rgraph/config.toml", "[identity]\n"); // true; false the next time
 * ```
 */
export function createPrivateFile(path: string, data: string | Uint8Array): boolean {
  const tmp = writeAside(path, data);
  try {
    Deno.linkSync(tmp, path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  } finally {
    removeQuietly(tmp);
  }
}

/**
 * Replaces `path` with `data` in one rename, for a file rgraph writes outside
 * its data directory (a harness's settings, rgraph's config): written under
 * a fresh, unpredictable name beside it, created exclusively (a link or file
 * planted at that name — or at every name a process could guess — makes the
 * create fail, never a write through it), then renamed over `path`, which
 * replaces a link at `path` rather than writing where it points. The new
 * file gets `mode` exactly when given (an existing file's own mode), else
 * 0666 less the umask (a harness file's conventional mode). Whether `path`
 * may be written at all (a project's link leading out) is the caller's call.
 *
 * @example
 * ```ts
 * import { replaceFile } from "./private_files.ts";
 * replaceFile("/work/project/.mcp.json", "{}\n"); // 0644 under umask 022
 * replaceFile("/home/me/.config/rgraph/config.toml", "[identity]\n", 0o600);
 * ```
 */
export function replaceFile(path: string, data: string | Uint8Array, mode?: number): void {
  const tmp = writeAside(path, data, mode ?? 0o666);
  try {
    if (mode !== undefined) Deno.chmodSync(tmp, mode);
    Deno.renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

/** Tries of {@link writeAside}: a name taken (by chance, or planted) is given up for a fresh one. */
const ASIDE_TRIES = 8;

/**
 * Writes `data` to a fresh name beside `path` (in the same folder, so it can
 * be renamed or linked into place), created exclusively with `mode` (0600
 * unless given; the umask applies), and returns that name; removed again
 * when writing fails. A name already taken is never opened: another fresh
 * one is tried.
 */
function writeAside(path: string, data: string | Uint8Array, mode = PRIVATE_FILE_MODE): string {
  for (let attempt = 1;; attempt++) {
    const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(tmp, { write: true, createNew: true, mode });
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists && attempt < ASIDE_TRIES) continue;
      throw e;
    }
    try {
      writeAll(file, typeof data === "string" ? encoder.encode(data) : data);
    } catch (e) {
      file.close();
      removeQuietly(tmp);
      throw e;
    }
    file.close();
    return tmp;
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Never created, or already gone.
  }
}

/**
 * Runs `spawn` (which starts a child process) with the process umask at 077,
 * restored at once: the child inherits it, so every folder and file it makes
 * is owner-only whatever the person's umask. For the children that fill
 * folders rgraph's code is loaded from (`deno install` filling the Deno
 * cache, `deno bundle`).
 *
 * @example
 * ```ts
 * import { ownerOnlyUmask } from "./private_files.ts";
 * const child = ownerOnlyUmask(() => new Deno.Command("/usr/bin/deno", { args: ["install"] }).spawn());
 * ```
 */
export function ownerOnlyUmask<T>(spawn: () => T): T {
  const before = Deno.umask(GROUP_OTHER_ANY);
  try {
    return spawn();
  } finally {
    Deno.umask(before);
  }
}

/**
 * Every folder and file under `root` (itself included, a link at it
 * followed, links below it not) that group or others may write, visited in
 * turn; stops early when `visit` returns true.
 */
function eachWritableByOthers(root: string, visit: (path: string, mode: number) => boolean): void {
  const walk = (path: string, info: Deno.FileInfo): boolean => {
    if (info.mode !== null && (info.mode & GROUP_OTHER_WRITE) !== 0 && visit(path, info.mode)) {
      return true;
    }
    if (!info.isDirectory) return false;
    for (const e of Deno.readDirSync(path)) {
      if (e.isSymlink) continue;
      const child = `${path}/${e.name}`;
      if (walk(child, Deno.lstatSync(child))) return true;
    }
    return false;
  };
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(root);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  walk(root, info);
}

/**
 * Takes group and others' write away from `root` and everything under it
 * that is ours (a folder code is loaded from, filled by a process that ran
 * under a permissive umask); returns how many it changed.
 *
 * @example
 * ```ts
 * import { narrowTree } from "./private_files.ts";
 * narrowTree("/home/me/.cache/deno"); // 0: nothing group or others could write
 * ```
 */
export function narrowTree(root: string): number {
  const me = currentUid();
  let changed = 0;
  eachWritableByOthers(root, (path, mode) => {
    if (me === null || Deno.lstatSync(path).uid === me) {
      Deno.chmodSync(path, mode & 0o7777 & ~GROUP_OTHER_WRITE);
      changed++;
    }
    return false;
  });
  return changed;
}

/**
 * The first folder or file under `root` (itself included) that group or
 * others may write, with its mode, or null (for `rgraph doctor`).
 *
 * @example
 * ```ts
 * import { writableByOthers } from "./private_files.ts";
 * writableByOthers("/home/me/.cache/deno"); // null, or { path: ".../npm", mode: 0o40777 }
 * ```
 */
export function writableByOthers(root: string): { path: string; mode: number } | null {
  let found: { path: string; mode: number } | null = null;
  eachWritableByOthers(root, (path, mode) => {
    found = { path, mode };
    return true;
  });
  return found;
}
