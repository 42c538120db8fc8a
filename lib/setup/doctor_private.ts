/**
 * Doctor's privacy checks: the config file holding a secret (a GitHub token,
 * a store password, a store URL with a password in it) must be readable by
 * its owner only, and the data directory and everything in it owner-only —
 * what rgraph refuses to use (another user's, writable by others, a planted
 * link) FAILs with the fix; what others may only read (an older rgraph's
 * 0644) is a warning, narrowed the next time rgraph writes it. Changes
 * nothing.
 *
 * @example
 * ```ts
 * import { privacyChecks } from "./doctor_private.ts";
 * import { loadConfig } from "../config.ts";
 * privacyChecks(loadConfig()); // [{ check: "config file secrets", ok: true, … }, …]
 * ```
 * @module
 */

import type { Config } from "../config.ts";
import { firstLine } from "../errors.ts";
import { inspectPrivate, octal, type UnsafePathError } from "../private_files.ts";
import { type Check, fail, ok, warn } from "./check.ts";

/** The secrets `config` holds, by their keys. */
function secretsOf(config: Config): string[] {
  const held: string[] = [];
  if (config.github.token) held.push("[github] token");
  if (config.store.password) held.push("[store] password");
  // A URL's user information with a password: bolt://user:secret@host.
  if (config.store.url && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:[^/?#]*@/i.test(config.store.url)) {
    held.push("[store] url (a password in it)");
  }
  return held;
}

/** FAILs a config file that holds a secret group or others can read. */
export function configSecretCheck(config: Config): Check | null {
  if (!config.exists) return null;
  const held = secretsOf(config);
  if (held.length === 0) return null;
  let mode: number | null;
  try {
    mode = Deno.statSync(config.file).mode;
  } catch {
    return null; // Unreadable now: the config check reports it.
  }
  if (mode === null || (mode & 0o077) === 0) {
    return ok("config file secrets", `${held.join(", ")} readable by you only`);
  }
  return fail(
    "config file secrets",
    `${config.file} holds ${held.join(", ")} and group or others can read it (mode ${octal(mode)})`,
    `chmod 600 ${config.file}`,
  );
}

/** How deep the data directory is walked (hook-bundle/<checkout>/<file> is three down). */
const DEPTH = 3;

/** The first path rgraph would refuse, and the first others may read. */
interface Found {
  refused: UnsafePathError | null;
  readable: string | null;
}

/** Fills `found` from `dir` (itself included) and what is under it, `depth` folders down. */
function walk(
  dir: string,
  depth: number,
  found: Found,
): void {
  const seen = inspectPrivate(dir, "folder");
  if (seen !== null && seen !== "readable") {
    found.refused ??= seen;
    return;
  }
  if (seen === "readable") found.readable ??= dir;
  if (depth === 0) return;
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) {
      walk(path, depth - 1, found);
      continue;
    }
    const file = inspectPrivate(path, "file");
    if (file !== null && file !== "readable") found.refused ??= file;
    else if (file === "readable") found.readable ??= path;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The data directory and what is in it: owner-only, or what is wrong with the fix. */
export function dataDirCheck(config: Config): Check {
  const dir = config.data_dir;
  const found: Found = { refused: null, readable: null };
  if (!exists(dir)) {
    return ok("data directory", `${dir} (not created yet; rgraph makes it 0700)`);
  }
  try {
    walk(dir, DEPTH, found);
  } catch (e) {
    return fail("data directory", `${dir} cannot be read: ${firstLine(e)}`, `check ${dir}`);
  }
  if (found.refused) {
    const { path, problem, fix } = found.refused;
    return fail("data directory", `rgraph refuses ${path}: it ${problem}`, fix);
  }
  if (found.readable) {
    return warn(
      "data directory",
      `${found.readable} can be read by group or others (an older rgraph made it so)`,
      `chmod -R go-rwx ${dir}`,
    );
  }
  return ok("data directory", `${dir} (owner-only)`);
}

/** Both privacy checks, in report order. */
export function privacyChecks(config: Config): Check[] {
  const secret = configSecretCheck(config);
  return [...(secret ? [secret] : []), dataDirCheck(config)];
}
