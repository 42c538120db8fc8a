/**
 * Doctor's privacy checks: the config file holding a secret (a GitHub token,
 * a store password, a store URL with a password in it) must be readable by
 * its owner only, and the data directory and everything in it owner-only —
 * what rgraph refuses to use (another user's, writable by others, a planted
 * link) FAILs with the fix; what others may only read (an older rgraph's
 * 0644) is a warning, narrowed the next time rgraph writes it. The Deno
 * caches rgraph's code is loaded from must not be writable by others.
 * Changes nothing.
 *
 * @example
 * ```ts
 * import { privacyChecks } from "./private.ts";
 * import { loadConfig } from "../config/mod.ts";
 * privacyChecks(loadConfig()); // [{ check: "config file secrets", ok: true, … }, …]
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import { defaultDataDir } from "../config/paths/mod.ts";
import { firstLine } from "../errors.ts";
import { inspectPrivate, octal, type UnsafePathError, writableByOthers } from "../host/mod.ts";
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

/**
 * What rgraph keeps in the data directory besides the store (whose name
 * `[store] path` gives): only these are looked at, since the folder may be
 * one of the person's own (`[store] path = "~/rgraph.db"`) holding other
 * files.
 */
const OWN_FILES = [
  "hook.log",
  "sweep.log",
  "store.log",
  "store.log.old",
  "error.log",
  "hook-config.json",
  "sweep.lock",
  "sweep-status.json",
  "paused.json",
];
const OWN_FOLDERS = ["memory-reads", "touch-spool", "hook-bundle", "view"];
const STORE_COMPANIONS = ["", "-wal", "-shm", "-journal"];

/** The first path rgraph would refuse, and the first others may read. */
interface Found {
  refused: UnsafePathError | null;
  readable: string | null;
}

function note(found: Found, path: string, seen: UnsafePathError | "readable" | null): void {
  if (seen === "readable") found.readable ??= path;
  else if (seen !== null) found.refused ??= seen;
}

/** Notes `dir` and everything under it (a folder rgraph made, all of it its own). */
function walk(dir: string, found: Found): void {
  const seen = inspectPrivate(dir, "folder");
  note(found, dir, seen);
  if (seen !== null && seen !== "readable") return;
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) walk(path, found);
    else note(found, path, inspectPrivate(path, "file"));
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

/**
 * The data directory and what rgraph keeps in it: owner-only, or what is
 * wrong with the fix. The folder itself counts as readable only when it is
 * rgraph's default one (a folder `[store] path` names keeps its owner's mode).
 */
export function dataDirCheck(config: Config): Check {
  const dir = config.data_dir;
  const found: Found = { refused: null, readable: null };
  if (!exists(dir)) {
    return ok("data directory", `${dir} (not created yet; rgraph makes it 0700)`);
  }
  try {
    const itself = inspectPrivate(dir, "folder");
    if (itself !== "readable" || dir === defaultDataDir()) note(found, dir, itself);
    const store = config.store.path;
    const files = [
      ...OWN_FILES.map((n) => `${dir}/${n}`),
      ...STORE_COMPANIONS.map((s) => store + s),
    ];
    for (const path of files) note(found, path, inspectPrivate(path, "file"));
    for (const name of OWN_FOLDERS) if (exists(`${dir}/${name}`)) walk(`${dir}/${name}`, found);
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
      `chmod go-rwx ${found.readable}`,
    );
  }
  return ok("data directory", `${dir} (owner-only)`);
}

/**
 * The Deno caches rgraph's commands load their dependencies from: this
 * process's (`DENO_DIR`, else the default) and the default one a harness's
 * emptied environment makes Deno use — the ones `install` fills.
 */
function denoCaches(): string[] {
  const env = (k: string) => Deno.env.get(k) || undefined;
  const home = env("HOME") ?? "/";
  const defaults = Deno.build.os === "darwin"
    ? [`${home}/Library/Caches/deno`]
    : [`${env("XDG_CACHE_HOME") ?? `${home}/.cache`}/deno`, `${home}/.cache/deno`];
  return [...new Set([env("DENO_DIR"), ...defaults].filter((d): d is string => d !== undefined))];
}

/**
 * FAILs a Deno cache rgraph loads code from when any folder or file in it is
 * writable by group or others: another local user could put code there that
 * every rgraph command, hooks included, would run as you.
 */
export function codeCacheCheck(caches: string[] = denoCaches()): Check {
  const seen: string[] = [];
  for (const cache of caches) {
    let open: { path: string; mode: number } | null;
    try {
      open = writableByOthers(cache);
    } catch (e) {
      return fail("code cache", `${cache} cannot be read: ${firstLine(e)}`, `check ${cache}`);
    }
    if (open !== null) {
      return fail(
        "code cache",
        `${open.path} is writable by group or others (mode ${
          octal(open.mode)
        }): rgraph's commands load their dependencies from ${cache}`,
        `chmod -R go-w ${cache}`,
      );
    }
    if (exists(cache)) seen.push(cache);
  }
  return ok("code cache", seen.length ? `${seen.join(", ")} (not writable by others)` : "none yet");
}

/** The privacy checks, in report order. */
export function privacyChecks(config: Config): Check[] {
  const secret = configSecretCheck(config);
  return [...(secret ? [secret] : []), dataDirCheck(config), codeCacheCheck()];
}
