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
export {
  itemAddress,
  listingAddress,
  parseKey,
  repositoryAddress,
  shortName,
} from "./lib/address/key.ts";
export {
  addressesFromPrompt,
  addressesFromToolCall,
  parseAddress,
  type ParseContext,
  type PlatformAdapter,
} from "./lib/address/parse.ts";
export { readGitRemote } from "./lib/capture/git_remote.ts";
export { type Config, ConfigError, configPath, loadConfig } from "./lib/config.ts";
export { UsageError, UserError } from "./lib/errors.ts";
export { IdentityRequiredError, type Store, StoreUnavailableError } from "./lib/store/contract.ts";
export { openEmbeddedStore, openStore, SqliteStore } from "./lib/store/mod.ts";
export { adapterFor, HARNESS_NAMES, type HarnessName } from "./lib/capture/harness/mod.ts";
export { touchesFor } from "./lib/capture/touch.ts";
export { chooseListing, memberMatches, relate } from "./lib/address/listing.ts";
export { nudgeText, SESSION_HINT } from "./lib/capture/nudge.ts";
export { answer } from "./lib/serve/answer.ts";
export { sweep, type SweepSummary } from "./lib/sweep/sweep.ts";
export { openSource, type Source } from "./lib/github/mod.ts";
