/**
 * Config: rgraph's one TOML file — where it is (`paths/`, light enough for the hook, which must
 * not load the TOML parser) and what it says (`load.ts`). May import host, errors and types.
 *
 * @example
 * ```ts
 * import { configPath, loadConfig } from "./mod.ts";
 * const config = loadConfig(configPath());
 * config.store.path; // "/home/me/.local/share/rgraph/rgraph.db" by default
 * ```
 * @module
 */

export * from "./load.ts";
export * from "./paths/mod.ts";
