import assert from "node:assert/strict";
import { parseDuration } from "./time.ts";

Deno.test("parseDuration: whole numbers of s, m, h, d, w, combined; anything else is null", () => {
  assert.equal(parseDuration("90s"), 90_000);
  assert.equal(parseDuration("30m"), 1_800_000);
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration(" 2H "), 7_200_000);
  assert.equal(parseDuration("1w1d"), 8 * 86_400_000);
  for (const bad of ["", "0m", "1.5h", "h", "10", "-1h", "1 h", "soon", "1y"]) {
    assert.equal(parseDuration(bad), null, bad);
  }
});
