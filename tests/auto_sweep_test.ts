/**
 * Memory fills itself: automatic Sweeps end to end. Touches recorded by real
 * `rgraph hook` processes are swept, with no `rgraph sweep` run by the test,
 * by a real `rgraph serve-mcp` (through a real MCP client) or by the
 * session-end command each harness's config gets from `rgraph install`, fed
 * that harness's end-of-session payload; against the GitHub emulator, whose
 * request counts say what was fetched. What a person sees is read back with
 * `rgraph touches --json`, `lookup`, `status` and `sweep.log`.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { rgraphCommand, type Sandbox, sandbox } from "./helpers.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { sweepDue } from "../lib/sweep/background.ts";
import { EMPTY_RECORD } from "../lib/sweep/record.ts";
import type { StatusReport } from "../lib/sweep/mod.ts";

const PY = `${FACTS.pythonClient.owner}/${FACTS.pythonClient.name}`;
const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;

interface TouchJson {
  address: string;
  status: string;
  reason: string | null;
}

interface World {
  gh: Emulator;
  sb: Sandbox;
  /** Records a FETCHED Touch the way Claude Code's Bash tool call is captured. */
  fetched(command: string): Promise<void>;
  touches(): Promise<TouchJson[]>;
  status(): Promise<StatusReport>;
  /** The lines automatic Sweeps wrote to `sweep.log`. */
  log(): Promise<string[]>;
  /** A running `rgraph serve-mcp` with a connected MCP client. */
  serve(): Promise<Client>;
  /** Runs the session-end command as a harness with nothing on stdin would. */
  sessionEnd(): Promise<Deno.CommandOutput>;
  /** Waits until no Sweep of the machine runs, then removes everything. */
  close(): Promise<void>;
}

let toolUse = 0;

