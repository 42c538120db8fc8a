import assert from "node:assert/strict";
import {
  ftsExpression,
  locate,
  luceneExpression,
  parseSearch,
  SearchQueryError,
} from "./search_query.ts";

Deno.test("a query's words and phrases reach each engine quoted, never as syntax", () => {
  const terms = parseSearch('zstd "wire format" NOT a:b "say ""hi"" \\ /x');
  assert.deepEqual(terms.map((t) => [t.text, t.phrase]), [
    ["zstd", false],
    ["wire format", true],
    ["NOT", false],
    ["a:b", false],
    ["say", false],
    ["hi", false],
    ["/x", false],
  ]);
  assert.equal(ftsExpression(parseSearch('x"y')), '"x" "y"');
  assert.equal(ftsExpression([{ text: 'a"b', phrase: false }]), '"a""b"');
  assert.equal(luceneExpression([{ text: 'a"b\\c', phrase: false }]), '"a\\"b\\\\c"');
  assert.equal(luceneExpression(parseSearch("x || y")), '"x" AND "y"');
});

Deno.test("an empty, overlong or wordless query is refused in one line", () => {
  for (const text of ["", "  \n ", "&& || ! *", "x".repeat(501), "a ".repeat(33)]) {
    assert.throws(() => parseSearch(text), (e: Error) => {
      assert.ok(e instanceof SearchQueryError);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
  }
  assert.equal(parseSearch("x".repeat(500)).length, 1);
  assert.equal(parseSearch("a ".repeat(32)).length, 32);
});

Deno.test("a snippet never holds half a character", () => {
  const text = `${"😀".repeat(100)} zstd ${"😀".repeat(200)}`;
  for (const shift of [0, 1, 2, 3]) {
    const { snippet } = locate([{ place: { part: "body" }, text: " ".repeat(shift) + text }], [
      { text: "zstd", phrase: false },
    ]);
    assert.match(snippet, /zstd/);
    assert.doesNotMatch(
      snippet,
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  }
});

Deno.test("a result is located where the asked word itself is, before a word that only starts alike", () => {
  const parts = [
    { place: { part: "title" as const }, text: "Make Bolt configurable" },
    { place: { part: "body" as const }, text: "Could you share the plan?" },
    { place: { part: "labels" as const }, text: "area/query-planner" },
  ];
  assert.deepEqual(locate(parts, parseSearch("planner")), {
    place: { part: "labels" },
    snippet: "area/query-planner",
  });
  assert.equal(locate(parts, parseSearch("planning")).place.part, "body");
});
