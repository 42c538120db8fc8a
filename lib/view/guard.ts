/**
 * Who may read the view: a request is answered only when it was sent to
 * this server by name (`Host`), from its own page (`Origin`,
 * `Sec-Fetch-Site`), and carries the token printed at start. Other local
 * users can reach 127.0.0.1 too, and any website the person has open can
 * make their browser send requests there (or rebind a domain name to it):
 * the token keeps out the first, the headers the second. Pure.
 *
 * @example
 * ```ts
 * import { admit } from "./guard.ts";
 * const verdict = admit(
 *   { host: "127.0.0.1:4747", origin: null, fetchSite: null, token: "t0k" },
 *   { port: 4747, token: "t0k" },
 * );
 * verdict; // { ok: true }
 * ```
 * @module
 */

/** What of a request decides whether it is answered. */
export interface Asking {
  /** The `Host` header. */
  host: string | null;
  /** The `Origin` header (sent on fetches and cross-site navigations). */
  origin: string | null;
  /** The `Sec-Fetch-Site` header, sent by current browsers. */
  fetchSite: string | null;
  /** The token the request presents (query `token`, or the `X-Rgraph-Token` header). */
  token: string | null;
}

/** The server's own name and secret. */
export interface Expected {
  port: number;
  token: string;
}

/** Why a request is refused; each maps to one HTTP status and one line of text. */
export type Refusal = "foreign_host" | "foreign_origin" | "cross_site" | "no_token" | "bad_token";

/** The verdict on one request. */
export type Verdict = { ok: true } | { ok: false; refusal: Refusal };

/** The names this server answers to: only loopback names, never a name an outsider controls. */
function ownHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * Compares two strings in time that depends on their length only, so the
 * token cannot be guessed one character at a time from response times.
 *
 * @example
 * ```ts
 * sameSecret("ab12", "ab12"); // true
 * sameSecret("ab12", "ab13"); // false
 * ```
 */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Decides whether a request is answered. A missing `Origin` or
 * `Sec-Fetch-Site` is allowed (a typed URL, older browsers, `curl`); a
 * present one must name this server. The `Host` header must always name it:
 * a page on another domain rebound to 127.0.0.1 sends its own name.
 */
export function admit(asking: Asking, expected: Expected): Verdict {
  const hosts = ownHosts(expected.port);
  if (asking.host === null || !hosts.includes(asking.host.toLowerCase())) {
    return { ok: false, refusal: "foreign_host" };
  }
  if (asking.origin !== null && !hosts.some((h) => asking.origin === `http://${h}`)) {
    return { ok: false, refusal: "foreign_origin" };
  }
  if (asking.fetchSite !== null && !["same-origin", "none"].includes(asking.fetchSite)) {
    return { ok: false, refusal: "cross_site" };
  }
  if (asking.token === null || asking.token === "") return { ok: false, refusal: "no_token" };
  if (!sameSecret(asking.token, expected.token)) return { ok: false, refusal: "bad_token" };
  return { ok: true };
}

/**
 * The status and one line a refused request gets (never which part of the token was wrong).
 *
 * @example
 * ```ts
 * refusalResponse("foreign_host").status; // 421
 * ```
 */
export function refusalResponse(refusal: Refusal): { status: number; text: string } {
  switch (refusal) {
    case "foreign_host":
      return { status: 421, text: "rgraph view answers only to 127.0.0.1 and localhost" };
    case "foreign_origin":
    case "cross_site":
      return { status: 403, text: "rgraph view answers only its own page" };
    case "no_token":
    case "bad_token":
      return {
        status: 403,
        text: "rgraph view needs the token in the URL it printed ('rgraph view' prints it)",
      };
  }
}

/**
 * A new token: 32 random bytes as hex, as Jupyter does for its server.
 *
 * @example
 * ```ts
 * newToken().length; // 64
 * ```
 */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
