/**
 * How rgraph says when something happened, in the Nudge and in answers.
 *
 * @example
 * ```ts
 * import { ago } from "./time.ts";
 * ago("2026-11-30T12:00:00Z", new Date("2026-12-01T12:00:00Z")); // "24h ago"
 * ```
 * @module
 */

/**
 * A short relative age: `just now`, `5m ago`, `2h ago`, `3d ago`, `4mo ago`,
 * `2y ago`. Times in the future (clock skew) read as `just now`.
 */
export function ago(iso: string, now: Date): string {
  const ms = now.getTime() - Date.parse(iso);
  if (!Number.isFinite(ms)) return "at an unknown time";
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min}m ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h}h ago`;
  const d = Math.floor(h / 24);
  if (d < 60) return `${d}d ago`;
  if (d < 730) return `${Math.floor(d / 30)}mo ago`;
  return `${Math.floor(d / 365)}y ago`;
}
