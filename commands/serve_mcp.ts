/**
 * `rgraph serve-mcp [--plugin]`: the `resource` MCP tool over stdio. Identity
 * and store come from the config file only (with `--plugin`, the server of
 * rgraph's harness plugins, it first writes one when there is none, as their
 * session start does); a tool argument can never choose whose Touches are
 * written or which store is read. With `[sweep] auto` on (the
 * default) it also starts Sweeps in the background as Touches arrive.
 *
 * @module
 */

import { parseCommand } from "../lib/cli.ts";
import { loadConfig } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { serveMcp } from "../lib/serve/mod.ts";
import { invocation } from "../lib/invocation.ts";

const SPEC = {
  name: "serve-mcp",
  summary: "Serve the `resource` MCP tool over stdio (started by a harness, not by hand)",
  usage: "rgraph serve-mcp [--plugin]",
  options: {
    plugin: {
      type: "boolean",
      help: "started by rgraph's harness plugin: writes the first config when there is none",
    },
  },
  examples: [
    {
      does: "the MCP server on stdio, as a harness starts it (an MCP client speaks to it)",
      run: "rgraph serve-mcp",
    },
  ],
} as const;

/** Runs the MCP server until the client closes stdin. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  if (parsed.positionals.length > 0) {
    throw new UsageError("rgraph serve-mcp: takes no arguments (see 'rgraph serve-mcp --help')");
  }
  // A plugin's first session: the harness may start this server before the session-start hook that
  // writes the first config (Codex does), and a server without an identity offers no tool that whole
  // session; so it writes it the same way, and whichever comes first stands.
  if (parsed.values.plugin) {
    const { writeFirstConfig } = await import("../lib/install/mod.ts");
    writeFirstConfig();
  }
  // Background Sweeps start this same rgraph again, in processes of their own.
  const rgraph = invocation({
    execPath: Deno.execPath(),
    mainUrl: new URL("../main.ts", import.meta.url).href,
  });
  await serveMcp(loadConfig(), { rgraph: rgraph.argv });
  return 0;
}
