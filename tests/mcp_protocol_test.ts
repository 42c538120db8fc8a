/**
 * `rgraph serve-mcp` against a raw JSON-RPC client over stdio (bytes in,
 * lines out — not the SDK): every malformed message gets JSON-RPC's answer
 * with a one-line message, every request with an id gets an answer, an
 * over-long line is refused and the server keeps serving, a huge address is
 * not echoed back, and a client that goes away ends the server with exit 0
 * and nothing on stderr.
 */

import assert from "node:assert/strict";
import { rgraphCommand, type Sandbox, sandbox } from "./helpers.ts";

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A raw client: writes bytes to the server's stdin, reads its stdout line by line. */
class RawClient {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: string[] = [];
  #waiting: (() => void) | null = null;
  readonly #reading: Promise<void>;
  /** The server's stdout itself (not a decoding pipe), so cancelling it closes the pipe at once. */
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #stderr = "";

  constructor(sb: Sandbox) {
    const { command, args } = rgraphCommand();
    this.#child = new Deno.Command(command, {
      args: [...args, "serve-mcp"],
      env: sb.env,
      cwd: sb.dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.getReader();
    this.#reading = this.#read();
    void this.#readStderr(this.#child.stderr);
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    for await (const t of stderr.pipeThrough(new TextDecoderStream())) this.#stderr += t;
  }

  async #read(): Promise<void> {
    let buf = "";
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await this.#reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf("\n")) !== -1) {
          this.#lines.push(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
        this.#waiting?.();
      }
    } catch {
      // Cancelled by the test (a client that stops reading).
    }
    this.#waiting?.();
  }

  /** Writes raw bytes (a line needs its own newline). */
  async write(bytes: string | Uint8Array): Promise<void> {
    await this.#writer.write(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  /** Writes one line. */
  line(text: string): Promise<void> {
    return this.write(`${text}\n`);
  }

  /** The next line the server writes, parsed; fails after `ms`. */
  async next(ms = 15_000): Promise<Answer> {
    const deadline = Date.now() + ms;
    while (this.#lines.length === 0) {
      const left = deadline - Date.now();
      assert.ok(left > 0, "the server answered in time");
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
        setTimeout(resolve, left);
      });
    }
    return JSON.parse(this.#lines.shift()!) as Answer;
  }

  /** Lines not yet read. */
  pending(): number {
    return this.#lines.length;
  }

  async initialize(): Promise<Answer> {
    await this.line(JSON.stringify({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw-test", version: "1" },
      },
    }));
    const a = await this.next();
    await this.line('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return a;
  }

  /** The server still serves: a ping is answered. */
  async alive(id: string): Promise<void> {
    await this.line(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }));
    assert.deepEqual(await this.next(), { jsonrpc: "2.0", id, result: {} });
  }

  /** Stops reading the server's output (its next write finds the pipe closed). */
  async stopReading(): Promise<void> {
    await this.#reader.cancel();
  }

  async closeInput(): Promise<void> {
    await this.#writer.close().catch(() => {});
  }

  /** Waits for the server to exit; its code and what it wrote on stderr. */
  async exit(): Promise<{ code: number; stderr: string }> {
    const status = await this.#child.status;
    await this.#reading;
    return { code: status.code, stderr: this.#stderr };
  }
}

async function withServer(fn: (c: RawClient, sb: Sandbox) => Promise<void>): Promise<void> {
  const sb = await sandbox();
  const c = new RawClient(sb);
  try {
    await fn(c, sb);
  } finally {
    await c.closeInput();
    await c.exit();
    await sb.cleanup();
  }
}

function assertError(a: Answer, id: string | number | null, code: number, message: RegExp) {
  assert.equal(a.jsonrpc, "2.0");
  assert.equal(a.id, id);
  assert.equal(a.result, undefined, JSON.stringify(a));
  assert.equal(a.error?.code, code, JSON.stringify(a));
  assert.match(a.error!.message, message);
  assert.ok(!a.error!.message.includes("\n"), `one line: ${a.error!.message}`);
  assert.ok(a.error!.message.length <= 240, `short: ${a.error!.message}`);
}

/** A `tools/call` request line. */
function call(id: number, params: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
}

