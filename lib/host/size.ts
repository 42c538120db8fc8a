/**
 * How rgraph writes a size on disk, the same in every output (`stats`,
 * `doctor`, the view): bytes below a kilobyte, else one decimal of the
 * largest unit that keeps the number at 1 or more (1024-based).
 *
 * @example
 * ```ts
 * import { formatSize } from "./size.ts";
 * formatSize(147_456); // "144.0 KB"
 * formatSize(null); // "unknown"
 * ```
 * @module
 */

const UNITS = ["KB", "MB", "GB", "TB"] as const;

/** `bytes` as `512 bytes`, `144.0 KB`, `3.2 MB`…; `unknown` for null. */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return "unknown";
  if (bytes < 1024) return `${bytes} bytes`;
  let n = bytes / 1024;
  let unit = 0;
  while (n >= 1024 && unit < UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toFixed(1)} ${UNITS[unit]}`;
}
