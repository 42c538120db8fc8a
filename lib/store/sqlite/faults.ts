/**
 * What can go wrong with the embedded store's file, told apart so each comes
 * with its own fix: a one-line {@link StoreFaultError} naming the file. Every
 * failure to open, migrate, read or write the store passes through
 * {@link storeFault}; anything it does not recognise (a bug) is left as it is.
 *
 * @example
 * ```ts
 * import { storeFault } from "./faults.ts";
 * try {
 *   db.exec("BEGIN IMMEDIATE");
 * } catch (e) {
 *   throw storeFault("/home/me/.local/share/rgraph/rgraph.db", e);
 * }
 * ```
 * @module
 */

import { firstLine, UserError } from "../../errors.ts";

/** Why the store's file cannot be used. */
export type StoreFault =
  | "locked"
  | "read_only"
  | "not_a_database"
  | "damaged"
  | "full"
  | "io"
  | "cannot_open"
  | "too_new";

/** A store file that cannot be used: one line naming the file and the fix. */
export class StoreFaultError extends UserError {
  constructor(
    readonly path: string,
    readonly fault: StoreFault,
    /** What is wrong, naming the file. */
    readonly problem: string,
    /** What to do about it. */
    readonly fix: string,
  ) {
    super(`${problem}: ${fix}`);
    this.name = "StoreFaultError";
  }
}

/** SQLite's primary result codes (the low byte of an extended code) rgraph tells apart. */
const BY_CODE: Record<number, StoreFault> = {
  3: "cannot_open", // SQLITE_PERM
  5: "locked", // SQLITE_BUSY
  6: "locked", // SQLITE_LOCKED
  8: "read_only", // SQLITE_READONLY
  10: "io", // SQLITE_IOERR
  11: "damaged", // SQLITE_CORRUPT
  13: "full", // SQLITE_FULL
  14: "cannot_open", // SQLITE_CANTOPEN
  23: "cannot_open", // SQLITE_AUTH
  26: "not_a_database", // SQLITE_NOTADB
};

/** node:sqlite reports some failures (those of `exec`) with a message and no code. */
const BY_MESSAGE: [RegExp, StoreFault][] = [
  [/database (table )?is locked/i, "locked"],
  [/readonly database/i, "read_only"],
  [/not a database/i, "not_a_database"],
  [/malformed/i, "damaged"],
  [/disk is full/i, "full"],
  [/disk I\/O error/i, "io"],
  [/unable to open/i, "cannot_open"],
];

/** A path as a shell reads it back, for the commands a fix suggests. */
function shellPath(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The fault's one line, for `path` and what SQLite (or the file system) said. */
export function faultError(path: string, fault: StoreFault, detail: string): StoreFaultError {
  const p = shellPath(path);
  const aside = `move it aside (mv ${p} ${p}.broken) and rgraph starts a new one`;
  const [problem, fix] = {
    locked: [
      `the store ${path} is locked by another process (${detail})`,
      "wait for that process (a running sweep or migrate, say) to finish, or stop it to free the lock",
    ],
    read_only: [
      `the store ${path} is read-only (${detail})`,
      `let rgraph write it, its -wal and -shm files and its directory (chmod u+w ${p}*) ` +
      "or set [store] path to a writable file",
    ],
    not_a_database: [
      `the store ${path} is not a database (${detail})`,
      `restore it from a backup, or ${aside}`,
    ],
    damaged: [`the store ${path} is damaged (${detail})`, `restore it from a backup, or ${aside}`],
    full: [`the disk holding the store ${path} is full (${detail})`, "free some space on it"],
    io: [
      `the store ${path} cannot be read or written (${detail})`,
      `check the disk; if the file is damaged, restore it from a backup or ${aside}`,
    ],
    cannot_open: [
      `cannot open the store ${path} (${detail})`,
      "make its directory writable or set [store] path in the config file to one that is",
    ],
    too_new: [`cannot open the store ${path}: ${detail}`, "upgrade rgraph"],
  }[fault];
  return new StoreFaultError(path, fault, problem, fix);
}

/**
 * `e` as a {@link StoreFaultError} when it is a failure of SQLite (or of the
 * file system under the store); anything else, unchanged.
 */
export function storeFault(path: string, e: unknown): unknown {
  if (e instanceof StoreFaultError) return e;
  const err = e as { code?: unknown; errcode?: unknown; errstr?: unknown } | null;
  if (err?.code !== "ERR_SQLITE_ERROR") return e;
  const detail = firstLine(typeof err.errstr === "string" ? err.errstr : e);
  const byCode = typeof err.errcode === "number" ? BY_CODE[err.errcode & 0xff] : undefined;
  const fault = byCode ?? BY_MESSAGE.find(([pattern]) => pattern.test(detail))?.[1];
  return fault ? faultError(path, fault, detail) : e;
}

/** A file-system failure to create the store's directory or file. */
export function openFault(path: string, e: unknown): StoreFaultError {
  return faultError(path, "cannot_open", firstLine(e));
}
