/**
 * A scripted model server for the real-harness tests: one HTTP server on
 * 127.0.0.1 (any free port) that speaks the four wire formats the harnesses
 * use, records every request body it receives, and answers from a script.
 *
 * - Anthropic Messages (`POST /v1/messages`, SSE when `stream`): Claude Code.
 * - OpenAI Responses (`POST /v1/responses`, SSE): Codex.
 * - OpenAI Chat Completions (`POST /v1/chat/completions`, SSE when `stream`):
 *   Copilot CLI, OpenCode.
 * - Gemini (`POST /v1beta/models/M:generateContent` and
 *   `:streamGenerateContent?alt=sse`, `:countTokens`): Gemini CLI.
 *
 * The script is a list of steps (tool calls, then a final text). A request is
 * part of the scripted conversation when it offers tools and carries the
 * test's marker text (the prompt); the next step is the first whose tool
 * result the request does not contain yet, so a harness's extra requests
 * (titles, summaries, classifiers) and retries never advance the script:
 * they get a short harmless text.
 *
 * @example
 * ```ts
 * const model = await startModelServer({
 *   marker: "lumendb/lumen/issues/7",
 *   steps: [{ tool: "Bash", args: { command: "gh issue view 5 -R lumendb/lumen" } }, { text: "done" }],
 * });
 * // point a harness at model.url, run it, then inspect model.requests
 * await model.close();
 * ```
 * @module
 */

/** Which wire format a request used. */
export type Api = "anthropic" | "responses" | "chat" | "gemini";

/** One scripted turn: call a tool, or answer with text. */
export type Step =
  | {
    /** The tool's name as the harness offers it. */
    tool: string;
    args: Record<string, unknown>;
    /** Responses API only: the namespace a tool is offered under (Codex's MCP tools). */
    namespace?: string;
  }
  | { text: string };

/** A tool result found in a request. */
export interface ToolResult {
  callId: string | null;
  name: string | null;
  /** Every string inside the result, joined by newlines. */
  text: string;
}

/** One request the server received. */
export interface RecordedRequest {
  api: Api;
  method: string;
  path: string;
  /** Milliseconds since the server started. */
  at: number;
  headers: Record<string, string>;
  body: unknown;
  /** Whether it belongs to the scripted conversation (see the module doc). */
  scripted: boolean;
  /** The step it was answered with (index into the script), or null for a filler answer. */
  step: number | null;
  /** Tool names the request offers (namespaced ones as `namespace/name`). */
  tools: string[];
  /** Tool results the request carries. */
  toolResults: ToolResult[];
  /** Every string value in the body, in order (text the model would read). */
  strings: string[];
}

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** Text that marks the scripted conversation (something from the test's prompt). */
  marker: string;
  steps: Step[];
  /** The text of answers outside the script (default "OK."). */
  filler?: string;
}

/** A running model server. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** The id the script gives step `i`'s tool call in format `api`. */
  callId(api: Api, i: number): string;
  close(): Promise<void>;
}

/** Every string value in `v`, depth first. */
export function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) { for (const x of v) stringsOf(x, out); }
  else if (v && typeof v === "object") { for (const x of Object.values(v)) stringsOf(x, out); }
  return out;
}

type Json = Record<string, any>;

const asArray = (v: unknown): any[] => Array.isArray(v) ? v : [];

