/**
 * A stand-in for the GitHub MCP server (github/github-mcp-server) in the
 * real-harness tests: a stdio MCP server named as a user names the real one
 * (`github`), offering its `issue_read` tool — or, given `fetch`, a stand-in
 * for the reference fetch MCP server (`fetch`, tool `fetch`). What matters is
 * that the harness presents the tool under its own naming and runs its hooks
 * before the call; the answer only says GitHub is out of reach. Needs no
 * permissions.
 *
 * ```sh
 * deno run tests/harness/fake_github_mcp.ts        # github: issue_read
 * deno run tests/harness/fake_github_mcp.ts fetch  # fetch: fetch
 * ```
 *
 * @module
 */

const enc = new TextEncoder();

function send(message: unknown): void {
  Deno.stdout.writeSync(enc.encode(JSON.stringify(message) + "\n"));
}

const ISSUE_READ = {
  name: "issue_read",
  description: "Get information about a specific issue in a GitHub repository.",
  inputSchema: {
    type: "object",
    properties: {
      method: { type: "string", enum: ["get", "get_comments", "get_sub_issues", "get_labels"] },
      owner: { type: "string", description: "Repository owner" },
      repo: { type: "string", description: "Repository name" },
      issue_number: { type: "number", description: "The number of the issue" },
    },
    required: ["method", "owner", "repo", "issue_number"],
  },
};

const FETCH = {
  name: "fetch",
  description: "Fetches a URL from the internet and extracts its contents as markdown.",
  inputSchema: {
    type: "object",
    properties: {
      url: { type: "string", description: "URL to fetch" },
      max_length: { type: "number", description: "Maximum number of characters to return" },
    },
    required: ["url"],
  },
};

/** The tool this server offers. */
const TOOL = Deno.args[0] === "fetch" ? FETCH : ISSUE_READ;

function answer(request: { id?: unknown; method?: string; params?: any }): void {
  if (request.id === undefined) return; // a notification
  const ok = (result: unknown) => send({ jsonrpc: "2.0", id: request.id, result });
  switch (request.method) {
    case "initialize":
      return ok({
        protocolVersion: request.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: {
          name: TOOL === FETCH ? "mcp-server-fetch" : "github-mcp-server",
          version: "0.0.0-test",
        },
      });
    case "tools/list":
      return ok({ tools: [TOOL] });
    case "tools/call":
      return ok({
        content: [{ type: "text", text: "GitHub is not reachable from the tests." }],
        isError: true,
      });
    case "ping":
      return ok({});
    default:
      send({
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32601, message: `no method ${request.method}` },
      });
  }
}

if (import.meta.main) {
  let buffer = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line === "") continue;
      try {
        answer(JSON.parse(line));
      } catch {
        // not JSON-RPC: ignore, as a server must not die on a bad line
      }
    }
  }
}
