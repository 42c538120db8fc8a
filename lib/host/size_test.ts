import assert from "node:assert/strict";
import { formatSize } from "./size.ts";

Deno.test("sizes are written one way: bytes, then one decimal of KB, MB, GB", () => {
  assert.equal(formatSize(null), "unknown");
  assert.equal(formatSize(0), "0 bytes");
  assert.equal(formatSize(1023), "1023 bytes");
  assert.equal(formatSize(1024), "1.0 KB");
  assert.equal(formatSize(147_456), "144.0 KB");
  assert.equal(formatSize(1024 * 1024), "1.0 MB");
  assert.equal(formatSize(5.5 * 1024 ** 3), "5.5 GB");
});
