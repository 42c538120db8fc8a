/**
 * How answers are cut into pages that fit a model (pure). A page is bounded
 * by size, whatever the comments hold: at most {@link PAGE_TOKENS} estimated
 * tokens, estimated at {@link BYTES_PER_TOKEN} bytes of UTF-8 a token. Blocks
 * (a body, each comment, a file list, a README) are packed in order; one too
 * big for a page is split into parts, never cut short. The packing depends
 * only on the stored content, so a stored version's page numbers are stable.
 *
 * @example
 * ```ts
 * import { packPages } from "./pages.ts";
 * const pages = packPages([{ key: "body", wrapBytes: 80, text: body }], {});
 * pages.length; // 1 for a short body; a 200,000-character body needs several
 * ```
 * @module
 */

/**
 * A page's budget in estimated tokens: under Claude Code's 25,000-token
 * limit for one tool result (the tightest of the harnesses), with a margin.
 */
export const PAGE_TOKENS = 20_000;

/**
 * The estimate: 2 bytes of UTF-8 a token. Conservative for every script:
 * English prose runs near 4 bytes a token, code near 3, the GitHub threads
 * measured for this budget at 2.7 characters a token; a CJK character is 3
 * bytes and about one token.
 */
export const BYTES_PER_TOKEN = 2;

/** A page's bound in bytes of UTF-8. */
export const PAGE_BYTES = PAGE_TOKENS * BYTES_PER_TOKEN;

/** The smallest part worth starting at the end of a page; with less room left it starts on the next. */
const MIN_PART_BYTES = 2_000;

/** The length of `text` in UTF-8, without encoding it. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** The tokens `text` is estimated to take (see {@link BYTES_PER_TOKEN}). */
export function estimatedTokens(text: string): number {
  return Math.ceil(utf8Bytes(text) / BYTES_PER_TOKEN);
}

/**
 * Splits `text` into a head of at most `max` bytes (at least one character)
 * and the rest: after the last line break in the second half of the room,
 * else after the last space there, else at the last whole character. Never
 * inside a surrogate pair, and nothing is lost: head + rest === text.
 */
export function cut(text: string, max: number): [string, string] {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    const pair = c >= 0xd800 && c <= 0xdbff && end + 1 < text.length &&
      text.charCodeAt(end + 1) >= 0xdc00 && text.charCodeAt(end + 1) <= 0xdfff;
    const width = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + width > max) break;
    bytes += width;
    end += pair ? 2 : 1;
  }
  if (end >= text.length) return [text, ""];
  if (end === 0) end = text.codePointAt(0)! > 0xffff ? 2 : 1;
  const half = Math.floor(end / 2);
  for (const mark of ["\n", " "]) {
    const at = text.lastIndexOf(mark, end - 1);
    if (at >= half) return [text.slice(0, at + 1), text.slice(at + 1)];
  }
  return [text.slice(0, end), text.slice(end)];
}

/** A block of an answer to be packed into pages. */
export interface Block<K> {
  /** What the block is (the renderer's own tag). */
  key: K;
  /** The most its wrapper (heading line, fence markers) takes around any part of its text. */
  wrapBytes: number;
  text: string;
}

/** One block, or one part of a split block, as placed on a page. */
export interface Piece<K> {
  key: K;
  text: string;
  /** 1-based; `parts` is 1 for a block placed whole. */
  part: number;
  parts: number;
}

/** How pages are packed. */
export interface PackOptions {
  /** Each page's room in bytes for blocks. */
  pageBytes: number;
  /** Room the first page gives to content that is not a block (an item's title and labels). */
  firstBytes?: number;
}

/**
 * Packs `blocks` into pages, in order. A block goes whole on the current
 * page if it fits, else whole on a new page if it fits one; only a block
 * bigger than a page is split, its first part filling the current page.
 * Always at least one page.
 */
export function packPages<K>(blocks: Block<K>[], options: PackOptions): Piece<K>[][] {
  const { pageBytes } = options;
  const pages: Piece<K>[][] = [[]];
  let room = pageBytes - (options.firstBytes ?? 0);
  const newPage = () => {
    pages.push([]);
    room = pageBytes;
  };
  const place = (piece: Piece<K>, bytes: number) => {
    pages[pages.length - 1].push(piece);
    room -= bytes;
  };
  for (const block of blocks) {
    const size = block.wrapBytes + utf8Bytes(block.text);
    const started = pages[pages.length - 1].length > 0;
    if (size > room && size <= pageBytes && started) newPage();
    if (size <= room) {
      place({ key: block.key, text: block.text, part: 1, parts: 1 }, size);
      continue;
    }
    const parts: Piece<K>[] = [];
    let rest = block.text;
    while (rest !== "") {
      if (room - block.wrapBytes < MIN_PART_BYTES && pages[pages.length - 1].length > 0) {
        newPage();
      }
      const [head, tail] = cut(rest, Math.max(1, room - block.wrapBytes));
      const piece = { key: block.key, text: head, part: parts.length + 1, parts: 0 };
      parts.push(piece);
      place(piece, block.wrapBytes + utf8Bytes(head));
      rest = tail;
    }
    for (const p of parts) p.parts = parts.length;
  }
  return pages;
}
