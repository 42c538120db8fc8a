/**
 * The MCP server's stdio transport, in place of the SDK's: each line the
 * client writes goes through `jsonrpc.ts` first, so whatever cannot be
 * handled is answered there (the SDK's transport drops it, or exits on an
 * over-long line); the end of input or a client that stops reading ends the
 * server quietly (the SDK's writes die with an uncaught EPIPE); and at the end
 * of input, requests already read are answered before it closes.
 *
 * @example
 * ```ts
 * import { StdioTransport } from "./stdio.ts";
 * await server.connect(new StdioTransport({ tools: { resource: z.object(RESOURCE_ARGS) } }));
 * ```
 * @module
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  type ErrorReply,
  type Framed,
  type Inbound,
  LineFramer,
  PARSE_ERROR,
  readMessage,
  type RequestId,
  type ToolErrorReply,
  tooLong,
  type Validator,
} from "./jsonrpc.ts";

/** The longest line read (the SDK's own bound): a request is a few hundred bytes. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How long requests already read may take to be answered once the input has ended. */
const DRAIN_MS = 10_000;

/** Where a transport reads and writes (standard input and output unless a test says otherwise). */
export interface StdioOptions {
  /** Each tool's argument validator, by tool name. */
  tools: Record<string, Validator>;
  input?: ReadableStream<Uint8Array>;
  output?: { write(bytes: Uint8Array): Promise<number> };
  maxLineBytes?: number;
}

const NOT_UTF8: Inbound = {
  kind: "reply",
  reply: {
    jsonrpc: "2.0",
    id: null,
    error: { code: PARSE_ERROR, message: "Parse error: not UTF-8" },
  },
};

/** An MCP transport over standard input and output that answers every request with an id. */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #tools: Record<string, Validator>;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: { write(bytes: Uint8Array): Promise<number> };
  readonly #framer: LineFramer;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** Writes in order, one line at a time. */
  #writing: Promise<void> = Promise.resolve();
  /** Requests handed to the SDK and not yet answered. */
  readonly #open = new Set<RequestId>();
  #inputEnded = false;
  #closed = false;

  constructor(options: StdioOptions) {
    this.#tools = options.tools;
    this.#input = options.input ?? Deno.stdin.readable;
    this.#output = options.output ?? Deno.stdout;
    this.#framer = new LineFramer(options.maxLineBytes ?? MAX_LINE_BYTES);
  }

  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    void this.#read();
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await this.#reader!.read();
        if (done) break;
        for (const framed of this.#framer.push(value)) this.#handle(framed);
        if (this.#closed) return;
      }
      for (const framed of this.#framer.end()) this.#handle(framed);
    } catch {
      // The input broke (the client is gone): the same as its end.
    }
    this.#inputEnded = true;
    if (this.#open.size === 0) return await this.close();
    setTimeout(() => void this.close(), DRAIN_MS);
  }

  #handle(framed: Framed): void {
    const inbound = framed.kind === "line"
      ? readMessage(framed.text, this.#tools)
      : framed.kind === "not_utf8"
      ? NOT_UTF8
      : { kind: "reply" as const, reply: tooLong(this.#framer.maxBytes) };
    if (inbound.kind === "reply") return void this.#write(inbound.reply);
    if (inbound.kind === "ignore") return;
    const m = inbound.message as { id?: RequestId; method?: unknown };
    if (m.id !== undefined && typeof m.method === "string") this.#open.add(m.id);
    this.onmessage?.(inbound.message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: RequestId; method?: unknown };
    await this.#write(message);
    if (m.id !== undefined && m.method === undefined) {
      this.#open.delete(m.id);
      if (this.#inputEnded && this.#open.size === 0) await this.close();
    }
  }

  /** Writes one message as a line; a client that stopped reading closes the transport. */
  #write(message: JSONRPCMessage | ErrorReply | ToolErrorReply): Promise<void> {
    const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
    this.#writing = this.#writing.then(async () => {
      if (this.#closed) return;
      try {
        for (let at = 0; at < bytes.length;) at += await this.#output.write(bytes.subarray(at));
      } catch {
        // EPIPE and the like: nobody reads any more.
        await this.close();
      }
    });
    return this.#writing;
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#reader?.cancel().catch(() => {});
    this.onclose?.();
    return Promise.resolve();
  }
}
