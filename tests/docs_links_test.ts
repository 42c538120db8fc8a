/**
 * The documentation's links hold: every relative link and image in README.md,
 * CONTEXT.md, SECURITY.md and `docs/` names a file that exists, and every
 * `#anchor` a heading of that file (as GitHub writes heading anchors). A
 * moved section or a renamed heading fails here, not in a reader's browser.
 *
 * @module
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** The Markdown files a reader follows links through. */
function documents(): string[] {
  const docs = [...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`);
  return ["README.md", "CONTEXT.md", "SECURITY.md", ...docs.sort()];
}

/** The text outside fenced code blocks, line by line (a `# comment` in a TOML block is no heading). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) out.push(line);
  }
  return out;
}

/**
 * GitHub's anchor for a heading: lower case, everything but letters, digits,
 * spaces, `_` and `-` dropped, spaces as `-`; a repeated heading gets `-1`, `-2`….
 */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1].toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target in the prose (inline code left out: `[x](y)` there is an example). */
function links(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push(m[1]);
    }
  }
  return out;
}

/** The problem with one link from `from`, or null when it resolves. */
function broken(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not checked offline
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const here = new URL(from, ROOT);
  const abs = decodeURIComponent((path === "" ? here : new URL(path, here)).pathname);
  let text: string | null = null;
  try {
    const info = Deno.statSync(abs);
    if (info.isFile && abs.endsWith(".md")) text = Deno.readTextFileSync(abs);
  } catch {
    return `${target}: no such file`;
  }
  if (anchor === undefined || anchor === "") return null;
  if (text === null) return `${target}: an anchor into a file that is not Markdown`;
  return anchors(text).has(decodeURIComponent(anchor)) ? null : `${target}: no such heading`;
}

Deno.test("anchors are GitHub's: punctuation and code marks dropped, repeats numbered", () => {
  const got = anchors(
    "# rgraph — memory\n## Seeing memory: `rgraph view`\n## Notes\n## Notes\n```toml\n# not = 1\n```\n",
  );
  assert.deepEqual([...got], ["rgraph--memory", "seeing-memory-rgraph-view", "notes", "notes-1"]);
});

Deno.test("every relative link and anchor in README.md, CONTEXT.md, SECURITY.md and docs/ resolves", () => {
  const problems: string[] = [];
  let checked = 0;
  for (const doc of documents()) {
    const text = Deno.readTextFileSync(new URL(doc, ROOT));
    for (const target of links(text)) {
      checked++;
      const why = broken(doc, target);
      if (why) problems.push(`${doc}: ${why}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(checked > 20, `only ${checked} links found: the link reader is broken`);
});

Deno.test("a broken link and a missing anchor are caught", () => {
  assert.match(broken("README.md", "docs/no-such-file.md") ?? "", /no such file/);
  assert.match(broken("README.md", "CONTEXT.md#no-such-heading") ?? "", /no such heading/);
  assert.equal(broken("README.md", "CONTEXT.md#rgraph-glossary"), null);
  assert.equal(broken("docs/view.md", "../README.md"), null);
});
