/**
 * `rgraph pause` and `rgraph resume` end to end: while paused, real
 * `rgraph hook` processes record nothing (no Touch, no memory-read note, no
 * Nudge) and Cache Reads are not recorded; `touches`, `status` and `doctor` say so; a
 * `--for` pause ends by itself; an unreadable pause file fails closed.
 */

import assert from "node:assert/strict";
import { type Sandbox, sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { issue } from "./fixtures_memory.ts";
import { pauseFilePath, pauseState } from "../lib/capture/mod.ts";

const FIXTURES = new URL("../fixtures/payloads/", import.meta.url);

function payload(harness: string, name: string): string {
  return Deno.readTextFileSync(new URL(`${harness}/${name}.json`, FIXTURES));
}

/** Feeds a few fixtures of different harnesses; returns what the hooks printed. */
async function hooks(sb: Sandbox): Promise<string[]> {
  const out: string[] = [];
  for (
    const [harness, name] of [
      ["claude-code", "bash_gh_issue_view"],
      ["claude-code", "prompt_links"],
      ["claude-code", "resource_tool"],
      ["codex", "bash_gh_pr_view"],
      ["gemini", "before_tool_shell_gh"],
    ]
  ) {
    const r = await sb.rgraph(["hook", harness], { stdin: payload(harness, name) });
    assert.equal(r.code, 0, r.stderr);
    out.push(r.stdout);
  }
  return out;
}

async function touchCount(sb: Sandbox): Promise<number> {
  const r = await sb.rgraph(["touches", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).length;
}

function notes(sb: Sandbox): string[] {
  try {
    return [...Deno.readDirSync(`${sb.dir}/data/rgraph/memory-reads`)].map((e) => e.name);
  } catch {
    return [];
  }
}

async function doctorCapture(sb: Sandbox): Promise<{ ok: boolean; detail: string }> {
  const r = await sb.rgraph(["doctor", "--json", "--dir", sb.dir]);
  const checks = JSON.parse(r.stdout) as { check: string; ok: boolean; detail: string }[];
  return checks.find((c) => c.check === "capture")!;
}

Deno.test("pause: hooks record, note and nudge nothing until resume; touches and doctor say so", async () => {
  const sb = await sandbox();
  const store = openEmbeddedStore(sb.dbPath);
  await store.putResources([{ resource: issue("memgraph", "memgraph", 1234) }]);
  await store.close();
  try {
    assert.deepEqual(await doctorCapture(sb), {
      check: "capture",
      ok: true,
      detail: "recording",
      fix: "",
    });
    const paused = await sb.rgraph(["pause"]);
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal(
      paused.stdout.trim(),
      "capture is paused until 'rgraph resume': hooks record nothing",
    );

    const printed = await hooks(sb);
    assert.deepEqual(printed, ["", "", "", "", ""], "no Nudge while paused");
    assert.equal(await touchCount(sb), 0);
    assert.deepEqual(notes(sb), []);
    // A Cache Read is answered but not recorded.
    const lookup = await sb.rgraph(["lookup", "memgraph/memgraph#1234"]);
    assert.match(lookup.stdout, /^rgraph: hit /);
    assert.equal(await touchCount(sb), 0);
    // The session hint records nothing: it is still given.
    const hint = await sb.rgraph(["hook", "claude-code"], {
      stdin: payload("claude-code", "session_start"),
    });
    assert.match(hint.stdout, /additionalContext/);

    const table = await sb.rgraph(["touches"]);
    assert.equal(
      table.stdout,
      "capture is paused until 'rgraph resume': hooks record nothing\n\nno Touches yet\n",
    );
    const status = await sb.rgraph(["status"]);
    assert.match(status.stdout, /^capture is paused until 'rgraph resume': hooks record nothing$/m);
    const statusJson = JSON.parse((await sb.rgraph(["status", "--json"])).stdout);
    assert.equal(statusJson.capture.paused, true);
    assert.equal(statusJson.capture.until, null);
    const check = await doctorCapture(sb);
    assert.equal(check.ok, true, "a pause is a choice, not a failure");
    assert.match(check.detail, /^paused until 'rgraph resume': hooks record nothing/);

    const resumed = await sb.rgraph(["resume"]);
    assert.equal(resumed.stdout.trim(), "capture resumed: hooks record again");
    const after = await hooks(sb);
    assert.match(after[0], /is in memory/, "the Nudge is back");
    assert.equal(await touchCount(sb), 6);
    assert.equal(notes(sb).length, 1);
    assert.ok(!(await sb.rgraph(["touches"])).stdout.includes("paused"));
    assert.ok(!(await sb.rgraph(["status"])).stdout.includes("paused"));
    assert.equal(
      (await sb.rgraph(["resume"])).stdout.trim(),
      "capture was not paused: hooks record",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pause --for ends by itself; a bad duration is a usage error", async () => {
  const sb = await sandbox();
  try {
    const bad = await sb.rgraph(["pause", "--for", "soon"]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^rgraph pause: --for takes a duration like 30m, 2h or 1d, not 'soon'\n$/,
    );
    assert.equal((await sb.rgraph(["pause", "--for", "0m"])).code, 2);
    assert.deepEqual(pauseState(`${sb.dir}/data/rgraph`), { paused: false });

    const r = await sb.rgraph(["pause", "--for", "2s", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const state = JSON.parse(r.stdout);
    assert.equal(state.paused, true);
    const ends = Date.parse(state.until) - Date.parse(state.since);
    assert.ok(Math.abs(ends - 2000) < 50, `ends 2 s after it began (${ends} ms)`);
    await hooks(sb);
    assert.equal(await touchCount(sb), 0);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(state.until) - Date.now() + 50));
    assert.deepEqual(pauseState(`${sb.dir}/data/rgraph`), { paused: false });
    await hooks(sb);
    assert.equal(await touchCount(sb), 6, "recording again once the pause ended");
    assert.equal((await doctorCapture(sb)).detail, "recording");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("an unreadable pause file keeps capture paused until resume (fail closed)", async () => {
  const sb = await sandbox();
  try {
    const dataDir = `${sb.dir}/data/rgraph`;
    await Deno.mkdir(dataDir, { recursive: true });
    await Deno.writeTextFile(pauseFilePath(dataDir), "{half a pa");
    assert.deepEqual(pauseState(dataDir), { paused: true, since: null, until: null });
    await hooks(sb);
    assert.equal(await touchCount(sb), 0);
    assert.equal((await sb.rgraph(["resume"])).code, 0);
    await hooks(sb);
    assert.equal(await touchCount(sb), 6);
  } finally {
    await sb.cleanup();
  }
});
