/**
 * The one rule for text rgraph did not write (pure).
 *
 * Text from GitHub, from fields another writer of a shared store controls,
 * and from hook payloads reaches a terminal or a model's context. There it
 * can do harm without being read: control sequences repaint or retitle a
 * terminal (ESC in C0, CSI U+009B and OSC U+009D in C1), bidirectional
 * overrides and isolates make text display in another order than it is
 * read, and zero-width and other format characters hide text a person
 * never sees but a model does (Unicode tag characters spell out whole
 * instructions invisibly).
 *
 * The rule: every character of Unicode's categories Cc (controls: C0,
 * DEL, C1) and Cf (format: bidi controls, zero-width characters, the byte
 * order mark, tags, soft hyphen, …), the line and paragraph separators
 * U+2028 and U+2029, and lone surrogate halves is replaced by a visible
 * `[U+XXXX]`, so nothing is hidden and nothing is lost. Newlines and tabs
 * are kept in blocks ({@link neutralize}) and become spaces (as do the
 * separators) in one-line fields ({@link neutralizeLine}), where a newline could forge a line of
 * rgraph's own output.
 *
 * A context may add its own escape on top (the fence breaks up `<<<`, the
 * Nudge turns `<` into `‹`); the character rule is this one everywhere.
 *
 * @example
 * ```ts
 * import { neutralize, neutralizeLine } from "./untrusted.ts";
 * neutralize("a\u202Eb\nc"); // "a[U+202E]b\nc"
 * neutralizeLine("id\n\u001b[31m"); // "id [U+001B][31m"
 * ```
 * @module
 */

/**
 * Everything the rule replaces, in blocks except newline and tab. Lone
 * surrogates match as themselves under the `u` flag.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029\p{Cs}]/gu;

/** The same class, for a yes/no test (a global regex keeps state between tests). */
const ANY_HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029\p{Cs}]/u;

/** The visible stand-in for one hidden character: `[U+` its code point in hex `]`. */
function visible(ch: string): string {
  const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `[U+${hex}]`;
}

/**
 * A block of untrusted text made safe for a terminal or a model: CRLF and
 * lone CR become LF; newlines and tabs stay; every other control, format
 * or separator character becomes a visible `[U+XXXX]`.
 *
 * @example
 * ```ts
 * neutralize("ok\r\n\u009b2J\u200Bhidden\tcol"); // "ok\n[U+009B]2J[U+200B]hidden\tcol"
 * ```
 */
export function neutralize(text: string): string {
  return text.replace(/\r\n?/g, "\n")
    .replace(HIDDEN, (ch) => ch === "\n" || ch === "\t" ? ch : visible(ch));
}

/**
 * One line of untrusted text (an id, a title, a tool name, an address) made
 * safe for a terminal or a model: as {@link neutralize}, and each run of
 * newlines, CRs, tabs and line or paragraph separators becomes one space, so the field cannot start a
 * line of its own.
 *
 * @example
 * ```ts
 * neutralizeLine("s1\n\nrgraph: ok"); // "s1 rgraph: ok"
 * neutralizeLine("\u2066x\u2069"); // "[U+2066]x[U+2069]"
 * ```
 */
export function neutralizeLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, " ").replace(HIDDEN, visible);
}

/**
 * Whether `text` holds nothing the rule would change in a one-line field:
 * for values shown exactly or not at all (a URL, a path).
 *
 * @example
 * ```ts
 * isPlainLine("https://github.com/o/r"); // true
 * isPlainLine("https://github.com/o/r\u202E"); // false
 * ```
 */
export function isPlainLine(text: string): boolean {
  return !ANY_HIDDEN.test(text);
}
