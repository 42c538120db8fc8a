/**
 * Naming a TLS certificate problem. The Bolt driver refuses an untrusted
 * certificate with advice about its own options and nothing about the
 * certificate; a person needs to know what is wrong with it (signed by no
 * authority the system trusts, issued for another host, expired) and which
 * URL scheme to use instead.
 *
 * @example
 * ```ts
 * import { certificateProblem } from "./tls.ts";
 * await certificateProblem("bolt+s://localhost:7687");
 * // "invalid peer certificate: UnknownIssuer (self-signed, or signed by an authority this system does not trust)"
 * ```
 * @module
 */

/** What the TLS library's verdicts mean, in a person's words. */
const VERDICTS: [RegExp, string][] = [
  [/UnknownIssuer/i, "self-signed, or signed by an authority this system does not trust"],
  [/NotValidForName|hostname|altname/i, "issued for another host name"],
  [/Expired/i, "expired"],
  [/NotValidYet/i, "not valid yet"],
  [/Revoked/i, "revoked"],
];

/** `host` and `port` of a Bolt URL (7687 when it names none); null when it cannot be read. */
function endpoint(url: string): { hostname: string; port: number } | null {
  try {
    const u = new URL(url.replace(/^[a-z0-9+.-]+:/i, "http:"));
    return { hostname: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || 7687) };
  } catch {
    return null;
  }
}

/**
 * Why the server at `url` fails TLS verification, in one phrase, or null
 * when a fresh TLS handshake with it succeeds or never gets as far as a
 * certificate (the host is down: the driver's own reason says so).
 */
export async function certificateProblem(url: string): Promise<string | null> {
  const at = endpoint(url);
  if (at === null) return null;
  let conn: Deno.TlsConn | null = null;
  try {
    conn = await Deno.connectTls(at);
    await conn.handshake();
    return null;
  } catch (e) {
    const message = String((e as Error)?.message ?? e).split("\n")[0];
    if (!/certificate/i.test(message)) return null;
    const meaning = VERDICTS.find(([pattern]) => pattern.test(message))?.[1];
    return meaning ? `${message} (${meaning})` : message;
  } finally {
    conn?.close();
  }
}
