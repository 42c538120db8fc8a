/**
 * A real MCP client (the SDK's) for the tests: connected over stdio to a
 * fresh `rgraph serve-mcp` process of a sandbox.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rgraphCommand, type Sandbox } from "./helpers.ts";

/** A connected MCP client on a fresh `rgraph serve-mcp` of `sb`. */
export async function connect(
  sb: Sandbox,
  name = "rgraph-test",
  env: Record<string, string> = {},
): Promise<Client> {
  const { command, args } = rgraphCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...args, "serve-mcp"],
    env: { ...sb.env, ...env },
    cwd: sb.dir,
    stderr: "pipe",
  });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Calls `resource` and returns its text and error flag. */
export async function ask(
  client: Client,
  address: string,
  page?: number,
  meta?: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({
    name: "resource",
    arguments: page === undefined ? { address } : { address, page },
    ...(meta ? { _meta: meta } : {}),
  });
  const content = r.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0].type, "text");
  return { text: content[0].text, isError: r.isError === true };
}
