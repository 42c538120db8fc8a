/**
 * Doctor: `rgraph doctor`'s checks, one module per family (store, automatic Sweeps, private
 * files, harness wiring, plugins, hook trust, harness versions), each check with its fix. May
 * import install (to compare what is wired with what install would write), config, host, store.
 *
 * @example
 * ```ts
 * import { formatChecks, runChecks } from "./mod.ts";
 * console.log(formatChecks(await runChecks({ dir: Deno.cwd() })));
 * ```
 * @module
 */

export { type Check, type DoctorOptions, formatChecks, runChecks } from "./run.ts";
