/**
 * The hook bundle's manifest: what `rgraph install` bundled the hook from,
 * so the bundle can tell at start whether rgraph changed since (a checkout
 * pulled or edited) and hand the call to the normal command instead of
 * running old code.
 *
 * Checking costs one small JSON read and one `stat` per source file — far
 * less than hashing their text on every tool call. Install keys a rebuild on
 * the sources' content ({@link HookBundleManifest.key}); the hook only needs
 * to know that nothing moved since.
 *
 * @example
 * ```ts
 * import { bundleIsCurrent, readBundleManifest } from "./hook_bundle.ts";
 * const manifest = readBundleManifest("/home/me/.local/share/rgraph/hook-bundle/3f2a…");
 * manifest !== null && bundleIsCurrent(manifest); // true until a source file changes
 * ```
 * @module
 */

/** The manifest file beside a bundle's entry. */
export const BUNDLE_MANIFEST = "manifest.json";

/** One source file as it was when bundled: path, size in bytes, modification time (ms). */
export type BundledSource = [path: string, size: number, mtimeMs: number];

/** What install wrote beside a bundle. */
export interface HookBundleManifest {
  /** A hash of rgraph's version and every bundled source's text. */
  key: string;
  sources: BundledSource[];
  /** The normal command's argv (before `--config … hook …`), run when the bundle is stale. */
  fallback: string[];
}

/** The manifest in `dir`, or null when there is none or it is not one. */
export function readBundleManifest(dir: string): HookBundleManifest | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/${BUNDLE_MANIFEST}`));
    const ok = typeof m?.key === "string" && Array.isArray(m.sources) &&
      Array.isArray(m.fallback) && m.fallback.every((w: unknown) => typeof w === "string");
    return ok ? m as HookBundleManifest : null;
  } catch {
    return null;
  }
}

/** One source file's record now; null when it is gone. */
export function sourceNow(path: string): BundledSource | null {
  try {
    const st = Deno.statSync(path);
    return [path, st.size, st.mtime?.getTime() ?? 0];
  } catch {
    return null;
  }
}

/** Whether every source the bundle was built from is still exactly as it was. */
export function bundleIsCurrent(manifest: HookBundleManifest): boolean {
  return manifest.sources.every(([path, size, mtime]) => {
    const now = sourceNow(path);
    return now !== null && now[1] === size && now[2] === mtime;
  });
}
