/**
 * Addresses: the canonical names of what rgraph can remember, shared by every
 * stage. Pure, no I/O:
 * - `key.ts` — the one key spelling of each Address (`github:OWNER/REPO#N`, …);
 * - `parse.ts` — which Addresses a tool call reads or a prompt names (one
 *   {@link PlatformAdapter} per platform);
 * - `listing.ts` — whether a stored Listing answers an asked one (`hit`,
 *   `subsumed`, `miss`) and whether a member matches a Listing's filters;
 * - `github/` — the GitHub platform adapter, and a git config's `origin` remote as a
 *   GitHub repository.
 *
 * @example
 * ```ts
 * import { addressesFromToolCall, parseKey } from "./mod.ts";
 * const ctx = { cwd: null, githubLogin: null, repoOfCwd: () => null };
 * addressesFromToolCall({ tool: "Bash", input: { command: "gh issue view 5 -R o/r" } }, ctx);
 * // [{ kind: "item", key: "github:o/r#5", … }]
 * parseKey("github:o/r#5")?.kind; // "item"
 * ```
 * @module
 */

export {
  type FilterInput,
  itemAddress,
  listingAddress,
  MAX_ADDRESS_CHARS,
  parseKey,
  repositoryAddress,
  shortName,
} from "./key.ts";
export {
  addressesFromPrompt,
  addressesFromToolCall,
  parseAddress,
  type ParseContext,
  type PlatformAdapter,
  type ShellCommand,
  type ToolCall,
} from "./parse.ts";
export {
  chooseListing,
  covers,
  type ListingMatch,
  type ListingRelation,
  memberMatches,
  relate,
} from "./listing.ts";
export { githubRepoOfRemote, originUrl } from "./github/mod.ts";
