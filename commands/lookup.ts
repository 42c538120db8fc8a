/**
 * `rgraph lookup <address> [--page N] [--json]`: the `resource` tool's answer
 * for people. It records a Cache Read like the tool does (not while capture
 * is paused, nor run in a directory `[capture] exclude_paths` names). Exit 0 for every
 * answer, a miss included (the outcome is the first word of the answer and
 * the `outcome` field of the JSON); exit 2 for an address it cannot read.
 *
 * @module
 */

import { parseCommand, positiveInt } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { answer, notAnAddress, parseAsked } from "../lib/serve/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { capturing } from "../lib/capture/mod.ts";
import { terminalJson } from "../lib/untrusted.ts";

const SPEC = {
  name: "lookup",
  summary: "Answer an address from memory, as the `resource` MCP tool does",
  usage: "rgraph lookup <address> [--page N] [--json]",
  positionals: "<address>",
  options: {
    page: { type: "string", arg: "N", help: "page of a long thread or list (default 1)" },
    json: { type: "boolean", help: "print the answer as JSON" },
  },
  more: [
    "<address> is any of:",
    "  a GitHub URL            https://github.com/OWNER/REPO/issues/N, …/pull/N, …/issues?q=…",
    "  an item or repository   OWNER/REPO#N, OWNER/REPO",
    "  a canonical key         github:OWNER/REPO#N, github:OWNER/REPO/issues?label=bug&state=open",
    '  a gh command line       "gh issue view N -R OWNER/REPO", "gh pr list -R OWNER/REPO -l bug"',
    "The answer starts 'rgraph: hit', 'subsumed' (from a broader stored list) or 'miss'.",
  ],
  examples: [
    { does: "an issue or pull request", run: "rgraph lookup denoland/deno#123" },
    { does: "a repository, from its URL", run: "rgraph lookup https://github.com/denoland/deno" },
    {
      does: "a list, as gh asks for it",
      run: 'rgraph lookup "gh issue list -R denoland/deno -l bug"',
    },
    {
      does: "the second page of a long thread, as JSON",
      run: "rgraph lookup denoland/deno#123 --page 2 --json",
    },
  ],
} as const;

/**
 * `--page -1` as `--page=-1`: node's parser refuses a value that looks like
 * an option with a confusing "argument is ambiguous"; attached, the value
 * reaches the page check, which says what a page must be.
 */
function withAttachedPage(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--page" && /^-\d/.test(args[i + 1] ?? "")) out.push(`--page=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

/** Prints the answer for one address. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, withAttachedPage(args));
  if (parsed === null) return 0;
  if (parsed.positionals.length !== 1) {
    throw new UsageError(
      `rgraph lookup: expects one address (quote a gh command line) — usage: ${SPEC.usage}`,
    );
  }
  const page = positiveInt("lookup", "page", parsed.values.page) ?? 1;
  const config = loadConfig();
  const userId = requireUserId(config);
  const text = parsed.positionals[0];
  const asked = parseAsked(text, config);
  if (asked === null) {
    throw new UsageError(`rgraph lookup: ${notAnAddress(text, config.identity.github_login)}`);
  }
  const store = await openStore(config);
  try {
    const now = new Date();
    // Paused, or run in an excluded directory: answered, not recorded.
    const record = capturing(config, { cwd: null, harness: null }, now);
    const a = await answer(store, asked, { page, userId, via: "lookup", now, record });
    console.log(parsed.values.json ? terminalJson(a.json, 2) : a.text);
    return 0;
  } finally {
    await store.close();
  }
}
