/**
 * The GitHub platform adapter: `gh`, github.com / api.github.com URLs, the
 * GitHub MCP server's tools and `owner/repo#N` references.
 *
 * @module
 */

import type { PlatformAdapter } from "../platform.ts";
import { parseKey } from "../key.ts";
import { commandName } from "../shell.ts";
import { fromGh } from "./gh.ts";
import { fromMcpTool } from "./mcp.ts";
import { fromGithubText, fromShortForm } from "./text.ts";
import { fromGithubUrl } from "./url.ts";

/** GitHub, as a {@link PlatformAdapter}. */
export const github: PlatformAdapter = {
  platform: "github",
  fromToolCall(call, ctx) {
    const a = fromMcpTool(call.tool, call.input, ctx.githubLogin);
    return a ? [a] : [];
  },
  fromCommand(command, ctx) {
    return commandName(command.argv[0]) === "gh" ? fromGh(command, ctx) : [];
  },
  fromUrl(url, ctx) {
    return fromGithubUrl(url, ctx.githubLogin);
  },
  fromText(text, ctx) {
    return fromGithubText(text, ctx.githubLogin);
  },
  parseOne(text, ctx) {
    const t = text.trim();
    if (t.startsWith("github:")) return parseKey(t);
    if (/^(https?:\/\/)?(www\.)?(api\.)?github\.com\//i.test(t)) {
      return fromGithubUrl(/^https?:\/\//i.test(t) ? t : `https://${t}`, ctx.githubLogin);
    }
    return fromShortForm(t);
  },
};
export { githubRepoOfRemote, originUrl } from "./remote.ts";
