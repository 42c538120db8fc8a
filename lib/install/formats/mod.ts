/**
 * Formats: editing a harness's config text in place (JSON with comments, JSON, TOML) so that the
 * user's formatting and comments survive rgraph's entries coming and going. Pure text in, text
 * out: no I/O; imports nothing of rgraph's.
 *
 * @example
 * ```ts
 * import { parseJsonc, toValue } from "./mod.ts";
 * toValue(parseJsonc('{ "a": 1 // why\n}', true)); // { a: 1 }
 * ```
 * @module
 */

export * from "./jsonc.ts";
export * from "./json_edit.ts";
export * from "./toml_edit.ts";
