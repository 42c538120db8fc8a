/**
 * rgraph's REST side against GitHub's own REST description (npm
 * `@octokit/openapi`, `api.github.com`), three ways:
 * - each decoder in `lib/github/rest_types.ts` accepts every shape the
 *   description's response schema allows for the endpoint it reads (fields
 *   left out where not required, null where nullable, each `oneOf` branch),
 *   and the description's own examples;
 * - every REST request rgraph builds in tokenless Sweeps of items, pull
 *   requests, repositories, Listings (filtered, searched, revalidated with
 *   `since`) names a path the description has, with only the parameters it
 *   declares for it, each of the declared type and enum;
 * - every answer the emulator gave those requests is valid against the
 *   description's response schema (ajv), as its GraphQL answers are against
 *   the published schema.
 */

import assert from "node:assert/strict";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { arr, type Decoder } from "../lib/github/decode.ts";
import {
  RestComment,
  RestFile,
  RestIssue,
  RestIssuePlace,
  RestPull,
  RestReadme,
  RestRepo,
  RestReviewComment,
  RestSearch,
} from "../lib/github/rest_types.ts";
import { FACTS } from "./emulator/facts.ts";
import { world } from "./sweep_world.ts";

type Schema = Record<string, any>;

// Read at run time, so type checking never walks the 13 MB description.
const DESCRIPTION = "@octokit/openapi/generated/api.github.com.json";
const spec: Schema = (await import(DESCRIPTION, { with: { type: "json" } })).default;

/**
 * The description with OpenAPI 3.0's `nullable: true` written as JSON
 * Schema's `null` type, which ajv validates (OpenAPI's keyword it refuses
 * without a sibling `type`).
 */
function jsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const { nullable, ...rest } = node as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(rest)) out[k] = jsonSchema(v);
  if (nullable !== true) return out;
  if (typeof out.type === "string" && !out.$ref) {
    return {
      ...out,
      type: [out.type, "null"],
      ...(out.enum ? { enum: [...out.enum, null] } : {}),
    };
  }
  return { anyOf: [out, { type: "null" }] };
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
// ajv-formats ships CommonJS: its default export is the plugin itself.
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(jsonSchema(spec) as Schema, "github");

