/**
 * The embedded store's search of memory: an FTS5 index of every stored
 * Resource's text (`porter unicode61`: word forms match, "compressions"
 * finds "compression"), written in the transaction that writes the
 * Resource, ranked by BM25 with recency breaking ties.
 *
 * The index is contentless (it keeps the words, not a second copy of the
 * text: the text is in `resources`, `resource_data` and `comments`), with
 * `contentless_delete` so a re-fetch replaces its row. A Resource deleted
 * another way (folded into another node id, or replaced by a head in the
 * local index) leaves through the triggers below.
 *
 * A store written before the index existed is indexed once, when a command
 * (never the hook) opens it: {@link indexBacklog}.
 *
 * @example
 * ```ts
 * import { SEARCH_MIGRATION } from "./search.ts";
 * db.exec(SEARCH_MIGRATION);
 * ```
 * @module
 */

import type { SQLInputValue } from "node:sqlite";
import type { Resource, ResourceKind } from "../../types.ts";
import {
  ftsExpression,
  indexColumns,
  locate,
  parseSearch,
  SEARCH_PAGE_SIZE,
  type SearchHit,
  type SearchPage,
  type SearchRequest,
  textParts,
} from "../search_query.ts";

type Row = Record<string, SQLInputValue>;

/**
 * What search needs of the store's connection (`connection.ts`'s `Connection` has it; described
 * here, not imported, since the connection's migrations import this module).
 */
export interface IndexDb {
  all(sql: string, ...params: SQLInputValue[]): Row[];
  get(sql: string, ...params: SQLInputValue[]): Row | undefined;
  run(sql: string, ...params: SQLInputValue[]): number;
  /** Rows of a statement with named parameters (`$name`). */
  read(sql: string, params: Record<string, SQLInputValue>): Row[];
  /** Runs `fn` in one write transaction. */
  write<T>(fn: () => T): T;
}

/** The `store_meta` key holding the last Resource id the backlog indexed (absent: none left). */
const BACKLOG_KEY = "search_backlog_after";

/**
 * Migration 9: the index, the triggers that take a deleted Resource out of
 * it, and, when Resources are stored already, the mark that they wait to be
 * indexed ({@link indexBacklog}): indexing them here would make whichever
 * process opens the file first — a hook, within a harness's timeout — do it.
 */
export const SEARCH_MIGRATION = `
  CREATE VIRTUAL TABLE search_index USING fts5(
    title, body, comments, other, scope,
    content = '', contentless_delete = 1, tokenize = 'porter unicode61'
  );
  CREATE TRIGGER search_index_resource_gone AFTER DELETE ON resources BEGIN
    DELETE FROM search_index WHERE rowid = OLD.id;
  END;
  CREATE TRIGGER search_index_data_gone AFTER DELETE ON resource_data BEGIN
    DELETE FROM search_index WHERE rowid = OLD.id;
  END;
  INSERT INTO store_meta (key, value)
    SELECT '${BACKLOG_KEY}', '0' WHERE EXISTS (SELECT 1 FROM resource_data);
  -- A search's filters, and how many Resources they leave in scope, read from these alone.
  CREATE INDEX resources_by_repo ON resources (owner, repo, kind, state);
  CREATE INDEX resources_by_kind ON resources (kind, state);
`;

/**
 * How the names of the index's table and the tables FTS5 keeps it in
 * begin: only FTS5 itself may write them, so a forget's rewrite of the
 * file's tables leaves them to {@link rewriteIndex}.
 */
export const SEARCH_TABLES = "search_index";

/**
 * Rewrites the index onto fresh pages (FTS5's `optimize` merges every
 * segment into a new one), freeing the pages it held: with secure_delete,
 * they are zeroed as they are freed. A forget's scrub of an old file's
 * free space runs it (see store.ts).
 */
export function rewriteIndex(db: IndexDb): void {
  db.run("INSERT INTO search_index (search_index) VALUES ('optimize')");
}

/**
 * Indexes Resource `id` as `r` now holds it, replacing what was indexed;
 * called inside the Resource's own write transaction.
 */
export function indexResource(db: IndexDb, id: number, r: Resource): void {
  const c = indexColumns(r);
  const state = r.kind === "repository" ? null : r.state;
  db.run("DELETE FROM search_index WHERE rowid = ?", id);
  db.run(
    `INSERT INTO search_index (rowid, title, body, comments, other, scope)
     VALUES (?, ?, ?, ?, ?, ?)`,
    id,
    c.title,
    c.body,
    c.comments,
    c.other,
    scopeTokens(r.owner, r.repo, r.kind, state).join(" "),
  );
}

/**
 * The words the index's `scope` column holds for a Resource, and a filtered
 * search asks for, so the index intersects the filters with the words
 * itself: the repository as one word of hex digits (no character of a name
 * can split it), its kind and its state. rgraph writes them, never what a
 * user typed; a digit ends each so the stemmer leaves it whole.
 */
function scopeTokens(
  owner: string | null,
  repo: string | null,
  kind: ResourceKind | null,
  state: string | null,
): string[] {
  const hex = (text: string) =>
    Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("");
  return [
    ...(owner !== null && repo !== null
      ? [`repo${hex(`${owner.toLowerCase()}/${repo.toLowerCase()}`)}0`]
      : []),
    ...(kind !== null ? [`kind${kind.replace("_", "")}0`] : []),
    ...(state !== null ? [`state${state}0`] : []),
  ];
}

