/**
 * Errors a person sees as one line. Anything thrown that is not a
 * {@link UserError} is a bug and is reported as such.
 *
 * @module
 */

/** An error caused by input, configuration or the environment: printed as one line, exit 1. */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
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
  return String((e as Error)?.message ?? e).split("\n")[0];
}
