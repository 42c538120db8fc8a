/**
 * The emulator's GraphQL endpoint: GitHub's published schema executed by
 * graphql-js over the fixture dataset, with GitHub's pagination rules, query
 * cost, rate limit and error shapes. The objects resolvers return live in
 * `graphql_objects.ts`; the pre-execution rules in `graphql_rules.ts`.
 *
 * @example
 * ```ts
 * const out = await runGraphql(ds, { query: "{ viewer { login } }" }, bucket, "rgraph-tester");
 * console.log(out.body);
 * ```
 * @module
 */

import {
  type DocumentNode,
  execute,
  type GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import type { Dataset } from "./dataset.ts";
import { githubSchema } from "./schema.ts";
import { parseSearch, search } from "./select.ts";
import { type Bucket, charge } from "./budget.ts";
import { connection, GitHubGraphqlError, type PageArgs, Renderer } from "./graphql_objects.ts";
import { analyze, executionError, validationError } from "./graphql_rules.ts";
import type { Failure, Faults } from "./faults.ts";

/** A GraphQL request body. */
export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** Status and JSON body of a GraphQL answer. */
export interface GraphqlResponse {
  status: number;
  body: Record<string, unknown>;
  /** An injected fault failed the request as a whole: answer this instead. */
  failure?: Failure;
}

/** Parsed and validated documents by query text: clients resend one text with new variables. */
const checkedDocuments = new Map<
  string,
  { doc: DocumentNode } | { errors: Record<string, unknown>[] }
>();
const CHECKED_MAX = 500;

/** Parses and validates a document against GitHub's schema (once per distinct text). */
function checkDocument(
  query: string,
): { doc: DocumentNode } | { errors: Record<string, unknown>[] } {
  let out = checkedDocuments.get(query);
  if (out) return out;
  try {
    const doc = parse(query);
    const invalid = validate(githubSchema(), doc);
    out = invalid.length ? { errors: invalid.map((e) => validationError(doc, e)) } : { doc };
  } catch (e) {
    const err = e as GraphQLError;
    out = { errors: [{ message: err.message, locations: err.locations }] };
  }
  if (checkedDocuments.size >= CHECKED_MAX) checkedDocuments.clear();
  checkedDocuments.set(query, out);
  return out;
}

/**
 * Validates, costs, charges and executes one GraphQL request for an
 * authenticated caller whose points live in `bucket`.
 */
export async function runGraphql(
  ds: Dataset,
  req: GraphqlRequest,
  bucket: Bucket,
  viewer: string,
  faults?: Faults,
): Promise<GraphqlResponse> {
  if (typeof req.query !== "string") {
    return {
      status: 200,
      body: { errors: [{ message: "A query attribute must be specified and must be a string." }] },
    };
  }
  const checked = checkDocument(req.query);
  if ("errors" in checked) return { status: 200, body: { errors: checked.errors } };
  const doc = checked.doc;
  const schema = githubSchema();
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode =>
    d.kind === Kind.OPERATION_DEFINITION
  );
  const op = typeof req.operationName === "string"
    ? ops.find((o) => o.name?.value === req.operationName)
    : ops.length === 1
    ? ops[0]
    : undefined;
  if (!op) return { status: 200, body: { errors: [{ message: "An operation name is required" }] } };
  if (op.operation !== "query") {
    return {
      status: 200,
      body: { errors: [{ message: "The emulator serves queries only (no mutations)." }] },
    };
  }
  const variables =
    (req.variables && typeof req.variables === "object" ? req.variables : {}) as Record<
      string,
      unknown
    >;
  const analysis = analyze(doc, op, variables);
  if (analysis.errors.length) return { status: 200, body: { errors: analysis.errors } };
  const cost = Math.max(1, Math.round(analysis.requests / 100));
  if (!charge(bucket, cost)) {
    return {
      status: 200,
      body: {
        errors: [{
          type: "RATE_LIMITED",
          message: `API rate limit already exceeded for user ID ${ds.user(viewer).databaseId}.`,
        }],
      },
    };
  }
  const r = new Renderer(ds, viewer, faults);
  const root = {
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const found = ds.repo(owner, name);
      if (!found) {
        throw new GitHubGraphqlError(
          "NOT_FOUND",
          `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        );
      }
      return r.repo(found.repo);
    },
    search: (a: PageArgs & { query: string; type: string }) => {
      const items = a.type === "ISSUE" ? search(ds.repos, parseSearch(a.query)) : [];
      return connection(items.slice(0, 1000), a, (it) => r.item(it), {
        issueCount: a.type === "ISSUE" ? items.length : 0,
        codeCount: 0,
        discussionCount: 0,
        repositoryCount: 0,
        userCount: 0,
        wikiCount: 0,
      });
    },
    rateLimit: () => ({
      __typename: "RateLimit",
      cost,
      limit: bucket.limit,
      remaining: bucket.limit - bucket.used,
      used: bucket.used,
      resetAt: new Date(bucket.resetAt * 1000).toISOString().replace(".000Z", "Z"),
      nodeCount: analysis.nodes,
    }),
    node: ({ id }: { id: string }) => {
      const n = r.node(id);
      if (n instanceof Error) throw n;
      return n;
    },
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => r.node(id)),
    viewer: () => r.actor(viewer),
  };
  const result = await execute({
    schema,
    document: doc,
    rootValue: root,
    variableValues: variables,
    operationName: op.name?.value,
  });
  if (r.failure !== null) return { status: 200, body: {}, failure: r.failure };
  const body: Record<string, unknown> = {};
  if (result.errors?.length) body.errors = result.errors.map(executionError);
  if (result.data !== undefined) body.data = result.data;
  return { status: 200, body };
}
