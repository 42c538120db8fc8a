/**
 * The GitHub CLI (`gh`) commands that read Resources: `gh issue|pr view|list`,
 * `gh pr diff`, `gh repo view`, `gh api` (GET only). Write commands and
 * anything gh itself would reject yield nothing.
 *
 * @module
 */

import { itemAddress, listingAddress, repositoryAddress } from "../key.ts";
import type { FilterInput } from "../key.ts";
import type { Address, ListingKind, ListingState } from "../../types.ts";
import type { ParseContext, ShellCommand } from "../platform.ts";
import { type FlagSpec, opaqueFrom, type Parsed, parseFlags, spellings } from "../flags.ts";
import { countOf, GITHUB, isRepoName, repoSpec, resolveLogin } from "./names.ts";
import { fromRestPath } from "./rest.ts";
import { readSearchQuery } from "./search.ts";
import { fromGithubUrl } from "./url.ts";

/** `gh issue|pr list` shows 30 items unless `--limit` says otherwise. */
const GH_DEFAULT_LIMIT = 30;

const OUTPUT = { "-q --jq": "jq", "--json": "json", "-t --template": "template" };
const REPO = { "-R --repo": "repo" };
const HELP = { "-h --help": "help" };
/**
 * Flags whose value may need expansion (`--jq "$FILTER"`, `-H "Authorization:
 * token $T"`): they shape the output or the request's headers, never what is
 * read. Any other flag, or the endpoint, with such a value reads nothing.
 */
const OPAQUE_OK = ["jq", "json", "template", "header"];

const spec = (value: Record<string, string>, bool: Record<string, string>): FlagSpec => ({
  value: spellings({ ...REPO, ...value }),
  bool: spellings({ ...HELP, ...bool }),
  opaque: OPAQUE_OK,
});

const VIEW = spec(OUTPUT, { "-c --comments": "comments", "-w --web": "web" });
const DIFF = spec({ "--color": "color" }, {
  "--patch": "patch",
  "--name-only": "name-only",
  "-w --web": "web",
});
const LIST_VALUES = {
  ...OUTPUT,
  "-a --assignee": "assignee",
  "-A --author": "author",
  "--app": "app",
  "-l --label": "label",
  "-L --limit": "limit",
  "--mention": "mention",
  "-m --milestone": "milestone",
  "-S --search": "search",
  "-s --state": "state",
};
const ISSUE_LIST = spec(LIST_VALUES, { "-w --web": "web" });
const PR_LIST = spec({ ...LIST_VALUES, "-B --base": "base", "-H --head": "head" }, {
  "-d --draft": "draft",
  "-w --web": "web",
});
const REPO_VIEW: FlagSpec = {
  value: spellings({ ...OUTPUT, "-b --branch": "branch" }),
  bool: spellings({ ...HELP, "-w --web": "web" }),
  opaque: OPAQUE_OK,
};
const API: FlagSpec = {
  value: spellings({
    ...OUTPUT,
    "-H --header": "header",
    "-X --method": "method",
    "--cache": "cache",
    "-F --field": "field",
    "-f --raw-field": "field",
    "--input": "input",
    "-p --preview": "preview",
    "--hostname": "hostname",
  }),
  bool: spellings({
    ...HELP,
    "--paginate": "paginate",
    "--slurp": "slurp",
    "-i --include": "include",
    "--silent": "silent",
    "--verbose": "verbose",
  }),
  opaque: OPAQUE_OK,
};
const SEARCH_VALUES = {
  ...OUTPUT,
  "-R --repo": "repo",
  "--state": "state",
  "--label": "label",
  "--author": "author",
  "--assignee": "assignee",
  "--milestone": "milestone",
  "-L --limit": "limit",
  "--sort": "sort",
  "--order": "order",
};
const SEARCH_ISSUES: FlagSpec = {
  value: spellings(SEARCH_VALUES),
  bool: spellings({ ...HELP, "-w --web": "web" }),
  opaque: OPAQUE_OK,
};
const SEARCH_PRS: FlagSpec = {
  value: spellings(SEARCH_VALUES),
  bool: spellings({ ...HELP, "-w --web": "web", "--merged": "merged" }),
  opaque: OPAQUE_OK,
};
/** List filters a canonical key has no field for: such a listing is not recorded. */
const UNKEYED = ["app", "mention", "base", "head", "draft"];
const STATES: Record<ListingKind, readonly string[]> = {
  issues: ["open", "closed", "all"],
  pulls: ["open", "closed", "merged", "all"],
};

const last = (p: Parsed, name: string) => p.flags.get(name)?.at(-1);

type Repo = { owner: string; repo: string };

/**
 * The host gh talks to when nothing names one: `GH_HOST`, else github.com;
 * null when `GH_HOST` is set to something unknown.
 */
function ghHost(cmd: ShellCommand): string | null {
  const env = cmd.env.GH_HOST;
  if (env === undefined || env === "") return GITHUB;
  return env === null ? null : env.toLowerCase();
}

