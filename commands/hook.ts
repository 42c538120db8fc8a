/**
 * `rgraph hook <harness> [--event NAME]`: reads one hook payload from
 * standard input, records a private Touch for every GitHub read or pasted
 * link it names, and answers a session start with the session hint and a
 * fetch of something in memory with a Nudge, in the harness's own format.
 *
 * Rules a harness depends on: the process gives up its network permission
 * before anything else (a hook can never reach GitHub, even from a binary
 * compiled with broad permissions); it always exits 0; standard output holds
 * only what the harness can read (valid JSON or nothing); every problem goes
 * to `<data_dir>/hook.log`, one line each.
 *
 * This module's import graph stays small (no MCP SDK, octokit or Bolt
 * driver, and no npm package at all: config values come through
 * `lib/capture/`, which loads the TOML parser only when the config file
 * changed): it runs on every tool call.
 *
 * @module
 */

import { defaultDataDir, takeConfigOption } from "../lib/config/paths/mod.ts";
import { HARNESS_NAMES, logHookProblem, runHook } from "../lib/capture/mod.ts";

const USAGE = `rgraph hook <${HARNESS_NAMES.join("|")}> [--event NAME] [--plugin]`;

const HELP = `Record a Touch from a harness hook payload on standard input (always exits 0)

USAGE
  ${USAGE}

OPTIONS
      --event NAME             the event name, for payloads that do not carry one (Copilot CLI)
      --plugin                 rgraph runs as the harness's plugin (its tool is named so)
  -h, --help                   show this help

EXAMPLES
  # what 'rgraph install claude-code' registers for every hook event (the payload on stdin)
  $ rgraph hook claude-code < payload.json

  # Copilot CLI names no event in its payload: install passes it
  $ rgraph hook copilot --event preToolUse < payload.json
`;

/**
 * Gives up this process's network permission. Guarded: where the permission
 * API is unavailable there is nothing to revoke from.
 */
export function revokeNetwork(): void {
  try {
    Deno.permissions.revokeSync({ name: "net" });
  } catch {
    // No permissions API in this runtime: nothing granted that could be revoked.
  }
}

/**
 * The command line: `<harness> [--event NAME]`. Parsed by hand: the shared
 * parser (`lib/cli.ts`) loads `node:util`, which alone costs the hook 10–30 ms
 * of start-up.
 */
function parseArgs(
  args: string[],
): { harness: string; event?: string; plugin: boolean } | "help" {
  let harness: string | undefined;
  let event: string | undefined;
  let plugin = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") return "help";
    if (a === "--event") {
      if (i + 1 >= args.length) throw new Error("rgraph hook: --event needs a value");
      event = args[++i];
    } else if (a.startsWith("--event=")) event = a.slice("--event=".length);
    else if (a === "--plugin") plugin = true;
    else if (a.startsWith("-")) throw new Error(`rgraph hook: unknown option '${a}'`);
    else if (harness === undefined) harness = a;
    else throw new Error(`rgraph hook: unexpected argument '${a}'`);
  }
  return { harness: harness ?? "", event, plugin };
}

/** All of standard input, read synchronously (a web stream costs the hook ~20 ms to set up). */
function readStdin(): string {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  let total = 0;
  for (;;) {
    const n = Deno.stdin.readSync(buf);
    if (n === null) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}

function writeOut(text: string): void {
  const bytes = new TextEncoder().encode(`${text}\n`);
  let off = 0;
  while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
}

/** The hook: always 0, whatever happens. */
export async function main(args: string[]): Promise<number> {
  revokeNetwork();
  let parsed: ReturnType<typeof parseArgs>;
  let input: string;
  try {
    parsed = parseArgs(args);
    if (parsed === "help") {
      console.log(HELP);
      return 0;
    }
    input = readStdin();
  } catch (e) {
    logHookProblem(defaultDataDir(), "", e);
    return 0;
  }
  const output = await runHook(parsed.harness, input, {
    event: parsed.event,
    plugin: parsed.plugin,
  });
  if (output !== null) writeOut(output);
  return 0;
}

/**
 * The hook as its own entry point, with the words main.ts would get:
 * `[--config PATH] [hook] <harness> [--event NAME]`. `deno run …
 * commands/hook.ts claude-code` (and the bundle `rgraph install` builds,
 * `commands/hook_bundled.ts`) skip main.ts, whose dispatch table makes deno
 * load every command's module graph.
 */
export function standalone(args: string[]): Promise<number> {
  let rest: string[];
  try {
    rest = takeConfigOption(args);
  } catch (e) {
    revokeNetwork();
    logHookProblem(defaultDataDir(), "", e);
    return Promise.resolve(0);
  }
  return main(rest[0] === "hook" ? rest.slice(1) : rest);
}

if (import.meta.main) Deno.exit(await standalone(Deno.args));