async function world(
  options: { token?: boolean; anonymousLimit?: number; sweep?: string; latencyMs?: number } = {},
): Promise<World> {
  const gh = await startEmulator({
    anonymousLimit: options.anonymousLimit,
    latencyMs: options.latencyMs,
  });
  const token = options.token === false ? "" : `token = "${gh.token}"\n`;
  const extra = `[github]\n${token}api_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n` +
    (options.sweep === undefined ? "" : `[sweep]\n${options.sweep}\n`);
  const sb = await sandbox({ extra });
  const clients: Client[] = [];
  const dataDir = `${sb.env.XDG_DATA_HOME}/rgraph`;
  const w: World = {
    gh,
    sb,
    async fetched(command) {
      const r = await sb.rgraph(["hook", "claude-code"], {
        stdin: JSON.stringify({
          session_id: "s1",
          cwd: sb.dir,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command },
          tool_use_id: `toolu_auto_${++toolUse}`,
        }),
      });
      assert.equal(r.code, 0, r.stderr);
    },
    async touches() {
      const r = await sb.rgraph(["touches", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as (TouchJson & { status: string })[])
        .filter((t) => t.status !== "served");
    },
    async status() {
      const r = await sb.rgraph(["status", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    },
    async log() {
      try {
        return (await Deno.readTextFile(`${dataDir}/sweep.log`)).trim().split("\n");
      } catch {
        return [];
      }
    },
    async serve() {
      const { command, args } = rgraphCommand();
      const client = new Client({ name: "claude-code", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command,
          args: [...args, "serve-mcp"],
          env: sb.env,
          cwd: sb.dir,
          stderr: "pipe",
        }),
      );
      clients.push(client);
      return client;
    },
    sessionEnd() {
      const { command, args } = rgraphCommand();
      return new Deno.Command(command, {
        args: [...args, "sweep", "--background"],
        env: sb.env,
        stdin: "null",
      }).output();
    },
    async close() {
      for (const c of clients) await c.close();
      await waitFor(() => w.status(), (s) => s.running === null, 30_000);
      await gh.close();
      await sb.cleanup();
    },
  };
  return w;
}

async function waitFor<T>(f: () => Promise<T>, ok: (t: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await f();
    if (ok(t) || Date.now() > deadline) return t;
    await new Promise((r) => setTimeout(r, 150));
  }
}

const allResolved = (ts: TouchJson[]) => ts.length > 0 && ts.every((t) => t.status === "resolved");

/**
 * Records FETCHED Touches of these issues of the big repository straight into
 * the store (hundreds of hook processes would take minutes), `gapMs` apart.
 */
async function recordReads(sb: Sandbox, numbers: number[], gapMs = 0): Promise<void> {
  const store = openEmbeddedStore(sb.dbPath);
  try {
    for (const n of numbers) {
      await store.recordTouches([{
        user_id: "alice",
        session_id: "reads",
        provenance: "FETCHED",
        address: `github:${BIG}#${n}`,
        kind: "item",
        limit: null,
        tool_name: "Bash",
        tool_use_id: `toolu_read_${n}`,
        agent_id: null,
        harness: "claude-code",
        recorded_at: new Date().toISOString(),
        dedup_key: `read-${n}`,
        status: "pending",
      }]);
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    }
  } finally {
    await store.close();
  }
}

/** The log's lines of automatic Sweeps that took Touches, and the requests each sent. */
function sweepsWithWork(lines: string[]): { line: string; touches: number; requests: number }[] {
  return lines.flatMap((line) => {
    const m = / auto \w+ in [\d.]+ s: swept (\d+) touch(?:es)?: .*; (\d+) GitHub requests/.exec(
      line,
    );
    return m && Number(m[1]) > 0 ? [{ line, touches: Number(m[1]), requests: Number(m[2]) }] : [];
  });
}

Deno.test("while serve-mcp runs, what the hooks record is swept in the background: lookup and resource hit, no rgraph sweep run", async () => {
  const w = await world({ sweep: "debounce_seconds = 0.5" });
  try {
    const client = await w.serve();
    await w.fetched(`gh issue list -R ${PY} --state all --limit 50`);
    await w.fetched(`gh issue view 5 -R ${PY} --comments`);
    await w.fetched(`gh repo view ${PY}`);
    const recorded = Date.now();
    const touches = await waitFor(() => w.touches(), allResolved);
    assert.ok(allResolved(touches), JSON.stringify(touches));
    // Within the debounce (0.5 s), the scheduler's next look (0.5 s), the Sweep's own time, and
    // the few process starts between them.
    const sweepSeconds = Number(/ in ([\d.]+) s:/.exec((await w.log())[0] ?? "")?.[1] ?? NaN);
    const waited = (Date.now() - recorded) / 1000;
    assert.ok(waited < 0.5 + 0.5 + sweepSeconds + 4, `resolved ${waited} s after the last read`);

    const look = await w.sb.rgraph(["lookup", "--json", `github:${PY}#7`]);
    assert.equal(JSON.parse(look.stdout).outcome, "hit");
    const answer = await client.callTool({ name: "resource", arguments: { address: `${PY}#5` } });
    assert.match((answer.content as { text: string }[])[0].text, /^rgraph: hit github:/);

    const sweeps = sweepsWithWork(await w.log());
    assert.equal(sweeps.length, 1, (await w.log()).join("\n"));
    // One Listing page with the repository in it, and its README by name: nothing else.
    assert.equal(sweeps[0].requests, 2);
    assert.equal(w.gh.requests().total, 2);
    const status = await w.status();
    assert.equal(status.auto.on, true);
    assert.equal(status.pending.count, 0);
    assert.equal(status.last_sweep?.trigger, "auto");
    assert.equal(status.last_sweep?.outcome, "done");
    assert.equal(status.last_sweep?.resolved, 3);
    assert.equal(status.budget?.source, "graphql");
  } finally {
    await w.close();
  }
});

Deno.test("a burst of 500 Touches is one background Sweep", async () => {
  const w = await world({ sweep: "debounce_seconds = 2" });
  try {
    await w.serve();
    // 500 reads arriving over about 2.5 s, never 2 s apart: no quiet moment until the end.
    await recordReads(w.sb, Array.from({ length: 500 }, (_, i) => i + 1), 5);
    const touches = await waitFor(
      () => w.touches(),
      (ts) => ts.length === 500 && ts.every((t) => t.status !== "pending"),
      60_000,
    );
    assert.ok(touches.every((t) => t.status !== "pending"));
    const sweeps = sweepsWithWork(await w.log());
    assert.deepEqual(sweeps.map((s) => s.touches), [500], (await w.log()).join("\n"));
  } finally {
    await w.close();
  }
});

/** Each harness's end-of-session payload, as its documentation gives it. */
const END_PAYLOADS: Record<string, (cwd: string) => unknown> = {
  "claude-code": (cwd) => ({
    session_id: "s-end",
    transcript_path: `${cwd}/transcript.jsonl`,
    cwd,
    permission_mode: "default",
    hook_event_name: "SessionEnd",
    reason: "prompt_input_exit",
  }),
  codex: (cwd) => ({
    session_id: "s-end",
    transcript_path: null,
    cwd,
    hook_event_name: "SessionEnd",
    model: "gpt-5.1-codex",
    permission_mode: "default",
    reason: "slash_exit",
  }),
  copilot: (cwd) => ({ timestamp: Date.now(), cwd, reason: "complete" }),
  cursor: (cwd) => ({
    conversation_id: "c-end",
    generation_id: "g-end",
    hook_event_name: "sessionEnd",
    workspace_roots: [cwd],
    reason: "completed",
  }),
  gemini: (cwd) => ({
    session_id: "s-end",
    transcript_path: `${cwd}/t.json`,
    cwd,
    hook_event_name: "SessionEnd",
    timestamp: new Date().toISOString(),
    reason: "exit",
  }),
  grok: (cwd) => ({ hookEventName: "SessionEnd", sessionId: "s-end", cwd, workspaceRoot: cwd }),
};

/** Where each harness's session-end command lands after `rgraph install --dir`. */
const END_EVENTS: Record<string, [file: string, event: string, grouped: boolean]> = {
  "claude-code": [".claude/settings.json", "SessionEnd", true],
  codex: [".codex/hooks.json", "SessionEnd", true],
  copilot: [".github/hooks/rgraph.json", "sessionEnd", false],
  cursor: [".cursor/hooks.json", "sessionEnd", false],
  gemini: [".gemini/settings.json", "SessionEnd", true],
  grok: [".grok/hooks/rgraph.json", "SessionEnd", true],
};

Deno.test("each harness's installed session-end command, fed its end-of-session payload, returns within a second and the pending Touches resolve in the background", async () => {
  const w = await world();
  try {
    // Deno compiles a module the first time it loads it; a harness that ends a session has
    // run rgraph before, so time what it sees then, not that one-time compile.
    assert.equal((await w.sb.rgraph(["sweep", "--help"])).code, 0);
    let n = 1;
    for (const [harness, [file, event, grouped]] of Object.entries(END_EVENTS)) {
      const dir = `${w.sb.dir}/${harness}`;
      await Deno.mkdir(dir);
      const installed = await w.sb.rgraph(["install", harness, "--dir", dir]);
      assert.equal(installed.code, 0, installed.stderr);
      const doc = JSON.parse(await Deno.readTextFile(`${dir}/${file}`));
      const entries: { command?: string; bash?: string; hooks?: { command: string }[] }[] =
        doc.hooks[event];
      const handlers = grouped ? entries.flatMap((e) => e.hooks ?? []) : entries;
      assert.equal(handlers.length, 1, `${harness}: ${JSON.stringify(entries)}`);
      const command = (handlers[0] as { command?: string; bash?: string }).command ??
        (handlers[0] as { bash?: string }).bash!;

      await w.fetched(`gh issue view ${n} -R ${PY}`);
      const key = `github:${PY}#${n++}`;
      // As the harness runs it: through a shell, payload on stdin, in the project.
      const started = performance.now();
      const child = new Deno.Command("sh", {
        args: ["-c", command],
        cwd: dir,
        env: w.sb.env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(JSON.stringify(END_PAYLOADS[harness](dir))));
      await writer.close();
      const out = await child.output();
      const took = performance.now() - started;
      assert.equal(out.code, 0, `${harness}: ${new TextDecoder().decode(out.stderr)}`);
      assert.equal(out.stdout.length, 0, `${harness} printed something a harness would read`);
      assert.ok(took < 1000, `${harness}: the session-end command took ${took.toFixed(0)} ms`);

      const touches = await waitFor(
        () => w.touches(),
        (ts) => ts.find((t) => t.address === key)?.status === "resolved",
      );
      assert.equal(touches.find((t) => t.address === key)?.status, "resolved", harness);
    }
    const status = await w.status();
    assert.equal(status.last_sweep?.trigger, "auto");
  } finally {
    await w.close();
  }
});

Deno.test("two serve-mcp processes and a session-end Sweep at once: one Sweep, no request twice", async () => {
  // More Touches than one lease takes, and slow answers: Sweeps side by side would split them.
  const w = await world({ sweep: "debounce_seconds = 0.3", latencyMs: 100 });
  try {
    await recordReads(w.sb, Array.from({ length: 260 }, (_, i) => i + 1));
    w.gh.resetCounts();
    await Promise.all([w.serve(), w.serve(), w.sessionEnd()]);
    const touches = await waitFor(() => w.touches(), allResolved);
    assert.ok(allResolved(touches), JSON.stringify(touches));
    // Let any Sweep started late finish before counting.
    await waitFor(() => w.status(), (s) => s.running === null);
    await new Promise((r) => setTimeout(r, 1500));
    await waitFor(() => w.status(), (s) => s.running === null);
    const sweeps = sweepsWithWork(await w.log());
    assert.equal(sweeps.length, 1, (await w.log()).join("\n"));
    assert.equal(sweeps[0].touches, 260);
    assert.equal(w.gh.requests().total, sweeps[0].requests, "every request the one Sweep's own");
  } finally {
    await w.close();
  }
});

Deno.test("with [sweep] auto = false nothing is fetched until rgraph sweep", async () => {
  const w = await world({ sweep: "auto = false\ndebounce_seconds = 0.3" });
  try {
    await w.serve();
    await w.fetched(`gh issue view 3 -R ${PY}`);
    assert.equal((await w.sessionEnd()).code, 0);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(w.gh.requests().total, 0);
    assert.deepEqual((await w.touches()).map((t) => t.status), ["pending"]);
    const status = await w.status();
    assert.equal(status.auto.on, false);
    assert.equal(status.last_sweep, null);
    const auto = await w.sb.rgraph(["sweep", "--auto"]);
    assert.match(auto.stdout, /automatic Sweeps are off/);
    assert.equal(w.gh.requests().total, 0);
    const text = await w.sb.rgraph(["status"]);
    assert.match(text.stdout, /^automatic Sweeps: off/m);

    const manual = await w.sb.rgraph(["sweep"]);
    assert.equal(manual.code, 0, manual.stderr);
    assert.deepEqual((await w.touches()).map((t) => t.status), ["resolved"]);
    assert.equal((await w.status()).last_sweep?.trigger, "manual");
    assert.deepEqual(await w.log(), [], "a Sweep by hand is not an automatic one");
  } finally {
    await w.close();
  }
});

Deno.test("budget: with 30 of 60 anonymous requests left an automatic Sweep leaves at least 6 unspent; what did not fit is unresolved rate_limited and a later Sweep resolves it", async () => {
  const w = await world({ token: false, anonymousLimit: 60 });
  try {
    // Something else on this machine spent half the hour.
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${w.gh.apiUrl}/repos/${BIG}`);
      await res.body?.cancel();
    }
    const numbers = Array.from({ length: 30 }, (_, i) => 100 + i);
    for (const n of numbers) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    const first = await w.sb.rgraph(["sweep", "--auto", "--json"]);
    assert.equal(first.code, 0, first.stderr);
    const rate = await (await fetch(`${w.gh.apiUrl}/rate_limit`)).json();
    assert.ok(rate.resources.core.remaining >= 6, `${rate.resources.core.remaining} left`);

    let touches = await w.touches();
    const limited = touches.filter((t) => t.status === "unresolved");
    assert.ok(limited.length > 0 && limited.length < numbers.length, JSON.stringify(touches));
    assert.ok(limited.every((t) => t.reason === "rate_limited"));
    assert.ok(!touches.some((t) => t.status === "pending"), "none waits silently pending");
    const status = await w.status();
    assert.equal(status.rate_limited, limited.length);
    assert.equal(status.last_sweep?.outcome, "rate_limited");
    assert.ok(status.retry_at !== null);
    assert.equal(status.budget?.source, "rest");
    const text = await w.sb.rgraph(["status"]);
    assert.match(
      text.stdout,
      new RegExp(`^rate_limited: ${limited.length} touches, retried after`, "m"),
    );

    // The hour is over: the next automatic Sweep takes them up again.
    w.gh.resetBudget();
    const second = await w.sb.rgraph(["sweep", "--auto", "--json"]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).touches, limited.length, "only the rate-limited ones");
    touches = await w.touches();
    assert.ok(allResolved(touches), JSON.stringify(touches));
    const lines = await w.log();
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[0], / auto rate_limited in /);
    assert.match(lines[1], / auto done in /);
  } finally {
    await w.close();
  }
});

Deno.test("an automatic Sweep that fails (a refused token) says so in status and the log, never with the token", async () => {
  const w = await world({ sweep: "debounce_seconds = 0.3" });
  try {
    const secret = "ghp_refusedSecret0123456789";
    const config = await Deno.readTextFile(w.sb.configPath);
    await w.sb.writeConfig(config.replace(`token = "${w.gh.token}"`, `token = "${secret}"`));
    await w.fetched(`gh issue view 3 -R ${PY}`);
    const r = await w.sb.rgraph(["sweep", "--auto"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /refused the token/);
    const status = await w.status();
    assert.equal(status.last_sweep?.outcome, "failed");
    assert.match(status.last_error?.message ?? "", /refused the token/);
    assert.ok(status.retry_at !== null, "an automatic retry waits a while");
    assert.deepEqual((await w.touches()).map((t) => t.status), ["pending"]);
    const dataDir = `${w.sb.env.XDG_DATA_HOME}/rgraph`;
    const shown = [
      JSON.stringify(status),
      (await w.sb.rgraph(["status"])).stdout,
      await Deno.readTextFile(`${dataDir}/sweep.log`),
      await Deno.readTextFile(`${dataDir}/sweep-status.json`),
    ];
    for (const text of shown) assert.ok(!text.includes(secret), text);
    assert.match(shown[2], / auto failed in [\d.]+ s: .*refused the token/);
  } finally {
    await w.close();
  }
});

Deno.test("doctor warns when, with automatic Sweeps on, a Touch has waited over an hour", async () => {
  const w = await world();
  try {
    const store = openEmbeddedStore(w.sb.dbPath);
    try {
      await store.recordTouches([{
        user_id: "alice",
        session_id: "old",
        provenance: "FETCHED",
        address: `github:${PY}#3`,
        kind: "item",
        limit: null,
        tool_name: "Bash",
        tool_use_id: null,
        agent_id: null,
        harness: "claude-code",
        recorded_at: new Date(Date.now() - 2 * 3600_000).toISOString(),
        dedup_key: "old-1",
        status: "pending",
      }]);
    } finally {
      await store.close();
    }
    const doctor = async () => {
      const r = await w.sb.rgraph(["doctor", "--json", "--dir", w.sb.dir]);
      const checks = JSON.parse(r.stdout) as { check: string; ok: boolean; warning?: boolean }[];
      return { code: r.code, check: checks.find((c) => c.check === "automatic sweep") };
    };
    const waited = await doctor();
    assert.equal(waited.check?.warning, true, JSON.stringify(waited));
    assert.equal(waited.check?.ok, true, "a warning, not a failure");
    assert.equal(waited.code, 0);
    const text = await w.sb.rgraph(["doctor", "--dir", w.sb.dir]);
    assert.match(text.stdout, /^WARN automatic sweep: on, but 1 Touch has waited since 2h ago/m);

    assert.equal((await w.sb.rgraph(["sweep"])).code, 0);
    const fine = await doctor();
    assert.equal(fine.check?.warning, undefined, JSON.stringify(fine));
    assert.equal(fine.check?.ok, true);
    assert.doesNotMatch(JSON.stringify(fine.check), /last error/, "a clean Sweep met nothing");

    // GitHub keeps failing on the next item: that Sweep ends incomplete, and doctor says what it met.
    const [owner, name] = PY.split("/");
    w.gh.faultItem(owner, name, 5, { kind: "request", failure: 502 });
    const again = openEmbeddedStore(w.sb.dbPath);
    try {
      await again.recordTouches([{
        user_id: "alice",
        session_id: "new",
        provenance: "FETCHED",
        address: `github:${PY}#5`,
        kind: "item",
        limit: null,
        tool_name: "Bash",
        tool_use_id: null,
        agent_id: null,
        harness: "claude-code",
        recorded_at: new Date().toISOString(),
        dedup_key: "new-1",
        status: "pending",
      }]);
    } finally {
      await again.close();
    }
    assert.equal((await w.sb.rgraph(["sweep"])).code, 0);
    const met = await doctor();
    assert.equal(met.check?.warning, undefined, "not yet a warning: nothing has waited an hour");
    assert.match(
      JSON.stringify(met.check),
      /1 pending; last Sweep just now, incomplete; last error just now: /,
    );
  } finally {
    await w.close();
  }
});

