/**
 * Serve: the last stage of rgraph's loop. Answers an Address from memory —
 * the `resource` MCP tool and `rgraph lookup` share {@link answer} — with
 * `fetched_at` and GitHub's `updated_at`, subsumes narrower Listings from
 * broader fully expanded ones, fences GitHub text as untrusted data
 * (`render.ts`), and records each answer as a Cache Read.
 *
 * The MCP server (`mcp.ts`, with the MCP SDK behind it) loads only when it
 * is started, so `lookup` and library users never pay for the SDK.
 *
 * @example
 * ```ts
 * import { answer } from "./mod.ts";
 * const a = await answer(store, parseKey("github:o/r#5")!, { userId: "alice", now: new Date() });
 * console.log(a.text); // "rgraph: hit github:o/r#5 …"
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import type { ServeOptions } from "./mcp.ts";

export {
  type Answer,
  answer,
  type AnswerOptions,
  MemberCache,
  notAnAddress,
  parseAsked,
} from "./answer.ts";

export type { ServeOptions } from "./mcp.ts";

/** The pieces every answer page is built from, for any answer that lists members or entries. */
export {
  framePage,
  heading,
  MEMBER_COLUMNS,
  memberRow,
  neutralise,
  oneLine,
  type PageParts,
  rowPages,
  type RowSpan,
} from "./frame.ts";

/** Runs the MCP server on stdio until the client closes stdin (see `mcp.ts`). */
export async function serveMcp(config: Config, options: ServeOptions = {}): Promise<void> {
  const mcp = await import("./mcp.ts");
  await mcp.serveMcp(config, options);
}
