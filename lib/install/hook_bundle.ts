/**
 * Building the hook bundle: `rgraph install` bundles the hook
 * (`commands/hook_bundled.ts`, with `deno bundle --code-splitting`) into
 * `<data dir>/hook-bundle/<checkout>/`, so harnesses start it with
 * `--no-config --no-lock` instead of resolving deno.json, the lockfile and
 * some forty modules on every tool call. SQLite and the TOML parser land in
 * chunks of their own, loaded only when a call needs them.
 *
 * The folder is named after the checkout (two checkouts never share one)
 * and stays put when rgraph changes, so the hook commands harnesses trust
 * (Codex hashes them) do not change with every update. A manifest beside
 * the bundle records what it was built from: the bundle hands calls to the
 * normal command when a source changed, and the next install rebuilds it —
 * only when the sources' text or the fallback command differ
 * ({@link HookBundleManifest.key}).
 *
 * Install also fills the Deno caches harness-started processes read with
 * every command's dependencies ({@link cacheDependencies}).
 *
 * @module
 */

import {
  BUNDLE_MANIFEST,
  type BundledSource,
  type HookBundleManifest,
  readBundleManifest,
  sourceNow,
} from "../capture/mod.ts";
import { sha256Hex } from "../digest.ts";
import project from "../../deno.json" with { type: "json" };
import {
  checkPrivateFile,
  narrowTree,
  ownerOnlyUmask,
  PRIVATE_FILE_MODE,
  privateDir,
  writePrivateFile,
} from "../host/mod.ts";

/** The entry file of a bundle. */
export const BUNDLE_ENTRY = "hook_bundled.js";

/** What to bundle, with which Deno, into which folder. */
export interface BundleSpec extends Checkout {
  /** The bundle's folder. */
  dir: string;
  /** The normal command's argv (before `--config … hook …`), for a stale bundle to run. */
  fallback: string[];
}

/** The bundle folder of the checkout whose entry is `mainPath`, under `dataDir`. */
export function bundleDir(dataDir: string, mainPath: string): string {
  return `${dataDir}/hook-bundle/${sha256Hex(mainPath).slice(0, 12)}`;
}

const dec = new TextDecoder();

/** A checkout and the Deno that runs it. */
export interface Checkout {
  deno: string;
  /** The checkout's root (where main.ts and deno.json are). */
  checkout: string;
}

async function deno(
  spec: Checkout,
  args: string[],
  env?: Record<string, string>,
): Promise<string> {
  // What it writes (the bundle, the Deno cache rgraph's commands load their dependencies from) is
  // code rgraph runs: owner-only, whatever the person's umask.
  const out = await ownerOnlyUmask(() =>
    new Deno.Command(spec.deno, {
      args,
      cwd: spec.checkout,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(env ? { env, clearEnv: true } : {}),
    }).spawn()
  ).output();
  if (out.code !== 0) {
    const why = dec.decode(out.stderr).trim().split("\n").at(-1) ?? "";
    throw new Error(`deno ${args[0]} exited ${out.code}${why ? `: ${why}` : ""}`);
  }
  return dec.decode(out.stdout);
}

/** The local modules the bundled hook is made of, from `deno info` (dynamic imports included). */
async function sourcesOf(spec: BundleSpec): Promise<string[]> {
  const info = JSON.parse(
    await deno(spec, [
      "info",
      "--json",
      "--config",
      `${spec.checkout}/deno.json`,
      `${spec.checkout}/commands/hook_bundled.ts`,
    ]),
  ) as { modules: { specifier: string }[] };
  return info.modules.map((m) => m.specifier).filter((s) => s.startsWith("file:"))
    .map((s) => decodeURIComponent(new URL(s).pathname)).sort();
}

/**
 * Makes the bundle's folder (and `hook-bundle/` above it) 0700, and
 * verifies every file already in it: code every hook runs must be no one
 * else's to change, whatever the umask. A folder or file another user owns
 * or may write is refused with the fix (`UnsafePathError`).
 */
function privateBundleDir(dir: string): void {
  privateDir(dir.slice(0, dir.lastIndexOf("/")), { narrow: true });
  privateDir(dir, { narrow: true });
  for (const e of Deno.readDirSync(dir)) {
    if (!e.isDirectory) checkPrivateFile(`${dir}/${e.name}`);
  }
}

/**
 * Builds the bundle unless the one in `spec.dir` was built from the same
 * sources and fallback; either way the manifest is rewritten with the
 * sources as they are now. Throws when Deno cannot bundle: hooks then run
 * the normal command, as they do whenever the bundle is missing.
 */
