/**
 * The one HTML page the view serves, and the Content-Security-Policy that
 * lets only its own script and style run: each allowed by its SHA-256 hash,
 * nothing loaded from anywhere (not even this server: `default-src
 * 'none'`), fetches only back to this server, no `eval`, no frames, no
 * forms, and Trusted Types required with no policy allowed, so no string
 * can ever become HTML or script in the page (the script builds every node
 * itself and sets text as text). Pure, except for hashing.
 *
 * @example
 * ```ts
 * import { pageHtml, policyFor } from "./page.ts";
 * const assets = { script: "main();", style: "body{}" };
 * const csp = await policyFor(assets); // "default-src 'none'; script-src 'sha256-…'; …"
 * const html = pageHtml(assets, "0123abcd");
 * ```
 * @module
 */

/** The page's script and style, inlined whole (no other file is ever requested). */
export interface Assets {
  script: string;
  style: string;
}

/** A CSP source for `text`: `'sha256-BASE64'` of its UTF-8 bytes. */
async function hashSource(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

/** The Content-Security-Policy for a page made of `assets`. */
export async function policyFor(assets: Assets): Promise<string> {
  return [
    "default-src 'none'",
    `script-src ${await hashSource(assets.script)}`,
    `style-src ${await hashSource(assets.style)}`,
    "connect-src 'self'",
    // The favicon is an empty data: URL, so the browser asks for no /favicon.ico without the token.
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
}

/**
 * The page. `token` is hex we generated, so it needs no escaping; the
 * script reads it from the meta element and sends it with each fetch.
 */
export function pageHtml(assets: Assets, token: string): string {
  if (!/^[0-9a-f]+$/.test(token)) throw new Error("a view token is hex");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="rgraph-token" content="${token}">
<title>rgraph view</title>
<link rel="icon" href="data:,">
<style>${assets.style}</style>
</head>
<body>
<header>
<a class="brand" href="#/sessions">rgraph</a>
<nav>
<a href="#/sessions" data-view="sessions">Sessions</a>
<a href="#/memory" data-view="memory">Memory</a>
<a href="#/value" data-view="value">Value</a>
</nav>
<span id="live" class="live" title="updates by itself while the page is open">live</span>
</header>
<main id="main"><p class="muted">Loading…</p></main>
<script>${assets.script}</script>
</body>
</html>
`;
}
