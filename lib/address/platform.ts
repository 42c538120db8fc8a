/**
 * The per-platform adapter interface. The generic layer (shell tokenizer,
 * fetch-tool and prompt scanning in `mod.ts`) finds commands, URLs and text;
 * each platform decides which of them name its Resources. GitHub is the only
 * platform today; a webpage or PDF adapter implements the same interface.
 *
 * @module
 */

import type { Address, Platform } from "../types.ts";

/**
 * What the parser may ask about its surroundings. It never does I/O itself:
 * the hook passes `repoOfCwd` (backed by `readGitRemote`), tests pass a table.
 *
 * @example
 * ```ts
 * const ctx: ParseContext = { cwd: "/src/app", githubLogin: null, repoOfCwd: () => ({ owner: "o", repo: "r" }) };
 * ```
 */
export interface ParseContext {
  /** The harness's working directory, when the payload gives one. */
  cwd: string | null;
  /** The configured GitHub login; resolves `@me`. */
  githubLogin: string | null;
  /** The GitHub repository a directory belongs to (its `origin` remote), or null. */
  repoOfCwd: (cwd: string) => { owner: string; repo: string } | null;
}

/** A harness tool call: the tool's name and its input (object, JSON string or argv list). */
export interface ToolCall {
  tool: string;
  input: unknown;
}

/**
 * One simple command found by the shell tokenizer. Its command name and
 * every word but the opaque ones are fully known; commands with a word that
 * may expand into several never get here.
 */
export interface ShellCommand {
  /**
   * The words, command name first, quotes and escapes removed; an opaque
   * word holds only its literal text before its first expansion (`-H` of
   * `-H"$X"`, `--header=` of `--header="$X"`).
   */
  argv: string[];
  /**
   * Indices in `argv` of words that stay one word but whose value is unknown
   * until the shell expands them (`"$TOKEN"`, `~/x`). A reader accepts one
   * only where no value could change what the command reads.
   */
  opaque?: ReadonlySet<number>;
  /** Variables set for this command (`VAR=value` prefixes and earlier `export`s); `null` = set to an unknown value. */
  env: Readonly<Record<string, string | null>>;
  /** The directory it runs in (after any `cd`), or null when unknown. */
  cwd: string | null;
}

/** What one platform contributes to the parser. Every method is pure and never throws. */
export interface PlatformAdapter {
  readonly platform: Platform;
  /** Addresses read by a platform-specific tool (e.g. the GitHub MCP server's); `[]` for any other tool. */
  fromToolCall(call: ToolCall, ctx: ParseContext): Address[];
  /** Addresses read by a shell command specific to the platform (e.g. `gh`). */
  fromCommand(command: ShellCommand, ctx: ParseContext): Address[];
  /** The Address a fetched URL names on this platform, or null. */
  fromUrl(url: string, ctx: ParseContext): Address | null;
  /** Addresses mentioned in free text (a prompt), in order of appearance. */
  fromText(text: string, ctx: ParseContext): Address[];
  /** One Address from text a person typed to name it (URL, short form, …), or null. */
  parseOne(text: string, ctx: ParseContext): Address | null;
}
