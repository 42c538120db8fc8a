/**
 * Finding URLs in free text (prompts, a web fetch's prompt): `https://…`
 * anywhere, and scheme-less `github.com/…` after a boundary, with Markdown and
 * prose punctuation around them stripped.
 *
 * @module
 */

/** Characters that end a URL in prose. */
const URL_END = /[\s<>"'`\\|^{}[\]]/;
const CLOSERS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/** Strips trailing punctuation and closing brackets that the URL does not itself open. */
function trimUrl(url: string): string {
  const balance: Record<string, number> = { ")": 0, "]": 0, "}": 0, ">": 0 };
  for (const c of url) {
    if (c in balance) balance[c]++;
    else if (c === "(" || c === "[" || c === "{" || c === "<") balance[CLOSERS[c]]--;
  }
  let end = url.length;
  while (end > 0) {
    const c = url[end - 1];
    if (".,;:!?*_~".includes(c)) end--;
    else if (c in balance && balance[c] > 0) {
      balance[c]--;
      end--;
    } else break;
  }
  return url.slice(0, end);
}

/**
 * URLs in text, in order of appearance (duplicates kept). Scheme-less
 * `github.com/…` and `www.github.com/…` get `https://`.
 *
 * @example
 * ```ts
 * urlsInText("see [#5](https://github.com/o/r/issues/5), and github.com/o/r.");
 * // ["https://github.com/o/r/issues/5", "https://github.com/o/r"]
 * ```
 */
export function urlsInText(text: string): string[] {
  return scanUrls(text).map((u) => u.url);
}

/** URLs in text with the index each starts at. */
export function scanUrls(text: string): { url: string; at: number }[] {
  const out: { url: string; at: number }[] = [];
  const lower = text.toLowerCase();
  let i = 0;
  while (i < text.length) {
    const http = lower.indexOf("http", i);
    const bare = lower.indexOf("github.com/", i);
    if (http < 0 && bare < 0) break;
    const useHttp = http >= 0 && (bare < 0 || http <= bare);
    let start = useHttp ? http : bare;
    let prefix = "";
    if (useHttp) {
      if (!lower.startsWith("http://", start) && !lower.startsWith("https://", start)) {
        i = start + 4;
        continue;
      }
    } else {
      // Scheme-less: only at a word boundary, optionally after `www.`.
      if (lower.startsWith("www.", start - 4)) start -= 4;
      const before = text[start - 1];
      if (before !== undefined && /[\p{L}\p{N}\p{M}_.\/@:-]/u.test(before)) {
        i = bare + 11;
        continue;
      }
      prefix = "https://";
    }
    let end = start;
    while (end < text.length && !URL_END.test(text[end])) end++;
    const url = trimUrl(text.slice(start, end));
    if (url.length > prefix.length + 8) out.push({ url: prefix + url, at: start });
    i = Math.max(end, start + 1);
  }
  return out;
}