Deno.test("malformed messages: -32700, -32600 (id null where unknown), -32602 (malformed params, unknown tool) in one line; each request answered, the server still serving", async () => {
  await withServer(async (c) => {
    await c.initialize();
    const cases: [string, string | number | null, number, RegExp][] = [
      ["{not json", null, -32700, /^Parse error: /],
      ['{"jsonrpc":"2.0","id":1,"method":"ping"', null, -32700, /^Parse error: /],
      ["[]", null, -32600, /batches are not supported/],
      ['[{"jsonrpc":"2.0","id":2,"method":"ping"}]', null, -32600, /batches/],
      ["42", null, -32600, /must be a JSON object/],
      ['"ping"', null, -32600, /must be a JSON object/],
      ["null", null, -32600, /must be a JSON object/],
      ['{"jsonrpc":"2.0","id":3}', 3, -32600, /neither a request, a notification nor a response/],
      ['{"jsonrpc":"1.0","id":4,"method":"ping"}', 4, -32600, /jsonrpc must be "2\.0"/],
      ['{"id":5,"method":"ping"}', 5, -32600, /jsonrpc must be "2\.0"/],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null, -32600, /id must be/],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null, -32600, /id must be/],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null, -32600, /id must be/],
      ['{"jsonrpc":"2.0","id":"m","method":7}', "m", -32600, /method must be a string/],
      ['{"jsonrpc":"2.0","id":6,"result":"not an object"}', 6, -32600, /neither/],
      // Today: no answer at all, and the caller hangs.
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}',
        7,
        -32602,
        /params must be an object/,
      ],
      [
        '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1,2]}',
        8,
        -32602,
        /params must be an object/,
      ],
      // Today: -32603 with a multi-line zod dump.
      [
        call(9, { name: "resource", arguments: "x" }),
        9,
        -32602,
        /^Invalid params for tools\/call: params\.arguments: /,
      ],
      [call(10, { arguments: {} }), 10, -32602, /^Invalid params for tools\/call: params\.name: /],
      [
        call(15, { name: "delete_everything", arguments: {} }),
        15,
        -32602,
        /^Unknown tool: "delete_everything"$/,
      ],
      [
        '{"jsonrpc":"2.0","id":16,"method":"initialize","params":{"protocolVersion":5}}',
        16,
        -32602,
        /^Invalid params for initialize: params\.protocolVersion: .*\(and \d+ more\)$/,
      ],
      ['{"jsonrpc":"2.0","id":17,"method":"no/such/method"}', 17, -32601, /Method not found/],
    ];
    for (const [line, id, code, message] of cases) {
      await c.line(line);
      assertError(await c.next(), id, code, message);
    }
    // Lines no answer is due for: blank lines, notifications (even malformed ones).
    await c.line("");
    await c.line("   ");
    await c.line('{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}');
    await c.line('{"jsonrpc":"2.0","method":"notifications/whatever"}');
    await c.alive("after-malformed");
    assert.equal(c.pending(), 0, "nothing else was written");
  });
});

Deno.test("resource arguments that do not fit are a tool execution error (isError, one line the model can act on), not -32602: MCP 2025-11-25", async () => {
  await withServer(async (c, sb) => {
    await c.initialize();
    const cases: [unknown, RegExp][] = [
      [{ address: "" }, /^rgraph: Invalid arguments for tool resource: address: /],
      [{}, /^rgraph: pass address \(what to read\) or search/],
      [{ address: 5 }, /^rgraph: Invalid arguments for tool resource: address: /],
      [{ address: "o/r#1", page: 0 }, /^rgraph: Invalid arguments for tool resource: page: /],
      [{ address: "o/r#1", page: "2" }, /^rgraph: Invalid arguments for tool resource: page: /],
    ];
    let id = 100;
    for (const [args, message] of cases) {
      await c.line(call(++id, { name: "resource", arguments: args }));
      const a = await c.next();
      assert.equal(a.id, id);
      assert.equal(a.error, undefined, JSON.stringify(a));
      const result = a.result as { content: { type: string; text: string }[]; isError?: boolean };
      assert.equal(result.isError, true, JSON.stringify(a));
      assert.equal(result.content.length, 1);
      assert.equal(result.content[0].type, "text");
      assert.match(result.content[0].text, message);
      assert.ok(!result.content[0].text.includes("\n"), result.content[0].text);
      assert.ok(result.content[0].text.length <= 240, result.content[0].text);
    }
    await c.alive("after-bad-arguments");
    // Nothing was read from memory, so nothing was recorded as a Cache Read.
    const touches = await sb.rgraph(["touches", "--json"]);
    assert.equal(touches.code, 0, touches.stderr);
    assert.deepEqual(JSON.parse(touches.stdout), []);
  });
});

