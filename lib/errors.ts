/**
 * Errors a person sees as one line. Anything thrown that is not a
 * {@link UserError} is a bug and is reported as such.
 *
 * @module
 */

/** An error caused by input, configuration or the environment: printed as one line, exit 1. */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    // Often quotes a driver's or GitHub's own message, which may quote the URL it was given.
    super(redact(message));
    this.name = "UserError";
  }
}

/** A command-line usage error: printed as one line, exit 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

/**
 * The first line of what was thrown: an error's message, or the value
 * itself. One line is what a person reads in a report or a log.
 *
 * @example
 * ```ts
 * firstLine(new Error("no store\n  at …")); // "no store"
 * ```
 */
export function firstLine(e: unknown): string {
  return redact(String((e as Error)?.message ?? e).split("\n")[0]);
}

/**
 * The secrets this process holds (the store's password, the user-info of its
 * URL, the GitHub token), registered where they are read, so that
 * {@link redact} can take them out of any message — a driver's or GitHub's
 * own words included, which may quote them.
 */
const secrets = new Set<string>();

/**
 * Secrets shorter than this are not registered: replacing every "ab" in a
 * message would garble it, and a password that short protects nothing.
 */
const SHORTEST_SECRET = 4;

/**
 * Registers text no message may show: {@link redact} replaces it from then
 * on. Empty or missing values are skipped; a percent-encoded form is
 * registered too (a password written into a URL).
 *
 * @example
 * ```ts
 * registerSecret("s3cret-pw", null);
 * redact("auth failed for s3cret-pw"); // "auth failed for [redacted]"
 * ```
 */
export function registerSecret(...values: (string | null | undefined)[]): void {
  for (const v of values) {
    if (!v || v.length < SHORTEST_SECRET) continue;
    secrets.add(v);
    try {
      const decoded = decodeURIComponent(v);
      if (decoded.length >= SHORTEST_SECRET) secrets.add(decoded);
    } catch {
      // not percent-encoded
    }
  }
}

/** `scheme://user:password@` in any text: the user-info goes, whatever it holds. */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#'"`<>]*@/gi;

/**
 * `text` fit for a terminal, a file, a log or a model: a URL's user-info is
 * dropped (`bolt://alice:pw@db` → `bolt://db`) and every registered secret
 * becomes `[redacted]`. The one boundary a store's, the Bolt driver's or
 * GitHub's message crosses on its way out: {@link UserError} and
 * {@link firstLine} apply it, and so do the writers of logs and records.
 *
 * @example
 * ```ts
 * redact("Given URL: 'bolt://alice:pw@db:7687'"); // "Given URL: 'bolt://db:7687'"
 * ```
 */
export function redact(text: string): string {
  let out = text;
  // Longest first: a secret holding another is replaced whole. Before the user-info rule, which
  // would stop at an `@` or `/` inside a password and leave its rest.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out.replace(USER_INFO, "$1");
}