/** The tool results and offered tool names of a request, per format. */
function inspect(api: Api, body: Json): { tools: string[]; results: ToolResult[] } {
  const results: ToolResult[] = [];
  const tools: string[] = [];
  const text = (v: unknown) => stringsOf(v).join("\n");
  if (api === "anthropic") {
    for (const t of asArray(body.tools)) if (typeof t?.name === "string") tools.push(t.name);
    for (const m of asArray(body.messages)) {
      for (const b of asArray(m?.content)) {
        if (b?.type === "tool_result") {
          results.push({ callId: b.tool_use_id ?? null, name: null, text: text(b.content) });
        }
      }
    }
  } else if (api === "responses") {
    for (const t of asArray(body.tools)) {
      if (Array.isArray(t?.tools)) {
        for (const inner of t.tools) tools.push(`${t.name}/${inner?.name}`);
      } else if (typeof t?.name === "string") tools.push(t.name);
    }
    for (const item of asArray(body.input)) {
      if (typeof item?.type === "string" && item.type.endsWith("_call_output")) {
        results.push({ callId: item.call_id ?? null, name: null, text: text(item.output) });
      }
    }
  } else if (api === "chat") {
    for (const t of asArray(body.tools)) {
      const name = t?.function?.name ?? t?.name;
      if (typeof name === "string") tools.push(name);
    }
    for (const m of asArray(body.messages)) {
      if (m?.role === "tool") {
        results.push({
          callId: m.tool_call_id ?? null,
          name: m.name ?? null,
          text: text(m.content),
        });
      }
    }
  } else {
    for (const t of asArray(body.tools)) {
      for (const d of asArray(t?.functionDeclarations)) {
        if (typeof d?.name === "string") tools.push(d.name);
      }
    }
    for (const c of asArray(body.contents)) {
      for (const p of asArray(c?.parts)) {
        const r = p?.functionResponse;
        if (r) results.push({ callId: r.id ?? null, name: r.name ?? null, text: text(r.response) });
      }
    }
  }
  return { tools, results };
}

/** Which API a path speaks, or null. */
function apiOf(path: string): Api | null {
  if (/\/messages$/.test(path)) return "anthropic";
  if (/\/responses$/.test(path)) return "responses";
  if (/\/chat\/completions$/.test(path)) return "chat";
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(path)) return "gemini";
  return null;
}

const enc = new TextEncoder();

/** An SSE response from a list of [event name | null, data] pairs. */
function sse(events: [string | null, unknown][]): Response {
  const body = events.map(([name, data]) =>
    (name ? `event: ${name}\n` : "") +
    `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`
  ).join("");
  return new Response(enc.encode(body), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

const json = (v: unknown, status = 200) =>
  new Response(JSON.stringify(v), { status, headers: { "content-type": "application/json" } });

/** Splits a string into a few pieces, so clients see real incremental deltas. */
function pieces(s: string): string[] {
  if (s.length < 8) return [s];
  const third = Math.ceil(s.length / 3);
  return [s.slice(0, third), s.slice(third, 2 * third), s.slice(2 * third)];
}

function anthropicAnswer(body: Json, step: Step, id: string): Response {
  const model = typeof body.model === "string" ? body.model : "claude-scripted";
  const msgId = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
  const usage = { input_tokens: 100, output_tokens: 20 };
  const block = "tool" in step
    ? { type: "tool_use", id, name: step.tool, input: step.args }
    : { type: "text", text: step.text };
  const stop = "tool" in step ? "tool_use" : "end_turn";
  if (body.stream !== true) {
    return json({
      id: msgId,
      type: "message",
      role: "assistant",
      model,
      content: [block],
      stop_reason: stop,
      stop_sequence: null,
      usage,
    });
  }
  const events: [string, unknown][] = [[
    "message_start",
    {
      type: "message_start",
      message: {
        id: msgId,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    },
  ]];
  if ("tool" in step) {
    events.push([
      "content_block_start",
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id, name: step.tool, input: {} },
      },
    ]);
    for (const p of pieces(JSON.stringify(step.args))) {
      events.push([
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: p },
        },
      ]);
    }
  } else {
    events.push([
      "content_block_start",
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ]);
    for (const p of pieces(step.text)) {
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: p } },
      ]);
    }
  }
  events.push(["content_block_stop", { type: "content_block_stop", index: 0 }]);
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: 20 },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return sse(events);
}

