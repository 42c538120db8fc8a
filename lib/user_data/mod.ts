/**
 * User data: what a user reads back of their own private records and takes back — `rgraph
 * touches`, `rgraph stats` (what memory saved you) and `rgraph forget`. May import store, config,
 * capture and serve; never another user's records.
 *
 * @example
 * ```ts
 * import { formatStats, statsReport } from "./mod.ts";
 * console.log(formatStats(await statsReport(store, "alice")));
 * ```
 * @module
 */

export { formatStats, type StatsReport, statsReport } from "./stats.ts";
export {
  readText,
  statusText,
  touchJson,
  TouchJsonPages,
  touchTable,
  TouchTablePages,
} from "./touches.ts";
export { forget, forgetJson, type ForgetReport, formatForget } from "./forget.ts";
