/**
 * The GitHub MCP server's read tools, under whatever prefix a harness gives
 * them (`mcp__github__issue_read`, `mcp__plugin_github_github__list_issues`,
 * `github__get_issue`, `github-mcp-server-get_issue`, …). Write tools
 * (`create_issue`, `add_issue_comment`, `merge_pull_request`, …) are not
 * listed, so they yield nothing.
 *
 * @module
 */

import { itemAddress, listingAddress, repositoryAddress } from "../key.ts";
import type { FilterInput } from "../key.ts";
import type { Address, ListingKind, ListingState } from "../../types.ts";
import { countOf, isRepoName, repoSpec } from "./names.ts";
import { readSearchQuery } from "./search.ts";

/** The server's list and search tools return 30 results unless `perPage` says otherwise. */
const MCP_DEFAULT_PAGE = 30;

type Args = Record<string, unknown>;
type Reader = (args: Args, login: string | null) => Address | null;

const str = (v: unknown): string | null => typeof v === "string" ? v : null;

function repoOf(args: Args): { owner: string; repo: string } | null {
  const owner = str(args.owner), repo = str(args.repo);
  return owner && repo && isRepoName(owner, repo) ? { owner, repo } : null;
}

function numberOf(args: Args, ...names: string[]): number | null {
  for (const name of names) {
    const n = countOf(args[name]);
    if (n !== null) return n;
  }
  return null;
}

/** The server pages at most 100 results, whatever `perPage` asks. */
function pageSize(args: Args): number {
  return Math.min(numberOf(args, "perPage", "per_page") ?? MCP_DEFAULT_PAGE, 100);
}

const item = (...numberNames: string[]): Reader => (args) => {
  const repo = repoOf(args), n = numberOf(args, ...numberNames);
  return repo && n !== null ? itemAddress(repo.owner, repo.repo, n) : null;
};
const issue = item("issue_number", "issueNumber");
const pull = item("pullNumber", "pull_number");

/** `list_issues` / `list_pull_requests`; arguments that narrow beyond a key yield nothing. */
const list = (kind: ListingKind): Reader => (args) => {
  const repo = repoOf(args);
  if (!repo) return null;
  if (args.since !== undefined || args.head !== undefined || args.base !== undefined) return null;
  if (args.assignee !== undefined || args.creator !== undefined || args.mentioned !== undefined) {
    return null;
  }
  const filters: FilterInput = {};
  const state = str(args.state)?.toLowerCase();
  if (state !== undefined) {
    if (state !== "open" && state !== "closed" && state !== "all") return null;
    filters.state = state as ListingState;
  } else if (kind === "issues") {
    // The GraphQL-backed list_issues returns both states when none is given.
    filters.state = "all";
  }
  // Several labels match any of them here, while a key's labels all apply.
  const labels = Array.isArray(args.labels)
    ? args.labels
    : args.labels === undefined
    ? []
    : [args.labels];
  if (labels.length > 1 || !labels.every((l) => typeof l === "string")) return null;
  filters.labels = labels as string[];
  return listingAddress(repo.owner, repo.repo, kind, filters, pageSize(args));
};

/** `search_issues` / `search_pull_requests`: a query scoped to one repository. */
const search = (kind: ListingKind): Reader => (args, login) => {
  const query = str(args.query) ?? str(args.q);
  if (query === null) return null;
  const read = readSearchQuery(query, login);
  if (!read) return null;
  const repo = repoOf(args) ?? (read.repos.length === 1 ? repoSpec(read.repos[0]) : null);
  if (!repo) return null;
  const filters: FilterInput = { state: "all", ...read.filters };
  return listingAddress(repo.owner, repo.repo, read.kind ?? kind, filters, pageSize(args));
};

/** `get_file_contents` of the root README: the repository's own text. */
const readme: Reader = (args) => {
  const repo = repoOf(args), path = str(args.path);
  if (!repo || path === null || !/^\/?readme(\.[a-z0-9]+)?$/i.test(path)) return null;
  return repositoryAddress(repo.owner, repo.repo);
};

const READERS: Record<string, Reader> = {
  issue_read: issue,
  get_issue: issue,
  get_issue_comments: issue,
  pull_request_read: pull,
  get_pull_request: pull,
  get_pull_request_files: pull,
  get_pull_request_comments: pull,
  get_pull_request_reviews: pull,
  get_pull_request_review_comments: pull,
  get_pull_request_status: pull,
  get_pull_request_diff: pull,
  list_issues: list("issues"),
  list_pull_requests: list("pulls"),
  search_issues: search("issues"),
  search_pull_requests: search("pulls"),
  get_file_contents: readme,
};
/** Longest first, so `get_issue_comments` is not read as `…_comments` of something shorter. */
const TOOL_NAMES = Object.keys(READERS).sort((a, b) => b.length - a.length);

/** The GitHub MCP tool a harness tool name stands for, or null when it is not the GitHub server's. */
function githubMcpTool(name: string): string | null {
  const lower = name.toLowerCase();
  for (const tool of TOOL_NAMES) {
    if (!lower.endsWith(tool)) continue;
    const prefix = lower.slice(0, lower.length - tool.length);
    // The prefix names the server (`mcp__github__`, `github-mcp-server-`) and ends at a separator.
    if (prefix.includes("github") && /[_.:/-]$/.test(prefix)) return tool;
  }
  return null;
}

/**
 * What a GitHub MCP server tool call reads.
 *
 * @example
 * ```ts
 * fromMcpTool("mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }, null);
 * // item github:o/r#5
 * ```
 */
export function fromMcpTool(name: string, args: unknown, login: string | null): Address | null {
  const tool = githubMcpTool(name);
  if (tool === null || typeof args !== "object" || args === null || Array.isArray(args)) {
    return null;
  }
  return READERS[tool](args as Args, login);
}
