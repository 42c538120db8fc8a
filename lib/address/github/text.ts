/**
 * GitHub Addresses mentioned in prose: URLs and `owner/repo#N` short
 * references.
 *
 * A short reference must start at a word boundary — not after `/`, `.`, `@`,
 * `:`, `#`, `-` or a letter or digit of any script — so `./src/foo#3`, `a.b/c#3` and
 * `x/src/foo#3` are paths, not references. An owner spelled like a common
 * source directory (`src/foo#3`, `docs/api#2`) is read as a path too: a
 * real account named `src` loses its short form in prompts (its URLs still
 * count), which is cheaper than recording reads of repositories that do not
 * exist.
 *
 * @module
 */

import { itemAddress, repositoryAddress } from "../key.ts";
import type { Address } from "../../types.ts";
import { scanUrls } from "../text.ts";
import { countOf, isRepoName } from "./names.ts";
import { fromGithubUrl } from "./url.ts";

let shortRefPattern: RegExp | undefined;

/**
 * `owner/repo#N`, where any letter, digit or combining mark in any script
 * counts as part of a word (`ÜBER/repo#3` is no `ber/repo#3`). Built on first
 * use: V8 takes over half a millisecond to build a pattern of Unicode
 * classes, which a module constant would add to every hook's start-up,
 * though most calls never scan free text.
 */
function shortRef(): RegExp {
  return shortRefPattern ??=
    /(?<![\p{L}\p{N}\p{M}_./@:#-])([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9_.-]{1,100})#([1-9]\d{0,9})(?![\p{L}\p{N}\p{M}_])/gu;
}

/** Owners that are far more often a directory in a path. */
const PATH_LIKE = new Set([
  "api",
  "app",
  "apps",
  "assets",
  "bin",
  "build",
  "client",
  "cmd",
  "common",
  "components",
  "config",
  "core",
  "crates",
  "data",
  "dist",
  "doc",
  "docs",
  "etc",
  "example",
  "examples",
  "fixtures",
  "home",
  "include",
  "internal",
  "lib",
  "libs",
  "modules",
  "node_modules",
  "opt",
  "out",
  "package",
  "packages",
  "pkg",
  "public",
  "script",
  "scripts",
  "server",
  "shared",
  "spec",
  "specs",
  "src",
  "static",
  "test",
  "tests",
  "tmp",
  "tools",
  "usr",
  "util",
  "utils",
  "var",
  "vendor",
]);

/** `owner/repo#N` references in text with their positions. */
function shortRefs(text: string): { address: Address; at: number }[] {
  const out: { address: Address; at: number }[] = [];
  for (const m of text.matchAll(shortRef())) {
    const [, owner, repo, digits] = m;
    const n = countOf(digits);
    if (
      n === null || PATH_LIKE.has(owner.toLowerCase()) || !isRepoName(owner, repo) ||
      repo.endsWith(".")
    ) {
      continue;
    }
    out.push({ address: itemAddress(owner, repo, n), at: m.index });
  }
  return out;
}

/**
 * GitHub Addresses in prose, in order of appearance, each once.
 *
 * @example
 * ```ts
 * fromGithubText("Fix memgraph/memgraph#123 (see https://github.com/o/r/pull/4).", null).map((a) => a.key);
 * // ["github:memgraph/memgraph#123", "github:o/r#4"]
 * ```
 */
export function fromGithubText(text: string, login: string | null): Address[] {
  const found: { address: Address; at: number }[] = shortRefs(text);
  for (const { url, at } of scanUrls(text)) {
    const address = fromGithubUrl(url, login);
    if (address) found.push({ address, at });
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return found.map((f) => f.address).filter((a) => !seen.has(a.key) && !!seen.add(a.key));
}

/** `owner/repo#N` or `owner/repo`, exactly (as a person types it to name one thing). */
export function fromShortForm(text: string): Address | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9_.-]{1,100})(?:#([1-9]\d{0,9}))?$/.exec(
    text,
  );
  if (!m || !isRepoName(m[1], m[2])) return null;
  if (m[3] === undefined) return repositoryAddress(m[1], m[2]);
  const n = countOf(m[3]);
  return n === null ? null : itemAddress(m[1], m[2], n);
}
