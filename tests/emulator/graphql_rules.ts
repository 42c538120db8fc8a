/**
 * GitHub's GraphQL rules applied before execution — pagination boundaries,
 * the node limit and the query cost — and GitHub's wording of errors.
 *
 * @example
 * ```ts
 * const a = analyze(doc, op, variables);
 * a.errors.length; // 0 when GitHub would run it
 * Math.max(1, Math.round(a.requests / 100)); // its cost in points
 * ```
 * @module
 */

import {
  type ASTNode,
  BREAK,
  type DocumentNode,
  type FieldNode,
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLError,
  type GraphQLField,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  visit,
} from "graphql";
import { githubSchema } from "./schema.ts";
import { GitHubGraphqlError } from "./graphql_objects.ts";

// ---------------------------------------------------------------- static analysis

/** What a query will cost, or why GitHub refuses it before executing. */
export interface Analysis {
  errors: Record<string, unknown>[];
  requests: number;
  nodes: number;
}

const MAX_NODES = 500_000;

function intArg(
  field: FieldNode,
  name: string,
  variables: Record<string, unknown>,
  defaults: Map<string, unknown>,
) {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (!arg) return undefined;
  const v: ValueNode = arg.value;
  if (v.kind === Kind.INT) return Number(v.value);
  if (v.kind === Kind.NULL) return null;
  if (v.kind === Kind.VARIABLE) {
    const x = v.name.value in variables ? variables[v.name.value] : defaults.get(v.name.value);
    return typeof x === "number" ? x : x == null ? null : undefined;
  }
  return undefined;
}

/**
 * GitHub's pre-execution checks: every connection needs `first` or `last`
 * in 1..100; the query may touch at most 500,000 nodes; its cost is the
 * number of connection requests / 100 (at least 1).
 */
export function analyze(
  doc: DocumentNode,
  op: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Analysis {
  const schema = githubSchema();
  const fragments = new Map(
    doc.definitions.flatMap((
      d,
    ) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const defaults = new Map<string, unknown>(
    (op.variableDefinitions ?? []).map((d) => [
      d.variable.name.value,
      d.defaultValue?.kind === Kind.INT ? Number(d.defaultValue.value) : undefined,
    ]),
  );
  const out: Analysis = { errors: [], requests: 0, nodes: 0 };
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (t && isCompositeType(t)) walk(sel.selectionSet, t, multiplier);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        const t = frag && schema.getType(frag.typeCondition.name.value);
        if (frag && t && isCompositeType(t)) walk(frag.selectionSet, t, multiplier);
        continue;
      }
      if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
      const def: GraphQLField<unknown, unknown> | undefined = parent.getFields()[sel.name.value];
      if (!def || !sel.selectionSet) continue;
      const type = getNamedType(def.type);
      let childMultiplier = multiplier;
      if (type.name.endsWith("Connection") && def.args.some((a) => a.name === "first")) {
        const first = intArg(sel, "first", variables, defaults);
        const last = intArg(sel, "last", variables, defaults);
        const where = { locations: sel.loc ? [location(sel)] : undefined };
        const name = sel.name.value;
        if (first == null && last == null) {
          out.errors.push({
            type: "MISSING_PAGINATION_BOUNDARIES",
            ...where,
            message:
              `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
          });
          continue;
        }
        if (first != null && last != null) {
          out.errors.push({
            type: "ARGUMENT_LIMIT",
            ...where,
            message:
              `Passing both \`first\` and \`last\` to paginate the \`${name}\` connection is not supported.`,
          });
          continue;
        }
        const which = first != null ? "first" : "last";
        const n = (first ?? last)!;
        if (n > 100) {
          out.errors.push({
            type: "EXCESSIVE_PAGINATION",
            ...where,
            message:
              `Requesting ${n} records on the \`${name}\` connection exceeds the \`${which}\` limit of 100 records.`,
          });
          continue;
        }
        if (n < 0) {
          out.errors.push({
            type: "ARGUMENT_LIMIT",
            ...where,
            message: `\`${which}\` on the \`${name}\` connection cannot be less than zero.`,
          });
          continue;
        }
        out.requests += multiplier;
        out.nodes += multiplier * n;
        childMultiplier = multiplier * Math.max(n, 1);
      }
      if (isCompositeType(type)) walk(sel.selectionSet, type, childMultiplier);
    }
  };
  const root = op.operation === "query" ? schema.getQueryType() : schema.getMutationType();
  if (root) walk(op.selectionSet, root, 1);
  if (out.nodes > MAX_NODES) {
    out.errors.push({
      type: "MAX_NODE_LIMIT_EXCEEDED",
      message: `This query requests up to ${
        out.nodes.toLocaleString("en-US")
      } possible nodes which exceeds the maximum limit of 500,000.`,
    });
  }
  return out;
}

