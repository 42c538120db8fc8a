/**
 * The embedded store's one connection: the SQLite file opened owner-only, in
 * WAL mode with a generous busy timeout so dozens of hook processes can write
 * at once, its schema migrated; statements prepared once per connection; one
 * write transaction at a time; a failure of the file reported as its fault.
 * Every concern module of the store (`touches.ts`, `leases.ts`, …) runs its
 * statements through it.
 *
 * @example
 * ```ts
 * import { Connection } from "./connection.ts";
 * const db = new Connection("/home/me/.local/share/rgraph/rgraph.db");
 * await db.op(() => db.get("SELECT count(*) AS n FROM touches"));
 * db.close();
 * ```
 * @module
 */

import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { migrate, SchemaTooNewError } from "./schema.ts";
import { faultError, openFault, storeFault } from "./faults.ts";
import { privateDataDir } from "../../config/paths/mod.ts";
import { checkPrivateFile, openPrivateFile, UnsafePathError } from "../../host/mod.ts";

/** How long a writer waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** One row as an object of its columns. */
export type Row = Record<string, SQLInputValue>;

/** How a store is opened. */
export interface OpenOptions {
  /**
   * How long one statement waits for another process's lock before the
   * store reports itself locked (default {@link BUSY_TIMEOUT_MS}; the hook,
   * inside a harness's timeout, waits less).
   */
  busyTimeoutMs?: number;
}

/** The files SQLite keeps beside the database, which it creates with the database's mode. */
const COMPANIONS = ["-wal", "-shm", "-journal"];

/**
 * The companions beside the database at `path` now, from one listing of its
 * folder rather than an lstat of each: a missing file's lstat throws, and the
 * first error a Deno process builds costs ~0.5 ms, which the hook (whose
 * store never has a `-journal` in WAL mode) paid on every recorded Touch.
 */
function companionsOf(path: string): string[] {
  const at = path.lastIndexOf("/");
  const name = path.slice(at + 1);
  const wanted = new Set(COMPANIONS.map((suffix) => `${name}${suffix}`));
  const there: string[] = [];
  for (const e of Deno.readDirSync(at < 0 ? "." : path.slice(0, at) || "/")) {
    if (wanted.has(e.name)) there.push(`${path}${e.name.slice(name.length)}`);
  }
  return there;
}

/**
 * Makes the store at `path` owner-only before SQLite opens it: its folder
 * private (`privateDataDir`), the database created 0600 when missing —
 * SQLite would make it 0644 less the umask, and gives its `-wal`, `-shm` and
 * `-journal` the database's mode — and an existing database or companion
 * verified (never a planted link or another user's file; one an older rgraph
 * made 0644 narrowed to 0600). A path that is not private is refused as is
 * ({@link UnsafePathError}); anything else (a file where its folder belongs,
 * say) is the store's `cannot_open` fault.
 */
function ownerOnly(path: string): void {
  // Not node:path: loading it costs the hook ~20 ms per tool call.
  const dir = path.slice(0, path.lastIndexOf("/"));
  try {
    if (dir !== "") privateDataDir(dir);
    if (!checkPrivateFile(path)) openPrivateFile(path).close();
    for (const companion of companionsOf(path)) checkPrivateFile(companion);
  } catch (e) {
    // A folder or file where the other belongs is the store's own fault; the rest stays a refusal.
    throw e instanceof UnsafePathError && e.reason !== "kind" ? e : openFault(path, e);
  }
}

/** One open SQLite file. Its methods run synchronously, so each write is atomic in-process too. */
export class Connection {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #arrayStatements = new Map<string, StatementSync>();

  constructor(path: string, options: OpenOptions = {}) {
    this.path = path;
    if (path !== ":memory:") ownerOnly(path);
    try {
      this.#db = new DatabaseSync(path);
    } catch (e) {
      throw this.fault(e);
    }
    try {
      // A whole number we chose: pragmas take no bound parameters.
      this.#db.exec(
        `PRAGMA busy_timeout = ${Math.round(options.busyTimeoutMs ?? BUSY_TIMEOUT_MS)}`,
      );
      // Zeroes what a write frees, as it frees it: a forgotten Touch must not
      // survive in free space, and neither may the older copies of its row
      // that the Sweep's lease and settlement updates leave behind. Zeroing
      // at forget time alone would miss those. Costs only bytes on pages
      // being written anyway, and freed pages (rare: Touch rows are small).
      this.#db.exec("PRAGMA secure_delete = ON");
      // A row REPLACE removes fires its delete trigger, so the running counts
      // (tally.ts, memory_counts.ts) stay true.
      this.#db.exec("PRAGMA recursive_triggers = ON");
      migrate(this.#db);
      // NORMAL is durable against a killed process in WAL mode; only power loss can drop the last commit.
      this.#db.exec("PRAGMA synchronous = NORMAL");
    } catch (e) {
      this.#db.close();
      throw e instanceof SchemaTooNewError ? faultError(path, "too_new", e.message) : this.fault(e);
    }
  }

  /** A failure of the file as a one-line error naming it and the fix (see `faults.ts`). */
  fault(e: unknown): unknown {
    return storeFault(this.path, e);
  }

  /** Runs one store operation, reporting a failure of the file as its fault. */
  op<T>(fn: () => T): Promise<T> {
    return Promise.resolve().then(() => this.guard(fn));
  }

  /** {@link op} for the synchronous exports. */
  guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw this.fault(e);
    }
  }

  /** A prepared statement, prepared once per connection (opening stays cheap: only what is used is prepared). */
  stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.stmt(sql).all(...params) as Row[];
  }

  /** Rows of a statement with named parameters. */
  read = (sql: string, params: Record<string, SQLInputValue>): Row[] =>
    this.stmt(sql).all(params) as Row[];

  /** Rows as arrays (cheaper than objects when many rows are read). */
  tuples(sql: string, ...params: SQLInputValue[]): SQLInputValue[][] {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      // Present in Deno's node:sqlite, missing from the bundled Node typings.
      (s as StatementSync & { setReturnArrays(on: boolean): void }).setReturnArrays(true);
      this.#arrayStatements.set(sql, s);
    }
    return s.all(...params) as unknown as SQLInputValue[][];
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.stmt(sql).get(...params) as Row | undefined;
  }

  /** Runs one write statement; how many rows it changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.stmt(sql).run(...params).changes);
  }

  /** Runs statements that take no parameter (schema work, pragmas of values we chose). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** Runs `fn` in one write transaction (taking the write lock up front, so it never deadlocks on upgrade). */
  write<T>(fn: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      this.#db.exec("COMMIT");
      return out;
    } catch (e) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw e;
    }
  }

  /**
   * SQLite's count of commits other connections made to the file since this
   * one opened (`PRAGMA data_version`): one read of a number the library
   * keeps, no table touched. This connection's own writes do not move it.
   */
  dataVersion(): number {
    return (this.get("PRAGMA data_version") as { data_version: number }).data_version;
  }

  /**
   * Takes the write lock and writes, then rolls back: fails as a hook's
   * write would on this file (locked, read-only, in a read-only directory),
   * and changes nothing.
   */
  probeWrite(): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const { user_version } = this.get("PRAGMA user_version") as { user_version: number };
      // Rewrites the header page with the value it already holds; pragmas take no bound parameters.
      this.#db.exec(`PRAGMA user_version = ${Number(user_version)}`);
    } finally {
      this.#db.exec("ROLLBACK");
    }
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
