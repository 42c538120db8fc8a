/**
 * The `rgraph` command: dispatches to one module under `commands/`, loaded
 * only when that command runs, so the hook's start-up never pays for the MCP
 * SDK, octokit or the Bolt driver.
 *
 * @module
 */

import { redact, UserError } from "./lib/errors.ts";
import { clipLine, neutralizeLine } from "./lib/untrusted.ts";
import { defaultDataDir, privateDataDir, takeConfigOption } from "./lib/config/paths/mod.ts";
import { appendPrivateFile } from "./lib/host/mod.ts";

/** What every command module exports. */
export type CommandMain = (args: string[]) => Promise<number>;

/** One entry of the command list: what `rgraph help` says of it, and its module under `commands/`. */
export interface CommandEntry {
  summary: string;
  module: string;
  /** Run by harnesses and plugins, not typed by people: listed apart, after the rest. */
  internal?: true;
}

// Each command's modules load only when it runs. The specifier is built at run
// time on purpose: a literal `import("./commands/x.ts")` makes Deno load every
// command's module graph (MCP SDK, octokit, the Bolt driver) before the hook
// can start. `deno compile` includes commands/ explicitly for the same reason.
//
// A new command is one entry here (in the order a newcomer meets it) and a
// module exporting `main`, whose CommandSpec (lib/cli.ts) carries its help and
// examples; tests/cli_help_test.ts holds every entry to the help rules.
/** Every command, the user's first (in the order a newcomer meets them), then the internal ones. */
export const COMMANDS: Record<string, CommandEntry> = {
  install: { summary: "wire rgraph into a harness", module: "install" },
  uninstall: { summary: "remove what install added", module: "uninstall" },
  doctor: { summary: "check the setup, with a fix for each failure", module: "doctor" },
  status: { summary: "what waits for a Sweep, and how the last one went", module: "status" },
  touches: { summary: "list your own Touches", module: "touches" },
  lookup: { summary: "answer an address from memory", module: "lookup" },
  search: { summary: "find what memory holds by what it says", module: "search" },
  stats: { summary: "what memory saved you", module: "stats" },
  view: { summary: "a private web page of your memory, on 127.0.0.1", module: "view" },
  sweep: { summary: "fetch pending Touches from GitHub into memory", module: "sweep" },
  pause: { summary: "stop recording Touches for a while", module: "pause" },
  resume: { summary: "record Touches again after a pause", module: "resume" },
  forget: { summary: "delete your own Touches (never Resources)", module: "forget" },
  migrate: { summary: "copy the embedded store into a graph store", module: "migrate" },
  hook: {
    summary: "record a Touch from a harness hook payload (stdin)",
    module: "hook",
    internal: true,
  },
  "serve-mcp": {
    summary: "serve the `resource` MCP tool over stdio",
    module: "serve_mcp",
    internal: true,
  },
  "plugin-start": {
    summary: "a harness plugin's session-start work",
    module: "plugin_start",
    internal: true,
  },
};

/** rgraph's version. */
export const VERSION = "0.1.0";

function rows(internal: boolean): string {
  const names = Object.keys(COMMANDS).filter((n) => (COMMANDS[n].internal ?? false) === internal);
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`).join("\n");
}

function usage(): string {
  return `rgraph ${VERSION}: memory for coding agents of the public GitHub material they read\n\n` +
    `USAGE\n  rgraph [--config PATH] <command> [options]\n\n` +
    `COMMANDS\n${rows(false)}\n\n` +
    `INTERNAL COMMANDS (run by harnesses and plugins, not by hand)\n${rows(true)}\n\n` +
    `OPTIONS\n  --config PATH  the config file (default: $RGRAPH_CONFIG, else ~/.config/rgraph/config.toml)\n` +
    `  -h, --help     show this help\n  -V, --version  print rgraph's version\n\n` +
    `EXAMPLES\n  # set rgraph up for Claude Code, for every project of yours\n` +
    `  $ rgraph install claude-code --scope user\n\n  # check it works\n  $ rgraph doctor\n\n` +
    `  # what your agents read today\n  $ rgraph touches --since today\n\n` +
    `LEARN MORE\n  rgraph help <command>   a command's options and examples\n`;
}

