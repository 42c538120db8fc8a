import assert from "node:assert/strict";
import { isMemoryRead, touchesFor } from "./touch.ts";
import { itemAddress, listingAddress, repositoryAddress } from "../address/key.ts";
import type { ToolStartEvent, UserPromptEvent } from "./harness/event.ts";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const CTX = { userId: "alice", harness: "claude-code" as const, now: NOW };

const TOOL: ToolStartEvent = {
  type: "tool_start",
  session_id: "s1",
  cwd: "/r",
  tool_name: "Bash",
  tool_input: { command: "gh issue list -R o/r -L 50 && gh issue view 5 -R o/r" },
  tool_use_id: "toolu_1",
  agent_id: "agent-9",
  fingerprint: "fp-1",
};

const PROMPT: UserPromptEvent = {
  type: "user_prompt",
  session_id: "s1",
  cwd: "/r",
  prompt: "look at o/r#5",
  agent_id: null,
};

const LIST = listingAddress("o", "r", "issues", {}, 50);
const ITEM = itemAddress("o", "r", 5);

Deno.test("touchesFor: a tool start gives FETCHED Touches with tool, call, agent and limit", () => {
  const ts = touchesFor(TOOL, [LIST, ITEM], CTX);
  assert.deepEqual(ts.map(({ dedup_key: _, ...t }) => t), [
    {
      user_id: "alice",
      session_id: "s1",
      provenance: "FETCHED",
      address: "github:o/r/issues?state=open",
      kind: "listing",
      limit: 50,
      tool_name: "Bash",
      tool_use_id: "toolu_1",
      agent_id: "agent-9",
      harness: "claude-code",
      recorded_at: "2026-11-30T12:00:00.000Z",
      status: "pending",
    },
    {
      user_id: "alice",
      session_id: "s1",
      provenance: "FETCHED",
      address: "github:o/r#5",
      kind: "item",
      limit: null,
      tool_name: "Bash",
      tool_use_id: "toolu_1",
      agent_id: "agent-9",
      harness: "claude-code",
      recorded_at: "2026-11-30T12:00:00.000Z",
      status: "pending",
    },
  ]);
  assert.notEqual(ts[0].dedup_key, ts[1].dedup_key);
});

Deno.test("touchesFor: a prompt gives PROMPTED Touches without tool fields; duplicates collapse", () => {
  const ts = touchesFor(PROMPT, [ITEM, ITEM, repositoryAddress("O", "R")], CTX);
  assert.deepEqual(ts.map((t) => [t.provenance, t.address, t.tool_name, t.tool_use_id]), [
    ["PROMPTED", "github:o/r#5", null, null],
    ["PROMPTED", "github:o/r", null, null],
  ]);
});

Deno.test("dedup keys: stable on re-delivery, distinct across calls, sessions and prompts", () => {
  const key = (e: ToolStartEvent | UserPromptEvent) => touchesFor(e, [ITEM], CTX)[0].dedup_key;
  const later = { ...CTX, now: new Date("2026-12-01T00:00:00Z") };
  assert.equal(touchesFor(TOOL, [ITEM], later)[0].dedup_key, key(TOOL), "time is not part of it");
  assert.equal(key({ ...TOOL }), key(TOOL));
  // The fingerprint (from the call id, or the call's content) identifies the call.
  assert.notEqual(key({ ...TOOL, fingerprint: "fp-2" }), key(TOOL));
  assert.notEqual(key({ ...TOOL, session_id: "s2" }), key(TOOL));
  assert.equal(key({ ...PROMPT }), key(PROMPT));
  assert.notEqual(key({ ...PROMPT, prompt: "look at o/r#5 again" }), key(PROMPT));
  assert.notEqual(key({ ...PROMPT, session_id: "s2" }), key(PROMPT));
  assert.notEqual(key(PROMPT), key(TOOL));
  assert.notEqual(
    touchesFor(TOOL, [ITEM, LIST], CTX)[0].dedup_key,
    touchesFor(TOOL, [ITEM, LIST], CTX)[1].dedup_key,
  );
});

Deno.test("rgraph's own resource tool is a memory read: no FETCHED Touch", () => {
  for (
    const name of [
      "mcp__rgraph__resource",
      "mcp__plugin_rgraph_rgraph__resource",
      "rgraph_resource",
      "rgraph-resource",
    ]
  ) {
    assert.ok(isMemoryRead(name), name);
    assert.deepEqual(touchesFor({ ...TOOL, tool_name: name }, [ITEM], CTX), []);
  }
  for (const name of ["mcp__github__issue_read", "Bash", "mcp__rgraph__other", "resource"]) {
    assert.ok(!isMemoryRead(name), name);
  }
});
