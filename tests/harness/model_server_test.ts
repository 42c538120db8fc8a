/**
 * The scripted model server on its own (no harness needed): each wire format
 * answers the step the request's tool results call for, streamed as that
 * API streams, and requests outside the script get the filler.
 */

import assert from "node:assert/strict";
import { type ModelServer, startModelServer, type Step } from "./model_server.ts";

const SHELL_ARGS = { command: "gh issue view 5 -R o/r" };
const STEPS: Step[] = [
  { tool: "shell", args: SHELL_ARGS },
  { tool: "resource", namespace: "mcp__rgraph", args: { address: "o/r#8" } },
  { text: "All done, thank you." },
];
const MARK = "o/r/issues/8";

async function withServer(fn: (m: ModelServer) => Promise<void>): Promise<void> {
  const m = await startModelServer({ marker: MARK, steps: STEPS });
  try {
    await fn(m);
  } finally {
    await m.close();
  }
}

/** The `data:` payloads of an SSE body (and the event names, when given). */
async function sse(res: Response): Promise<{ event: string | null; data: any }[]> {
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const out: { event: string | null; data: any }[] = [];
  for (const block of (await res.text()).split("\n\n")) {
    if (block.trim() === "") continue;
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? null;
    const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
    out.push({ event, data: data === "[DONE]" ? data : JSON.parse(data) });
  }
  return out;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", body: JSON.stringify(body) });

Deno.test("model server: Anthropic Messages, streamed, step by the tool results present", async () => {
  await withServer(async (m) => {
    const base = {
      model: "claude-x",
      stream: true,
      tools: [{ name: "shell" }, { name: "resource" }],
      messages: [{ role: "user", content: [{ type: "text", text: `look at ${MARK}` }] }],
    };
    const first = await sse(await post(`${m.url}/v1/messages?beta=true`, base));
    assert.deepEqual(first.map((e) => e.event), [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    assert.deepEqual(first[1].data.content_block, {
      type: "tool_use",
      id: m.callId("anthropic", 0),
      name: "shell",
      input: {},
    });
    const json = first.filter((e) => e.event === "content_block_delta").map((e) =>
      e.data.delta.partial_json
    ).join("");
    assert.deepEqual(JSON.parse(json), SHELL_ARGS);
    assert.equal(first[6].data.delta.stop_reason, "tool_use");

    const answered = (ids: string[]) => ({
      ...base,
      messages: [
        ...base.messages,
        ...ids.map((id) => ({
          role: "user",
          content: [{ type: "tool_result", tool_use_id: id, content: "out" }],
        })),
      ],
    });
    const second = await sse(
      await post(`${m.url}/v1/messages`, answered([m.callId("anthropic", 0)])),
    );
    assert.equal(second[1].data.content_block.name, "resource");
    const last = await sse(
      await post(
        `${m.url}/v1/messages`,
        answered([m.callId("anthropic", 0), m.callId("anthropic", 1)]),
      ),
    );
    assert.equal(
      last.filter((e) => e.event === "content_block_delta").map((e) => e.data.delta.text).join(""),
      "All done, thank you.",
    );
    assert.deepEqual(m.requests.map((r) => [r.api, r.scripted, r.step]), [
      ["anthropic", true, 0],
      ["anthropic", true, 1],
      ["anthropic", true, 2],
    ]);
  });
});

Deno.test("model server: a request without the marker or without tools gets the filler", async () => {
  await withServer(async (m) => {
    const res = await post(`${m.url}/v1/messages`, {
      model: "claude-x",
      messages: [{ role: "user", content: `Write a title for: look at ${MARK}` }],
    });
    const body = await res.json();
    assert.deepEqual(body.content, [{ type: "text", text: "OK." }]);
    const other = await post(`${m.url}/v1/chat/completions`, {
      tools: [{ type: "function", function: { name: "shell" } }],
      messages: [{ role: "user", content: "something else" }],
    });
    assert.equal((await other.json()).choices[0].message.content, "OK.");
    assert.deepEqual(m.requests.map((r) => [r.scripted, r.step]), [[false, null], [false, null]]);
  });
});

Deno.test("model server: OpenAI Responses streams a namespaced function call, then text", async () => {
  await withServer(async (m) => {
    const input: unknown[] = [{
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: MARK }],
    }];
    const body = () => ({
      model: "gpt-x",
      stream: true,
      tools: [{ type: "function", name: "shell" }, {
        type: "namespace",
        name: "mcp__rgraph",
        tools: [{ name: "resource" }],
      }],
      input,
    });
    input.push({ type: "function_call_output", call_id: m.callId("responses", 0), output: "x" });
    const events = await sse(await post(`${m.url}/v1/responses`, body()));
    assert.equal(events[0].event, "response.created");
    assert.equal(events.at(-1)!.event, "response.completed");
    const done = events.find((e) => e.event === "response.output_item.done")!.data.item;
    assert.equal(done.type, "function_call");
    assert.equal(done.name, "resource");
    assert.equal(done.namespace, "mcp__rgraph");
    assert.equal(done.call_id, m.callId("responses", 1));
    assert.deepEqual(JSON.parse(done.arguments), { address: "o/r#8" });
    assert.deepEqual(m.requests[0].tools, ["shell", "mcp__rgraph/resource"]);

    input.push({ type: "function_call_output", call_id: m.callId("responses", 1), output: "y" });
    const final = await sse(await post(`${m.url}/v1/responses`, body()));
    assert.equal(
      final.filter((e) => e.event === "response.output_text.delta").map((e) => e.data.delta)
        .join(""),
      "All done, thank you.",
    );
    assert.equal(final.at(-1)!.data.response.output[0].content[0].text, "All done, thank you.");
  });
});

Deno.test("model server: Chat Completions streams tool-call deltas and ends with [DONE]", async () => {
  await withServer(async (m) => {
    const events = await sse(
      await post(`${m.url}/v1/chat/completions`, {
        model: "gpt-4.1",
        stream: true,
        stream_options: { include_usage: true },
        tools: [{ type: "function", function: { name: "shell" } }],
        messages: [{ role: "system", content: "sys" }, { role: "user", content: MARK }],
      }),
    );
    assert.equal(events.at(-1)!.data, "[DONE]");
    const calls = events.flatMap((e) => e.data?.choices?.[0]?.delta?.tool_calls ?? []);
    assert.equal(calls[0].id, m.callId("chat", 0));
    assert.equal(calls[0].function.name, "shell");
    assert.deepEqual(
      JSON.parse(calls.map((c: any) => c.function.arguments).join("")),
      { command: "gh issue view 5 -R o/r" },
    );
    assert.ok(events.some((e) => e.data?.choices?.[0]?.finish_reason === "tool_calls"));
    assert.ok(events.some((e) => e.data?.usage?.total_tokens === 120), "usage chunk when asked");
  });
});

Deno.test("model server: Gemini streams and answers, matching results by name when ids are absent", async () => {
  await withServer(async (m) => {
    const contents: unknown[] = [{ role: "user", parts: [{ text: MARK }] }];
    const body = () => ({
      contents,
      tools: [{ functionDeclarations: [{ name: "shell" }, { name: "resource" }] }],
    });
    const path = `${m.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`;
    const [first] = await sse(await post(path, body()));
    assert.deepEqual(first.data.candidates[0].content.parts, [{
      functionCall: { id: m.callId("gemini", 0), name: "shell", args: SHELL_ARGS },
    }]);
    contents.push({ role: "user", parts: [{ functionResponse: { name: "shell", response: {} } }] });
    const plain = await (await post(`${m.url}/v1beta/models/gemini-x:generateContent`, body()))
      .json();
    assert.equal(plain.candidates[0].content.parts[0].functionCall.name, "resource");
    const router = await (await post(`${m.url}/v1beta/models/gemini-x:generateContent`, {
      contents: [{ role: "user", parts: [{ text: "route this" }] }],
      generationConfig: { responseMimeType: "application/json" },
    })).json();
    assert.equal(JSON.parse(router.candidates[0].content.parts[0].text).next_speaker, "user");
    const count = await (await post(`${m.url}/v1beta/models/gemini-x:countTokens`, {})).json();
    assert.equal(count.totalTokens, 100);
  });
});
