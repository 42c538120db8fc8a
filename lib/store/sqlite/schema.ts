/**
 * The embedded store's schema, as numbered migrations. `PRAGMA user_version`
 * holds how many have been applied, so opening a current database is one
 * pragma read (the hook opens the store on every tool call).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { migrate } from "./schema.ts";
 * const db = new DatabaseSync(":memory:");
 * migrate(db); // creates every table; a second call is a no-op
 * ```
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { TALLY_MIGRATION } from "./tally.ts";
import { MEMORY_COUNTS_MIGRATION } from "./memory_counts.ts";
import { SEARCH_MIGRATION } from "./search.ts";

/**
 * Migration N (1-based) brings the schema from version N-1 to N. Append only:
 * a released migration never changes, a new one is added at the end.
 */
const MIGRATIONS: readonly string[] = [
  // 1: Touches, Resources, Comments, aliases, edges, pending references, Listings.
  `
  CREATE TABLE touches (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    session_id TEXT,
    provenance TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    asked_limit INTEGER,
    tool_name TEXT,
    tool_use_id TEXT,
    agent_id TEXT,
    harness TEXT,
    recorded_at TEXT NOT NULL,
    dedup_key TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    target TEXT,
    reason TEXT,
    settled_at TEXT,
    lease_owner TEXT,
    lease_until INTEGER,
    UNIQUE (user_id, dedup_key)
  );
  CREATE INDEX touches_by_user ON touches (user_id, recorded_at);
  CREATE INDEX touches_pending ON touches (recorded_at) WHERE status = 'pending';

  -- Head columns only, so listing pages and Nudges read compact rows; the
  -- rest of the Resource lives in resource_data under the same id.
  CREATE TABLE resources (
    id INTEGER PRIMARY KEY,
    node_id TEXT NOT NULL UNIQUE,
    address TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    number INTEGER,
    title TEXT,
    state TEXT,
    author TEXT,
    labels TEXT NOT NULL DEFAULT '[]',
    assignees TEXT NOT NULL DEFAULT '[]',
    milestone TEXT,
    comment_count INTEGER NOT NULL DEFAULT 0,
    fetched_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    etag TEXT
  );

  CREATE TABLE resource_data (
    id INTEGER PRIMARY KEY,
    data TEXT NOT NULL
  );

  CREATE TABLE aliases (
    key TEXT PRIMARY KEY,
    resource_id INTEGER NOT NULL
  );
  CREATE INDEX aliases_by_resource ON aliases (resource_id);

  CREATE TABLE comments (
    node_id TEXT PRIMARY KEY,
    resource_id INTEGER NOT NULL,
    is_review INTEGER NOT NULL,
    position INTEGER NOT NULL,
    author TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    body TEXT NOT NULL,
    path TEXT
  );
  CREATE INDEX comments_by_resource ON comments (resource_id, is_review, position);

  CREATE TABLE edges (
    from_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    to_id INTEGER NOT NULL,
    PRIMARY KEY (from_id, kind, to_id)
  ) WITHOUT ROWID;
  CREATE INDEX edges_to ON edges (to_id);

  -- References to items not stored yet, by the key they will arrive under:
  -- the arriving Resource finds its waiting edges through this index.
  CREATE TABLE pending_refs (
    target_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_id INTEGER NOT NULL,
    PRIMARY KEY (target_key, kind, from_id)
  ) WITHOUT ROWID;
  CREATE INDEX pending_refs_from ON pending_refs (from_id);

  CREATE TABLE listings (
    key TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    listing TEXT NOT NULL,
    filters TEXT NOT NULL,
    asked_limit INTEGER,
    total_count INTEGER NOT NULL,
    member_count INTEGER NOT NULL,
    fully_expanded INTEGER NOT NULL,
    fetched_at TEXT NOT NULL
  );
  CREATE INDEX listings_by_repo ON listings (owner, repo, listing);

  CREATE TABLE listing_members (
    listing_key TEXT NOT NULL,
    position INTEGER NOT NULL,
    resource_id INTEGER NOT NULL,
    PRIMARY KEY (listing_key, position)
  ) WITHOUT ROWID;
  CREATE INDEX listing_members_by_resource ON listing_members (resource_id);
  `,
  // 2: the outbox of Touches a shared graph store has not received yet.
  `
  ALTER TABLE touches ADD COLUMN exported_at TEXT;
  CREATE INDEX touches_unexported ON touches (recorded_at) WHERE exported_at IS NULL;
  `,
  // 3: REFERENCES run from the mentioning item to the mentioned one (they
  // were drawn the other way round), and each edge and pending reference
  // records the Resource whose fields declared it, so a refetch redraws its
  // own and keeps the ones others declared. The field an item keeps its
  // mentioners in is renamed to say so.
  `
  CREATE TABLE edges_v3 (
    from_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    to_id INTEGER NOT NULL,
    declared_by INTEGER NOT NULL,
    PRIMARY KEY (from_id, kind, to_id, declared_by)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO edges_v3 (from_id, kind, to_id, declared_by)
    SELECT CASE kind WHEN 'REFERENCES' THEN to_id ELSE from_id END, kind,
           CASE kind WHEN 'REFERENCES' THEN from_id ELSE to_id END, from_id
    FROM edges;
  DROP TABLE edges;
  ALTER TABLE edges_v3 RENAME TO edges;
  CREATE INDEX edges_to ON edges (to_id);
  CREATE INDEX edges_declared_by ON edges (declared_by);

  -- direction 'out': (declared_by)-[kind]->(the Resource arriving at target_key);
  -- 'in': (the arriving Resource)-[kind]->(declared_by).
  CREATE TABLE pending_refs_v3 (
    target_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    declared_by INTEGER NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('out', 'in')),
    PRIMARY KEY (target_key, kind, declared_by, direction)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO pending_refs_v3 (target_key, kind, declared_by, direction)
    SELECT target_key, kind, from_id, CASE kind WHEN 'REFERENCES' THEN 'in' ELSE 'out' END
    FROM pending_refs;
  DROP TABLE pending_refs;
  ALTER TABLE pending_refs_v3 RENAME TO pending_refs;
  CREATE INDEX pending_refs_declared_by ON pending_refs (declared_by);

  UPDATE resource_data
     SET data = json_remove(
       json_set(data, '$.referenced_by', json(json_extract(data, '$.references'))),
       '$.references')
   WHERE json_type(data, '$.references') = 'array';
  `,
  // 4: facts about the file itself. 'touches_scrubbed' says no copy of a
  // deleted Touch can linger in its free space: true of a file that had no
  // Touch yet when every connection started zeroing what it deletes
  // (secure_delete), else set by the first forget, which rewrites it once.
  `
  CREATE TABLE store_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  INSERT INTO store_meta (key, value)
    SELECT 'touches_scrubbed', 'created' WHERE NOT EXISTS (SELECT 1 FROM touches);
  `,
  // 5: a Touch left unresolved rate_limited is retried by a later Sweep, so
  // leasing reads pending and rate-limited Touches together, oldest first.
  `
  CREATE INDEX touches_sweepable ON touches (recorded_at)
    WHERE status = 'pending' OR (status = 'unresolved' AND reason = 'rate_limited');
  `,
  // 6: how many consecutive Sweeps GitHub failed on a Touch's item, and GitHub's message.
  `
  ALTER TABLE touches ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE touches ADD COLUMN detail TEXT;
  `,
  // 7: each user's running count of Touches, so reports need not read them all (see tally.ts).
  TALLY_MIGRATION,
  // 8: what the shared memory holds, counted as it is written (see memory_counts.ts).
  MEMORY_COUNTS_MIGRATION,
  // 9: the full-text index searches of memory read (see search.ts).
  SEARCH_MIGRATION,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Thrown when the database was written by a newer rgraph. */
export class SchemaTooNewError extends Error {
  constructor(found: number) {
    super(
      `the database has schema version ${found}, newer than this rgraph (${SCHEMA_VERSION})`,
    );
    this.name = "SchemaTooNewError";
  }
}

/** The schema version of an open database. */
function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return row.user_version;
}

/**
 * Brings the database to {@link SCHEMA_VERSION} (or to `target`, for tests
 * that need an older schema). Safe when many processes open
 * a fresh file at once: the version is re-read under the write lock, so only
 * the first one migrates.
 */
export function migrate(db: DatabaseSync, target: number = SCHEMA_VERSION): void {
  const seen = schemaVersion(db);
  if (seen === target) return;
  if (seen > SCHEMA_VERSION) throw new SchemaTooNewError(seen);
  if (seen > target) return;
  // WAL is persistent in the file; set it once, before the first write.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("BEGIN IMMEDIATE");
  try {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) throw new SchemaTooNewError(version);
    const to = Math.max(version, Math.min(target, SCHEMA_VERSION));
    for (let v = version; v < to; v++) db.exec(MIGRATIONS[v]);
    // user_version cannot be a bound parameter; `to` is a whole number we computed.
    db.exec(`PRAGMA user_version = ${to}`);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}
