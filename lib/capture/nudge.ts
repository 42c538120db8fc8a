/**
 * The Nudge and the session hint: the lines the hook adds to an agent's
 * context. `nudgeText` does one indexed store lookup and never throws, so the
 * hook can call it on every fetch-like tool start. Its imports stay tiny (the
 * hook loads this module on every tool call).
 *
 * @example
 * ```ts
 * import { nudgeText } from "./nudge.ts";
 * const line = await nudgeText(store, itemAddress("memgraph", "memgraph", 123), new Date());
 * // 'memgraph/memgraph#123 is in memory, fetched 2h ago, updated on GitHub 3d ago — resource returns it'
 * ```
 * @module
 */

import type { Address, Listing } from "../types.ts";
import type { Store } from "../store/sqlite/mod.ts";
import { chooseListing, shortName } from "../address/mod.ts";
import { ago } from "../time.ts";
import type { PresentedTool } from "./harness/mod.ts";

/** How every session hint starts (and how rgraph knows its own hint in a prompt). */
const HINT_START = "rgraph: before fetching a GitHub issue";

/**
 * The one line a harness adds to the model's context at session start,
 * naming the tool as that harness presents it.
 */
export function sessionHint(tool: PresentedTool): string {
  const call = tool.namespace
    ? `call the \`${tool.name}\` tool in the \`${tool.namespace}\` namespace (rgraph's MCP server)`
    : `call the \`${tool.name}\` MCP tool`;
  return `${HINT_START}, pull request, repository or issue/PR list (gh, curl, web fetch), ` +
    `${call} with its URL, owner/repo#N or owner/repo — it answers from memory ` +
    "with when it was fetched and when GitHub last updated it, and says plainly when it has nothing; " +
    'to find what your team already read by what it says, pass `search` (words, "phrases") instead.';
}

const TAIL = " — resource returns it";

/** A line rgraph itself put before the model: the session hint or a Nudge. */
function ownLine(line: string): boolean {
  const t = line.trim();
  return t.startsWith(HINT_START) || t.endsWith(TAIL);
}

/**
 * A prompt without what rgraph itself wrote: a harness may hand rgraph's
 * lines back inside a later prompt (Gemini CLI's `BeforeAgent` prompt starts
 * with `<hook_context>rgraph: …</hook_context>`), and they are not what the
 * person typed, so they name nothing the person pasted. A `<hook_context>`
 * block holding only rgraph's lines goes whole.
 *
 * @example
 * ```ts
 * withoutOwnText("<hook_context>rgraph: before fetching a GitHub issue, …</hook_context>\nsee o/r#5");
 * // "\nsee o/r#5"
 * ```
 */
export function withoutOwnText(prompt: string): string {
  return prompt
    .replace(
      /<hook_context>([\s\S]*?)<\/hook_context>/g,
      (block, inner: string) =>
        inner.split("\n").every((l) => l.trim() === "" || ownLine(l)) ? "" : block,
    )
    .split("\n").filter((l) => !ownLine(l)).join("\n");
}
function listingLine(asked: string, outcome: "hit" | "subsumed", l: Listing, now: Date): string {
  const size = l.fully_expanded
    ? `all ${l.member_count} items`
    : `${l.member_count} of ${l.total_count} items`;
  if (outcome === "hit") {
    return `${asked} is in memory (${size}), fetched ${ago(l.fetched_at, now)}${TAIL}`;
  }
  return `${asked} can be answered from memory, filtered from ${
    l.key.slice("github:".length)
  } (${size}), fetched ${ago(l.fetched_at, now)}${TAIL}`;
}

/**
 * The Nudge for `address`: one line when it is in memory (hit or subsumed),
 * `null` on a miss or on any failure. One indexed lookup, no network.
 */
export async function nudgeText(store: Store, address: Address, now: Date): Promise<string | null> {
  try {
    const name = shortName(address);
    if (address.kind === "listing") {
      const match = chooseListing(
        address,
        await store.findListings(address.owner, address.repo, address.listing),
      );
      return match.outcome === "miss" ? null : listingLine(name, match.outcome, match.listing, now);
    }
    const heads = await store.getHeads([address.key]);
    const head = heads.get(address.key) ?? heads.values().next().value;
    if (!head) return null;
    // No GitHub text: the Nudge sits in the model's context outside any fence the model is told is
    // data, so a title ("…NOTE from rgraph: run this") would pass for rgraph's own words. What the
    // item says is in the answer, fenced; the Nudge says only that memory has it, and how fresh.
    const what = head.kind === "repository"
      ? `${name} (repository) is in memory`
      : `${name} is in memory`;
    return `${what}, fetched ${ago(head.fetched_at, now)}, updated on GitHub ${
      ago(head.updated_at, now)
    }${TAIL}`;
  } catch {
    return null;
  }
}
