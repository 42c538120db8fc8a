import assert from "node:assert/strict";
import { callIds } from "./call_ids.ts";

Deno.test("callIds: each harness's ids, as the real harnesses send them", () => {
  // Claude Code: the tool-use id in _meta, the start session in the environment.
  assert.deepEqual(
    callIds({ "claudecode/toolUseId": "toolu_1", progressToken: 1 }, {
      CLAUDE_CODE_SESSION_ID: "cc-start",
    }),
    { toolUseId: "toolu_1", sessionId: "cc-start" },
  );
  // Codex 0.171: callId and sessionId (also inside x-codex-turn-metadata).
  assert.deepEqual(
    callIds({
      progressToken: 1,
      callId: "call_rgraph_02",
      sessionId: "01a2",
      threadId: "01a2",
      "x-codex-turn-metadata": { session_id: "01a2" },
    }, {}),
    { toolUseId: "call_rgraph_02", sessionId: "01a2" },
  );
  assert.equal(callIds({ "x-codex-turn-metadata": { session_id: "t" } }, {}).sessionId, "t");
  // Copilot CLI: no id, the session in the server's environment.
  assert.deepEqual(callIds({ progressToken: 1 }, { COPILOT_AGENT_SESSION_ID: "e293" }), {
    toolUseId: null,
    sessionId: "e293",
  });
  // Gemini CLI, OpenCode: nothing. Wrong types are nothing too.
  assert.deepEqual(callIds(undefined, {}), { toolUseId: null, sessionId: null });
  assert.deepEqual(callIds({ callId: 7, sessionId: "" }, {}), { toolUseId: null, sessionId: null });
});