/**
 * The repository gh would act on: `-R`, then `GH_REPO`, then the directory's
 * `origin` remote. gh puts an `-R`/`GH_REPO` without a host on `GH_HOST`.
 */
function targetRepo(p: Parsed | null, cmd: ShellCommand, ctx: ParseContext): Repo | null {
  const host = ghHost(cmd);
  const flag = p && last(p, "repo");
  if (flag !== undefined && flag !== null) return repoSpec(flag, host);
  if ("GH_REPO" in cmd.env) {
    const env = cmd.env.GH_REPO;
    return env === null ? null : repoSpec(env, host);
  }
  if (host !== GITHUB) return null;
  return cmd.cwd === null ? null : ctx.repoOfCwd(cmd.cwd);
}

/** `gh issue view 5`, `gh pr view '#5'`, `gh pr view https://github.com/o/r/pull/5`. */
function viewed(p: Parsed, cmd: ShellCommand, ctx: ParseContext): Address | null {
  if (p.flags.has("help") || p.positional.length !== 1) return null;
  const target = p.positional[0];
  if (/^#?\d+$/.test(target)) {
    const n = countOf(target.replace(/^#/, "")), repo = targetRepo(p, cmd, ctx);
    return n !== null && repo ? itemAddress(repo.owner, repo.repo, n) : null;
  }
  const url = fromGithubUrl(target, ctx.githubLogin);
  return url?.kind === "item" ? url : null; // a branch name names no number we know
}

/** `gh issue|pr list …`. */
function listed(
  kind: ListingKind,
  p: Parsed,
  ctx: ParseContext,
  repo: Repo | null,
): Address | null {
  if (p.flags.has("help") || p.positional.length > 0) return null;
  if (UNKEYED.some((f) => p.flags.has(f))) return null;
  if (!repo) return null;
  let filters: FilterInput = {};
  const search = last(p, "search");
  if (search !== undefined) {
    const read = readSearchQuery(search, ctx.githubLogin);
    if (!read) return null;
    // gh adds its own `repo:` and `is:` qualifiers; another repository or kind widens or empties the search.
    const elsewhere = read.repos.some((r) => {
      const other = repoSpec(r);
      return other?.owner.toLowerCase() !== repo.owner.toLowerCase() ||
        other?.repo.toLowerCase() !== repo.repo.toLowerCase();
    });
    if (elsewhere || (read.kind !== null && read.kind !== kind)) return null;
    filters = read.filters;
  }
  const state = last(p, "state")?.toLowerCase();
  if (state !== undefined) {
    if (!STATES[kind].includes(state)) return null;
    filters.state = state as ListingState;
  }
  const labels = (p.flags.get("label") ?? []).flatMap((l) => l.split(","));
  if (labels.length) filters.labels = [...(filters.labels ?? []), ...labels];
  for (const who of ["author", "assignee"] as const) {
    const v = last(p, who);
    if (v === undefined) continue;
    const login = resolveLogin(v, ctx.githubLogin);
    // A flag and a `--search` qualifier for the same person both go to GitHub: no narrowing to one.
    if (login === null || (filters[who] && filters[who].toLowerCase() !== login.toLowerCase())) {
      return null;
    }
    filters[who] = login;
  }
  const milestone = last(p, "milestone");
  // gh takes a milestone number or title; a key holds titles, and "3" may be either.
  if (milestone !== undefined && /^\d+$/.test(milestone.trim())) return null;
  if (milestone !== undefined && filters.milestone && filters.milestone !== milestone) return null;
  if (milestone !== undefined) filters.milestone = milestone;
  const limitText = last(p, "limit");
  const limit = limitText === undefined ? GH_DEFAULT_LIMIT : countOf(limitText);
  if (limit === null) return null;
  return listingAddress(repo.owner, repo.repo, kind, filters, limit);
}

/**
 * `gh search issues|prs QUERY… --repo o/r …`: a listing when it is scoped to
 * exactly one repository. Without `--state` search matches every state.
 */
function searched(
  kind: ListingKind,
  p: Parsed,
  cmd: ShellCommand,
  ctx: ParseContext,
): Address | null {
  if (p.flags.has("help")) return null;
  const read = readSearchQuery(p.positional.join(" "), ctx.githubLogin);
  if (!read) return null;
  const repos = [...(p.flags.get("repo") ?? []), ...read.repos];
  const repo = repos.length === 1 ? repoSpec(repos[0], ghHost(cmd)) : null;
  if (!repo) return null;
  const filters: FilterInput = { state: "all", ...read.filters };
  const list = listed(kind, { flags: p.flags, positional: [] }, ctx, repo);
  if (!list || list.kind !== "listing") return null;
  const f = list.filters;
  if (p.flags.has("merged")) filters.state = "merged";
  else if (p.flags.has("state")) filters.state = f.state;
  filters.labels = [...(filters.labels ?? []), ...f.labels];
  for (const k of ["author", "assignee", "milestone"] as const) {
    if (!f[k]) continue;
    // Flag and query qualifier both reach GitHub: two different values are not one.
    if (filters[k] && filters[k].toLowerCase() !== f[k].toLowerCase()) return null;
    filters[k] = f[k];
  }
  return listingAddress(repo.owner, repo.repo, read.kind ?? kind, filters, list.limit);
}

/** `gh repo view [OWNER/REPO | REPO | URL]`. */
function repoViewed(
  args: string[],
  opaque: ReadonlySet<number>,
  cmd: ShellCommand,
  ctx: ParseContext,
): Address | null {
  const p = parseFlags(args, REPO_VIEW, opaque);
  if (!p || p.flags.has("help") || p.positional.length > 1) return null;
  const arg = p.positional[0];
  let repo: Repo | null;
  if (arg === undefined) repo = targetRepo(null, cmd, ctx);
  else if (!arg.includes("/")) {
    // A bare name is the authenticated user's repository.
    repo = ctx.githubLogin && ghHost(cmd) === GITHUB && isRepoName(ctx.githubLogin, arg)
      ? { owner: ctx.githubLogin, repo: arg }
      : null;
  } else repo = repoSpec(arg, ghHost(cmd));
  return repo && repositoryAddress(repo.owner, repo.repo);
}

/** `gh api [flags] ENDPOINT` with method GET. */
function apiRead(
  args: string[],
  opaque: ReadonlySet<number>,
  cmd: ShellCommand,
  ctx: ParseContext,
): Address | null {
  const p = parseFlags(args, API, opaque);
  if (!p || p.flags.has("help") || p.positional.length !== 1) return null;
  // `--hostname`, else `GH_HOST`, picks the host of every endpoint.
  const host = last(p, "hostname")?.toLowerCase() ?? ghHost(cmd);
  if (host !== GITHUB) return null;
  const fields = p.flags.get("field") ?? [];
  const method = last(p, "method")?.toUpperCase() ??
    (fields.length || p.flags.has("input") ? "POST" : "GET");
  if (method !== "GET") return null;
  let endpoint = p.positional[0];
  if (/[{:](owner|repo)\b/.test(endpoint)) {
    const repo = targetRepo(p, cmd, ctx);
    if (!repo) return null;
    endpoint = endpoint.replace(/\{owner\}|:owner\b/g, repo.owner).replace(
      /\{repo\}|:repo\b/g,
      repo.repo,
    );
  }
  if (endpoint.includes("{")) return null; // {branch} and other placeholders
  let path = endpoint, query = "";
  if (/^https?:\/\//i.test(endpoint)) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return null;
    }
    if (url.hostname.toLowerCase() !== "api.github.com") return null;
    path = url.pathname;
    query = url.search.slice(1);
  } else {
    const qm = endpoint.indexOf("?");
    if (qm >= 0) [path, query] = [endpoint.slice(0, qm), endpoint.slice(qm + 1)];
  }
  const params = new URLSearchParams(query);
  for (const f of fields) {
    const eq = f.indexOf("=");
    if (eq <= 0) return null;
    params.append(f.slice(0, eq), f.slice(eq + 1));
  }
  return fromRestPath(path, params, { paginate: p.flags.has("paginate"), login: ctx.githubLogin });
}

/**
 * What a `gh` command reads.
 *
 * @example
 * ```ts
 * fromGh({ argv: ["gh", "issue", "view", "5", "-R", "o/r"], env: {}, cwd: null }, ctx); // [item github:o/r#5]
 * ```
 */
export function fromGh(cmd: ShellCommand, ctx: ParseContext): Address[] {
  const [, group, sub, ...args] = cmd.argv;
  // gh's own words (the command group and subcommand) must be literal.
  if (cmd.opaque?.has(1) || cmd.opaque?.has(2)) return [];
  const opaque = opaqueFrom(cmd.opaque, 3);
  let a: Address | null = null;
  if (group === "issue" || group === "pr") {
    const kind: ListingKind = group === "issue" ? "issues" : "pulls";
    if (sub === "view") {
      const p = parseFlags(args, VIEW, opaque);
      a = p && viewed(p, cmd, ctx);
    } else if (sub === "diff" && group === "pr") {
      const p = parseFlags(args, DIFF, opaque);
      a = p && viewed(p, cmd, ctx);
    } else if (sub === "list" || sub === "ls") {
      const p = parseFlags(args, kind === "issues" ? ISSUE_LIST : PR_LIST, opaque);
      a = p && listed(kind, p, ctx, targetRepo(p, cmd, ctx));
    }
  } else if (group === "search" && (sub === "issues" || sub === "prs")) {
    const p = parseFlags(args, sub === "issues" ? SEARCH_ISSUES : SEARCH_PRS, opaque);
    a = p && searched(sub === "issues" ? "issues" : "pulls", p, cmd, ctx);
  } else if (group === "repo" && sub === "view") a = repoViewed(args, opaque, cmd, ctx);
  else if (group === "api" && sub !== undefined) {
    // The endpoint is `sub` here: its index is 2, one before the flags'.
    a = apiRead([sub, ...args], opaqueFrom(cmd.opaque, 2), cmd, ctx);
  }
  return a ? [a] : [];
}
