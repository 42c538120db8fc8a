/**
 * The page's script and style, read from `assets/` beside this module (so
 * they are real files a linter and an editor see; `deno compile` includes
 * the folder).
 *
 * @example
 * ```ts
 * import { loadAssets } from "./assets.ts";
 * const { script, style } = await loadAssets();
 * ```
 * @module
 */

import type { Assets } from "./page.ts";

/** Reads the page's script and style. */
export async function loadAssets(): Promise<Assets> {
  const [script, style] = await Promise.all([
    Deno.readTextFile(new URL("./assets/app.js", import.meta.url)),
    Deno.readTextFile(new URL("./assets/app.css", import.meta.url)),
  ]);
  return { script, style };
}
