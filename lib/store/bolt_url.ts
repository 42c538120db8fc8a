/**
 * Printing a Bolt URL. Its own module, free of the Bolt driver and of
 * `node:crypto`, so any command can name the graph store it talks to.
 *
 * @module
 */

/**
 * A Bolt URL fit to print: any `user:password@` is dropped, so credentials
 * written into a URL never reach output or logs.
 *
 * @example
 * ```ts
 * printableUrl("bolt://neo:secret@db:7687"); // "bolt://db:7687"
 * ```
 */
export function printableUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1");
}
