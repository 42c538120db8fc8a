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

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * A duration written as whole numbers of units — `s`, `m`, `h`, `d`, `w` —
 * such as `30m`, `2h`, `1d` or `1h30m`, in milliseconds; `null` for anything
 * else, and for a duration of zero.
 *
 * @example
 * ```ts
 * parseDuration("1h30m"); // 5400000
 * ```
 */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (!/^(\d+[smhdw])+$/.test(t)) return null;
  let ms = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}
