/**
 * Whatever arrives on standard input, `rgraph hook <harness>` exits 0 and
 * prints nothing or valid JSON: random JSON, random text, and realistic
 * payloads with a field replaced by something unexpected. Real processes,
 * so the runs are few (each is a whole `deno run`).
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { sandbox } from "./helpers.ts";
import { HARNESS_NAMES } from "../lib/capture/harness/mod.ts";
import type { HarnessName } from "../lib/capture/harness/event.ts";

const FIXTURES = new URL("../fixtures/payloads/", import.meta.url);

function fixtures(harness: HarnessName): Record<string, unknown>[] {
  return [...Deno.readDirSync(new URL(`${harness}/`, FIXTURES))]
    .map((e) => JSON.parse(Deno.readTextFileSync(new URL(`${harness}/${e.name}`, FIXTURES))));
}

/** A realistic payload of `harness` with one of its fields replaced by any JSON value. */
const mutated = fc.constantFrom(...HARNESS_NAMES).chain((harness) =>
  fc.tuple(
    fc.constant(harness),
    fc.constantFrom(...fixtures(harness)),
    fc.nat(),
    fc.jsonValue(),
  ).map(([h, p, i, v]) => {
    const keys = Object.keys(p);
    return { harness: h, stdin: JSON.stringify({ ...p, [keys[i % keys.length]]: v }) };
  })
);

const anyInput = fc.oneof(
  mutated,
  fc.record({ harness: fc.constantFrom(...HARNESS_NAMES), stdin: fc.json() }),
  fc.record({ harness: fc.constantFrom(...HARNESS_NAMES), stdin: fc.string({ unit: "binary" }) }),
);

Deno.test("property: any stdin to rgraph hook exits 0 and prints nothing or valid JSON", async () => {
  const sb = await sandbox();
  try {
    await fc.assert(
      fc.asyncProperty(
        anyInput,
        fc.option(fc.constantFrom("preToolUse", "sessionStart", "userPromptSubmitted")),
        async ({ harness, stdin }, event) => {
          const args = ["hook", harness, ...(event ? ["--event", event] : [])];
          const r = await sb.rgraph(args, { stdin });
          assert.equal(r.code, 0, r.stderr);
          if (r.stdout !== "") {
            assert.ok(r.stdout.endsWith("\n"));
            JSON.parse(r.stdout);
          }
        },
      ),
      { numRuns: 24 },
    );
  } finally {
    await sb.cleanup();
  }
});
