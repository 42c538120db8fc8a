/**
 * Textual edits of a TOML file (Codex's and Grok's `config.toml`): rgraph
 * appends or replaces only its own tables and marked lines, so the user's
 * comments, order and formatting stay byte for byte. `smol-toml` validates
 * the file before and after.
 *
 * @example
 * ```ts
 * import { syncTable, removeTable } from "./toml_edit.ts";
 * const text = syncTable('model = "o3"\n', "mcp_servers.rgraph", { command: "rgraph", args: ["serve-mcp"] });
 * // 'model = "o3"\n\n[mcp_servers.rgraph]\ncommand = "rgraph"\nargs = ["serve-mcp"]\n'
 * removeTable(text, "mcp_servers.rgraph"); // 'model = "o3"\n'
 * ```
 * @module
 */

import { parse } from "smol-toml";

/** The comment that marks a line rgraph added to a table it does not own. */
export const MARK = "# added by rgraph install";

/** Parses TOML text, or throws with the parser's first line. */
export function parseToml(text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new SyntaxError(String((e as Error).message ?? e).split("\n")[0]);
  }
}

/** The dotted key of a `[table]` header line, or null; `[[array]]` headers yield `"[[…]]"`. */
export function headerKey(line: string): string | null {
  const m = /^\s*(\[\[?)\s*([^\[\]]*?)\s*\]\]?\s*(#.*)?$/.exec(line);
  if (!m) return null;
  const key = splitKey(m[2]).join(".");
  return m[1] === "[[" ? `[[${key}]]` : key;
}

function splitKey(text: string): string[] {
  const parts: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(\.|$)/y;
  let m;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    const p = m[1];
    parts.push(p.startsWith('"') ? JSON.parse(p) : p.startsWith("'") ? p.slice(1, -1) : p);
  }
  return parts;
}

function quoteKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

function tomlValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  throw new TypeError(`no TOML form for ${typeof v}`);
}

function lines(text: string): string[] {
  return text.split("\n");
}

/** Line ranges `[start, end)` of every table block: its header up to the next header. */
function blocks(text: string): { key: string; start: number; end: number }[] {
  const ls = lines(text);
  const heads = ls.flatMap((l, i) => {
    const key = headerKey(l);
    return key === null ? [] : [{ key, start: i }];
  });
  return heads.map((h, k) => ({
    ...h,
    end: k + 1 < heads.length ? heads[k + 1].start : ls.length,
  }));
}

function belongs(key: string, table: string): boolean {
  return key === table || key.startsWith(`${table}.`);
}

/**
 * Removes table `table` and its sub-tables, with the blank line rgraph put
 * before it; unchanged text when absent.
 */
export function removeTable(text: string, table: string): string {
  for (;;) {
    const block = blocks(text).find((b) => belongs(b.key, table));
    if (!block) return text;
    const ls = lines(text);
    let { start, end } = block;
    // The block's trailing blank lines separate it from the next table: keep them.
    while (end > start + 1 && ls[end - 1].trim() === "" && end < ls.length) end--;
    if (end === ls.length) {
      // Last table: drop the separator that preceded it.
      while (start > 0 && ls[start - 1].trim() === "") start--;
      const kept = ls.slice(0, start);
      text = kept.length === 0 ? "" : kept.join("\n") + "\n";
    } else {
      text = [...ls.slice(0, start), ...ls.slice(end)].join("\n");
    }
  }
}

/** The text of `[table]` with `values` as `key = value` lines. */
function tableText(table: string, values: Record<string, unknown>, mark = ""): string {
  const head = `[${table.split(".").map(quoteKey).join(".")}]${mark ? `  ${mark}` : ""}`;
  const body = Object.entries(values).map(([k, v]) => `${quoteKey(k)} = ${tomlValue(v)}`);
  return [head, ...body].join("\n") + "\n";
}

/** Appends a block at the end of the file, after one blank line. */
function appendBlock(text: string, block: string): string {
  if (text.trim() === "") return block;
  return text + (text.endsWith("\n") ? "" : "\n") + "\n" + block;
}

/**
 * Makes table `table` hold exactly `values` (rewriting it at the end of the
 * file when it differs); unchanged text when it already does.
 */
export function syncTable(text: string, table: string, values: Record<string, unknown>): string {
  const doc = parseToml(text);
  const current = table.split(".").reduce<unknown>(
    (v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
    doc,
  );
  if (current !== undefined && JSON.stringify(current) === JSON.stringify(values)) return text;
  if (current !== undefined && !blocks(text).some((b) => b.key === table)) {
    throw new SyntaxError(`[${table}] is written inline; edit it by hand`);
  }
  return appendBlock(removeTable(text, table), tableText(table, values));
}

/**
 * Sets `key = value` in table `table` unless the table already sets `key`
 * (or one of `aliases`): the line (and the table, when rgraph creates it) is
 * marked so {@link removeMarked} can take it out again.
 */
export function ensureKey(
  text: string,
  table: string,
  key: string,
  value: unknown,
  aliases: string[] = [],
): { text: string; existing: unknown } {
  const doc = parseToml(text);
  const t = doc[table];
  if (t !== undefined && (typeof t !== "object" || t === null || Array.isArray(t))) {
    throw new SyntaxError(`${table} is not a table`);
  }
  const set = t as Record<string, unknown> | undefined;
  for (const k of [key, ...aliases]) {
    if (set && k in set) return { text, existing: set[k] };
  }
  const line = `${quoteKey(key)} = ${tomlValue(value)}  ${MARK}`;
  const block = blocks(text).find((b) => b.key === table);
  if (!block) {
    if (set) {
      throw new SyntaxError(
        `[${table}] is written inline; add ${key} = ${tomlValue(value)} by hand`,
      );
    }
    return {
      text: appendBlock(
        text,
        tableText(table, { [key]: value }, MARK).replace(/\n$/, `  ${MARK}\n`),
      ),
      existing: undefined,
    };
  }
  const ls = lines(text);
  ls.splice(block.start + 1, 0, line);
  return { text: ls.join("\n"), existing: undefined };
}

/** Removes the lines rgraph marked, and a marked table left with no keys. */
export function removeMarked(text: string): string {
  let ls = lines(text).filter((l) => !(l.includes(MARK) && headerKey(l) === null));
  text = ls.join("\n");
  for (const b of blocks(text)) {
    ls = lines(text);
    if (!ls[b.start].includes(MARK)) continue;
    const body = ls.slice(b.start + 1, b.end).filter((l) =>
      l.trim() !== "" && !l.trim().startsWith("#")
    );
    if (body.length === 0) return removeMarked(removeTable(text, b.key));
  }
  return text;
}
