/**
 * What the MCP server does with each line a client writes before the SDK
 * sees it (pure): JSON-RPC 2.0's answers for what cannot be handled — a line
 * that is not JSON (-32700), an object that is not a request, notification
 * or response (-32600, `id: null` where the id is unknown), params that do
 * not fit or an unknown tool (-32602) — each with a one-line message, so
 * every request that has an id gets an answer and none reaches the SDK to be
 * dropped or answered with a multi-line dump. A known tool's arguments that
 * do not fit its schema are not a protocol error: since MCP revision
 * 2025-11-25 input validation errors are tool execution errors, a result
 * with `isError: true` whose one line the model reads and acts on. Lines are
 * framed from bytes with a bound on their length.
 *
 * @example
 * ```ts
 * import { LineFramer, readMessage } from "./jsonrpc.ts";
 * const framer = new LineFramer(10 * 1024 * 1024);
 * for (const line of framer.push(new TextEncoder().encode('{"jsonrpc":"2.0","id":1}\n'))) {
 *   const inbound = line.kind === "line" ? readMessage(line.text, {}) : tooLong(framer.maxBytes);
 *   // inbound.kind === "reply": -32600, the object has no method
 * }
 * ```
 * @module
 */

import { ClientRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0's error codes for messages that cannot be handled. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** A request id as MCP allows it: a string or an integer. */
export type RequestId = string | number;

/** An error answer written back to the client directly. */
export interface ErrorReply {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string };
}

/** A `tools/call` answered without running the tool: a tool execution error the model reads. */
export interface ToolErrorReply {
  jsonrpc: "2.0";
  id: RequestId;
  result: { content: { type: "text"; text: string }[]; isError: true };
}

/** What to do with one line from the client. */
export type Inbound =
  /** Hand it to the SDK. */
  | { kind: "message"; message: JSONRPCMessage }
  /** Answer with this and hand nothing on. */
  | { kind: "reply"; reply: ErrorReply | ToolErrorReply }
  /** Nothing to hand on and nothing to answer (a blank line, a malformed notification). */
  | { kind: "ignore" };

/** Anything zod-like (v3 or v4) that validates a value. */
export interface Validator {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** The longest text of the client's that an error message repeats. */
const ECHO_MAX = 200;

/** `text` cut to at most {@link ECHO_MAX} characters, marked with `…` when cut. */
export function clip(text: string, max = ECHO_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function reply(id: RequestId | null, code: number, message: string): Inbound {
  return { kind: "reply", reply: { jsonrpc: "2.0", id, error: { code, message: clip(message) } } };
}

/** An over-long line's answer: the line was dropped unread, so its id is unknown. */
export function tooLong(maxBytes: number): ErrorReply {
  const mib = maxBytes / 1024 / 1024;
  return {
    jsonrpc: "2.0",
    id: null,
    error: { code: INVALID_REQUEST, message: `Invalid Request: a message longer than ${mib} MiB` },
  };
}

function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isInteger(v));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The first problem a validator found, on one line: `path: message (and N more)`. */
function issues(result: ReturnType<Validator["safeParse"]>): string {
  const [first, ...rest] = result.error?.issues ?? [];
  if (!first) return "invalid";
  const where = first.path.map(String).join(".");
  const more = rest.length ? ` (and ${rest.length} more)` : "";
  return `${where ? `${where}: ` : ""}${first.message.split("\n")[0]}${more}`;
}

/** The SDK's schema of each request a client may send, by method. */
const REQUEST_SCHEMAS: Map<string, Validator> = new Map(
  (ClientRequestSchema.options as readonly { shape: { method: { value: string } } }[]).map((
    s,
  ) => [s.shape.method.value, s as unknown as Validator]),
);

/** What checking a request before the SDK sees it found wrong with it. */
type Problem =
  /** The request itself does not fit (-32602). */
  | { kind: "params"; message: string }
  /** A known tool's arguments do not fit its schema: a tool execution error. */
  | { kind: "arguments"; message: string };

/**
 * A request the SDK would handle, checked against its schema (and, for
 * `tools/call`, the tool's arguments against the tool's): null when it fits.
 */
function paramsProblem(
  method: string,
  message: Record<string, unknown>,
  tools: Record<string, Validator>,
): Problem | null {
  const schema = REQUEST_SCHEMAS.get(method);
  if (!schema) return null; // unknown methods are the SDK's to refuse (-32601)
  const checked = schema.safeParse({ method, params: message.params });
  if (!checked.success) {
    return { kind: "params", message: `Invalid params for ${method}: ${issues(checked)}` };
  }
  if (method !== "tools/call") return null;
  const params = message.params as { name: string; arguments?: unknown };
  const tool = Object.hasOwn(tools, params.name) ? tools[params.name] : undefined;
  // The spec keeps an unknown tool a protocol error: there is nothing for the model to correct.
  if (!tool) {
    return { kind: "params", message: `Unknown tool: ${clip(JSON.stringify(params.name), 80)}` };
  }
  const args = tool.safeParse(params.arguments ?? {});
  if (args.success) return null;
  return {
    kind: "arguments",
    message: `Invalid arguments for tool ${params.name}: ${issues(args)}`,
  };
}

/**
 * The tool execution error (MCP 2025-11-25) answering a `tools/call` whose
 * arguments do not fit, on one line.
 *
 * @example
 * ```ts
 * toolError(3, "Invalid arguments for tool resource: address: Required").result.isError; // true
 * ```
 */
export function toolError(id: RequestId, message: string): ToolErrorReply {
  const text = `rgraph: ${clip(message.split("\n")[0])}`;
  return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError: true } };
}

