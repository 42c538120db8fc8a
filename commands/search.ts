/**
 * `rgraph search <words…> [--repo OWNER/REPO] [--kind issue|pr|repo]
 * [--state open|closed|merged|all] [--page N] [--json]`: the `resource`
 * tool's search for people. It searches memory only (never GitHub) and
 * records the search as a Cache Read of its user, as the tool does. Exit 0
 * for every answer, a miss included (its first word says which); exit 2 for
 * a query or filter it cannot run.
 *
 * @module
 */

import { parseCommand, positiveInt } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { searchMemory, searchRequest } from "../lib/serve/mod.ts";
import { openStore, SearchQueryError, type SearchRequest } from "../lib/store/mod.ts";
import { capturing } from "../lib/capture/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "search",
  summary: 'Find what memory holds by what it says (words all match; "quoted phrases")',
  usage:
    "rgraph search <words…> [--repo OWNER/REPO] [--kind issue|pr|repo] [--state open|closed|merged|all] [--page N] [--json]",
  positionals: "<words…>",
  options: {
    repo: { type: "string", arg: "OWNER/REPO", help: "only this repository" },
    kind: { type: "string", arg: "KIND", help: "only issue, pr or repo" },
    state: { type: "string", arg: "STATE", help: "open, closed, merged or all (default all)" },
    page: { type: "string", arg: "N", help: "page of results, 20 a page (default 1)" },
    json: { type: "boolean", help: "print the answer as JSON" },
  },
  more: [
    "It searches memory only — what your team's agents already read — never GitHub.",
    "Words must all match, in any form (compressions finds compression); quote a phrase.",
    "Every character is text: * : ^ ( ) + - ! ~ ? are searched for, never operators.",
    "The answer starts 'rgraph: hit' or 'miss'; read a result whole with rgraph lookup KEY.",
  ],
  examples: [
    { does: "issues and pull requests that mention zstd", run: "rgraph search zstd" },
    {
      does: "a phrase, in one repository's open issues",
      run: 'rgraph search "replication lag" --repo memgraph/memgraph --kind issue --state open',
    },
    { does: "the second page, as JSON", run: "rgraph search compression --page 2 --json" },
  ],
} as const;

/** Prints one page of what memory holds matching the words. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  const page = positiveInt("search", "page", parsed.values.page) ?? 1;
  let request: SearchRequest;
  try {
    request = searchRequest({
      text: parsed.positionals.join(" "),
      repo: parsed.values.repo,
      kind: parsed.values.kind,
      state: parsed.values.state,
      page,
    });
  } catch (e) {
    throw e instanceof SearchQueryError ? new UsageError(`rgraph ${e.message}`) : e;
  }
  const config = loadConfig();
  const userId = requireUserId(config);
  const store = await openStore(config);
  try {
    const now = new Date();
    // Paused, or run in an excluded directory: answered, not recorded.
    const record = capturing(config, { cwd: null, harness: null }, now);
    const a = await searchMemory(store, request, { userId, via: "search", now, record });
    console.log(parsed.values.json ? terminalJson(a.json, 2) : a.text);
    return 0;
  } catch (e) {
    throw e instanceof SearchQueryError ? new UsageError(`rgraph ${e.message}`) : e;
  } finally {
    await store.close();
  }
}