Deno.test("bytes that are not UTF-8 are a parse error; CRLF line ends are accepted", async () => {
  await withServer(async (c) => {
    await c.initialize();
    await c.write(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    assertError(await c.next(), null, -32700, /^Parse error: not UTF-8$/);
    await c.write('{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n');
    assert.deepEqual(await c.next(), { jsonrpc: "2.0", id: "crlf", result: {} });
  });
});

Deno.test("a line over 10 MiB is refused with an error and the server keeps serving", async () => {
  await withServer(async (c) => {
    await c.initialize();
    const chunk = "x".repeat(1024 * 1024);
    await c.write(`{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"`);
    for (let i = 0; i < 11; i++) await c.write(chunk);
    await c.write(`"}}\n`);
    assertError(await c.next(), null, -32600, /^Invalid Request: a message longer than 10 MiB$/);
    await c.alive("after-huge");
    // Just under the bound is read as usual.
    const near = "y".repeat(10 * 1024 * 1024 - 200);
    await c.line(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "near",
        method: "ping",
        params: { _meta: { pad: near } },
      }),
    );
    assert.deepEqual(await c.next(), { jsonrpc: "2.0", id: "near", result: {} });
  });
});

Deno.test("a huge address is not echoed back: the answer says how long it was, in one line", async () => {
  await withServer(async (c) => {
    await c.initialize();
    const text = "flaky planner crash ".repeat(50_000); // 1 MB of free text
    for (
      const [id, address] of [
        ["search", `gh issue list -R memgraph/memgraph --search ${JSON.stringify(text)}`],
        ["nonsense", text],
      ]
    ) {
      await c.line(JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "resource", arguments: { address } },
      }));
      const a = await c.next();
      const result = a.result as { content: { text: string }[]; isError?: boolean };
      const said = result.content[0].text;
      assert.ok(said.length < 2_000, `${id}: ${said.length} characters`);
      assert.ok(!said.includes("flaky planner crash"), `${id} echoed the address`);
      assert.match(said, /\d+ characters, longer than any \(at most 2048\)/, id);
      assert.equal(result.isError, true, id);
    }
  });
});

Deno.test("initialize does not advertise tools.listChanged; resource is annotated read-only", async () => {
  await withServer(async (c) => {
    const init = await c.initialize();
    assert.deepEqual((init.result as { capabilities: unknown }).capabilities, { tools: {} });
    await c.line('{"jsonrpc":"2.0","id":"list","method":"tools/list"}');
    const tools = (await c.next()).result as {
      tools: { name: string; annotations?: Record<string, unknown> }[];
    };
    assert.deepEqual(tools.tools.map((t) => t.name), ["resource"]);
    assert.equal(tools.tools[0].annotations?.readOnlyHint, true);
  });
});

Deno.test("the client closes stdin: requests already sent are answered, then exit 0 with nothing on stderr", async () => {
  const sb = await sandbox();
  try {
    const c = new RawClient(sb);
    await c.initialize();
    await c.line(JSON.stringify({
      jsonrpc: "2.0",
      id: "last",
      method: "tools/call",
      params: { name: "resource", arguments: { address: "memgraph/memgraph#1" } },
    }));
    await c.closeInput();
    const a = await c.next();
    assert.equal(a.id, "last");
    assert.match((a.result as { content: { text: string }[] }).content[0].text, /^rgraph: miss /);
    assert.deepEqual(await c.exit(), { code: 0, stderr: "" });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the client stops reading stdout: the server's next write ends it with exit 0, no EPIPE trace", async () => {
  const sb = await sandbox();
  try {
    const c = new RawClient(sb);
    await c.initialize();
    await c.stopReading();
    // Closing the pipe takes effect a moment later, and answers written before it sit in the pipe's
    // buffer unread: keep asking until a write finds the pipe closed.
    const exit = c.exit();
    let gone = false;
    void exit.then(() => (gone = true));
    for (let i = 0; !gone && i < 600; i++) {
      await c.line(JSON.stringify({ jsonrpc: "2.0", id: `gone-${i}`, method: "ping" })).catch(
        () => {},
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!gone) await c.closeInput();
    assert.ok(gone, "the server noticed that nobody reads its output");
    assert.deepEqual(await exit, { code: 0, stderr: "" });
  } finally {
    await sb.cleanup();
  }
});
