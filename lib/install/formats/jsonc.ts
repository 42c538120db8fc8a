/**
 * A JSON (optionally JSONC: comments and trailing commas) parser that keeps
 * every value's byte offsets, and text edits built on it. Harness config files
 * are edited in place through these offsets, so a user's formatting, key
 * order and comments survive an install, and an uninstall removes exactly the
 * bytes the install inserted.
 *
 * @example
 * ```ts
 * import { parseJsonc, appendMember } from "./jsonc.ts";
 * const text = '{\n  "a": 1 // keep me\n}\n';
 * const doc = parseJsonc(text, true);
 * appendMember(text, doc, "b", [2]); // '{\n  "a": 1,\n  "b": [\n    2\n  ] // keep me\n}\n'
 * ```
 * @module
 */

/** A parsed value with the offsets of its text (`end` is exclusive). */
export type JNode =
  | { type: "object"; start: number; end: number; members: JMember[] }
  | { type: "array"; start: number; end: number; elements: JNode[] }
  | { type: "string"; start: number; end: number; value: string }
  | { type: "number"; start: number; end: number; value: number }
  | { type: "boolean"; start: number; end: number; value: boolean }
  | { type: "null"; start: number; end: number };

/** One `"key": value` of an object; `start` is the key's first quote. */
export interface JMember {
  key: string;
  start: number;
  value: JNode;
}

/** Text that is not valid JSON (or JSONC); the message names line and column. */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/** Parses `text`; `jsonc` allows `//` and `/* *\/` comments and trailing commas. */
export function parseJsonc(text: string, jsonc: boolean): JNode {
  let i = 0;
  const fail = (what: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    const col = i - before.lastIndexOf("\n");
    throw new JsonSyntaxError(`${what} at line ${line}, column ${col}`);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") i++;
      else if (jsonc && c === "/" && text[i + 1] === "/") {
        while (i < text.length && text[i] !== "\n") i++;
      } else if (jsonc && c === "/" && text[i + 1] === "*") {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) fail("unterminated comment");
        i = close + 2;
      } else return;
    }
  };
  const str = (): { value: string; start: number; end: number } => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("control character in string");
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
    try {
      return { value: JSON.parse(text.slice(start, i)), start, end: i };
    } catch {
      return fail("bad string escape");
    }
  };
  /** The comma-separated items of a container whose opener is at `i`, up to `close`. */
  const items = <T>(close: string, item: () => T): T[] => {
    const out: T[] = [];
    i++;
    skip();
    while (text[i] !== close) {
      out.push(item());
      skip();
      if (text[i] === ",") {
        i++;
        skip();
        if (text[i] === close && !jsonc) fail("trailing comma");
      } else if (text[i] !== close) fail(`expected ',' or '${close}'`);
    }
    i++;
    return out;
  };
  const value = (): JNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === "{") {
      const members = items("}", () => {
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        skip();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        return { key: k.value, start: k.start, value: value() };
      });
      return { type: "object", start, end: i, members };
    }
    if (c === "[") {
      const elements = items("]", value);
      return { type: "array", start, end: i, elements };
    }
    if (c === '"') return { type: "string", ...str() };
    const lit = /^(true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 400),
    );
    if (!lit) return fail(i >= text.length ? "unexpected end of text" : "unexpected character");
    i += lit[0].length;
    const end = i;
    if (lit[0] === "true" || lit[0] === "false") {
      return { type: "boolean", start, end, value: lit[0] === "true" };
    }
    if (lit[0] === "null") return { type: "null", start, end };
    return { type: "number", start, end, value: Number(lit[0]) };
  };
  const root = value();
  skip();
  if (i < text.length) fail("unexpected text after the value");
  return root;
}

/** The plain value of a node. */
export function toValue(node: JNode): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(node.members.map((m) => [m.key, toValue(m.value)]));
    case "array":
      return node.elements.map(toValue);
    case "null":
      return null;
    default:
      return node.value;
  }
}

