/**
 * Each plugin manifest this repository ships, checked by the harness's own
 * validator (the pinned binary, offline, under a temp HOME): it must pass
 * with no warning.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CHECKOUT, harnessBinDir, locate, run } from "./world.ts";

const IN_CI = Deno.env.get("CI") === "true";

/** One validator: the harness, its arguments, and what its output must not hold. */
interface Validator {
  harness: string;
  label: string;
  args: string[];
  passed: RegExp;
}

const VALIDATORS: Validator[] = [
  {
    harness: "claude-code",
    label: "claude plugin validate (the plugin)",
    args: ["plugin", "validate", CHECKOUT],
    passed: /Validation passed/,
  },
  {
    harness: "claude-code",
    label: "claude plugin validate (the marketplace)",
    args: ["plugin", "validate", `${CHECKOUT}/.claude-plugin/marketplace.json`],
    passed: /Validation passed/,
  },
  {
    harness: "gemini",
    label: "gemini extensions validate",
    args: ["extensions", "validate", `${CHECKOUT}/plugin/gemini`],
    passed: /has been successfully validated/,
  },
];

for (const v of VALIDATORS) {
  const { pin, path } = locate(v.harness);
  Deno.test({
    name: `${v.label} (${pin.pkg}@${pin.version}) passes with no warning`,
    ignore: path === null && !IN_CI,
    fn: async () => {
      assert.ok(path, `${harnessBinDir()}/${pin.bin} is missing: deno task test installs it`);
      const home = await Deno.makeTempDir({ prefix: "rgraph-validate-" });
      try {
        const r = await run([path, ...v.args], {
          cwd: CHECKOUT,
          env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1" },
          timeoutMs: 60_000,
        });
        const out = r.stdout + r.stderr;
        assert.equal(r.code, 0, out);
        assert.match(out, v.passed, out);
        assert.doesNotMatch(out, /warning|⚠|✘|error/i, out);
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}
