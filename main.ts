/**
 * The `rgraph` command: dispatches to one module under `commands/`, loaded
 * only when that command runs, so the hook's start-up never pays for the MCP
 * SDK, octokit or the Bolt driver.
 *
 * @module
 */

import { UserError } from "./lib/errors.ts";

/** What every command module exports. */
export type CommandMain = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ main: CommandMain }> }> = {
  hook: { summary: "record a Touch from a harness hook payload (stdin)", load: () => import("./commands/hook.ts") },
  touches: { summary: "list your own Touches", load: () => import("./commands/touches.ts") },
  sweep: { summary: "fetch pending Touches from GitHub into memory", load: () => import("./commands/sweep.ts") },
  "serve-mcp": { summary: "serve the `resource` MCP tool over stdio", load: () => import("./commands/serve_mcp.ts") },
  lookup: { summary: "answer an address from memory", load: () => import("./commands/lookup.ts") },
  install: { summary: "wire rgraph into a harness", load: () => import("./commands/install.ts") },
  uninstall: { summary: "remove what install added", load: () => import("./commands/uninstall.ts") },
  doctor: { summary: "check the setup, with a fix for each failure", load: () => import("./commands/doctor.ts") },
  stats: { summary: "what memory saved you", load: () => import("./commands/stats.ts") },
  migrate: { summary: "copy the embedded store into a graph store", load: () => import("./commands/migrate.ts") },
};

/** rgraph's version. */
export const VERSION = "0.1.0";

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(11)} ${c.summary}`);
  return `rgraph ${VERSION}: memory for coding agents of the public GitHub material they read\n\n` +
    `Usage: rgraph <command> [options]\n\nCommands:\n${rows.join("\n")}\n\n` +
    `Run 'rgraph <command> --help' for a command's options.\n`;
}

/** Runs rgraph with `args` and returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(`rgraph ${VERSION}`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`rgraph: unknown command '${name}' (see 'rgraph --help')`);
    return 2;
  }
  try {
    const { main } = await command.load();
    return await main(rest);
  } catch (e) {
    if (e instanceof UserError) {
      console.error(`rgraph ${name}: ${e.message.replace(/^rgraph \S+: /, "")}`);
      return e.exitCode;
    }
    console.error(`rgraph ${name}: internal error: ${(e as Error)?.stack ?? e}`);
    return 70;
  }
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
