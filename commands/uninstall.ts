/**
 * `rgraph uninstall <harness>`: removes exactly what `rgraph install` added
 * (see `lib/install/`).
 *
 * @module
 */

import { runSetup } from "../lib/setup/command_line.ts";

/** Runs `rgraph uninstall ARGS`. */
export function main(args: string[]): Promise<number> {
  return runSetup("uninstall", args);
}
