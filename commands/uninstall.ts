/**
 * `rgraph uninstall <harness>`: removes exactly what `rgraph install` added
 * (see `lib/install/`); flags and report are install's.
 *
 * @module
 */

import { setupMain } from "./install.ts";

/** Runs `rgraph uninstall ARGS`. */
export function main(args: string[]): Promise<number> {
  return setupMain("uninstall", args);
}
