/**
 * The embedded store: one SQLite file through Deno's built-in `node:sqlite`,
 * in WAL mode with a generous busy timeout so dozens of hook processes can
 * write at once. Every statement is parameterised and prepared once per
 * connection.
 *
 * @example
 * ```ts
 * import { openEmbeddedStore } from "./store.ts";
 * const store = openEmbeddedStore("/home/me/.local/share/rgraph/rgraph.db");
 * await store.listTouches("alice");
 * await store.close();
 * ```
 * @module
 */

import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import {
  type Edge,
  forgetParams,
  type ForgetQuery,
  type LeaseHeld,
  type MemoryEntry,
  type MemoryPage,
  type MemoryQuery,
  type MemoryStats,
  requireUser,
  type ResourceHead,
  type ResourceWrite,
  type Settlement,
  type Store,
  type TouchQuery,
  type UserStats,
} from "../contract.ts";
import { migrate, SchemaTooNewError } from "./schema.ts";
import { avoidedSql, readUserStats } from "./tally.ts";
import { readMemoryCounts } from "./memory_counts.ts";
import { writeListingRow } from "./listing_row.ts";
import { byRecorded, newestTouches, type PageEnd, touchFromRow } from "./touches.ts";
import { type DeclaredEdge, declaredEdges } from "../declared.ts";
import { faultError, openFault, storeFault } from "./faults.ts";
import {
  INDEX_MARK_KEY,
  type IndexMark,
  type IndexSql,
  type IndexUpdate,
  parseMark,
  writeIndex,
} from "./local_index.ts";
import type {
  Comment,
  EdgeKind,
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  ResourceKind,
  Touch,
} from "../../types.ts";
import { privateDataDir } from "../../config/paths/mod.ts";
import { checkPrivateFile, openPrivateFile, UnsafePathError } from "../../host/mod.ts";

/** How long a writer waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** Bytes of zeros per row when the first forget claims a file's free pages (see `#scrubFreeSpace`). */
const SCRUB_CHUNK = 8 * 1024 * 1024;

/** Resources per write transaction (see `putResources`). */
const WRITE_GROUP = 50;

type Row = Record<string, SQLInputValue>;

/** See {@link SqliteStore.sweepSignal}. */
export interface SweepSignal {
  /** Pending Touches recorded after the asked time. */
  fresh: number;
  /** When the oldest and the newest of them were recorded. */
  oldest: string | null;
  newest: string | null;
  /** Some Touch waits for a Sweep: pending, or rate_limited to retry. */
  waiting: boolean;
}

/** How a store is opened. */
export interface OpenOptions {
  /**
   * How long one statement waits for another process's lock before the
   * store reports itself locked (default {@link BUSY_TIMEOUT_MS}; the hook,
   * inside a harness's timeout, waits less).
   */
  busyTimeoutMs?: number;
}

/** A stored JSON list of names; the empty list (most rows) skips the parser. */
function parseList(json: string): string[] {
  return json === "[]" ? [] : JSON.parse(json);
}

/** The files SQLite keeps beside the database, which it creates with the database's mode. */
const COMPANIONS = ["-wal", "-shm", "-journal"];

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
    for (const suffix of COMPANIONS) checkPrivateFile(`${path}${suffix}`);
  } catch (e) {
    // A folder or file where the other belongs is the store's own fault; the rest stays a refusal.
    throw e instanceof UnsafePathError && e.reason !== "kind" ? e : openFault(path, e);
  }
}

