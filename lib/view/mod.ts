/**
 * `rgraph view`: a private, read-only web page of the user's memory, served
 * on 127.0.0.1 — their sessions' Touches, memory's Resources and Listings
 * with their references, and what memory saved them.
 * - `guard.ts` — who may read it (token, `Host`, `Origin`, `Sec-Fetch-Site`);
 * - `page.ts` — the page and its Content-Security-Policy;
 * - `server.ts` — the HTTP server and its routes;
 * - `data.ts` — the answers, read from the store for the configured user;
 * - `shape.ts` — the answers' shapes (pure);
 * - `open.ts` — opening it in a browser without the token on a command line;
 * - `assets/` — the page's own script and style (no other asset exists).
 *
 * @example
 * ```ts
 * import { loadAssets, startView, ViewData } from "./mod.ts";
 * const view = await startView({ port: null, data: new ViewData(store, config, "alice"), assets: await loadAssets() });
 * console.log(view.url);
 * ```
 * @module
 */

export { loadAssets } from "./assets.ts";
export { MARK_INTERVAL_MS, MEMORY_PAGE, type ValueView, ViewData } from "./data.ts";
export { admit, newToken, type Refusal, type Verdict } from "./guard.ts";
export { openInBrowser } from "./open.ts";
export { type Assets, pageHtml, policyFor } from "./page.ts";
export { DEFAULT_PORT, startView, type ViewOptions, type ViewServer } from "./server.ts";
