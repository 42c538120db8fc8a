/**
 * Merging rgraph's entries into a JSON/JSONC document and taking them out
 * again, as text edits (see `jsonc.ts`): other keys, entries, comments and
 * formatting stay as they were.
 *
 * @example
 * ```ts
 * import { syncList, removeOurs } from "./json_edit.ts";
 * const ours = (v: unknown) => (v as { command?: string }).command === "rgraph hook x";
 * const text = syncList('{"hooks": {}}', false, ["hooks", "start"], [{ command: "rgraph hook x" }], ours);
 * removeOurs(text, false, ours) === '{"hooks": {}}'; // false: the emptied containers go too
 * ```
 * @module
 */

import {
  appendElement,
  appendMember,
  type JNode,
  member,
  parseJsonc,
  removeChild,
  toValue,
} from "./jsonc.ts";

/** A document whose shape rgraph cannot merge into (a key it needs holds the wrong type). */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MergeError";
  }
}

/** Structural equality of plain JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a), kb = Object.keys(b as object);
  return ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && sameJson((a as any)[k], (b as any)[k]));
}

/** Builds `{p1: {p2: … value}}` for the part of a path that does not exist yet. */
function nest(path: string[], value: unknown): unknown {
  return path.reduceRight((v, k) => ({ [k]: v }), value);
}

/** Follows `path` through objects; returns the deepest node reached and how far it got. */
function walk(root: JNode, path: string[]): { node: JNode; depth: number } {
  let node = root;
  for (let d = 0; d < path.length; d++) {
    if (node.type !== "object") {
      throw new MergeError(`'${path.slice(0, d).join(".")}' is not an object`);
    }
    const m = member(node, path[d]);
    if (!m) return { node, depth: d };
    node = m.value;
  }
  return { node, depth: path.length };
}

/** Appends `value` to the list at `path`, creating the missing objects and list. */
function appendAt(text: string, jsonc: boolean, path: string[], value: unknown): string {
  const root = parseJsonc(text, jsonc);
  if (root.type !== "object") throw new MergeError("the document is not an object");
  const { node, depth } = walk(root, path);
  if (depth < path.length) {
    if (node.type !== "object") {
      throw new MergeError(`'${path.slice(0, depth).join(".")}' is not an object`);
    }
    return appendMember(text, node, path[depth], nest(path.slice(depth + 1), [value]));
  }
  if (node.type !== "array") throw new MergeError(`'${path.join(".")}' is not a list`);
  return appendElement(text, node, value);
}

/** Sets member `key` of the object at `path` (appending it; the caller removed any old one). */
function setAt(text: string, jsonc: boolean, path: string[], key: string, value: unknown): string {
  const root = parseJsonc(text, jsonc);
  if (root.type !== "object") throw new MergeError("the document is not an object");
  const { node, depth } = walk(root, path);
  if (node.type !== "object") {
    throw new MergeError(`'${path.slice(0, depth).join(".")}' is not an object`);
  }
  if (depth < path.length) {
    return appendMember(text, node, path[depth], nest([...path.slice(depth + 1), key], value));
  }
  return appendMember(text, node, key, value);
}

/** A node found for removal: its container and its index there. */
interface Slot {
  container: JNode;
  index: number;
}

function children(node: JNode): { key: string | null; value: JNode }[] {
  if (node.type === "object") return node.members.map((m) => ({ key: m.key, value: m.value }));
  if (node.type === "array") return node.elements.map((e) => ({ key: null, value: e }));
  return [];
}

/**
 * The first node (pre-order, so a whole matching group before its entries)
 * that `ours` accepts, widened to its container while that container would be
 * left empty — but never to the document itself.
 */
function findOurs(root: JNode, ours: (value: unknown, key: string | null) => boolean): Slot | null {
  const visit = (node: JNode, chain: Slot[]): Slot | null => {
    const kids = children(node);
    for (let index = 0; index < kids.length; index++) {
      const slot = { container: node, index };
      const path = [...chain, slot];
      if (ours(toValue(kids[index].value), kids[index].key)) {
        let k = path.length - 1;
        while (k > 0 && children(path[k].container).length === 1) k--;
        return path[k];
      }
      const found = visit(kids[index].value, path);
      if (found) return found;
    }
    return null;
  };
  return visit(root, []);
}