/** Runs rgraph with `args` and returns the exit code. */
export async function run(args: string[]): Promise<number> {
  let name: string | undefined, rest: string[];
  try {
    [name, ...rest] = takeConfigOption(args);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  if (name === "help" && rest.length > 0 && rest[0] !== "--help" && rest[0] !== "-h") {
    // `rgraph help <command>` is `rgraph <command> --help`: the command's own help, same code.
    if (!Object.hasOwn(COMMANDS, rest[0])) {
      console.error(`rgraph help: unknown command '${clipLine(rest[0], 100)}' (see 'rgraph help')`);
      return 2;
    }
    [name, rest] = [rest[0], ["--help"]];
  } else if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(`rgraph ${VERSION}`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`rgraph: unknown command '${clipLine(name, 100)}' (see 'rgraph help')`);
    return 2;
  }
  try {
    const { main } = await import(
      new URL(`./commands/${command.module}.ts`, import.meta.url).href
    ) as {
      main: CommandMain;
    };
    return await main(rest);
  } catch (e) {
    if (e instanceof UserError) {
      // A message may quote input (an address, a store's answer): it follows the one rule.
      console.error(`rgraph ${name}: ${neutralizeLine(e.message.replace(/^rgraph \S+: /, ""))}`);
      return e.exitCode;
    }
    return internalError(name, e);
  }
}

/**
 * Appends `text` to `error.log` in the data directory (else a new file in
 * the temporary directory) and returns where it went, or null when nothing
 * could be written.
 */
function saveTrace(text: string): string | null {
  const dir = defaultDataDir();
  try {
    privateDataDir(dir);
    appendPrivateFile(`${dir}/error.log`, text);
    return `${dir}/error.log`;
  } catch {
    try {
      // Made 0600 under a fresh name, like every temporary file Deno makes.
      const file = Deno.makeTempFileSync({ prefix: "rgraph-error-", suffix: ".log" });
      Deno.writeTextFileSync(file, redact(text));
      return file;
    } catch {
      return null;
    }
  }
}

/**
 * A bug: one line saying so and where its full trace was saved (the
 * arguments are not saved: they may hold a password). Exit 70.
 */
function traceOf(e: unknown): string {
  return e instanceof Error ? e.stack ?? `${e.name}: ${e.message}` : String(e);
}

function internalError(command: string, e: unknown): number {
  const first = neutralizeLine(redact(
    e instanceof Error ? `${e.name}: ${e.message.split("\n")[0]}` : String(e).split("\n")[0],
  ));
  const trace = traceOf(e);
  const at = saveTrace(`${new Date().toISOString()} rgraph ${VERSION} ${command}: ${trace}\n`);
  console.error(
    `rgraph ${command}: internal error: ${first} ` +
      (at ? `(full trace in ${at})` : `(could not save the trace:\n${trace})`),
  );
  return 70;
}

if (import.meta.main) {
  // Failures no command awaited (a stream's error event, a promise nobody
  // awaited) are bugs too, reported the same way instead of as a stack.
  const stray = (event: Event, error: unknown) => {
    event.preventDefault();
    const command = Deno.args[0] ?? "";
    // The hook prints nothing and exits 0 whatever happens; the trace is still saved.
    if (command === "hook") {
      saveTrace(`${new Date().toISOString()} rgraph ${VERSION} hook: ${traceOf(error)}\n`);
      Deno.exit(0);
    }
    Deno.exit(internalError(command, error));
  };
  globalThis.addEventListener("error", (e) => stray(e, (e as ErrorEvent).error));
  globalThis.addEventListener(
    "unhandledrejection",
    (e) => stray(e, (e as PromiseRejectionEvent).reason),
  );
  Deno.exit(await run(Deno.args));
}