/** The JSON pointer's target in the description. */
function at(ref: string): Schema {
  return ref.replace(/^#\//, "").split("/").reduce((o: any, k) => o[k.replace(/~1/g, "/")], spec);
}

function deref(s: Schema): Schema {
  return s.$ref ? deref(at(s.$ref)) : s;
}

/** The 200 response's JSON schema of `GET path`, as a `$ref` ajv resolves inside the description. */
function responseRef(path: string): string {
  const pointer = [
    "paths",
    path,
    "get",
    "responses",
    "200",
    "content",
    "application/json",
    "schema",
  ]
    .map((k) => k.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  return `github#/${pointer}`;
}

function validator(path: string) {
  const v = ajv.getSchema(responseRef(path));
  assert.ok(v, `the description has GET ${path}`);
  return v;
}

/**
 * Instances of `schema` as the description allows them at their barest:
 * only required properties, null wherever nullable (or not, `nulls` false),
 * `branch` choosing among `oneOf`/`anyOf` alternatives.
 */
function instance(schema: Schema, o: { nulls: boolean; branch: number }, depth = 0): unknown {
  const s = deref(schema);
  if (s.nullable && o.nulls && depth > 0) return null;
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return instance(alternatives[o.branch % alternatives.length], o, depth + 1);
  if (s.allOf) {
    return Object.assign({}, ...s.allOf.map((x: Schema) => instance(x, o, depth + 1)));
  }
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || s.properties) {
    const out: Record<string, unknown> = {};
    for (const k of s.required ?? []) out[k] = instance(s.properties?.[k] ?? {}, o, depth + 1);
    return out;
  }
  if (type === "array") return depth > 6 ? [] : [instance(s.items ?? {}, o, depth + 1)];
  if (type === "integer" || type === "number") return s.minimum ?? 1;
  if (type === "boolean") return false;
  if (type === "string") {
    if (s.format === "date-time") return "2026-01-01T00:00:00Z";
    if (s.format === "uri") return "https://api.github.com/x";
    if (s.format === "email") return "a@example.com";
    return s.pattern ? "" : "x";
  }
  return "x";
}

/** The description's examples of `GET path`'s 200 answer. */
function examples(path: string): unknown[] {
  const content = spec.paths[path].get.responses["200"].content?.["application/json"];
  return Object.values(content?.examples ?? {}).map((e: any) => deref(e).value);
}

/** The endpoints rgraph reads, each with the decoder it reads the answer with. */
const ENDPOINTS: [string, Decoder<unknown>][] = [
  ["/repos/{owner}/{repo}", RestRepo],
  ["/repos/{owner}/{repo}/readme", RestReadme],
  ["/repos/{owner}/{repo}/issues", arr(RestIssue)],
  ["/repos/{owner}/{repo}/issues/{issue_number}", RestIssue],
  ["/repos/{owner}/{repo}/issues/{issue_number}", RestIssuePlace],
  ["/repos/{owner}/{repo}/issues/{issue_number}/comments", arr(RestComment)],
  ["/repos/{owner}/{repo}/pulls/{pull_number}", RestPull],
  ["/repos/{owner}/{repo}/pulls/{pull_number}/files", arr(RestFile)],
  ["/repos/{owner}/{repo}/pulls/{pull_number}/comments", arr(RestReviewComment)],
  ["/search/issues", RestSearch],
];

Deno.test("each REST decoder accepts every bare shape the description's response schema allows, and its examples", () => {
  for (const [path, decode] of ENDPOINTS) {
    const valid = validator(path);
    const schema = spec.paths[path].get.responses["200"].content["application/json"].schema;
    const shapes: unknown[] = [];
    for (const nulls of [true, false]) {
      for (const branch of [0, 1]) shapes.push(instance(schema, { nulls, branch }));
    }
    for (const shape of shapes) {
      // The generator's shapes are the description's: ajv says so first.
      assert.ok(
        valid(shape),
        `${path}: ${ajv.errorsText(valid.errors)} in ${JSON.stringify(shape)}`,
      );
      assert.doesNotThrow(() => decode(shape, path), `${path} ${JSON.stringify(shape)}`);
    }
    for (const example of examples(path)) {
      if (valid(example)) assert.doesNotThrow(() => decode(example, path), `${path} example`);
    }
  }
});

/** The description's operation (and its path template) for a concrete path. */
function operationOf(path: string): { template: string; op: Schema } | null {
  for (const [template, item] of Object.entries(spec.paths as Record<string, Schema>)) {
    if (!item.get) continue;
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (re.test(path)) return { template, op: item.get };
  }
  return null;
}

/** What is wrong with a query parameter for `op`, or null. */
function parameterProblem(op: Schema, name: string, value: string): string | null {
  const params = (op.parameters ?? []).map(deref).filter((p: Schema) => p.in === "query");
  const p = params.find((x: Schema) => x.name === name);
  if (!p) return `${name} is not a parameter of ${op.operationId}`;
  const s = deref(p.schema ?? {});
  if (s.enum && !s.enum.includes(value)) return `${name}=${value} is none of ${s.enum}`;
  if (s.type === "integer" && !/^\d+$/.test(value)) return `${name}=${value} is not an integer`;
  return null;
}

Deno.test("every REST request a tokenless Sweep builds is one the description has, with only its parameters, and every answer the emulator gave it is valid against the response schema", async () => {
  const w = await world({ token: null, anonymousLimit: 5000 });
  const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
  const { owner, oldName } = FACTS.renamed;
  try {
    await w.fetched(`gh issue view ${FACTS.big.longThread.number} -R ${BIG} --comments`);
    await w.fetched(`gh pr view ${FACTS.detailedPull.number} -R ${BIG}`);
    await w.fetched(`gh pr view ${FACTS.bigPull.number} -R ${BIG}`);
    await w.fetched(`gh repo view ${owner}/${oldName}`);
    await w.fetched(`gh issue list -R ${BIG} --label bug --author alice --state closed --limit 5`);
    await w.fetched(`gh issue list -R ${BIG} --assignee bob --limit 5`);
    await w.fetched(`gh pr list -R ${BIG} --state merged --limit 5`);
    await w.fetched(`gh issue list -R ${BIG} --search "${FACTS.big.searchPhrase.text}"`);
    await w.fetched(`gh issue view ${FACTS.transferred.from.number} -R ${BIG}`);
    await w.sweep();
    // Asked again: revalidated (If-None-Match, `since`).
    await w.fetched(`gh issue list -R ${BIG} --label bug --author alice --state closed --limit 5`);
    await w.fetched(`gh issue view ${FACTS.big.longThread.number} -R ${BIG} --comments`);
    await w.sweep();
    const log = w.gh.restLog();
    assert.ok(log.length > 20, JSON.stringify(log));
    const asked = new Set<string>();
    const problems = new Set<string>();
    for (const request of log) {
      const url = new URL(request, "http://x");
      // GitHub's own Location of a renamed repository, followed as it says: not built by rgraph.
      if (url.pathname.startsWith("/repositories/")) continue;
      const found = operationOf(url.pathname);
      assert.ok(found, `GET ${url.pathname} is in the description`);
      for (const [name, value] of url.searchParams) {
        const problem = parameterProblem(found.op, name, value);
        if (problem) problems.add(`${request}: ${problem}`);
      }
      asked.add(found.template);
      if (found.template === "/rate_limit") continue;
      // The emulator's answer, asked again with the token (the anonymous hour stays unspent).
      const res = await fetch(`${w.gh.apiUrl}${request}`, {
        headers: { authorization: `bearer ${w.gh.token}` },
      });
      const body = await res.json();
      if (res.status !== 200) continue;
      const valid = validator(found.template);
      if (!valid(body)) problems.add(`${found.template}: ${ajv.errorsText(valid.errors)}`);
    }
    assert.deepEqual([...problems], []);
    // Each endpoint rgraph reads was asked at least once.
    for (const [path] of ENDPOINTS) assert.ok(asked.has(path), `${path} was asked`);
  } finally {
    await w.close();
  }
});
