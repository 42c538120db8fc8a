/**
 * GitHub's published GraphQL schema (npm `@octokit/graphql-schema`), built
 * once per process.
 *
 * The published SDL defines two `EnterpriseOwnerInfo` fields twice, so a
 * plain `buildSchema(schema.idl)` throws; `assumeValidSDL` skips that SDL
 * check (the later definition wins) while the built schema still validates.
 * Tests that validate rgraph's query documents should use this too.
 *
 * @example
 * ```ts
 * import { parse, validate } from "graphql";
 * const errors = validate(githubSchema(), parse("{ viewer { login } }"));
 * console.log(errors.length); // 0
 * ```
 * @module
 */

import { schema as published } from "@octokit/graphql-schema";
import { buildSchema, type GraphQLSchema } from "graphql";

let cached: GraphQLSchema | null = null;

/** The GitHub GraphQL schema, built on first use and then reused. */
export function githubSchema(): GraphQLSchema {
  cached ??= buildSchema(published.idl, { assumeValidSDL: true });
  return cached;
}
