import assert from "node:assert/strict";
import { clipLine, neutralize, neutralizeLine, terminalJson } from "./untrusted.ts";

// [what, input, block, line]
const CASES: [string, string, string, string][] = [
  ["plain text", "plain text", "plain text", "plain text"],
  ["newline and tab", "a\tb\nc", "a\tb\nc", "a b c"],
  ["CRLF and lone CR", "a\r\nb\rc", "a\nb\nc", "a b c"],
  ["a run of breaks is one space in a line", "a\n\n\t\r\nb", "a\n\n\t\nb", "a b"],
  ["ESC (C0)", "\u001b[31mred", "[U+001B][31mred", "[U+001B][31mred"],
  ["NUL and BEL", "\u0000x\u0007", "[U+0000]x[U+0007]", "[U+0000]x[U+0007]"],
  ["DEL", "x\u007f", "x[U+007F]", "x[U+007F]"],
  [
    "CSI and OSC (C1)",
    "\u009b2J\u009d0;t\u0007",
    "[U+009B]2J[U+009D]0;t[U+0007]",
    "[U+009B]2J[U+009D]0;t[U+0007]",
  ],
  ["NEL (C1 line break)", "a\u0085b", "a[U+0085]b", "a[U+0085]b"],
  ["bidi override", "abc\u202Efed", "abc[U+202E]fed", "abc[U+202E]fed"],
  ["bidi isolates", "\u2066x\u2069", "[U+2066]x[U+2069]", "[U+2066]x[U+2069]"],
  ["bidi marks", "\u200E\u200F\u061C", "[U+200E][U+200F][U+061C]", "[U+200E][U+200F][U+061C]"],
  [
    "zero-width",
    "a\u200Bb\u200Cc\u200Dd\u2060e",
    "a[U+200B]b[U+200C]c[U+200D]d[U+2060]e",
    "a[U+200B]b[U+200C]c[U+200D]d[U+2060]e",
  ],
  ["byte order mark", "\uFEFFx", "[U+FEFF]x", "[U+FEFF]x"],
  [
    "tag characters (invisible ASCII)",
    "ok\u{E0069}\u{E0067}",
    "ok[U+E0069][U+E0067]",
    "ok[U+E0069][U+E0067]",
  ],
  ["line and paragraph separators", "a\u2028b\u2029c", "a[U+2028]b[U+2029]c", "a b c"],
  ["lone surrogate", "a\uD800b", "a[U+D800]b", "a[U+D800]b"],
  ["letters, emoji and CJK kept", "café 日本 😀 ‹›", "café 日本 😀 ‹›", "café 日本 😀 ‹›"],
  ["a marker-like text is not this rule's concern", "<<<x>>>", "<<<x>>>", "<<<x>>>"],
];

for (const [what, input, block, line] of CASES) {
  Deno.test(`neutralize: ${what}`, () => {
    assert.equal(neutralize(input), block);
    assert.equal(neutralizeLine(input), line);
  });
}

Deno.test("neutralize leaves nothing of the rule's classes behind", () => {
  let all = "";
  for (let cp = 0; cp <= 0x2100; cp++) all += String.fromCodePoint(cp);
  all += "\uFEFF\u{E0001}\u{E007F}";
  const hidden = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
  assert.ok(!hidden.test(neutralize(all).replace(/[\n\t]/g, "")));
  assert.ok(!hidden.test(neutralizeLine(all)));
});

Deno.test("clipLine: cut at the bound with the full length, never half a surrogate pair", () => {
  assert.equal(clipLine("short", 10), "short");
  assert.equal(clipLine("a\u001bb", 10), "a[U+001B]b");
  assert.equal(clipLine("x".repeat(30), 5), "xxxxx… (30 characters)");
  assert.equal(clipLine("ab😀cd", 3), "ab… (6 characters)");
});

Deno.test("terminalJson: the same data for a program, nothing raw for a terminal", () => {
  const value = { s: "a\u202Eb\u009b2J\u{E0041}\u200B\n\t\u0007", n: 1 };
  const text = terminalJson(value, 2);
  assert.deepEqual(JSON.parse(text), value);
  assert.doesNotMatch(text, /[\u007f-\u009f\u200b\u202e]|\u{E0041}/u);
  assert.ok(
    text.includes("\\u202e") && text.includes("\\u009b") && text.includes("\\udb40\\udc41"),
  );
  assert.equal(text.split("\n").length, 4, "the indentation's newlines stay");
});
