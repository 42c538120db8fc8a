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
import {
  indexColumns,
  locate,
  luceneExpression,
  MEMGRAPH_SEARCH_FIX,
  parseSearch,
  SEARCH_PAGE_SIZE,
  type SearchHit,
  type SearchPage,
  type SearchRequest,
  type SearchTerm,
  textParts,
} from "../search_query.ts";
import { repositoryAddress } from "../../address/mod.ts";
import type { Dialect } from "./model.ts";
import { UnsupportedStoreError } from "../contract.ts";

/** The index's name on either server. */
export const SEARCH_INDEX = "rgraph_search";

/** The Resource property holding the text its other properties do not. */
export const SEARCH_TEXT_KEY = "rgraph_search";

/** Properties a search filters by, indexed beside the text so Neo4j's index narrows by them. */
const FILTER_FIELDS = ["repo_address", "kind", "state"];

/** The Resource properties the index covers. */
const INDEXED = ["title", "body", "description", "readme", SEARCH_TEXT_KEY, ...FILTER_FIELDS];

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
 * The schema upgrade giving Resources rgraph stored before search their
 * {@link SEARCH_TEXT_KEY} (what {@link searchProps} writes, from the stored
 * nodes); the server's index then reads them. Only rgraph's own nodes
 * (`null_keys` is its mark): another writer's are never changed, and are
 * found by their own properties (title, body…) until rgraph refetches them.
 */
export const SEARCH_UPGRADE = `MATCH (n:Resource)
  WHERE n.${SEARCH_TEXT_KEY} IS NULL AND n.address IS NOT NULL AND n.null_keys IS NOT NULL
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
 * The most matches a search ranks and counts on Neo4j: past it the answer
 * says "at least" (Lucene would otherwise score every match of a common word).
 */
const COUNT_CAP = 1000;

/**
 * The statement finding one page of matches (best score first, recency
 * breaking ties) and how many there are, for the dialect: one pass of the
 * index. Neo4j's index also holds the filters' properties, so Lucene
 * narrows by them (the Cypher filter keeps them exact); Memgraph's matches
 * are filtered in Cypher.
 */
function statement(dialect: Dialect): string {
  const call = dialect === "neo4j"
    ? `CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query, {limit: $cap})
       YIELD node, score`
    : `CALL text_search.search_all('${SEARCH_INDEX}', $query) YIELD node
       WITH node, 0.0 AS score`;
  return `${call}
    WITH node AS n, score WHERE n:Resource AND ${FILTERS}
    WITH n, score ORDER BY score DESC, n.updated_at DESC, n.address
    WITH collect(n.address) AS found
    RETURN size(found) AS total, found[$from..$to] AS page`;
}

/** Lucene fields a query's words are looked for in (never the filters' properties). */
const TEXT_FIELDS = INDEXED.filter((p) => !FILTER_FIELDS.includes(p));

/**
 * The Lucene query for Neo4j: each term in any text field, and each filter
 * as a phrase of its property (values rgraph wrote and checked, quoted).
 */
function neo4jQuery(terms: SearchTerm[], request: SearchRequest): string {
  const words = terms.map((t) =>
    `(${TEXT_FIELDS.map((f) => `${f}:${luceneExpression([t])}`).join(" OR ")})`
  );
  const f = filterParams(request);
  const filters = (["repo_address", "kind", "state"] as const).flatMap((field, i) => {
    const value = [f.repo, f.kind, f.state][i];
    return typeof value === "string"
      ? [`${field}:${luceneExpression([{ text: value, phrase: true }])}`]
      : [];
  });
  return [...words, ...filters].join(" AND ");
}

/** The statements, parameters and terms of a search (throws `SearchQueryError` on a bad query). */
function searchQuery(
  dialect: Dialect,
  request: SearchRequest,
): { statement: string; params: Record<string, unknown>; terms: SearchTerm[] } {
  const terms = parseSearch(request.text);
  const from = (Math.max(1, request.page) - 1) * SEARCH_PAGE_SIZE;
  return {
    statement: statement(dialect),
    params: {
      ...filterParams(request),
      query: dialect === "neo4j" ? neo4jQuery(terms, request) : luceneExpression(terms),
      from,
      to: from + SEARCH_PAGE_SIZE,
      cap: COUNT_CAP,
    },
    terms,
  };
}

/** The label of each kind of Resource. */
const KIND_LABEL = { issue: "Issue", pull_request: "PullRequest", repository: "Repository" };

/**
 * How many stored Resources the filters leave to search, as a statement
 * the server answers from its counts or indexes: only the filters asked for
 * enter it (fixed text; values bound). Unfiltered, or by kind alone, it is a
 * label count; by repository, the `repo_address` index; by state, the
 * `state` index (its values as rgraph and as other writers store them).
 */
function inScope(request: SearchRequest): [string, Record<string, unknown>] {
  const f = filterParams(request);
  const where = [
    ...(f.repo !== null ? ["n.repo_address = $repo"] : []),
    ...(f.state !== null ? ["n.state IN [$state, toUpper($state)]"] : []),
  ];
  const kind = request.kind ? KIND_LABEL[request.kind] : null;
  // One label alone is what the servers count without reading a node.
  const labels = where.length === 0
    ? `:${kind ?? "Resource"}`
    : `:Resource${kind ? `:${kind}` : ""}`;
  const filter = where.length ? ` WHERE ${where.join(" AND ")}` : "";
  return [`MATCH (n${labels})${filter} RETURN count(n) AS n`, f];
}

/** What a search needs of the graph store. */
export interface GraphSearchAccess {
  /** Runs read statements in one transaction; each one's rows. */
  read(statements: [string, Record<string, unknown>][]): Promise<Record<string, unknown>[][]>;
  /** Whole Resources by address (those it cannot read left out). */
  resources(addresses: string[]): Promise<Map<string, Resource>>;
}

/**
 * Page `request.page` of what the server's index finds, each hit located in
 * its Resource, with how many matched and were in scope. A server without
 * the index or text search is refused in one line (`UnsupportedStoreError`).
 */
export async function searchGraph(
  dialect: Dialect,
  request: SearchRequest,
  db: GraphSearchAccess,
): Promise<SearchPage> {
  const q = searchQuery(dialect, request);
  let found, scope;
  try {
    [found, scope] = await db.read([[q.statement, q.params], inScope(request)]);
  } catch (e) {
    throw searchUnavailable(dialect, e) ?? e;
  }
  const page = (found[0]?.page ?? []) as string[];
  const whole = await db.resources(page);
  const hits: SearchHit[] = page.flatMap((address) => {
    const r = whole.get(address);
    if (r === undefined) return [];
    return [{
      address: r.address,
      kind: r.kind,
      state: r.kind === "repository" ? null : r.state,
      title: r.kind === "repository" ? null : r.title,
      updated_at: r.updated_at,
      fetched_at: r.fetched_at,
      ...locate(textParts(r), q.terms),
    }];
  });
  const total = Number(found[0]?.total ?? 0);
  return {
    hits,
    total,
    capped: dialect === "neo4j" && total >= COUNT_CAP,
    in_scope: Number(scope[0]?.n ?? 0),
  };
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
