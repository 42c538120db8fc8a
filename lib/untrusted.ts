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

let hiddenPattern: RegExp | undefined;

/**
 * Everything the rule replaces, in blocks except newline and tab. Lone
 * surrogates match as themselves under the `u` flag. Built on first use:
 * a pattern of Unicode classes takes V8 a fraction of a millisecond to
 * build, which a module constant would add to every hook's start-up.
 */
function hidden(): RegExp {
  return hiddenPattern ??= /[\p{Cc}\p{Cf}\u2028\u2029\p{Cs}]/gu;
}

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
    .replace(hidden(), (ch) => ch === "\n" || ch === "\t" ? ch : visible(ch));
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
  return text.replace(/[\r\n\t\u2028\u2029]+/g, " ").replace(hidden(), visible);
}

/**
 * At most `max` characters of a one-line untrusted field, neutralised
 * ({@link neutralizeLine}) and, when cut, ending in `…` and the field's full
 * length. Only the kept part is read, so a field of millions of characters
 * (an address stored before addresses were bounded) costs nothing more.
 *
 * @example
 * ```ts
 * clipLine("github:o/r/issues?q=" + "x".repeat(5000), 24);
 * // "github:o/r/issues?q=xxxx… (5020 characters)"
 * ```
 */
export function clipLine(text: string, max: number): string {
  if (text.length <= max) return neutralizeLine(text);
  // Never keep half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${neutralizeLine(text.slice(0, end))}… (${text.length} characters)`;
}

/**
 * `JSON.stringify(value, null, space)` with every character of the rule
 * written as a `\uXXXX` escape: the same data for a program reading it,
 * nothing a terminal acts on for a person reading it (JSON itself escapes
 * only C0 controls, so DEL, C1, bidi and zero-width characters would
 * otherwise pass).
 *
 * @example
 * ```ts
 * terminalJson({ s: "a\u202Eb" }); // '{"s":"a\\u202eb"}'
 * ```
 */
export function terminalJson(value: unknown, space?: number): string {
  // A raw newline in JSON text is only ever the indentation's (strings escape theirs).
  return JSON.stringify(value, null, space).replace(hidden(), (ch) => {
    if (ch === "\n") return ch;
    let out = "";
    for (let i = 0; i < ch.length; i++) {
      out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
    }
    return out;
  });
}
