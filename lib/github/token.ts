/**
 * Where the GitHub token comes from: `[github] token` in the config file,
 * else `gh auth token` for the configured host when the `gh` CLI is logged
 * in. The token lives only in memory: never printed, logged or stored (error
 * messages pass through `scrub`).
 *
 * @example
 * ```ts
 * import { resolveToken } from "./token.ts";
 * const token = await resolveToken(config.github); // null → anonymous REST
 * ```
 * @module
 */

import { registerSecret } from "../errors.ts";
import { which } from "../host/mod.ts";

/** The `[github]` section of the config. */
export interface GithubConfig {
  token: string | null;
  api_url: string;
  graphql_url: string;
}

/** The host `gh` knows the API by: `github.com` for api.github.com, else the API's host (GHES). */
export function ghHost(apiUrl: string): string | null {
  try {
    const host = new URL(apiUrl).hostname;
    return host === "api.github.com" ? "github.com" : host;
  } catch {
    return null;
  }
}

/**
 * The token to use, or `null` for anonymous access. `gh` is asked only about
 * the configured host, so a github.com login is never sent to another server.
 */
export async function resolveToken(github: GithubConfig): Promise<string | null> {
  if (github.token) return github.token;
  const host = ghHost(github.api_url);
  if (!host) return null;
  // Only from an absolute PATH entry: a relative one (`.`) would run the working directory's ./gh.
  const gh = which("gh");
  if (gh === null) return null;
  try {
    const out = await new Deno.Command(gh, {
      args: ["auth", "token", "--hostname", host],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const token = new TextDecoder().decode(out.stdout).trim();
    if (!out.success || token === "") return null;
    registerSecret(token);
    return token;
  } catch {
    return null; // gh is not installed or may not run: anonymous
  }
}
