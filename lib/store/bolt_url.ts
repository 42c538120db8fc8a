/**
 * Printing a store URL: the one redaction every URL rgraph prints goes
 * through (output, doctor's checks and fixes, errors, logs). Its own module,
 * free of the Bolt driver and of `node:crypto`, so any command can name the
 * graph store it talks to.
 *
 * @module
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A URL fit to print: everything between `://` and the last `@` is dropped,
 * so credentials written into a URL never reach output or logs — whatever
 * characters the password holds (`@`, `/`, `:`, `?`), since a host never
 * holds an `@` and the last one is where the credentials end. Text without a
 * scheme is returned as it is.
 *
 * @example
 * ```ts
 * printableUrl("bolt://neo:secret@db:7687"); // "bolt://db:7687"
 * printableUrl("bolt://neo4j:p@ss/word@db:7687"); // "bolt://db:7687"
 * ```
 */
export function printableUrl(url: string): string {
  const scheme = SCHEME.exec(url);
  if (scheme === null) return url;
  const at = url.lastIndexOf("@");
  return at < scheme[0].length ? url : scheme[0] + url.slice(at + 1);
}

/**
 * Whether a URL carries credentials (`user@` or `user:password@`), which
 * belong in the config file or the environment, never on a command line.
 *
 * @example
 * ```ts
 * hasCredentials("bolt://neo4j:pw@db:7687"); // true
 * hasCredentials("bolt://db:7687"); // false
 * ```
 */
export function hasCredentials(url: string): boolean {
  return printableUrl(url) !== url;
}

/** How a Bolt URL's connection travels, as its scheme says. */
export type Transport = "tls" | "tls-unverified" | "plain";

/**
 * The transport a Bolt URL asks for: `+s` is TLS with the certificate
 * verified against the system's authorities, `+ssc` TLS accepting any
 * certificate (a self-signed one), neither is unencrypted.
 *
 * @example
 * ```ts
 * transportOf("neo4j+s://db.example:7687"); // "tls"
 * transportOf("bolt+ssc://db:7687"); // "tls-unverified"
 * transportOf("bolt://127.0.0.1:7687"); // "plain"
 * ```
 */
export function transportOf(url: string): Transport {
  const scheme = /^[a-z0-9+.-]+(?=:)/i.exec(url)?.[0].toLowerCase() ?? "";
  if (scheme.endsWith("+s")) return "tls";
  if (scheme.endsWith("+ssc")) return "tls-unverified";
  return "plain";
}

/**
 * Whether a Bolt URL's host is this machine (`localhost`, `127.x`, `::1`),
 * where an unencrypted connection crosses no network.
 *
 * @example
 * ```ts
 * isLoopback("bolt://127.0.0.1:7687"); // true
 * isLoopback("bolt://db.team.example:7687"); // false
 * ```
 */
export function isLoopback(url: string): boolean {
  const host = /^[a-z0-9+.-]+:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^:/?#]+)/i.exec(url)?.[1] ?? "";
  return /^(localhost|127(\.\d+){3}|\[::1\])$/i.test(host);
}
