/**
 * `rgraph serve-mcp` with a shared graph store that is down: a real MCP
 * client over stdio still gets the tool, and every call says the shared store
 * is unreachable instead of the server exiting.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rgraphCommand, type Sandbox, sandbox } from "./helpers.ts";

/** A Bolt URL where nothing listens: a port that was bound and released. */
function closedBoltUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `bolt://127.0.0.1:${port}`;
}

async function pointAtDownServer(sb: Sandbox, userId: string | null): Promise<string> {
  const url = closedBoltUrl();
  const identity = userId === null ? "" : `[identity]\nuser_id = ${JSON.stringify(userId)}\n\n`;
  await sb.writeConfig(
    `${identity}[store]\npath = ${JSON.stringify(sb.dbPath)}\nurl = ${JSON.stringify(url)}\n`,
  );
  return url;
}

async function ask(client: Client, address: string): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name: "resource", arguments: { address } });
  const content = r.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  return { text: content[0].text, isError: r.isError === true };
}

Deno.test("serve-mcp with the shared store down starts, lists the tool and says the store is unreachable", async () => {
  const sb = await sandbox();
  const url = await pointAtDownServer(sb, "alice");
  const { command, args } = rgraphCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...args, "serve-mcp"],
    env: sb.env,
    cwd: sb.dir,
    stderr: "pipe",
  });
  let stderr = "";
  // A Node stream, available before start when stderr is piped.
  transport.stderr?.on(
    "data",
    (chunk: Uint8Array) => void (stderr += new TextDecoder().decode(chunk)),
  );
  const client = new Client({ name: "rgraph-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t: { name: string }) => t.name), ["resource"]);

    const first = await ask(client, "memgraph/memgraph#1");
    assert.equal(first.isError, true);
    assert.equal(
      first.text,
      `rgraph: the shared store is unreachable (${url}: connection refused), so memory cannot be ` +
        "read right now; fetch it normally. What your agents fetch meanwhile is not lost: it waits " +
        "in the local outbox until the store is back.",
    );
    // Later calls (inside the retry backoff, and a listing) get the same clear answer.
    for (
      const address of [
        "memgraph/memgraph#2",
        "https://github.com/memgraph/memgraph/issues?q=label:bug",
      ]
    ) {
      const again = await ask(client, address);
      assert.equal(again.isError, true);
      assert.match(
        again.text,
        /^rgraph: the shared store is unreachable \(.*\).*fetch it normally/,
      );
    }
    // An address that cannot be understood is still reported as such: it never needed the store.
    const bad = await ask(client, "not an address at all");
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^rgraph: not an address: /);

    // Still serving after all that.
    assert.equal((await client.listTools()).tools.length, 1);
  } finally {
    await client.close();
    await sb.cleanup();
  }
  assert.equal(stderr, "", "nothing crashed on the server side");
});

Deno.test("serve-mcp with a shared store but no identity still refuses to start, with one line", async () => {
  const sb = await sandbox({ userId: null });
  try {
    await pointAtDownServer(sb, null);
    const r = await sb.rgraph(["serve-mcp"], { stdin: "" });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^rgraph serve-mcp: no identity configured: set \[identity\] user_id in .*\n$/,
    );
  } finally {
    await sb.cleanup();
  }
});
