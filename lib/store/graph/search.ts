/**
 * The graph store's search of memory. Each Resource node carries the text
 * its own properties do not (`rgraph_search`: its comments with their
 * authors and paths, labels, changed files; a repository's name), written
 * with the node in the same transaction, so one index over the node's
 * properties sees a Resource whole:
 * - Neo4j: a full-text (Lucene) index with the `english` analyzer (word
 *   forms match), created by the schema upgrade, ranked by Lucene's score;
 * - Memgraph: a text index (Tantivy), which Memgraph before 3.6 has only
 *   when started with `--experimental-enabled=text-search`. Where the
 *   server lacks it, the schema setup records why (`rgraph doctor` shows
 *   it) and a search says so in one line, never answering an empty page.
 *
 * Pure statements and their parameters; the store runs them.
 *
 * @example
 * ```ts
 * import { searchSchema } from "./search.ts";
 * searchSchema("neo4j")[0]; // "CREATE FULLTEXT INDEX rgraph_search IF NOT EXISTS ..."
 * ```
 * @module
 */

import type { Resource } from "../../types.ts";
import { indexColumns, luceneExpression, parseSearch, SEARCH_PAGE_SIZE } from "../search_query.ts";
import type { SearchRequest, SearchTerm } from "../search_query.ts";
import { repositoryAddress } from "../../address/mod.ts";
import type { Dialect } from "./model.ts";
import { UnsupportedStoreError } from "../contract.ts";

/** The index's name on either server. */
export const SEARCH_INDEX = "rgraph_search";

/** The Resource property holding the text its other properties do not. */
export const SEARCH_TEXT_KEY = "rgraph_search";

/** The Resource properties the index covers. */
const INDEXED = ["title", "body", "description", "readme", SEARCH_TEXT_KEY];

/** The DDL that creates the index (run by the schema setup, after the other rules). */
export function searchSchema(dialect: Dialect): string[] {
  if (dialect === "neo4j") {
    return [
      `CREATE FULLTEXT INDEX ${SEARCH_INDEX} IF NOT EXISTS FOR (n:Resource) ON EACH [${
        INDEXED.map((p) => `n.${p}`).join(", ")
      }] OPTIONS {indexConfig: {\`fulltext.analyzer\`: 'english'}}`,
    ];
  }
  return [`CREATE TEXT INDEX ${SEARCH_INDEX} ON :Resource(${INDEXED.join(", ")})`];
}

/** What to do where Memgraph has no text search. */
export const MEMGRAPH_SEARCH_FIX =
  "start Memgraph 3.6 or later, or an earlier one with --experimental-enabled=text-search, " +
  "then run any rgraph command to create the index";

/** The schema record's note when the server refused the index (shown by `rgraph doctor`). */
export function searchUnavailableNote(why: string): string {
  return `text search unavailable (${
    why.replace(/\s+/g, " ").slice(0, 200)
  }): ${MEMGRAPH_SEARCH_FIX}`;
}

/** The property that makes a Resource node whole for the index (see the module comment). */
export function searchProps(r: Resource): Record<string, string> {
  const c = indexColumns(r);
  return { [SEARCH_TEXT_KEY]: r.kind === "repository" ? c.title : `${c.comments}\n${c.other}` };
}

/**
 * The schema upgrade giving Resources stored before search their
 * {@link SEARCH_TEXT_KEY} (what {@link searchProps} writes, from the stored
 * nodes); the server's index then reads them.
 */
export const SEARCH_UPGRADE = `MATCH (n:Resource)
  WHERE n.${SEARCH_TEXT_KEY} IS NULL AND n.address IS NOT NULL
  OPTIONAL MATCH (n)-[:HAS_COMMENT]->(c:Comment)
  WITH n, c ORDER BY c.review, c.position
  WITH n, collect(coalesce(c.author, '') + ' ' + coalesce(c.path, '') + ' ' + coalesce(c.body, ''))
    AS thread
  SET n.${SEARCH_TEXT_KEY} = CASE WHEN n:Repository
    THEN coalesce(n.owner, '') + '/' + coalesce(n.repo, '')
    ELSE reduce(s = '', x IN thread + coalesce(n.labels, []) + coalesce(n.files, []) | s + x + '\n')
  END`;

/** The filters as parameters (null: any). */
function filterParams(request: SearchRequest): Record<string, unknown> {
  return {
    repo: request.repo ? repositoryAddress(request.repo.owner, request.repo.repo).key : null,
    kind: request.kind,
    state: request.state === "all" ? null : request.state,
  };
}

/** By label, as every writer of the family marks a Resource's kind. */
const FILTERS = `($repo IS NULL OR n.repo_address = $repo)
  AND ($kind IS NULL OR ($kind = 'issue' AND n:Issue) OR ($kind = 'pull_request' AND n:PullRequest)
    OR ($kind = 'repository' AND n:Repository))
  AND ($state IS NULL OR toLower(n.state) = $state)`;

/**
 * The statement finding one page of matches and their count, for the
 * dialect. Both servers score with their engine; recency breaks ties.
 */
function searchStatement(dialect: Dialect): string {
  const call = dialect === "neo4j"
    ? `CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score`
    : `CALL text_search.search_all('${SEARCH_INDEX}', $query) YIELD node
       WITH node, 0.0 AS score`;
  return `${call}
    WITH node AS n, score WHERE n:Resource AND ${FILTERS}
    WITH n, score ORDER BY score DESC, n.updated_at DESC, n.address
    WITH collect(n.address) AS found
    RETURN size(found) AS total, found[$from..$to] AS page`;
}

/** How many stored Resources the filters leave to search. */
export const IN_SCOPE = `MATCH (n:Resource) WHERE n.address IS NOT NULL AND ${FILTERS}
  RETURN count(n) AS n`;

/** The statement, parameters and terms of a search (throws `SearchQueryError` on a bad query). */
export function searchQuery(
  dialect: Dialect,
  request: SearchRequest,
): { statement: string; params: Record<string, unknown>; terms: SearchTerm[] } {
  const terms = parseSearch(request.text);
  const from = (Math.max(1, request.page) - 1) * SEARCH_PAGE_SIZE;
  return {
    statement: searchStatement(dialect),
    params: {
      ...filterParams(request),
      query: luceneExpression(terms),
      from,
      to: from + SEARCH_PAGE_SIZE,
    },
    terms,
  };
}

/** The parameters of {@link IN_SCOPE}. */
export function scopeParams(request: SearchRequest): Record<string, unknown> {
  return filterParams(request);
}

/**
 * A server error meaning it has no such index or procedure (Memgraph
 * without text search, an index not created): the one-line refusal to
 * answer instead of an empty page.
 */
export function searchUnavailable(dialect: Dialect, e: unknown): UnsupportedStoreError | null {
  const text = String((e as Error)?.message ?? e);
  if (
    !/text_search|text index|no such index|There is no such index|procedure|not found/i.test(text)
  ) {
    return null;
  }
  return dialect === "memgraph"
    ? new UnsupportedStoreError("this Memgraph has no text search", MEMGRAPH_SEARCH_FIX, e)
    : new UnsupportedStoreError(
      `the full-text index ${SEARCH_INDEX} is missing`,
      "run any rgraph command with a login that may create indexes, or see rgraph doctor",
      e,
    );
}
