/**
 * The I/O edge of `gh`-without-`-R` parsing: which GitHub repository a
 * directory belongs to, read from its git config files. No subprocess (the
 * hook must stay fast) and no network.
 *
 * @module
 */

import { githubRepoOfRemote, originUrl } from "../address/mod.ts";

// Path arithmetic by hand, not node:path: loading it costs the hook ~10 ms of
// start-up per tool call. Windows separators are read as `/`, which Deno's
// file APIs accept.
const DRIVE = /^[A-Za-z]:\//;
const slashes = (p: string) => p.replaceAll("\\", "/");
const isAbsolute = (p: string) => slashes(p).startsWith("/") || DRIVE.test(slashes(p));

/** `rel` resolved against `base` (itself against the process's directory), normalised. */
function resolve(base: string, rel = "."): string {
  const b = slashes(base), r = slashes(rel);
  const full = isAbsolute(r) ? r : `${isAbsolute(b) ? b : `${slashes(Deno.cwd())}/${b}`}/${r}`;
  const root = DRIVE.exec(full)?.[0] ?? "/";
  const out: string[] = [];
  for (const seg of full.slice(root.length).split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "" && seg !== ".") out.push(seg);
  }
  return root + out.join("/");
}

const join = resolve;

function dirname(path: string): string {
  const p = resolve(path);
  const root = DRIVE.exec(p)?.[0] ?? "/";
  const i = p.lastIndexOf("/");
  return i < root.length ? root : p.slice(0, i);
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean | null {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return null;
  }
}

/** The git directory of the repository containing `dir` (walking up), or null. */
function gitDir(dir: string): string | null {
  let d = resolve(dir);
  for (;;) {
    const dotGit = join(d, ".git");
    const kind = isDirectory(dotGit);
    if (kind === true) return dotGit;
    if (kind === false) {
      // Worktrees and submodules: `.git` is a file `gitdir: <path>`.
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "");
      if (m) return isAbsolute(m[1]) ? m[1] : resolve(d, m[1]);
      return null;
    }
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
}

/**
 * The github.com repository of `cwd`'s `origin` remote, or null (no
 * repository, no origin, another host, unreadable files).
 *
 * @example
 * ```ts
 * readGitRemote("/work/main/lib"); // { owner: "memgraph", repo: "rgraph" } when origin is on github.com
 * ```
 */
export function readGitRemote(cwd: string): { owner: string; repo: string } | null {
  try {
    const dir = gitDir(cwd);
    if (dir === null) return null;
    // A linked worktree keeps its config in the common directory.
    const common = readText(join(dir, "commondir"))?.trim();
    const configDir = common ? (isAbsolute(common) ? common : resolve(dir, common)) : dir;
    const url = originUrl(readText(join(configDir, "config")) ?? "");
    return url === null ? null : githubRepoOfRemote(url);
  } catch {
    return null;
  }
}
