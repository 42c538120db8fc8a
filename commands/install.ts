/**
 * `rgraph install <harness>`: wires rgraph's hooks and MCP server into one
 * harness's configuration (see `lib/install/`).
 *
 * @module
 */

import { runSetup } from "../lib/setup/command_line.ts";

/** Runs `rgraph install ARGS`. */
export function main(args: string[]): Promise<number> {
  return runSetup("install", args);
}
