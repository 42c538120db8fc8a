/**
 * 32 hook processes at once, 10 events each, every event delivered by two of
 * them: every process exits 0 and every Touch is recorded exactly once.
 * Half the events carry a tool-call id (Claude Code), half only a
 * fingerprint (Copilot CLI), so both dedup paths race.
 */

import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";

const SESSION = "conc-5e0b1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4";

function event(worker: number, i: number): { args: string[]; stdin: string } {
  const twin = worker % 16; // workers w and w+16 deliver the same events
  const command = `gh issue view ${i + 1} -R load-org/repo-${twin}`;
  if (i % 2 === 0) {
    return {
      args: ["hook", "claude-code"],
      stdin: JSON.stringify({
        session_id: SESSION,
        cwd: "/tmp",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: `toolu_${twin}_${i}`,
      }),
    };
  }
  return {
    args: ["hook", "copilot", "--event", "preToolUse"],
    stdin: JSON.stringify({
      sessionId: SESSION,
      timestamp: 1764460800000 + twin * 100 + i,
      cwd: "/tmp",
      toolName: "bash",
      toolArgs: JSON.stringify({ command }),
    }),
  };
}

Deno.test("32 concurrent hook processes, 10 events each: every Touch exactly once, every exit 0", async () => {
  const sb = await sandbox();
  try {
    const codes: number[] = [];
    const stdouts: string[] = [];
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        for (let i = 0; i < 10; i++) {
          const { args, stdin } = event(w, i);
          const r = await sb.rgraph(args, { stdin });
          codes.push(r.code);
          stdouts.push(r.stdout);
        }
      }),
    );
    assert.equal(codes.length, 320);
    assert.deepEqual([...new Set(codes)], [0]);
    assert.deepEqual([...new Set(stdouts)], [""]);
    const r = await sb.rgraph(["touches", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const ts = JSON.parse(r.stdout) as Array<{ address: string; tool_name: string }>;
    assert.equal(ts.length, 160);
    const expected = new Set<string>();
    for (let twin = 0; twin < 16; twin++) {
      for (let i = 0; i < 10; i++) expected.add(`github:load-org/repo-${twin}#${i + 1}`);
    }
    assert.deepEqual(new Set(ts.map((t) => t.address)), expected);
    let log = "";
    try {
      log = await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`);
    } catch { /* no log: no problems */ }
    assert.equal(log, "", "no hook logged a problem (no lock timeouts)");
  } finally {
    await sb.cleanup();
  }
});
