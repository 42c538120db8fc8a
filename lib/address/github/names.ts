/**
 * Which GitHub path segments can be an owner or repository. GitHub's own
 * site pages live at top-level paths that look like owners (`/orgs/…`,
 * `/features/…`); they are not Resources.
 *
 * @module
 */

import { isValidName } from "../key.ts";

/** The public GitHub host, the only one whose Resources are recorded. */
export const GITHUB = "github.com";

/** First path segments of github.com that are site pages, not owners. */
const RESERVED_OWNERS = new Set([
  "about",
  "account",
  "apps",
  "blog",
  "codespaces",
  "collections",
  "contact",
  "customer-stories",
  "dashboard",
  "enterprise",
  "enterprises",
  "events",
  "explore",
  "features",
  "github-copilot",
  "issues",
  "join",
  "login",
  "logout",
  "marketplace",
  "new",
  "notifications",
  "orgs",
  "organizations",
  "pricing",
  "pulls",
  "readme",
  "search",
  "security",
  "sessions",
  "settings",
  "signup",
  "site",
  "sponsors",
  "stars",
  "team",
  "topics",
  "trending",
  "users",
  "watching",
]);

/**
 * A login as a shared key may hold it. `@me` (GitHub's "the viewer") would
 * mean someone else to each reader, so it becomes the configured login, and
 * with no login configured there is nothing to record (null).
 *
 * @example
 * ```ts
 * resolveLogin("@Me", "alice"); // "alice"
 * resolveLogin("@me", null); // null
 * resolveLogin("octocat", null); // "octocat"
 * ```
 */
export function resolveLogin(value: string, login: string | null): string | null {
  return value.trim().toLowerCase() === "@me" ? login : value;
}

/** The largest issue number or limit: GitHub's GraphQL `Int` is 32-bit, so nothing larger can be asked for. */
export const MAX_NUMBER = 2_147_483_647;

/**
 * An issue or pull request number, or a count such as a limit: a whole
 * number from 1 to {@link MAX_NUMBER}, given as a number or as decimal
 * digits; null otherwise.
 *
 * @example
 * ```ts
 * countOf("500"); // 500
 * countOf("99999999999999999999"); // null
 * countOf(1.5); // null
 * ```
 */
export function countOf(v: unknown): number | null {
  const n = typeof v === "number"
    ? v
    : typeof v === "string" && /^\d{1,10}$/.test(v)
    ? Number(v)
    : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_NUMBER ? n : null;
}

/** True when `owner`/`repo` can name a GitHub repository. */
export function isRepoName(owner: string, repo: string): boolean {
  return isValidName(owner) && isValidName(repo) && !RESERVED_OWNERS.has(owner.toLowerCase()) &&
    !owner.startsWith(".") && !repo.endsWith(".git");
}

/**
 * `OWNER/REPO`, `HOST/OWNER/REPO` (github.com only) or a github.com URL, as a
 * repository; null otherwise. A spec without a host lives on `host` (gh's
 * `GH_HOST`; null when unknown), so it names a github.com repository only
 * when that is github.com.
 *
 * @example
 * ```ts
 * repoSpec("o/r"); // { owner: "o", repo: "r" }
 * repoSpec("o/r", "ghe.corp.com"); // null
 * repoSpec("github.com/o/r", "ghe.corp.com"); // { owner: "o", repo: "r" }
 * ```
 */
export function repoSpec(
  spec: string,
  host: string | null = GITHUB,
): { owner: string; repo: string } | null {
  let s = spec.trim();
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.slice(scheme + 3);
  s = s.replace(/\/+$/, "");
  const parts = s.split("/");
  if (parts.length === 3) {
    if (parts[0].toLowerCase() !== GITHUB && parts[0].toLowerCase() !== "www.github.com") {
      return null;
    }
    parts.shift();
  } else if (host !== GITHUB) return null;
  if (parts.length !== 2) return null;
  const [owner, repo] = [parts[0], parts[1].replace(/\.git$/, "")];
  return isRepoName(owner, repo) ? { owner, repo } : null;
}