/** The member named `key` of an object node (the last one, as JSON.parse does). */
export function member(node: JNode, key: string): JMember | undefined {
  if (node.type !== "object") return undefined;
  return node.members.findLast((m) => m.key === key);
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The whitespace that begins the line holding offset `at`, if only whitespace precedes it. */
function lineIndent(text: string, at: number): string | null {
  const prefix = text.slice(lineStart(text, at), at);
  return /^[ \t]*$/.test(prefix) ? prefix : null;
}

/** The indent unit of a document: the first indented line's leading whitespace, else two spaces. */
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1] : "  ";
}

function eol(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Where the children of a container go: their indent and whether it is written on one line. */
function childLayout(text: string, container: JNode): { indent: string; inline: boolean } {
  const unit = indentUnit(text);
  const children = container.type === "object"
    ? container.members.map((m) => m.start)
    : container.type === "array"
    ? container.elements.map((e) => e.start)
    : [];
  const inline = !text.slice(container.start, container.end).includes("\n") &&
    children.length > 0;
  const last = children.at(-1);
  const sibling = last === undefined ? null : lineIndent(text, last);
  if (sibling !== null) return { indent: sibling, inline };
  return {
    indent: (lineIndent(text, container.start) ?? leadingOf(text, container.start)) + unit,
    inline,
  };
}

function leadingOf(text: string, at: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, at)))![0];
}

/** `value` as JSON text whose continuation lines start at `indent`. */
function render(text: string, value: unknown, indent: string, inline: boolean): string {
  if (inline) return JSON.stringify(value);
  const nl = eol(text);
  return JSON.stringify(value, null, indentUnit(text)).split("\n").join(nl + indent);
}

function insertChild(
  text: string,
  container: JNode,
  piece: (indent: string, inline: boolean) => string,
): string {
  const { indent, inline } = childLayout(text, container);
  const nl = eol(text);
  const children: JNode[] = container.type === "object"
    ? container.members.map((m) => m.value)
    : container.type === "array"
    ? container.elements
    : [];
  const last = children.at(-1);
  if (last) {
    const sep = inline ? ", " : `,${nl}${indent}`;
    return text.slice(0, last.end) + sep + piece(indent, inline) + text.slice(last.end);
  }
  const close = leadingOf(text, container.start);
  const at = container.start + 1;
  return text.slice(0, at) + nl + indent + piece(indent, false) + nl + close +
    text.slice(container.end - 1);
}

/** Appends `"key": value` as the last member of `object`. */
export function appendMember(text: string, object: JNode, key: string, value: unknown): string {
  if (object.type !== "object") throw new TypeError("not an object");
  return insertChild(
    text,
    object,
    (indent, inline) => `${JSON.stringify(key)}: ${render(text, value, indent, inline)}`,
  );
}

/** Appends `value` as the last element of `array`. */
export function appendElement(text: string, array: JNode, value: unknown): string {
  if (array.type !== "array") throw new TypeError("not an array");
  return insertChild(text, array, (indent, inline) => render(text, value, indent, inline));
}

/**
 * Removes child `index` of `container` (an object's member or an array's
 * element) with its separating comma: the exact inverse of an append.
 */
export function removeChild(text: string, container: JNode, index: number): string {
  const spans: { start: number; end: number }[] = container.type === "object"
    ? container.members.map((m) => ({ start: m.start, end: m.value.end }))
    : container.type === "array"
    ? container.elements.map((e) => ({ start: e.start, end: e.end }))
    : [];
  const span = spans[index];
  if (!span) throw new RangeError("no such child");
  if (spans.length === 1) {
    return text.slice(0, container.start + 1) + text.slice(container.end - 1);
  }
  if (index > 0) return text.slice(0, spans[index - 1].end) + text.slice(span.end);
  return text.slice(0, span.start) + text.slice(spans[1].start);
}
