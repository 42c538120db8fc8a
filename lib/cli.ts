/**
 * Shared plumbing for `commands/`: flag parsing with one-line usage errors and
 * generated help, so every command has the same flags, the same help layout
 * (USAGE, OPTIONS, EXAMPLES, as `gh` prints them) and the same behaviour:
 * `--help` prints and returns before the command does anything else.
 *
 * A command's help is its {@link CommandSpec}: a new command writes one, with
 * at least one example (the type requires it), and `rgraph help <command>`,
 * `rgraph <command> --help` and the CLI tests pick it up from there.
 *
 * @example
 * ```ts
 * import { parseCommand } from "./cli.ts";
 * const spec = {
 *   name: "touches",
 *   summary: "List your own Touches",
 *   usage: "rgraph touches [--session S] [--json]",
 *   options: {
 *     session: { type: "string", help: "only this session" },
 *     json: { type: "boolean", help: "print JSON" },
 *   },
 *   examples: [{ does: "every Touch as JSON", run: "rgraph touches --json" }],
 * } as const;
 * const parsed = parseCommand(spec, ["--json"]);
 * parsed?.values.json; // true
 * ```
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "./errors.ts";
import { parseDuration } from "./time.ts";

/** One option of a command. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  help: string;
  multiple?: boolean;
  /** Shown in help as the value's name. */
  arg?: string;
}

/** One example in a command's help: what it does, and the command line that does it. */
export interface Example {
  does: string;
  run: string;
}

/** A command's flags and help. */
export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  /** Named positionals, for help only. */
  positionals?: string;
  /** Lines shown between the options and the examples (what an argument may be, say). */
  more?: readonly string[];
  /** At least one: a newcomer learns a command from its examples first. */
  examples: readonly [Example, ...Example[]];
}

type Values<S extends CommandSpec> = {
  [K in keyof S["options"]]?: S["options"][K] extends { type: "boolean" } ? boolean
    : S["options"][K] extends { multiple: true } ? string[]
    : string;
};

/** The parsed command line. */
export interface Parsed<S extends CommandSpec> {
  values: Values<S>;
  positionals: string[];
}

/**
 * The help text of a command: summary, USAGE, OPTIONS, any more lines, and
 * EXAMPLES (each a `# what it does` comment over its `$ rgraph …` line).
 */
export function helpText(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${
      o.type === "string" ? ` ${o.arg ?? "VALUE"}` : ""
    }`;
    return `  ${flag.padEnd(28)} ${o.help}`;
  });
  rows.push(`  ${"-h, --help".padEnd(28)} show this help`);
  const more = spec.more?.length ? `\n${spec.more.map((l) => l && `  ${l}`).join("\n")}\n` : "";
  const examples = spec.examples.map((e) => `  # ${e.does}\n  $ ${e.run}`).join("\n\n");
  return `${spec.summary}\n\nUSAGE\n  ${spec.usage}\n\nOPTIONS\n${rows.join("\n")}\n${more}\n` +
    `EXAMPLES\n${examples}\n`;
}

/**
 * Parses `args` for `spec`. Returns `null` after printing help for `--help`;
 * throws {@link UsageError} (one line, exit 2) for an unknown option or a
 * missing value.
 */
export function parseCommand<S extends CommandSpec>(spec: S, args: string[]): Parsed<S> | null {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean }
  > = { help: { type: "boolean", short: "h" } };
  for (const [name, o] of Object.entries(spec.options)) {
    // parseArgs rejects keys present with an undefined value, so set only what is given.
    options[name] = { type: o.type };
    if (o.short !== undefined) options[name].short = o.short;
    if (o.multiple !== undefined) options[name].multiple = o.multiple;
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const msg = String((e as Error).message).split("\n")[0].replace(/\. To specify.*$/, "");
    throw new UsageError(`rgraph ${spec.name}: ${msg} (see 'rgraph ${spec.name} --help')`);
  }
  if (parsed.values.help) {
    console.log(helpText(spec));
    return null;
  }
  return { values: parsed.values as Values<S>, positionals: parsed.positionals };
}

/** Refuses arguments for a command that takes none: a one-line usage error naming the first. */
export function noArguments(spec: CommandSpec, positionals: string[]): void {
  if (positionals.length > 0) {
    throw new UsageError(
      `rgraph ${spec.name}: unexpected argument '${
        positionals[0]
      }' (see 'rgraph ${spec.name} --help')`,
    );
  }
}

/** Parses a positive integer flag value or throws a usage error naming the flag. */
export function positiveInt(
  command: string,
  flag: string,
  value: string | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`rgraph ${command}: --${flag} takes a whole number of at least 1`);
  }
  return n;
}

/** How a date flag says what it takes, in its help and in its error. */
export const DATE_FORMS = "a date (2026-01-31, 2026-01-31T12:00:00Z), today, yesterday, " +
  "or a duration ago (30m, 2h, 1d, 1w)";

/**
 * A date flag's value as the ISO string Touches are compared with, or a
 * usage error naming the flag. It takes what every date-taking flag takes:
 * `YYYY-MM-DD` (midnight UTC) or an ISO 8601 time, `today` or `yesterday`
 * (midnight UTC, as Touches' times are shown), or a duration as
 * `rgraph pause --for` takes it, meaning that long before `now`.
 *
 * @example
 * ```ts
 * dateFlag("touches", "since", "2h", new Date("2026-12-01T12:00:00Z")); // "2026-12-01T10:00:00.000Z"
 * ```
 */
export function dateFlag(command: string, flag: string, text: string, now = new Date()): string {
  const word = text.trim().toLowerCase();
  if (word === "today" || word === "yesterday") {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return new Date(midnight - (word === "yesterday" ? 86_400_000 : 0)).toISOString();
  }
  const ago = parseDuration(word);
  if (ago !== null) return new Date(now.getTime() - ago).toISOString();
  const ok = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(
    text,
  );
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (!ok || Number.isNaN(date.getTime())) {
    throw new UsageError(`rgraph ${command}: --${flag} takes ${DATE_FORMS}, not '${text}'`);
  }
  return date.toISOString();
}
