import assert from "node:assert/strict";
import fc from "fast-check";
import { sha256Hex } from "./digest.ts";

async function reference(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha256Hex: the standard test vectors", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("sha256Hex: agrees with Web Crypto on block boundaries and any text", async () => {
  for (const n of [55, 56, 63, 64, 65, 119, 120, 1000]) {
    assert.equal(sha256Hex("a".repeat(n)), await reference("a".repeat(n)), `length ${n}`);
  }
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 300 }), async (s) => {
      assert.equal(sha256Hex(s), await reference(s));
    }),
    { numRuns: 200 },
  );
});