/** The embedded SQLite store. Its methods run synchronously inside, so each write is atomic in-process too. */
export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
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
      throw this.#fault(e);
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
      throw e instanceof SchemaTooNewError
        ? faultError(path, "too_new", e.message)
        : this.#fault(e);
    }
  }

  /** A failure of the file as a one-line error naming it and the fix (see `faults.ts`). */
  #fault(e: unknown): unknown {
    return storeFault(this.path, e);
  }

  /** Runs one store operation, reporting a failure of the file as its fault. */
  #op<T>(fn: () => T): Promise<T> {
    return Promise.resolve().then(() => this.#guard(fn));
  }

  /** {@link #op} for the synchronous exports. */
  #guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw this.#fault(e);
    }
  }

  /** A prepared statement, prepared once per connection (opening stays cheap: only what is used is prepared). */
  #stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  #all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#stmt(sql).all(...params) as Row[];
  }

  /** Rows as arrays (cheaper than objects when many rows are read). */
  #tuples(sql: string, ...params: SQLInputValue[]): SQLInputValue[][] {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      // Present in Deno's node:sqlite, missing from the bundled Node typings.
      (s as StatementSync & { setReturnArrays(on: boolean): void }).setReturnArrays(true);
      this.#arrayStatements.set(sql, s);
    }
    return s.all(...params) as unknown as SQLInputValue[][];
  }

  #get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#stmt(sql).get(...params) as Row | undefined;
  }

  #run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#stmt(sql).run(...params).changes);
  }

  /** Runs `fn` in one write transaction (taking the write lock up front, so it never deadlocks on upgrade). */
  #write<T>(fn: () => T): T {
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

  // --- Touches -------------------------------------------------------------

  recordTouches(touches: NewTouch[]): Promise<number> {
    return this.#op(() => {
      for (const t of touches) requireUser(t.user_id);
      if (touches.length === 0) return 0;
      // A Cache Read answered from memory is reckoned as it is recorded (see tally.ts); the
      // hook's Touches skip the reckoning.
      const sql = `INSERT INTO touches (id, user_id, session_id, provenance, address, kind,
          asked_limit, tool_name, tool_use_id, agent_id, harness, recorded_at, dedup_key, status,
          outcome, target, settled_at, avoided)
        VALUES ($id, $user, $session, $provenance, $address, $kind, $limit, $tool, $toolUse,
          $agent, $harness, $recorded, $dedup, $status, $outcome, $target, $settled,
          CASE WHEN $status = 'served' AND $outcome IN ('hit', 'subsumed')
            THEN ${avoidedSql("$limit", "coalesce($target, $address)")} ELSE 0 END)
        ON CONFLICT (user_id, dedup_key) DO NOTHING`;
      return this.#write(() => {
        let added = 0;
        for (const t of touches) {
          added += Number(
            this.#stmt(sql).run({
              id: crypto.randomUUID(),
              user: t.user_id,
              session: t.session_id,
              provenance: t.provenance,
              address: t.address,
              kind: t.kind,
              limit: t.limit,
              tool: t.tool_name,
              toolUse: t.tool_use_id,
              agent: t.agent_id,
              harness: t.harness,
              recorded: t.recorded_at,
              dedup: t.dedup_key,
              status: t.status,
              outcome: t.outcome ?? null,
              target: t.target ?? null,
              // A Cache Read is settled the moment it is answered.
              settled: t.status === "served" ? t.recorded_at : null,
            }).changes,
          );
        }
        return added;
      });
    });
  }

  listTouches(userId: string, query: TouchQuery = {}): Promise<Touch[]> {
    return this.#op(() => {
      requireUser(userId);
      const rows = this.#stmt(
        `SELECT * FROM touches WHERE user_id = $user
           AND ($session IS NULL OR session_id = $session)
           AND ($since IS NULL OR recorded_at >= $since)
           AND ($status IS NULL OR status = $status)
         ORDER BY recorded_at, rowid`,
      ).all({
        user: userId,
        session: query.session_id ?? null,
        since: query.since ?? null,
        status: query.status ?? null,
      }) as Row[];
      return rows.map(touchFromRow);
    });
  }

  async *touchPages(
    userId: string,
    query: TouchQuery = {},
    pageSize = 1000,
  ): AsyncGenerator<Touch[]> {
    requireUser(userId);
    const read = (sql: string, params: Record<string, SQLInputValue>) =>
      this.#stmt(sql).all(params) as Row[];
    let end: PageEnd | null = null;
    for (;;) {
      const after: PageEnd | null = end;
      const page: { touches: Touch[]; end: PageEnd | null } = await this.#op(() =>
        newestTouches(read, userId, query, after, pageSize)
      );
      if (page.touches.length > 0) yield page.touches;
      if (page.touches.length < pageSize) return;
      end = page.end;
    }
  }

  leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    return this.#op(() => {
      const now = Date.now();
      const rows = this.#write(() =>
        this.#all(
          // A rate-limited Touch is taken up again as pending. The first condition is
          // the partial index touches_sweepable's, word for word, so the index is used;
          // no settled_at is before '' (no retry asked).
          `UPDATE touches SET lease_owner = ?, lease_until = ?, status = 'pending', reason = NULL,
             settled_at = NULL
           WHERE id IN (
             SELECT id FROM touches
             WHERE (status = 'pending' OR (status = 'unresolved' AND reason = 'rate_limited'))
               AND (status = 'pending' OR settled_at < ?)
               AND (lease_until IS NULL OR lease_until <= ?)
             ORDER BY recorded_at, rowid LIMIT ?)
           RETURNING *`,
          owner,
          now + leaseMs,
          retrySettledBefore ?? "",
          now,
          limit,
        )
      );
      return rows.map(touchFromRow).sort(byRecorded);
    });
  }

  leasedByOthers(owner: string): Promise<LeaseHeld[]> {
    return this.#op(() =>
      this.#all(
        `SELECT address, lease_owner AS owner, lease_until AS until FROM touches
         WHERE status = 'pending' AND lease_owner IS NOT NULL AND lease_owner != ?
           AND lease_until > ?`,
        owner,
        Date.now(),
      ).map((r) => ({
        address: String(r.address),
        owner: String(r.owner),
        until: Number(r.until),
      }))
    );
  }

  settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    return this.#op(() => {
      const held = "id = ? AND lease_owner = ? AND status = 'pending'";
      if (settlement.status === "pending") {
        const failure = settlement.failure ?? null;
        this.#run(
          `UPDATE touches SET lease_owner = NULL, lease_until = NULL,
             failures = failures + (? IS NOT NULL), detail = coalesce(?, detail) WHERE ${held}`,
          failure,
          failure,
          id,
          owner,
        );
        return;
      }
      const [target, reason, detail] = settlement.status === "resolved"
        ? [settlement.target, null, null]
        : [null, settlement.reason, settlement.detail ?? null];
      this.#run(
        `UPDATE touches SET status = ?, target = coalesce(?, target), reason = ?, detail = ?,
           settled_at = ?, lease_owner = NULL, lease_until = NULL WHERE ${held}`,
        settlement.status,
        target,
        reason,
        detail,
        new Date().toISOString(),
        id,
        owner,
      );
    });
  }

  async forgetTouches(
    userId: string,
    query: ForgetQuery,
    options: { dryRun?: boolean } = {},
  ): Promise<Touch[]> {
    const params = forgetParams(userId, query);
    const where = `user_id = $user AND ($session IS NULL OR session_id = $session)
      AND ($since IS NULL OR recorded_at >= $since) AND ($before IS NULL OR recorded_at < $before)
      AND ($address IS NULL OR address = $address OR target = $address)`;
    try {
      if (options.dryRun) {
        return (this.#stmt(`SELECT * FROM touches WHERE ${where} ORDER BY recorded_at, rowid`)
          .all(params) as Row[]).map(touchFromRow);
      }
      const rows = this.#write(() =>
        this.#stmt(`DELETE FROM touches WHERE ${where} RETURNING *`).all(params) as Row[]
      );
      if (rows.length > 0) await this.#scrub();
      return rows.map(touchFromRow).sort(byRecorded);
    } catch (e) {
      throw this.#fault(e);
    }
  }

  /**
   * After a forget, leaves no copy of the deleted rows in the files. Rows
   * deleted now are zeroed as they go (secure_delete, see the constructor).
   * A file written before that may hold old copies in free space, so the
   * first forget on it rewrites it once ({@link #scrubFreeSpace}). Then the
   * write-ahead log, which holds the pages as they were before the delete,
   * is checkpointed and truncated.
   */
  async #scrub(): Promise<void> {
    if (this.path === ":memory:") return;
    if (!this.#get("SELECT value FROM store_meta WHERE key = 'touches_scrubbed'")) {
      this.#scrubFreeSpace();
      this.#run(
        "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('touches_scrubbed', ?)",
        new Date().toISOString(),
      );
    }
    // TRUNCATE waits (busy timeout) for readers of an older snapshot; a
    // reader mid-answer can outlast it, so try again a few times.
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = this.#get("PRAGMA wal_checkpoint(TRUNCATE)");
      if (r?.busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Zeroes every byte of free space in the file, as VACUUM would; VACUUM
   * itself is refused under rgraph's permissions (it attaches a database,
   * which Deno allows only with FFI access). First every free page is taken
   * into a throwaway table and freed again, which zeroes it now; then every
   * table is emptied, which frees (and zeroes) each page it held with the old
   * copies in their unused space, and refilled onto zeroed pages. One table
   * per transaction, so hooks wait for one table at a time, not the file.
   */
  #scrubFreeSpace(): void {
    const pageSize = this.#get("PRAGMA page_size")!.page_size as number;
    this.#write(() => {
      const free = this.#get("PRAGMA freelist_count")!.freelist_count as number;
      if (free === 0) return;
      this.#db.exec("CREATE TABLE rgraph_scrub (b BLOB)");
      // Whole pages' worth of blob claims every free page (and a few more).
      for (let left = free * pageSize; left > 0; left -= SCRUB_CHUNK) {
        this.#run("INSERT INTO rgraph_scrub (b) VALUES (zeroblob(?))", Math.min(left, SCRUB_CHUNK));
      }
      this.#db.exec("DROP TABLE rgraph_scrub");
    });
    const tables = this.#all(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    ).map((r) => `"${String(r.name).replaceAll('"', '""')}"`);
    for (const table of tables) {
      this.#write(() =>
        this.#db.exec(
          `CREATE TEMP TABLE rgraph_kept AS SELECT * FROM main.${table};
           DELETE FROM main.${table};
           INSERT INTO main.${table} SELECT * FROM temp.rgraph_kept;
           DROP TABLE temp.rgraph_kept;`,
        )
      );
    }
  }

  // --- Resources -----------------------------------------------------------

  /** The row id of the Resource stored under a current address or an alias. */
  #resolve(key: string): number | null {
    const row = this.#get(
      `SELECT id FROM resources WHERE address = ?
       UNION ALL SELECT resource_id FROM aliases WHERE key = ? LIMIT 1`,
      key,
      key,
    );
    return row ? (row.id as number) : null;
  }

  /**
   * Folds a stale Resource (another node id at an address this write claims,
   * e.g. an issue GitHub re-identified on transfer) into `into`: listings,
   * edges others declared and aliases follow the new row, the stale row goes.
   */
  #absorb(stale: number, into: number): void {
    this.#run("UPDATE listing_members SET resource_id = ? WHERE resource_id = ?", into, stale);
    // Edges other Resources declared follow; the stale row's own declarations
    // go (the Resource being written declares its own afresh).
    this.#run(
      `INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by)
       SELECT CASE from_id WHEN ?1 THEN ?2 ELSE from_id END, kind,
              CASE to_id WHEN ?1 THEN ?2 ELSE to_id END, declared_by
       FROM edges
       WHERE (from_id = ?1 OR to_id = ?1) AND declared_by != ?1
         AND from_id != ?2 AND to_id != ?2`,
      stale,
      into,
    );
    this.#run("DELETE FROM edges WHERE from_id = ?1 OR to_id = ?1 OR declared_by = ?1", stale);
    this.#run("DELETE FROM pending_refs WHERE declared_by = ?", stale);
    this.#run("UPDATE aliases SET resource_id = ? WHERE resource_id = ?", into, stale);
    this.#run("DELETE FROM comments WHERE resource_id = ?", stale);
    this.#run("DELETE FROM resource_data WHERE id = ?", stale);
    this.#run("DELETE FROM resources WHERE id = ?", stale);
  }

  #putOne(write: ResourceWrite): void {
    const r = write.resource;
    const address = r.address;
    const aliases = [...new Set(write.aliases ?? [])].filter((a) => a !== address);
    const previous = this.#get("SELECT address FROM resources WHERE node_id = ?", r.node_id)
      ?.address as string | undefined;
    // Rows of other node ids at addresses this write claims are stale: free
    // their addresses now, fold them into this Resource once it has a row.
    const stale: number[] = [];
    for (const key of [address, ...aliases]) {
      const other = this.#get(
        "SELECT id FROM resources WHERE address = ? AND node_id != ?",
        key,
        r.node_id,
      );
      if (!other) continue;
      stale.push(other.id as number);
      this.#run("UPDATE resources SET address = 'stale:' || id WHERE id = ?", other.id);
    }
    if (previous !== undefined && previous !== address) aliases.push(previous);

    const item = r.kind === "repository" ? null : r;
    const id = this.#get(
      `INSERT INTO resources (node_id, address, kind, owner, repo, number, title, state, author,
         labels, assignees, milestone, comment_count, fetched_at, updated_at, etag)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (node_id) DO UPDATE SET address = excluded.address, kind = excluded.kind,
         owner = excluded.owner, repo = excluded.repo, number = excluded.number,
         title = excluded.title, state = excluded.state, author = excluded.author,
         labels = excluded.labels, assignees = excluded.assignees, milestone = excluded.milestone,
         comment_count = excluded.comment_count, fetched_at = excluded.fetched_at,
         updated_at = excluded.updated_at, etag = excluded.etag
       RETURNING id`,
      r.node_id,
      address,
      r.kind,
      r.owner,
      r.repo,
      item?.number ?? null,
      item?.title ?? null,
      item?.state ?? null,
      item?.author ?? null,
      JSON.stringify(item?.labels ?? []),
      JSON.stringify(item?.assignees ?? []),
      item?.milestone ?? null,
      item?.comment_count ?? 0,
      r.fetched_at,
      r.updated_at,
      r.etag ?? null,
    )!.id as number;
    for (const s of stale) this.#absorb(s, id);
    // Comments live in their own rows; the rest of the Resource is kept whole.
    const rest: Record<string, unknown> = { ...r };
    delete rest.comments;
    delete rest.review_comments;
    this.#run(
      "INSERT OR REPLACE INTO resource_data (id, data) VALUES (?, ?)",
      id,
      JSON.stringify(rest),
    );
    this.#run("DELETE FROM aliases WHERE key = ?", address);
    for (const key of aliases) {
      this.#run("INSERT OR REPLACE INTO aliases (key, resource_id) VALUES (?, ?)", key, id);
    }

    this.#run("DELETE FROM comments WHERE resource_id = ?", id);
    if (item) {
      this.#putComments(id, item.comments, false);
      if (item.kind === "pull_request") this.#putComments(id, item.review_comments, true);
    }

    // A refetch redraws what this Resource declares and keeps what others declared.
    this.#run("DELETE FROM edges WHERE declared_by = ?", id);
    this.#run("DELETE FROM pending_refs WHERE declared_by = ?", id);
    for (const edge of declaredEdges(r)) this.#link(id, edge);
    // Edges stored Resources declared while waiting for this one.
    for (const key of [address, ...aliases]) {
      this.#run(
        `INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by)
         SELECT CASE direction WHEN 'out' THEN declared_by ELSE ?1 END, kind,
                CASE direction WHEN 'out' THEN ?1 ELSE declared_by END, declared_by
         FROM pending_refs WHERE target_key = ?2 AND declared_by != ?1`,
        id,
        key,
      );
      this.#run("DELETE FROM pending_refs WHERE target_key = ?", key);
    }
  }

  #putComments(id: number, comments: Comment[], review: boolean): void {
    comments.forEach((c, i) =>
      this.#run(
        `INSERT OR REPLACE INTO comments (node_id, resource_id, is_review, position, author,
           created_at, updated_at, body, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        c.node_id,
        id,
        review ? 1 : 0,
        i,
        c.author,
        c.created_at,
        c.updated_at ?? null,
        c.body,
        c.path ?? null,
      )
    );
  }

  /** Draws an edge `id` declares, or remembers it under the other end's key until that arrives. */
  #link(id: number, edge: DeclaredEdge): void {
    const other = this.#resolve(edge.key);
    if (other === id) return;
    if (other !== null) {
      const [from, to] = edge.direction === "out" ? [id, other] : [other, id];
      this.#run(
        "INSERT OR IGNORE INTO edges (from_id, kind, to_id, declared_by) VALUES (?, ?, ?, ?)",
        from,
        edge.kind,
        to,
        id,
      );
    } else {
      this.#run(
        `INSERT OR IGNORE INTO pending_refs (target_key, kind, declared_by, direction)
         VALUES (?, ?, ?, ?)`,
        edge.key,
        edge.kind,
        id,
        edge.direction,
      );
    }
  }

  /**
   * Each Resource lands whole (with its comments and edges) or not at all.
   * Writes are committed in groups of {@link WRITE_GROUP}: one commit per
   * Resource would rewrite the same pages hundreds of times on a big Sweep,
   * one commit per call would hold the write lock while hooks wait.
   */
  putResources(writes: ResourceWrite[]): Promise<void> {
    return this.#op(() => {
      for (let i = 0; i < writes.length; i += WRITE_GROUP) {
        this.#write(() => {
          for (const w of writes.slice(i, i + WRITE_GROUP)) this.#putOne(w);
        });
      }
    });
  }

  #comments(id: number, review: boolean): Comment[] {
    return this.#all(
      `SELECT node_id, author, created_at, updated_at, body, path FROM comments
       WHERE resource_id = ? AND is_review = ? ORDER BY position`,
      id,
      review ? 1 : 0,
    ).map((c) => {
      const out: Comment = {
        node_id: c.node_id as string,
        author: c.author as string | null,
        created_at: c.created_at as string,
        body: c.body as string,
      };
      if (c.updated_at !== null) out.updated_at = c.updated_at as string;
      if (c.path !== null) out.path = c.path as string;
      return out;
    });
  }

  getResource(address: string): Promise<Resource | null> {
    return this.#op(() => {
      const row = this.#get(
        `SELECT r.id, r.address, r.fetched_at, r.updated_at, r.etag, d.data
         FROM resources r JOIN resource_data d ON d.id = r.id
         WHERE r.id = (SELECT id FROM resources WHERE address = ?
                       UNION ALL SELECT resource_id FROM aliases WHERE key = ? LIMIT 1)`,
        address,
        address,
      );
      return row ? this.#resourceFrom(row) : null;
    });
  }

  /** A whole Resource from its head row and body (`id, address, fetched_at, updated_at, etag, data`). */
  #resourceFrom(row: Row): Resource {
    const data = JSON.parse(row.data as string);
    const out = {
      ...data,
      address: row.address,
      fetched_at: row.fetched_at,
      updated_at: row.updated_at,
    } as Resource;
    if (row.etag !== null || "etag" in data) out.etag = row.etag as string | null;
    const id = row.id as number;
    if (out.kind !== "repository") out.comments = this.#comments(id, false);
    if (out.kind === "pull_request") out.review_comments = this.#comments(id, true);
    return out;
  }

  getHeads(addresses: string[]): Promise<Map<string, ResourceHead>> {
    return this.#op(() => {
      const heads = new Map<string, ResourceHead>();
      if (addresses.length === 0) return heads;
      const cols = "r.node_id, r.kind, r.address, r.title, r.fetched_at, r.updated_at, r.etag";
      const keys = JSON.stringify(addresses);
      const rows = this.#all(
        `SELECT 0 AS via_alias, j.value AS asked, ${cols}
         FROM json_each(?) j JOIN resources r ON r.address = j.value
         UNION ALL
         SELECT 1, j.value, ${cols}
         FROM json_each(?) j JOIN aliases a ON a.key = j.value JOIN resources r ON r.id = a.resource_id
         ORDER BY 1`,
        keys,
        keys,
      );
      for (const r of rows) {
        const asked = r.asked as string;
        if (heads.has(asked)) continue;
        heads.set(asked, {
          node_id: r.node_id as string,
          kind: r.kind as ResourceKind,
          address: r.address as string,
          title: r.title as string | null,
          fetched_at: r.fetched_at as string,
          updated_at: r.updated_at as string,
          etag: r.etag as string | null,
        });
      }
      return heads;
    });
  }

  touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void> {
    return this.#op(() => {
      if (addresses.length === 0) return;
      const keys = JSON.stringify(addresses);
      this.#write(() => {
        this.#run(
          `UPDATE resources SET fetched_at = ? WHERE id IN (
             SELECT id FROM resources WHERE address IN (SELECT value FROM json_each(?))
             UNION SELECT resource_id FROM aliases WHERE key IN (SELECT value FROM json_each(?)))`,
          fetchedAt,
          keys,
          keys,
        );
        this.#run(
          "UPDATE listings SET fetched_at = ? WHERE key IN (SELECT value FROM json_each(?))",
          fetchedAt,
          keys,
        );
      });
    });
  }

  edges(address: string): Promise<Edge[]> {
    return this.#op(() => {
      const id = this.#resolve(address);
      if (id === null) return [];
      return this.#all(
        `SELECT e.kind AS kind, f.address AS "from", t.address AS "to" FROM edges e
         JOIN resources f ON f.id = e.from_id JOIN resources t ON t.id = e.to_id
         WHERE e.from_id = ?
         UNION
         SELECT e.kind, f.address, t.address FROM edges e
         JOIN resources f ON f.id = e.from_id JOIN resources t ON t.id = e.to_id
         WHERE e.to_id = ?
         ORDER BY 1, 2, 3`,
        id,
        id,
      ).map((e) => ({ kind: e.kind as EdgeKind, from: e.from as string, to: e.to as string }));
    });
  }

  // --- Listings ------------------------------------------------------------

  putListing(listing: Listing, members: string[]): Promise<void> {
    return this.#op(() =>
      this.#write(() => {
        this.#run("DELETE FROM listing_members WHERE listing_key = ?", listing.key);
        const seen = new Set<number>();
        for (const address of members) {
          const id = this.#resolve(address);
          if (id === null || seen.has(id)) continue;
          this.#run(
            "INSERT INTO listing_members (listing_key, position, resource_id) VALUES (?, ?, ?)",
            listing.key,
            seen.size,
            id,
          );
          seen.add(id);
        }
        // A member that could not be stored makes the Listing partial: it must not pass for complete.
        const stored = seen.size;
        const complete = listing.fully_expanded && stored >= listing.member_count;
        writeListingRow((q, ...p) => this.#run(q, ...p), listing, stored, complete);
      })
    );
  }

  #listing(r: Row): Listing {
    return {
      key: r.key as string,
      owner: r.owner as string,
      repo: r.repo as string,
      listing: r.listing as ListingKind,
      filters: JSON.parse(r.filters as string),
      limit: r.asked_limit as number | null,
      total_count: r.total_count as number,
      member_count: r.member_count as number,
      fully_expanded: r.fully_expanded === 1,
      fetched_at: r.fetched_at as string,
    };
  }

  getListing(key: string): Promise<Listing | null> {
    return this.#op(() => {
      const row = this.#get("SELECT * FROM listings WHERE key = ?", key);
      return row ? this.#listing(row) : null;
    });
  }

  findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]> {
    return this.#op(() =>
      this.#all(
        "SELECT * FROM listings WHERE owner = ? AND repo = ? AND listing = ? ORDER BY key",
        owner.toLowerCase(),
        repo.toLowerCase(),
        kind,
      ).map((r) => this.#listing(r))
    );
  }

  listingMembers(
    key: string,
    range?: { offset: number; limit: number },
  ): Promise<ListingMember[]> {
    return this.#op(() => {
      const from = Math.max(0, range?.offset ?? 0);
      const to = range ? from + Math.max(0, range.limit) : Number.MAX_SAFE_INTEGER;
      // Rows as arrays: a 10,000-member listing is read whole for subsumption.
      const rows = this.#tuples(
        `SELECT m.position, r.address, r.number, r.kind, r.title, r.state, r.author, r.labels,
           r.assignees, r.milestone, r.updated_at, r.comment_count
         FROM listing_members m JOIN resources r ON r.id = m.resource_id
         WHERE m.listing_key = ? AND m.position >= ? AND m.position < ?
         ORDER BY m.position`,
        key,
        from,
        to,
      );
      return rows.map((r) => ({
        position: r[0] as number,
        address: r[1] as string,
        number: r[2] as number,
        kind: r[3] as ListingMember["kind"],
        title: r[4] as string,
        state: r[5] as ListingMember["state"],
        author: r[6] as string | null,
        labels: parseList(r[7] as string),
        assignees: parseList(r[8] as string),
        milestone: r[9] as string | null,
        updated_at: r[10] as string,
        comment_count: r[11] as number,
      }));
    });
  }

  // --- Reports -------------------------------------------------------------

  userStats(userId: string, since?: string): Promise<UserStats> {
    return this.#op(() => {
      requireUser(userId);
      return readUserStats((sql, params) => this.#stmt(sql).all(params) as Row[], userId, since);
    });
  }

  memoryStats(): Promise<MemoryStats> {
    return this.#op(() => {
      const { resources, comments } = readMemoryCounts((sql, params) =>
        this.#stmt(sql).all(params) as Row[]
      );
      return {
        resources,
        comments,
        // Listings are few (one per question asked of a repository): counted as they are.
        listings: this.#get("SELECT count(*) AS n FROM listings")!.n as number,
        size_bytes: this.#sizeOnDisk(),
      };
    });
  }

  searchMemory(query: MemoryQuery): Promise<MemoryPage> {
    return this.#op(() => {
      // A LIKE pattern matching `text` literally anywhere; ASCII case is ignored by LIKE itself.
      const pattern = query.text ? `%${query.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const matching = `
        SELECT address, kind, title, state, fetched_at, updated_at FROM resources
         WHERE $p IS NULL OR address LIKE $p ESCAPE '\\' OR title LIKE $p ESCAPE '\\'
        UNION ALL
        SELECT key, 'listing', NULL, NULL, fetched_at, NULL FROM listings
         WHERE $p IS NULL OR key LIKE $p ESCAPE '\\'`;
      const entries = this.#stmt(
        `${matching} ORDER BY fetched_at DESC, address LIMIT $limit OFFSET $offset`,
      ).all({ p: pattern, limit: query.limit, offset: query.offset ?? 0 }) as Row[];
      const total = this.#stmt(`SELECT count(*) AS n FROM (${matching})`).get({
        p: pattern,
      }) as Row;
      return {
        entries: entries.map((r) => ({
          address: r.address as string,
          kind: r.kind as MemoryEntry["kind"],
          title: r.kind === "repository" ? null : r.title as string | null,
          state: r.state as string | null,
          fetched_at: r.fetched_at as string,
          updated_at: r.updated_at as string | null,
        })),
        total: total.n as number,
      };
    });
  }

  /**
   * SQLite's count of commits other connections made to the file since this
   * one opened (`PRAGMA data_version`): one read of a number the library
   * keeps, no table touched. This connection's own writes do not move it,
   * and a viewer writes nothing.
   */
  changeMark(_userId: string): Promise<string> {
    return this.#op(() => {
      const row = this.#get("PRAGMA data_version") as { data_version: number };
      return String(row.data_version);
    });
  }

  /** The database file plus its write-ahead log; null for an in-memory database. */
  #sizeOnDisk(): number | null {
    if (this.path === ":memory:") return null;
    let total = 0;
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        total += Deno.statSync(file).size;
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    }
    return total;
  }

  // --- The background scheduler's signal --------------------------------------

  /**
   * What the background scheduler asks every few seconds, in two index
   * reads: the pending Touches recorded after `since` (every pending one when
   * null), and whether any Touch waits for a Sweep at all (pending, or
   * rate_limited to retry). Every user's: the machine's Sweep takes them all.
   */
  sweepSignal(since: string | null): SweepSignal {
    return this.#guard(() => this.#sweepSignal(since));
  }

  #sweepSignal(since: string | null): SweepSignal {
    const fresh = this.#get(
      `SELECT count(*) AS n, min(recorded_at) AS oldest, max(recorded_at) AS newest
       FROM touches WHERE status = 'pending' AND recorded_at > ?`,
      since ?? "",
    )!;
    const waiting = this.#get(
      `SELECT EXISTS (SELECT 1 FROM touches
         WHERE status = 'pending' OR (status = 'unresolved' AND reason = 'rate_limited')) AS w`,
    )!;
    return {
      fresh: fresh.n as number,
      oldest: fresh.oldest as string | null,
      newest: fresh.newest as string | null,
      waiting: waiting.w === 1,
    };
  }

  // --- Export (migrate to a graph store, the hooks' outbox) -------------------

  /**
   * Every stored Resource with the aliases it answers to, `batch` at a time,
   * in storage order; memory stays bounded whatever the store's size.
   *
   * @example
   * ```ts
   * for (const writes of local.exportResources()) await graph.putResources(writes);
   * ```
   */
  *exportResources(batch = 200): Generator<ResourceWrite[]> {
    let after = 0;
    for (;;) {
      const writes = this.#guard(() => {
        const rows = this.#all(
          `SELECT r.id, r.address, r.fetched_at, r.updated_at, r.etag, d.data
           FROM resources r JOIN resource_data d ON d.id = r.id
           WHERE r.id > ? ORDER BY r.id LIMIT ?`,
          after,
          batch,
        );
        if (rows.length) after = rows[rows.length - 1].id as number;
        return rows.map((row) => {
          const aliases = this.#all(
            "SELECT key FROM aliases WHERE resource_id = ? ORDER BY key",
            row.id,
          ).map((a) => a.key as string);
          const write: ResourceWrite = { resource: this.#resourceFrom(row) };
          if (aliases.length) write.aliases = aliases;
          return write;
        });
      });
      if (writes.length === 0) return;
      yield writes;
    }
  }

  /** Every stored Listing with its member addresses in order (what `putListing` takes). */
  *exportListings(): Generator<{ listing: Listing; members: string[] }> {
    for (const row of this.#guard(() => this.#all("SELECT * FROM listings ORDER BY key"))) {
      const listing = this.#listing(row);
      const members = this.#guard(() =>
        this.#all(
          `SELECT r.address FROM listing_members m JOIN resources r ON r.id = m.resource_id
           WHERE m.listing_key = ? ORDER BY m.position`,
          listing.key,
        )
      ).map((m) => m.address as string);
      yield { listing, members };
    }
  }

  /**
   * The outbox: Touches (of every user on this machine) not yet copied to the
   * shared store, oldest first. A hook with a graph store configured still
   * records here only; the drain copies them and calls {@link markExported}.
   */
  unexportedTouches(limit: number): Promise<Touch[]> {
    return this.#op(() =>
      this.#all(
        `SELECT * FROM touches WHERE exported_at IS NULL ORDER BY recorded_at, rowid LIMIT ?`,
        limit,
      ).map(touchFromRow)
    );
  }

  /** Marks Touches as copied to the shared store, so the outbox never sends them twice. */
  markExported(ids: string[], at: string): Promise<void> {
    return this.#op(() => {
      if (ids.length === 0) return;
      this.#run(
        `UPDATE touches SET exported_at = ?
         WHERE exported_at IS NULL AND id IN (SELECT value FROM json_each(?))`,
        at,
        JSON.stringify(ids),
      );
    });
  }

  /** Where the local index stands with its graph server (see `local_index.ts`); `null` before the first sync. */
  indexMark(): Promise<IndexMark | null> {
    return this.#op(() =>
      parseMark(
        (this.#get("SELECT value FROM store_meta WHERE key = ?", INDEX_MARK_KEY)?.value as
          | string
          | undefined) ?? null,
      )
    );
  }

  /** Writes one step of a sync into the local index with its cursor, atomically. */
  putIndex(update: IndexUpdate): Promise<void> {
    const sql: IndexSql = {
      all: (q, ...p) => this.#all(q, ...p),
      get: (q, ...p) => this.#get(q, ...p),
      run: (q, ...p) => this.#run(q, ...p),
      absorb: (stale, into) => this.#absorb(stale, into),
    };
    return this.#op(() => this.#write(() => writeIndex(sql, update)));
  }

  /**
   * Takes the write lock and writes, then rolls back: fails as a hook's
   * write would on this file (locked, read-only, in a read-only directory),
   * and changes nothing.
   */
  probeWrite(): Promise<void> {
    return this.#op(() => {
      this.#db.exec("BEGIN IMMEDIATE");
      try {
        const { user_version } = this.#get("PRAGMA user_version") as { user_version: number };
        // Rewrites the header page with the value it already holds; pragmas take no bound parameters.
        this.#db.exec(`PRAGMA user_version = ${Number(user_version)}`);
      } finally {
        this.#db.exec("ROLLBACK");
      }
    });
  }

  close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
    return Promise.resolve();
  }
}

/**
 * Opens (creating if needed) the embedded store at `path`. Cheap when the
 * schema is current: one pragma read, no statement prepared in advance.
 */
export function openEmbeddedStore(path: string, options: OpenOptions = {}): SqliteStore {
  return new SqliteStore(path, options);
}
