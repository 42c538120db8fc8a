import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";

Deno.test("migrate never prints credentials written into the Bolt URL", async () => {
  const sb = await sandbox();
  try {
    // Something to copy, so migrate gets as far as connecting.
    await sb.rgraph(["hook", "claude-code"], {
      stdin: JSON.stringify({
        session_id: "s",
        hook_event_name: "UserPromptSubmit",
        prompt: "see memgraph/memgraph#1",
      }),
    });
    const r = await sb.rgraph(["migrate", "--to", "bolt://neo:hunter2secret@127.0.0.1:1"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the shared store is unreachable \(bolt:\/\/127\.0\.0\.1:1/);
    assert.ok(!`${r.stdout}${r.stderr}`.includes("hunter2secret"));
  } finally {
    await sb.cleanup();
  }
});