function responsesAnswer(body: Json, step: Step, id: string): Response {
  const model = typeof body.model === "string" ? body.model : "gpt-scripted";
  const respId = `resp_${crypto.randomUUID().replaceAll("-", "")}`;
  const created = Math.floor(Date.now() / 1000);
  const itemId = `${"tool" in step ? "fc" : "msg"}_${crypto.randomUUID().replaceAll("-", "")}`;
  const item: Json = "tool" in step
    ? {
      type: "function_call",
      id: itemId,
      call_id: id,
      name: step.tool,
      arguments: JSON.stringify(step.args),
      status: "completed",
      ...(step.namespace ? { namespace: step.namespace } : {}),
    }
    : {
      type: "message",
      id: itemId,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    };
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: respId,
    object: "response",
    created_at: created,
    status,
    model,
    output,
    usage,
  });
  let seq = 0;
  const ev = (type: string, data: Json): [string, unknown] => [
    type,
    { type, sequence_number: seq++, ...data },
  ];
  const events: [string, unknown][] = [
    ev("response.created", { response: response("in_progress", [], null) }),
    ev("response.in_progress", { response: response("in_progress", [], null) }),
  ];
  if ("tool" in step) {
    events.push(ev("response.output_item.added", {
      output_index: 0,
      item: { ...item, arguments: "", status: "in_progress" },
    }));
    for (const p of pieces(item.arguments)) {
      events.push(ev("response.function_call_arguments.delta", {
        output_index: 0,
        item_id: itemId,
        delta: p,
      }));
    }
    events.push(ev("response.function_call_arguments.done", {
      output_index: 0,
      item_id: itemId,
      arguments: item.arguments,
    }));
  } else {
    events.push(ev("response.output_item.added", {
      output_index: 0,
      item: { ...item, content: [], status: "in_progress" },
    }));
    events.push(ev("response.content_part.added", {
      output_index: 0,
      item_id: itemId,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    }));
    for (const p of pieces(step.text)) {
      events.push(ev("response.output_text.delta", {
        output_index: 0,
        item_id: itemId,
        content_index: 0,
        delta: p,
      }));
    }
    events.push(ev("response.output_text.done", {
      output_index: 0,
      item_id: itemId,
      content_index: 0,
      text: step.text,
    }));
    events.push(ev("response.content_part.done", {
      output_index: 0,
      item_id: itemId,
      content_index: 0,
      part: { type: "output_text", text: step.text, annotations: [] },
    }));
  }
  events.push(ev("response.output_item.done", { output_index: 0, item }));
  events.push(ev("response.completed", {
    response: response("completed", [item], {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
    }),
  }));
  return sse(events);
}