export async function buildHookBundle(spec: BundleSpec): Promise<"built" | "current"> {
  const paths = await sourcesOf(spec);
  // Recorded before the text is read: a file changed in between shows as stale, never as current.
  const sources = paths.map((p) => sourceNow(p)).filter((s): s is BundledSource => s !== null);
  const key = sha256Hex(
    JSON.stringify([
      project.version,
      spec.deno,
      spec.fallback,
      paths.map((p) => [p, Deno.readTextFileSync(p)]),
    ]),
  );
  const manifest: HookBundleManifest = { key, sources, fallback: spec.fallback };
  privateBundleDir(spec.dir);
  const existing = readBundleManifest(spec.dir);
  let entryThere = false;
  try {
    entryThere = Deno.statSync(`${spec.dir}/${BUNDLE_ENTRY}`).isFile;
  } catch {
    // not built yet
  }
  if (existing?.key === key && entryThere) {
    writePrivateFile(`${spec.dir}/${BUNDLE_MANIFEST}`, JSON.stringify(manifest));
    return "current";
  }
  const build = Deno.makeTempDirSync({ dir: spec.dir, prefix: ".build-" });
  try {
    await deno(spec, [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--code-splitting",
      "--config",
      `${spec.checkout}/deno.json`,
      "--outdir",
      build,
      `${spec.checkout}/commands/hook_bundled.ts`,
    ]);
    const built = [...Deno.readDirSync(build)].map((e) => e.name);
    if (!built.includes(BUNDLE_ENTRY)) throw new Error(`deno bundle wrote no ${BUNDLE_ENTRY}`);
    // Chunks (named by their content) first, the entry last: a hook starting meanwhile loads the
    // old entry with its old chunks, or the new entry with its new ones.
    for (const name of [...built.filter((n) => n !== BUNDLE_ENTRY), BUNDLE_ENTRY]) {
      // deno bundle writes with the umask's mode (0664 at umask 002); the build folder is 0700,
      // so nobody else reaches the file between this and the rename.
      Deno.chmodSync(`${build}/${name}`, PRIVATE_FILE_MODE);
      Deno.renameSync(`${build}/${name}`, `${spec.dir}/${name}`);
    }
    writePrivateFile(`${spec.dir}/${BUNDLE_MANIFEST}`, JSON.stringify(manifest));
    for (const e of Deno.readDirSync(spec.dir)) {
      if (e.isFile && e.name !== BUNDLE_MANIFEST && !built.includes(e.name)) {
        Deno.removeSync(`${spec.dir}/${e.name}`);
      }
    }
    return "built";
  } finally {
    Deno.removeSync(build, { recursive: true });
  }
}

/**
 * Puts every command's dependencies (the MCP SDK, octokit, the Bolt driver…)
 * in the Deno caches the processes harnesses start will read, so the first
 * `serve-mcp` a harness starts does not download them while the harness
 * waits for it. A harness may start rgraph with an emptied environment
 * (Codex keeps PATH, HOME, LANG, TERM and USER), which makes Deno use its
 * default cache under HOME whatever DENO_DIR or XDG_CACHE_HOME (which moves
 * Deno's cache too) this install ran with: both are filled. A no-op once they
 * hold everything.
 */
export async function cacheDependencies(spec: Checkout): Promise<void> {
  const entries = [
    `${spec.checkout}/main.ts`,
    ...[...Deno.readDirSync(`${spec.checkout}/commands`)]
      .filter((e) => e.isFile && e.name.endsWith(".ts"))
      .map((e) => `${spec.checkout}/commands/${e.name}`)
      .sort(),
  ];
  const args = ["install", "--quiet", "--entrypoint", ...entries];
  await fillCache(spec, args);
  // A harness that empties the environment (Codex) starts rgraph on the default cache: fill it too.
  const { DENO_DIR, XDG_CACHE_HOME, ...harnessEnv } = Deno.env.toObject();
  if (DENO_DIR !== undefined || XDG_CACHE_HOME !== undefined) {
    await fillCache(spec, args, harnessEnv);
  }
}

/**
 * Runs `deno install` (`args`) in `env`, then takes group and others' write
 * away from the cache it filled: a cache an older install (or another Deno
 * program) made under umask 000 holds folders another local user could put
 * code into that every rgraph command then loads.
 */
async function fillCache(spec: Checkout, args: string[], env?: Record<string, string>) {
  await deno(spec, args, env);
  narrowTree(await denoCacheDir(spec, env));
}

/** The Deno cache a process started with `env` (this one's when omitted) uses, as `deno info` says. */
async function denoCacheDir(spec: Checkout, env?: Record<string, string>): Promise<string> {
  return (JSON.parse(await deno(spec, ["info", "--json"], env)) as { denoDir: string }).denoDir;
}
