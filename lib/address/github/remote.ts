/**
 * Reading a git config file's `origin` remote as a GitHub repository. Pure:
 * `lib/capture/git_remote.ts` finds and reads the files.
 *
 * @module
 */

import { repoSpec } from "./names.ts";

/**
 * The `url` of `[remote "origin"]` in git config text, or null.
 *
 * @example
 * ```ts
 * originUrl('[remote "origin"]\n\turl = git@github.com:o/r.git\n'); // "git@github.com:o/r.git"
 * ```
 */
export function originUrl(config: string): string | null {
  let inOrigin = false;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      // `[remote "origin"]`; section names are case-insensitive, subsection names are not.
      const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
      inOrigin = !!m && m[1].toLowerCase() === "remote" && m[2] === "origin";
      continue;
    }
    if (!inOrigin) continue;
    const m = /^url\s*=\s*(.*)$/i.exec(line);
    if (m) {
      let v = m[1].trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
      return v;
    }
  }
  return null;
}

/**
 * The github.com repository a remote URL points at: https, ssh
 * (`git@github.com:o/r.git`, `ssh://git@github.com[:22]/o/r`) and `git://`
 * forms. Null for any other host.
 *
 * @example
 * ```ts
 * githubRepoOfRemote("ssh://git@github.com/Memgraph/memgraph.git"); // { owner: "Memgraph", repo: "memgraph" }
 * ```
 */
export function githubRepoOfRemote(url: string): { owner: string; repo: string } | null {
  const u = url.trim();
  let hostAndPath: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(u);
  if (scheme) {
    if (!["https", "http", "ssh", "git", "git+ssh", "ssh+git"].includes(scheme[1].toLowerCase())) {
      return null;
    }
    // Drop credentials and port: `user:pass@github.com:443/o/r`.
    const rest = scheme[2].replace(/^[^/@]*@/, "");
    const slash = rest.indexOf("/");
    if (slash < 0) return null;
    hostAndPath = rest.slice(0, slash).replace(/:\d*$/, "") + rest.slice(slash);
  } else {
    // scp-like `[user@]host:path`.
    const m = /^(?:[^@/:]+@)?([^/:]+):\/?(.*)$/.exec(u);
    if (!m) return null;
    hostAndPath = `${m[1]}/${m[2]}`;
  }
  const [host, ...path] = hostAndPath.split("/");
  if (host.toLowerCase() !== "github.com" && host.toLowerCase() !== "www.github.com") return null;
  return repoSpec(path.filter((p) => p !== "").join("/"));
}
