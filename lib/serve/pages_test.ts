import assert from "node:assert/strict";
import fc from "fast-check";
import { type Block, cut, estimatedTokens, packPages, utf8Bytes } from "./pages.ts";

Deno.test("utf8Bytes counts what TextEncoder writes, surrogate pairs and lone halves included", () => {
  fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => {
    assert.equal(utf8Bytes(s), new TextEncoder().encode(s).length);
  }));
  assert.equal(estimatedTokens("abcd"), 2);
});

Deno.test("cut loses nothing, stays within its bytes and never splits a character", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "grapheme", maxLength: 400 }),
      fc.integer({ min: 1, max: 300 }),
      (s, max) => {
        const [head, rest] = cut(s, max);
        assert.equal(head + rest, s);
        if (s !== "") assert.ok(head.length > 0, "progress");
        // Only a first character wider than the room may exceed it.
        if (utf8Bytes(head) > max) assert.equal(head, String.fromCodePoint(s.codePointAt(0)!));
        const last = head.charCodeAt(head.length - 1);
        assert.ok(!(last >= 0xd800 && last <= 0xdbff), "no half of a pair is left at the end");
      },
    ),
  );
});

Deno.test("cut prefers a line break, then a space, in the second half of the room", () => {
  assert.deepEqual(cut("aaaa bbbb\ncccc dddd", 15), ["aaaa bbbb\n", "cccc dddd"]);
  assert.deepEqual(cut("aaaa bbbb cccc dddd", 12), ["aaaa bbbb ", "cccc dddd"]);
  assert.deepEqual(cut("a\nbbbbbbbbbbbb", 10), ["a\nbbbbbbbb", "bbbb"], "too early to break there");
});

Deno.test("packPages: whole blocks where they fit, a block bigger than a page split, order kept", () => {
  const block = (key: string, size: number): Block<string> => ({
    key,
    text: "x".repeat(size),
    wrapBytes: 10,
  });
  // b does not fit after a: it starts the next page whole. c is bigger than a page: its first
  // part fills what b leaves, the rest follow; d fits after c's last part.
  const pages = packPages(
    [block("a", 3_000), block("b", 8_000), block("c", 25_000), block("d", 5)],
    { pageBytes: 10_000 },
  );
  assert.deepEqual(
    pages.map((p) =>
      p.map((x) => `${x.key}${x.parts > 1 ? `${x.part}/${x.parts}` : ""}:${x.text.length}`)
    ),
    [["a:3000"], ["b:8000"], ["c1/3:9990"], ["c2/3:9990"], ["c3/3:5020", "d:5"]],
  );
  const filled = packPages([block("a", 3_000), block("c", 25_000)], { pageBytes: 10_000 });
  assert.deepEqual(filled.map((p) => p.map((x) => x.text.length)), [[3000, 6980], [9990], [8030]]);
  // Less than the smallest part left: the split block starts on the next page.
  const next = packPages([block("a", 9_000), block("c", 25_000)], { pageBytes: 10_000 });
  assert.deepEqual(next.map((p) => p.map((x) => x.text.length)), [[9000], [9990], [9990], [5020]]);
  // Pages are bounded by bytes only: small blocks fill a page, however many there are.
  const small = packPages(Array.from({ length: 700 }, (_, i) => block(`e${i}`, 10)), {
    pageBytes: 1000,
  });
  assert.deepEqual(small.map((p) => p.length), Array(14).fill(50));
  assert.deepEqual(packPages([], { pageBytes: 100 }), [[]], "always one page");
});
