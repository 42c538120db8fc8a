/**
 * `rgraph doctor`'s version line of each installed harness: what `<bin>
 * --version` says where the harness's binary is on PATH, beside the version
 * the real-harness tests (tests/harness/) pinned and ran rgraph against.
 * Harnesses change every week; a version other than the pinned one is
 * reported, not failed.
 *
 * The pins are `tests/harness/pins.txt`, embedded at build time (a text
 * import), so a compiled binary knows them too.
 *
 * @module
 */

import pinsText from "../../tests/harness/pins.txt" with { type: "text" };
import type { HarnessId } from "../install/mod.ts";
import { type Check, ok } from "./check.ts";
import { runChild } from "./child.ts";
import { which } from "../host/mod.ts";

/** One harness the tests pin: its npm package, version and binary. */
export interface Pin {
  harness: string;
  pkg: string;
  version: string;
  bin: string;
}

/** The pins in `text` (pins.txt: `harness package version binary` per line, `#` comments). */
export function parsePins(text: string): Pin[] {
  return text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const [harness, pkg, version, bin] = l.split(/\s+/);
      return { harness, pkg, version, bin };
    }).filter((p) => p.bin !== undefined);
}

const PINS = parsePins(pinsText);

/** The first line of what a binary printed for `--version`, or why there is none. */
async function versionOf(path: string): Promise<string> {
  const r = await runChild([path, "--version"], { timeoutMs: 20_000 });
  const line = (r.stdout.trim() || r.stderr.trim()).split("\n")[0];
  if (r.error !== null) return `could not run (${r.error})`;
  if (r.timedOut) return "no answer to --version in 20 s";
  return r.code === 0 && line !== "" ? line : `--version exited ${r.code}`;
}

/**
 * The version check of `harness`, or null when the tests pin none (Cursor
 * and Grok Build have no installable binary to test).
 */
export async function versionCheck(harness: HarnessId): Promise<Check | null> {
  const pin = PINS.find((p) => p.harness === harness);
  if (!pin) return null;
  const name = `${harness} version`;
  const pinned = `the rgraph tests pin ${pin.pkg} ${pin.version}`;
  const path = which(pin.bin);
  if (path === null) return ok(name, `${pin.bin} is not on PATH; ${pinned}`);
  const said = await versionOf(path);
  const same = said.split(/[\s(),]+/).includes(pin.version);
  return ok(name, `${path}: ${said}; ${pinned}${same ? "" : " (verified with that one)"}`);
}
