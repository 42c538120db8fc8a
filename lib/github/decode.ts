/**
 * A small decoder kit: GitHub responses are checked field by field where they
 * enter rgraph, so a change in GitHub's schema fails loudly with the path of
 * the field instead of storing `undefined` somewhere deep in memory.
 *
 * @example
 * ```ts
 * import { decode, obj, str, nullable } from "./decode.ts";
 * const user = obj({ login: str, name: nullable(str) });
 * decode(user, { login: "octocat", name: null }, "viewer"); // { login: "octocat", name: null }
 * decode(user, { name: 1 }, "viewer"); // throws SchemaDriftError "viewer.login: expected string, got undefined"
 * ```
 * @module
 */

/** A response did not have the shape rgraph was written for. */
export class SchemaDriftError extends Error {
  constructor(readonly path: string, expected: string, got: unknown) {
    super(`GitHub response changed shape at ${path}: expected ${expected}, got ${describe(got)}`);
    this.name = "SchemaDriftError";
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Checks `value` (found at `path`) and returns it typed. */
export type Decoder<T> = (value: unknown, path: string) => T;

/** The type a decoder produces. */
export type Decoded<D> = D extends Decoder<infer T> ? T : never;

/** Runs a decoder on a whole response. */
export function decode<T>(decoder: Decoder<T>, value: unknown, path = "$"): T {
  return decoder(value, path);
}

/** A string. */
export const str: Decoder<string> = (v, p) => {
  if (typeof v !== "string") throw new SchemaDriftError(p, "string", v);
  return v;
};

/** A finite number. */
export const num: Decoder<number> = (v, p) => {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new SchemaDriftError(p, "number", v);
  return v;
};

/** A boolean. */
export const bool: Decoder<boolean> = (v, p) => {
  if (typeof v !== "boolean") throw new SchemaDriftError(p, "boolean", v);
  return v;
};

/** One of a fixed set of strings (a GraphQL enum). */
export function oneOf<const T extends string>(...values: T[]): Decoder<T> {
  return (v, p) => {
    if (typeof v !== "string" || !(values as string[]).includes(v)) {
      throw new SchemaDriftError(p, values.join("|"), v);
    }
    return v as T;
  };
}

/** `null` or the inner type. A missing field is drift, not null. */
export function nullable<T>(inner: Decoder<T>): Decoder<T | null> {
  return (v, p) => {
    if (v === null) return null;
    if (v === undefined) throw new SchemaDriftError(p, "value or null", v);
    return inner(v, p);
  };
}

/** An optional field: absent or null both give `null` (for fields only some queries select). */
export function optional<T>(inner: Decoder<T>): Decoder<T | null> {
  return (v, p) => (v === null || v === undefined ? null : inner(v, p));
}

/** An array of the inner type. */
export function arr<T>(inner: Decoder<T>): Decoder<T[]> {
  return (v, p) => {
    if (!Array.isArray(v)) throw new SchemaDriftError(p, "array", v);
    return v.map((x, i) => inner(x, `${p}[${i}]`));
  };
}

type Shape = Record<string, Decoder<unknown>>;
type FromShape<S extends Shape> = { [K in keyof S]: Decoded<S[K]> };

/** An object with (at least) these fields; extra fields are ignored. */
export function obj<S extends Shape>(shape: S): Decoder<FromShape<S>> {
  return (v, p) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new SchemaDriftError(p, "object", v);
    }
    const out: Record<string, unknown> = {};
    for (const [k, d] of Object.entries(shape)) {
      out[k] = d((v as Record<string, unknown>)[k], `${p}.${k}`);
    }
    return out as FromShape<S>;
  };
}

/** An object whose keys are not known in advance (aliased batches). */
export function record<T>(inner: Decoder<T>): Decoder<Record<string, T>> {
  return (v, p) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new SchemaDriftError(p, "object", v);
    }
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(v)) out[k] = inner(x, `${p}.${k}`);
    return out;
  };
}