/** Resources indexed per transaction while the backlog is worked off (hooks wait at most one). */
const BACKLOG_BATCH = 200;

/**
 * Indexes the Resources stored before the index existed, once, oldest row
 * first, each batch committed with the mark of how far it got (a killed
 * run resumes). `progress` hears (done, of) after each batch. Returns how
 * many were indexed (0 when nothing waits: one read).
 */
export function indexBacklog(
  db: IndexDb,
  read: (id: number) => Resource | null,
  progress?: (done: number, of: number) => void,
): number {
  const mark = db.get("SELECT value FROM store_meta WHERE key = ?", BACKLOG_KEY);
  if (mark === undefined) return 0;
  const of = Number(
    db.get("SELECT count(*) AS n FROM resource_data WHERE id > ?", Number(mark.value))!.n,
  );
  let done = 0;
  for (;;) {
    const more = db.write(() => {
      const now = db.get("SELECT value FROM store_meta WHERE key = ?", BACKLOG_KEY);
      if (now === undefined) return false; // another process finished it
      const ids = db.all(
        "SELECT id FROM resource_data WHERE id > ? ORDER BY id LIMIT ?",
        Number(now.value),
        BACKLOG_BATCH,
      ).map((r) => Number(r.id));
      if (ids.length === 0) {
        db.run("DELETE FROM store_meta WHERE key = ?", BACKLOG_KEY);
        return false;
      }
      for (const id of ids) {
        const r = read(id);
        if (r !== null) indexResource(db, id, r);
      }
      db.run(
        "UPDATE store_meta SET value = ? WHERE key = ?",
        String(ids[ids.length - 1]),
        BACKLOG_KEY,
      );
      done += ids.length;
      return true;
    });
    progress?.(Math.min(done, of), of);
    if (!more) return done;
  }
}

/**
 * How many matches past the page an unfiltered search ranks by recency too:
 * matches whose scores tie at the page's edge are ordered newest first
 * within this window.
 */
const TIE_WINDOW = 100;

/** Column weights for BM25: a title match counts most, then the body, then the rest; scope none. */
const WEIGHTS = "8.0, 3.0, 1.0, 1.0, 0.0";

/**
 * Page `request.page` of what the index finds, each hit located in its
 * Resource (`read` reads it whole), with the scope the search covered.
 */
export function searchIndex(
  db: IndexDb,
  request: SearchRequest,
  read: (id: number) => Resource | null,
): SearchPage {
  const terms = parseSearch(request.text);
  // The filters are words of the index's scope column (see scopeTokens), so the index finds
  // the matches within them; only the filters asked for enter the count of what is in scope
  // (fixed text, values bound), which the migration's indexes answer.
  const scope = scopeTokens(
    request.repo?.owner ?? null,
    request.repo?.repo ?? null,
    request.kind,
    request.state === "all" ? null : request.state,
  );
  // The words typed are looked for in the text columns only, never among the scope words.
  const match = [
    `{title body comments other} : (${ftsExpression(terms)})`,
    ...scope.map((t) => `scope : "${t}"`),
  ].join(" AND ");
  const conditions: string[] = [];
  const filters: Record<string, SQLInputValue> = {};
  if (request.repo) {
    conditions.push("owner = $owner AND repo = $repo");
    Object.assign(filters, { owner: request.repo.owner, repo: request.repo.repo });
  }
  if (request.kind) {
    conditions.push("kind = $kind");
    filters.kind = request.kind;
  }
  if (request.state !== "all") {
    conditions.push("state = $state");
    filters.state = request.state;
  }
  const named = db.read;
  const offset = (Math.max(1, request.page) - 1) * SEARCH_PAGE_SIZE;
  // The best few by score straight from the index (a top-N sort, no join per match), then
  // their heads; recency breaks ties among them.
  const rows = named(
    `WITH best AS (
       SELECT rowid AS id, bm25(search_index, ${WEIGHTS}) AS score FROM search_index
       WHERE search_index MATCH $match ORDER BY score LIMIT $window)
     SELECT r.id, r.address, r.kind, r.state, r.title, r.updated_at, r.fetched_at
     FROM best JOIN resources r ON r.id = best.id
     ORDER BY best.score, r.updated_at DESC, r.address LIMIT $limit OFFSET $offset`,
    { match, window: offset + SEARCH_PAGE_SIZE + TIE_WINDOW, limit: SEARCH_PAGE_SIZE, offset },
  );
  const total = Number(
    named("SELECT count(*) AS n FROM search_index WHERE search_index MATCH $match", { match })[0]
      .n,
  );
  const inScope = Number(
    conditions.length === 0
      ? named(
        `SELECT coalesce(sum(n), 0) AS n FROM memory_counts
         WHERE what IN ('repository', 'issue', 'pull_request')`,
        {},
      )[0].n
      : named(`SELECT count(*) AS n FROM resources WHERE ${conditions.join(" AND ")}`, filters)[0]
        .n,
  );
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const r = read(Number(row.id));
    const where = r === null
      ? { place: { part: "title" as const }, snippet: "" }
      : locate(textParts(r), terms);
    hits.push({
      address: String(row.address),
      kind: row.kind as ResourceKind,
      state: row.kind === "repository" ? null : row.state as string | null,
      title: row.kind === "repository" ? null : row.title as string | null,
      updated_at: String(row.updated_at),
      fetched_at: String(row.fetched_at),
      ...where,
    });
  }
  return { hits, total, capped: false, in_scope: inScope };
}
