/**
 * rgraph as a library: memory for coding agents of the public GitHub material
 * they read. The `rgraph` command (`main.ts`) is built from these pieces.
 *
 * @example
 * ```ts
 * import { addressesFromPrompt, answer, loadConfig, openStore } from "./mod.ts";
 *
 * const config = loadConfig();
 * const store = await openStore(config);
 * const ctx = { cwd: null, githubLogin: null, repoOfCwd: () => null };
 * const [address] = addressesFromPrompt("see memgraph/memgraph#123", ctx);
 * const a = await answer(store, address, { userId: "me", now: new Date() });
 * console.log(a.outcome, a.text.split("\n")[0]);
 * await store.close();
 * ```
 * @module
 */

export type * from "./lib/types.ts";
export { type Config, ConfigError, configPath, loadConfig } from "./lib/config/mod.ts";
export { UsageError, UserError } from "./lib/errors.ts";
export {
  addressesFromPrompt,
  addressesFromToolCall,
  chooseListing,
  itemAddress,
  listingAddress,
  memberMatches,
  parseAddress,
  type ParseContext,
  parseKey,
  type PlatformAdapter,
  relate,
  repositoryAddress,
  shortName,
} from "./lib/address/mod.ts";
export {
  adapterFor,
  HARNESS_NAMES,
  type HarnessName,
  nudgeText,
  readGitRemote,
  sessionHint,
  touchesFor,
} from "./lib/capture/mod.ts";
export { sweep, type SweepSummary } from "./lib/sweep/mod.ts";
export { openSource, type Source } from "./lib/github/mod.ts";
export { answer } from "./lib/serve/mod.ts";
export {
  IdentityRequiredError,
  openEmbeddedStore,
  openStore,
  SqliteStore,
  type Store,
  StoreUnavailableError,
} from "./lib/store/mod.ts";