function location(node: { loc?: { startToken: { line: number; column: number } } }) {
  return { line: node.loc!.startToken.line, column: node.loc!.startToken.column };
}

// ---------------------------------------------------------------- errors

/**
 * Where GitHub says a bad node is: the operation (`query` or `query Name`),
 * then the response keys down to it.
 */
function documentPath(doc: DocumentNode, target: ASTNode | undefined): string[] | undefined {
  if (!target) return undefined;
  let found: string[] | undefined;
  visit(doc, {
    enter(node, _key, _parent, _path, ancestors) {
      if (node !== target) return;
      const trail = [...ancestors, node] as readonly (ASTNode | readonly ASTNode[])[];
      found = trail.flatMap((a) => {
        if (Array.isArray(a)) return [];
        const n = a as ASTNode;
        if (n.kind === Kind.OPERATION_DEFINITION) {
          return [n.name ? `${n.operation} ${n.name.value}` : n.operation];
        }
        if (n.kind === Kind.FRAGMENT_DEFINITION) return [`fragment ${n.name.value}`];
        if (n.kind === Kind.FIELD) return [n.alias?.value ?? n.name.value];
        if (n.kind === Kind.ARGUMENT) return [n.name.value];
        if (n.kind === Kind.INLINE_FRAGMENT) {
          return [`... on ${n.typeCondition?.name.value ?? ""}`.trim()];
        }
        return [];
      });
      return BREAK;
    },
  });
  return found;
}

/** graphql-js validation messages rewritten in GitHub's words. */
export function validationError(doc: DocumentNode, e: GraphQLError): Record<string, unknown> {
  const locations = e.locations;
  let m = e.message.match(/^Cannot query field "(\w+)" on type "(\w+)"\./);
  if (m) {
    return {
      path: documentPath(doc, e.nodes?.[0]),
      extensions: { code: "undefinedField", typeName: m[2], fieldName: m[1] },
      locations,
      message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
    };
  }
  m = e.message.match(/^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"\./);
  if (m) {
    return {
      path: documentPath(doc, e.nodes?.[0]),
      extensions: {
        code: "argumentNotAccepted",
        name: m[3],
        typeName: "Field",
        argumentName: m[1],
      },
      locations,
      message: `Field '${m[3]}' doesn't accept argument '${m[1]}'`,
    };
  }
  m = e.message.match(
    /^Field "(\w+)" argument "(\w+)" of type ".*" is required, but it was not provided\./,
  );
  if (m) {
    return {
      path: documentPath(doc, e.nodes?.[0]),
      extensions: {
        code: "missingRequiredArguments",
        className: "Field",
        name: m[1],
        arguments: m[2],
      },
      locations,
      message: `Field '${m[1]}' is missing required arguments: ${m[2]}`,
    };
  }
  return { locations, message: e.message };
}

export function executionError(e: GraphQLError): Record<string, unknown> {
  const orig = e.originalError;
  const type = orig instanceof GitHubGraphqlError ? orig.type : undefined;
  return { ...(type ? { type } : {}), path: e.path, locations: e.locations, message: e.message };
}