/** Removes every entry `ours` accepts (and the containers that held only them). */
export function removeOurs(
  text: string,
  jsonc: boolean,
  ours: (value: unknown, key: string | null) => boolean,
): string {
  for (;;) {
    const slot = findOurs(parseJsonc(text, jsonc), ours);
    if (!slot) return text;
    text = removeChild(text, slot.container, slot.index);
  }
}

/** The elements of the list at `path` (empty when absent). */
function listAt(text: string, jsonc: boolean, path: string[]): unknown[] {
  const { node, depth } = walk(parseJsonc(text, jsonc), path);
  if (depth < path.length) return [];
  if (node.type !== "array") throw new MergeError(`'${path.join(".")}' is not a list`);
  return toValue(node) as unknown[];
}

/**
 * Makes rgraph's entries of the list at `path` exactly `entries` (appended
 * after the user's own); unchanged text when they already are.
 */
export function syncList(
  text: string,
  jsonc: boolean,
  path: string[],
  entries: unknown[],
  ours: (value: unknown) => boolean,
  /** Also ours when nested inside a user's entry (e.g. a handler in a user's group). */
  nestedOurs?: (value: unknown) => boolean,
): string {
  const current = listAt(text, jsonc, path);
  const mine = current.filter(ours);
  const stray = nestedOurs !== undefined &&
    current.some((v) => !ours(v) && containsOurs(v, nestedOurs));
  if (!stray && sameJson(mine, entries)) return text;
  const under = (t: string) => {
    const { node, depth } = walk(parseJsonc(t, jsonc), path);
    return depth === path.length ? node : null;
  };
  let list = under(text);
  while (list) {
    const kids = children(list);
    const i = kids.findIndex((k) =>
      ours(toValue(k.value)) || (nestedOurs && containsOurs(toValue(k.value), nestedOurs))
    );
    if (i < 0) break;
    const v = toValue(kids[i].value);
    text = ours(v) ? removeChild(text, list, i) : removeNested(text, jsonc, list, i, nestedOurs!);
    list = under(text);
  }
  for (const e of entries) text = appendAt(text, jsonc, path, e);
  return text;
}

function containsOurs(value: unknown, ours: (v: unknown) => boolean): boolean {
  if (ours(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some((v) => containsOurs(v, ours));
}

/** Removes rgraph's entries nested in child `index` of `list`, leaving the user's parts. */
function removeNested(
  text: string,
  jsonc: boolean,
  list: JNode,
  index: number,
  ours: (v: unknown) => boolean,
): string {
  const child = children(list)[index].value;
  const inner = removeOurs(text.slice(child.start, child.end), jsonc, (v) => ours(v));
  return text.slice(0, child.start) + inner + text.slice(child.end);
}

/**
 * Makes member `key` of the object at `path` equal `value` (replacing it, and
 * moving it last, when it differs); unchanged text when it already is.
 */
export function syncMember(
  text: string,
  jsonc: boolean,
  path: string[],
  key: string,
  value: unknown,
): string {
  const root = parseJsonc(text, jsonc);
  const { node, depth } = walk(root, path);
  if (depth === path.length) {
    if (node.type !== "object") throw new MergeError(`'${path.join(".")}' is not an object`);
    const index = node.members.findLastIndex((m) => m.key === key);
    if (index >= 0) {
      if (sameJson(toValue(node.members[index].value), value)) return text;
      text = removeChild(text, node, index);
    }
  }
  return setAt(text, jsonc, path, key, value);
}

/** The value at `path`, or undefined. */
export function valueAt(text: string, jsonc: boolean, path: string[]): unknown {
  const { node, depth } = walk(parseJsonc(text, jsonc), path);
  return depth === path.length ? toValue(node) : undefined;
}