function chatAnswer(body: Json, step: Step, id: string): Response {
  const model = typeof body.model === "string" ? body.model : "gpt-scripted";
  const chatId = `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const finish = "tool" in step ? "tool_calls" : "stop";
  if (body.stream !== true) {
    const message = "tool" in step
      ? {
        role: "assistant",
        content: null,
        tool_calls: [{
          id,
          type: "function",
          function: { name: step.tool, arguments: JSON.stringify(step.args) },
        }],
      }
      : { role: "assistant", content: step.text };
    return json({
      id: chatId,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const chunk = (delta: Json, finish_reason: string | null, extra: Json = {}) => ({
    id: chatId,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason }],
    ...extra,
  });
  const events: [null, unknown][] = [];
  if ("tool" in step) {
    const args = pieces(JSON.stringify(step.args));
    events.push([
      null,
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{
          index: 0,
          id,
          type: "function",
          function: { name: step.tool, arguments: args[0] },
        }],
      }, null),
    ]);
    for (const p of args.slice(1)) {
      events.push([null, chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] }, null)]);
    }
  } else {
    events.push([null, chunk({ role: "assistant", content: "" }, null)]);
    for (const p of pieces(step.text)) events.push([null, chunk({ content: p }, null)]);
  }
  events.push([null, chunk({}, finish)]);
  if (body.stream_options?.include_usage) {
    events.push([null, { ...chunk({}, null), choices: [], usage }]);
  }
  events.push([null, "[DONE]"]);
  return sse(events);
}

function geminiAnswer(body: Json, step: Step, id: string, streaming: boolean): Response {
  const wantsJson = body.generationConfig?.responseMimeType === "application/json" ||
    body.generationConfig?.responseJsonSchema !== undefined ||
    body.generationConfig?.responseSchema !== undefined;
  const parts = "tool" in step ? [{ functionCall: { id, name: step.tool, args: step.args } }] : [{
    // A classifier or next-speaker check asks for JSON: give one that ends the turn.
    text: wantsJson
      ? JSON.stringify({ reasoning: "scripted", next_speaker: "user", model_choice: "flash" })
      : step.text,
  }];
  const answer = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: "gemini-scripted",
  };
  return streaming ? sse([[null, answer]]) : json(answer);
}

/** Starts the server. */
export function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const start = Date.now();
  const requests: RecordedRequest[] = [];
  const filler = options.filler ?? "OK.";
  const callId = (api: Api, i: number) => {
    const n = String(i + 1).padStart(2, "0");
    if (api === "anthropic") return `toolu_01RgraphScripted${n}`;
    if (api === "gemini") return `rgraph-scripted-${n}`;
    return `call_rgraph_scripted_${n}`;
  };

  /** The first step whose tool result `results` lacks (the last, a text, when all are there). */
  const nextStep = (api: Api, results: ToolResult[]): number => {
    for (let i = 0; i < options.steps.length; i++) {
      const step = options.steps[i];
      if (!("tool" in step)) return i;
      const id = callId(api, i);
      const answered = results.some((r) =>
        r.callId === id || (r.callId === null && r.name === step.tool)
      );
      if (!answered) return i;
    }
    return options.steps.length - 1;
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname;
    const text = req.method === "POST" ? await req.text() : "";
    let body: Json = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { unparsed: text };
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of req.headers) {
      if (!/authorization|api-key|cookie/i.test(k)) headers[k] = v;
    }
    const api = apiOf(path);
    if (req.method === "GET" && /\/models\/?$/.test(path)) {
      return json({
        object: "list",
        data: [{ id: "gpt-4.1", object: "model", owned_by: "rgraph" }],
      });
    }
    if (/:countTokens$/.test(path)) return json({ totalTokens: 100 });
    if (/\/messages\/count_tokens$/.test(path)) return json({ input_tokens: 100 });
    if (!api || req.method !== "POST") {
      requests.push({
        api: "chat",
        method: req.method,
        path: path + url.search,
        at: Date.now() - start,
        headers,
        body,
        scripted: false,
        step: null,
        tools: [],
        toolResults: [],
        strings: stringsOf(body),
      });
      return json({ error: { message: `model server: no route for ${req.method} ${path}` } }, 404);
    }
    const { tools, results } = inspect(api, body);
    const strings = stringsOf(body);
    const scripted = tools.length > 0 && strings.some((s) => s.includes(options.marker));
    const index = scripted ? nextStep(api, results) : null;
    requests.push({
      api,
      method: req.method,
      path: path + url.search,
      at: Date.now() - start,
      headers,
      body,
      scripted,
      step: index,
      tools,
      toolResults: results,
      strings,
    });
    const step: Step = index === null ? { text: filler } : options.steps[index];
    const id = index === null ? "" : callId(api, index);
    if (api === "anthropic") return anthropicAnswer(body, step, id);
    if (api === "responses") return responsesAnswer(body, step, id);
    if (api === "chat") return chatAnswer(body, step, id);
    return geminiAnswer(body, step, id, /:streamGenerateContent$/.test(path));
  };

  const ac = new AbortController();
  return new Promise((resolve) => {
    const server = Deno.serve(
      {
        hostname: "127.0.0.1",
        port: 0,
        signal: ac.signal,
        onListen: () => {},
        onError: (e) => json({ error: { message: String(e) } }, 500),
      },
      handle,
    );
    const port = (server.addr as Deno.NetAddr).port;
    resolve({
      url: `http://127.0.0.1:${port}`,
      port,
      requests,
      callId,
      close: async () => {
        ac.abort();
        await server.finished;
      },
    });
  });
}

if (import.meta.main) {
  // By hand: `deno run -A tests/harness/model_server.ts MARKER STEPS_JSON [DUMP_DIR]`
  // serves until Ctrl-C, printing one line per request and dumping bodies.
  const [marker, stepsJson, dump] = Deno.args;
  const model = await startModelServer({ marker, steps: JSON.parse(stepsJson) });
  console.log(model.url);
  let seen = 0;
  setInterval(() => {
    for (; seen < model.requests.length; seen++) {
      const r = model.requests[seen];
      console.log(
        `${r.at}ms ${r.method} ${r.path} scripted=${r.scripted} step=${r.step} tools=${r.tools.length} results=${
          JSON.stringify(r.toolResults.map((x) => [x.callId, x.name, x.text.slice(0, 80)]))
        }`,
      );
      if (dump) Deno.writeTextFileSync(`${dump}/${seen}.json`, JSON.stringify(r, null, 1));
    }
  }, 100);
}
