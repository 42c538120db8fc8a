import assert from "node:assert/strict";
import { claimMemoryRead, type MemoryReadNote, noteMemoryRead } from "./memory_reads.ts";

const T0 = Date.parse("2026-11-30T01:00:00Z");
const at = (ms: number) => new Date(T0 + ms);

function note(over: Partial<MemoryReadNote>): MemoryReadNote {
  return {
    user_id: "alice",
    session_id: "s1",
    tool_use_id: "toolu_1",
    agent_id: null,
    harness: "claude-code",
    address: "o/r#5",
    noted_at: at(0).toISOString(),
    ...over,
  };
}

Deno.test("claimMemoryRead: by tool-call id, else the latest of this user's notes for the address, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-notes-" });
  try {
    noteMemoryRead(dir, note({}));
    noteMemoryRead(dir, note({ tool_use_id: "toolu_2", noted_at: at(1000).toISOString() }));
    noteMemoryRead(dir, note({ user_id: "bob", tool_use_id: "toolu_b" }));
    const q = {
      userId: "alice",
      toolUseId: null,
      sessionId: null,
      address: " o/r#5 ",
      now: at(2000),
    };
    // By id: exactly that note, whatever its age within expiry.
    assert.equal(claimMemoryRead(dir, { ...q, toolUseId: "toolu_1" })?.tool_use_id, "toolu_1");
    assert.equal(claimMemoryRead(dir, { ...q, toolUseId: "toolu_1" }), null, "claimed once");
    // Another user's note is never claimed.
    assert.equal(claimMemoryRead(dir, { ...q, toolUseId: "toolu_b" }), null);
    // By address: another address misses; past the window misses; the latest wins.
    assert.equal(claimMemoryRead(dir, { ...q, address: "o/r#6" }), null);
    assert.equal(claimMemoryRead(dir, { ...q, now: at(62_000) }), null);
    assert.equal(claimMemoryRead(dir, q)?.tool_use_id, "toolu_2");
    // Expired notes are removed on the way.
    claimMemoryRead(dir, { ...q, now: at(11 * 60_000) });
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    assert.equal(claimMemoryRead(`${dir}/absent`, q), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimMemoryRead: a claim by address stays in the server's session when it knows one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-notes-" });
  try {
    // Two sessions read the same issue a second apart; the later note is the other session's.
    noteMemoryRead(dir, note({ session_id: "s1", tool_use_id: null }));
    noteMemoryRead(
      dir,
      note({ session_id: "s2", tool_use_id: null, noted_at: at(1000).toISOString() }),
    );
    const q = { userId: "alice", toolUseId: null, address: "o/r#5", now: at(2000) };
    assert.equal(claimMemoryRead(dir, { ...q, sessionId: "s3" }), null, "no note of s3");
    assert.equal(claimMemoryRead(dir, { ...q, sessionId: "s1" })?.session_id, "s1");
    // A server that knows no session takes the latest note, as before.
    assert.equal(claimMemoryRead(dir, { ...q, sessionId: null })?.session_id, "s2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