Deno.test("the scheduler's rule: a quiet moment after new Touches, a long burst, or the retry time; never before it", () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const now = Date.parse("2026-12-01T12:00:00Z");
  const signal = (oldest: number, newest: number, fresh = 1) => ({
    fresh,
    oldest: at(oldest),
    newest: at(newest),
    waiting: true,
  });
  const none = { fresh: 0, oldest: null, newest: null, waiting: true };
  const base = { now, record: EMPTY_RECORD, debounceMs: 1000 };
  assert.equal(
    sweepDue({ ...base, signal: signal(now - 500, now - 500) }),
    false,
    "still arriving",
  );
  assert.equal(sweepDue({ ...base, signal: signal(now - 5000, now - 1000) }), true, "quiet");
  assert.equal(sweepDue({ ...base, signal: signal(now - 10_000, now - 10) }), true, "overdue");
  assert.equal(sweepDue({ ...base, signal: none }), false, "nothing new, nothing to retry");
  const retry = (ms: number) => ({ ...EMPTY_RECORD, retry_at: at(ms) });
  assert.equal(
    sweepDue({ ...base, record: retry(now + 60_000), signal: signal(now - 5000, now - 5000) }),
    false,
    "not before the retry time, even with new Touches",
  );
  assert.equal(sweepDue({ ...base, record: retry(now - 1), signal: none }), true, "retry");
  assert.equal(
    sweepDue({ ...base, record: retry(now - 1), signal: { ...none, waiting: false } }),
    false,
    "nothing left to retry",
  );
});