/**
 * Reads one line from the client. `tools` holds each tool's argument
 * validator, so bad arguments are answered (a tool execution error) before
 * the tool runs.
 */
export function readMessage(line: string, tools: Record<string, Validator>): Inbound {
  if (line.trim() === "") return { kind: "ignore" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    return reply(null, PARSE_ERROR, `Parse error: ${(e as Error).message.split("\n")[0]}`);
  }
  if (Array.isArray(parsed)) {
    return reply(null, INVALID_REQUEST, "Invalid Request: batches are not supported");
  }
  if (!isObject(parsed)) {
    return reply(null, INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
  }
  const hasId = "id" in parsed;
  const id = hasId && isRequestId(parsed.id) ? parsed.id : null;
  if (hasId && id === null) {
    return reply(null, INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
  }
  if (parsed.jsonrpc !== "2.0") {
    return reply(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  }
  if ("method" in parsed) {
    if (typeof parsed.method !== "string") {
      return reply(id, INVALID_REQUEST, "Invalid Request: method must be a string");
    }
    const paramsOk = parsed.params === undefined || isObject(parsed.params);
    // A notification gets no answer, whatever is wrong with it.
    if (id === null) {
      return paramsOk ? { kind: "message", message: parsed as JSONRPCMessage } : { kind: "ignore" };
    }
    if (!paramsOk) return reply(id, INVALID_PARAMS, "Invalid params: params must be an object");
    const problem = paramsProblem(parsed.method, parsed, tools);
    if (problem?.kind === "arguments") {
      return { kind: "reply", reply: toolError(id, problem.message) };
    }
    if (problem) return reply(id, INVALID_PARAMS, problem.message);
    return { kind: "message", message: parsed as JSONRPCMessage };
  }
  // A response to a request of the server's.
  const isResult = "result" in parsed && isObject(parsed.result);
  const error = parsed.error as { code?: unknown; message?: unknown } | undefined;
  const isError = isObject(error) && Number.isInteger(error.code) &&
    typeof error.message === "string";
  if (id !== null && (isResult || isError)) {
    return { kind: "message", message: parsed as JSONRPCMessage };
  }
  return reply(
    id,
    INVALID_REQUEST,
    "Invalid Request: neither a request, a notification nor a response",
  );
}

/** One line framed from the client's bytes. */
export type Framed =
  | { kind: "line"; text: string }
  /** A line of invalid UTF-8: answered as unparseable. */
  | { kind: "not_utf8" }
  /** A line longer than the bound, dropped as it came. */
  | { kind: "too_long" };

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Splits the client's bytes into lines. A line longer than `maxBytes` is not
 * kept (the bytes are dropped as they come, so a runaway client cannot use
 * up memory) and is reported once its end arrives; the next line is read as
 * usual.
 */
export class LineFramer {
  #parts: Uint8Array[] = [];
  #size = 0;
  #dropping = false;

  constructor(readonly maxBytes: number) {}

  /** The lines `chunk` completes. */
  push(chunk: Uint8Array): Framed[] {
    const out: Framed[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.#keep(chunk.subarray(start, end));
      if (nl === -1) return out;
      out.push(this.#take());
      start = nl + 1;
    }
  }

  /** What is left when the input ends without a final newline. */
  end(): Framed[] {
    return this.#size > 0 || this.#dropping ? [this.#take()] : [];
  }

  #keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#dropping || this.#size + bytes.length > this.maxBytes) {
      this.#dropping = true;
      this.#parts = [];
      this.#size = 0;
      return;
    }
    // Copied: the reader may reuse the chunk's buffer.
    this.#parts.push(bytes.slice());
    this.#size += bytes.length;
  }

  #take(): Framed {
    const dropped = this.#dropping;
    const parts = this.#parts;
    const size = this.#size;
    this.#parts = [];
    this.#size = 0;
    this.#dropping = false;
    if (dropped) return { kind: "too_long" };
    const bytes = parts.length === 1 ? parts[0] : new Uint8Array(size);
    if (parts.length !== 1) {
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    try {
      return { kind: "line", text: STRICT_UTF8.decode(bytes).replace(/\r$/, "") };
    } catch {
      return { kind: "not_utf8" };
    }
  }
}
