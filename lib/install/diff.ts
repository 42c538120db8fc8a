/**
 * A unified diff of two texts (line based, three lines of context), for
 * `rgraph install --dry-run`.
 *
 * @example
 * ```ts
 * import { unifiedDiff } from "./diff.ts";
 * unifiedDiff("a.json", "{}\n", '{"x": 1}\n');
 * // '--- a/a.json\n+++ b/a.json\n@@ -1 +1 @@\n-{}\n+{"x": 1}\n'
 * ```
 * @module
 */

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string | null): string[] {
  if (text === null || text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The edit script between two line lists (longest common subsequence; config files are small). */
function ops(a: string[], b: string[]): Op[] {
  const n = a.length, m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: Op[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: " ", line: a[i] });
      i++, j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push({ kind: "-", line: a[i++] });
    } else out.push({ kind: "+", line: b[j++] });
  }
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/** The unified diff of `before` → `after` (`null`: the file is absent); empty when equal. */
export function unifiedDiff(
  path: string,
  before: string | null,
  after: string | null,
  context = 3,
): string {
  if (before === after) return "";
  const script = ops(splitLines(before), splitLines(after));
  const changed = script.flatMap((o, k) => (o.kind === " " ? [] : [k]));
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const lo = Math.max(0, k - context), hi = Math.min(script.length, k + context + 1);
    const last = hunks.at(-1);
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else hunks.push([lo, hi]);
  }
  // Paths outside the project (rgraph's own config) are shown whole, without a/ b/.
  const label = (side: string) => path.startsWith("/") ? path : `${side}/${path}`;
  const out = [
    `--- ${before === null ? "/dev/null" : label("a")}`,
    `+++ ${after === null ? "/dev/null" : label("b")}`,
  ];
  for (const [lo, hi] of hunks) {
    const aStart = script.slice(0, lo).filter((o) => o.kind !== "+").length + 1;
    const bStart = script.slice(0, lo).filter((o) => o.kind !== "-").length + 1;
    const body = script.slice(lo, hi);
    const aCount = body.filter((o) => o.kind !== "+").length;
    const bCount = body.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@`);
    for (const o of body) out.push(o.kind + o.line);
  }
  return out.join("\n") + "\n";
}
