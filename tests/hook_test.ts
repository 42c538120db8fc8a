/**
 * End-to-end capture: real `rgraph hook` processes fed realistic payloads of
 * all seven harnesses, then `rgraph touches --json` read back as a person
 * would. Also the session hint and the Nudge as each harness receives them,
 * and the hook's failure behaviour (always exit 0, nothing on stdout but
 * valid output, problems in the log).
 */

import assert from "node:assert/strict";
import { bashCallPayload, RGRAPH_FLAGS, type RunResult, type Sandbox, sandbox } from "./helpers.ts";
import { HARNESS_NAMES, HARNESSES } from "../lib/capture/harness/mod.ts";
import type { HarnessName, ToolStartEvent } from "../lib/capture/harness/event.ts";
import { nudgeText, sessionHint } from "../lib/capture/nudge.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { itemAddress } from "../lib/address/key.ts";
import type { IssueResource } from "../lib/types.ts";

const FIXTURES = new URL("../fixtures/payloads/", import.meta.url);

function payload(harness: HarnessName, name: string): string {
  return Deno.readTextFileSync(new URL(`${harness}/${name}.json`, FIXTURES));
}

/** Copilot's camelCase payloads do not name their event: the hook command does. */
function eventFlag(harness: HarnessName, name: string): string[] {
  if (harness !== "copilot" || name.startsWith("vscode")) return [];
  if (name.startsWith("pre_tool_use")) return ["--event", "preToolUse"];
  if (name.startsWith("user_prompt")) return ["--event", "userPromptSubmitted"];
  return ["--event", "sessionStart"];
}

function hook(sb: Sandbox, harness: HarnessName, name: string, extra: string[] = []) {
  return sb.rgraph(["hook", harness, ...eventFlag(harness, name), ...extra], {
    stdin: payload(harness, name),
  });
}

interface TouchJson {
  address: string;
  kind: string;
  limit: number | null;
  provenance: string;
  status: string;
  session_id: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  recorded_at: string;
  harness: string | null;
  tool_name: string | null;
  reason: string | null;
  outcome: string | null;
}

async function touches(sb: Sandbox, args: string[] = [], env?: Record<string, string>) {
  const r = await sb.rgraph(["touches", "--json", ...args], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as TouchJson[];
}

/** [provenance, address, limit, tool_name, tool_use_id, agent_id] */
type Row = [string, string, number | null, string | null, string | null, string | null];

const rows = (ts: TouchJson[]): Row[] =>
  ts.map((t) => [t.provenance, t.address, t.limit, t.tool_name, t.tool_use_id, t.agent_id]);

const byText = (a: Row, b: Row) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;

/** What each harness's fixtures must record, and their sessions. */
const EXPECTED: Record<HarnessName, { session: string; rows: Row[] }> = {
  "claude-code": {
    session: "3f1c2a9e-7b4d-4e8a-9c1f-5d2e8b7a6c40",
    rows: [
      [
        "FETCHED",
        "github:memgraph/memgraph/issues?label=bug&state=open",
        500,
        "Bash",
        "toolu_01Pq8RsT2uVwXy3Za4Bc5DeF",
        null,
      ],
      [
        "FETCHED",
        "github:memgraph/memgraph#1234",
        null,
        "Bash",
        "toolu_01HkQ7b3Jc9uWv2XyZaB4cDe",
        null,
      ],
      [
        "FETCHED",
        "github:memgraph/memgraph#1234",
        null,
        "mcp__github__issue_read",
        "toolu_01Vw3Xy4Za5Bc6De7Fg8Hi9J",
        null,
      ],
      [
        "FETCHED",
        "github:memgraph/memgraph#1234",
        null,
        "Bash",
        "toolu_01Kl2Mn3Op4Qr5St6Uv7Wx8Y",
        "a7c3e1f0-2b9d-4c5e-8f6a-1d0b3e2c4f5a",
      ],
      [
        "FETCHED",
        "github:denoland/deno#21000",
        null,
        "WebFetch",
        "toolu_01Gh6Ij7Kl8Mn9Op0Qr1St2U",
        null,
      ],
      ["PROMPTED", "github:memgraph/memgraph#1234", null, null, null, null],
      ["PROMPTED", "github:memgraph/memgraph#1240", null, null, null, null],
      ["PROMPTED", "github:denoland/deno#21000", null, null, null, null],
    ],
  },
  codex: {
    session: "0199a3f2-5c1e-7d40-b8e2-3a9f6c1d2e7b",
    rows: [
      ["FETCHED", "github:openai/codex#2900", null, "Bash", "call_Qm8vX2kL9pR4tY7wZ1aB3cD5", null],
      ["FETCHED", "github:openai/codex#2847", null, "shell", "call_Hs5nJ7mK2qW9eR4tY6uI8oP0", null],
      [
        "FETCHED",
        "github:openai/codex#2847",
        null,
        "mcp__github__get_issue",
        "call_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8",
        "agent_7f3e",
      ],
      ["PROMPTED", "github:openai/codex#2847", null, null, null, null],
      ["PROMPTED", "github:openai/codex#2900", null, null, null, null],
    ],
  },
  copilot: {
    session: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    rows: [
      ["FETCHED", "github:cli/cli#9000", null, "bash", null, null],
      ["FETCHED", "github:cli/cli#9010", null, "web_fetch", null, null],
      ["FETCHED", "github:cli/cli#8990", null, "bash", null, null],
      ["PROMPTED", "github:cli/cli#9000", null, null, null, null],
      ["PROMPTED", "github:cli/cli#8990", null, null, null, null],
    ],
  },
  cursor: {
    session: "c0f3e2a1-9b8d-4c7e-a6f5-3e2d1c0b9a87",
    rows: [
      ["FETCHED", "github:vercel/next.js#58000", null, "mcp__github__issue_read", null, null],
      ["FETCHED", "github:vercel/next.js/pulls?state=merged", 20, "Shell", null, null],
      [
        "FETCHED",
        "github:vercel/next.js#58123",
        null,
        "Shell",
        "toolu_vrtx_01AbCdEfGhIjKlMnOpQrStUv",
        null,
      ],
      ["PROMPTED", "github:vercel/next.js#58000", null, null, null, null],
      ["PROMPTED", "github:vercel/next.js#58123", null, null, null, null],
    ],
  },
  opencode: {
    session: "ses_6f1a2b3c4d5eFgHiJkLmNoPq",
    rows: [
      ["FETCHED", "github:sst/opencode#4500", null, "bash", "toolu_01XyZaBcDeFgHiJkLmNoPqRs", null],
      [
        "FETCHED",
        "github:sst/opencode#4600",
        null,
        "mcp__github__get_pull_request",
        "toolu_01LlMmNnOoPpQqRrSsTtUuVv",
        null,
      ],
      [
        "FETCHED",
        "github:sst/opencode/issues?label=bug&state=open",
        25,
        "webfetch",
        "toolu_01AaBbCcDdEeFfGgHhIiJjKk",
        null,
      ],
      // The plugin passes the agent OpenCode names at chat.message's output.message.
      ["PROMPTED", "github:sst/opencode#4500", null, null, null, "build"],
      ["PROMPTED", "github:sst/opencode#4600", null, null, null, "build"],
    ],
  },
  gemini: {
    session: "b6f2d8e4-1a3c-4e5f-9a7b-2c4d6e8f0a1b",
    rows: [
      [
        "FETCHED",
        "github:google-gemini/gemini-cli#5010",
        null,
        "mcp__github__pull_request_read",
        null,
        null,
      ],
      ["FETCHED", "github:google-gemini/gemini-cli", null, "run_shell_command", null, null],
      ["FETCHED", "github:google-gemini/gemini-cli#5000", null, "web_fetch", null, null],
      ["PROMPTED", "github:google-gemini/gemini-cli#5000", null, null, null, null],
    ],
  },
  grok: {
    session: "grok-4b2e9c1d-7f3a-4e6b-8d0c-5a1f2e3d4c6b",
    rows: [
      ["FETCHED", "github:xai-org/grok-1", null, "run_terminal_command", "call_grok_01", null],
      [
        "FETCHED",
        "github:xai-org/grok-1/issues?state=all",
        100,
        "run_terminal_command",
        null,
        null,
      ],
      ["PROMPTED", "github:xai-org/grok-1#150", null, null, null, null],
    ],
  },
};

function fixtureNames(harness: HarnessName): string[] {
  return [...Deno.readDirSync(new URL(`${harness}/`, FIXTURES))]
    .map((e) => e.name.replace(/\.json$/, ""))
    .sort();
}

function assertValidOutput(r: RunResult, what: string) {
  assert.equal(r.code, 0, `${what}: exit ${r.code} ${r.stderr}`);
  if (r.stdout.trim() !== "") JSON.parse(r.stdout);
}

for (const harness of HARNESS_NAMES) {
  Deno.test(`hook ${harness}: every fixture exits 0; touches --json shows exactly the GitHub reads and links`, async () => {
    const sb = await sandbox();
    try {
      for (const name of fixtureNames(harness)) {
        const r = await hook(sb, harness, name);
        assertValidOutput(r, name);
        const adapter = HARNESSES[harness];
        const hint = adapter.renderSessionHint(sessionHint(adapter.resourceTool));
        if (name === "session_start") {
          assert.equal(r.stdout, hint === null ? "" : `${hint}\n`, name);
        } else assert.equal(r.stdout, "", `${name}: nothing in memory, so no Nudge`);
      }
      const ts = await touches(sb);
      assert.deepEqual(rows(ts).sort(byText), [...EXPECTED[harness].rows].sort(byText));
      for (const t of ts) {
        assert.equal(t.session_id, EXPECTED[harness].session);
        assert.equal(t.harness, harness);
        assert.equal(t.status, "pending");
        assert.equal(
          t.kind,
          t.address.includes("?") ? "listing" : t.address.includes("#") ? "item" : "repository",
        );
        assert.ok(!Number.isNaN(Date.parse(t.recorded_at)));
      }
      // Re-delivery of every payload records nothing new.
      for (const name of fixtureNames(harness)) {
        assertValidOutput(await hook(sb, harness, name), name);
      }
      assert.equal((await touches(sb)).length, ts.length);
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("touches: newest first, --session filters, the table names what was read", async () => {
  const sb = await sandbox();
  try {
    await hook(sb, "claude-code", "bash_gh_issue_view");
    await hook(sb, "gemini", "before_tool_shell_gh");
    const all = await touches(sb);
    assert.deepEqual(all.map((t) => t.address), [
      "github:google-gemini/gemini-cli",
      "github:memgraph/memgraph#1234",
    ]);
    assert.ok(all[0].recorded_at >= all[1].recorded_at);
    const gem = await touches(sb, ["--session", EXPECTED.gemini.session]);
    assert.deepEqual(gem.map((t) => t.address), ["github:google-gemini/gemini-cli"]);
    const table = await sb.rgraph(["touches"]);
    assert.equal(table.code, 0);
    assert.match(table.stdout, /FETCHED\s+pending\s+github:memgraph\/memgraph#1234/);
    assert.match(table.stdout, /github:google-gemini\/gemini-cli\s+gemini run_shell_command/);
    const none = await sb.rgraph(["touches", "--session", "nope"]);
    assert.equal(none.stdout.trim(), "no Touches yet");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("gh without -R: the repository comes from the working directory's git remote", async () => {
  const sb = await sandbox();
  try {
    const repo = `${sb.dir}/work/app`;
    await Deno.mkdir(`${repo}/.git`, { recursive: true });
    await Deno.mkdir(`${repo}/src`);
    await Deno.writeTextFile(
      `${repo}/.git/config`,
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Memgraph/Mage.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    const p = JSON.parse(payload("claude-code", "bash_gh_issue_view"));
    p.cwd = `${repo}/src`;
    p.tool_input.command = "gh issue view 77 --comments";
    const r = await sb.rgraph(["hook", "claude-code"], { stdin: JSON.stringify(p) });
    assert.equal(r.code, 0);
    assert.deepEqual((await touches(sb)).map((t) => t.address), ["github:memgraph/mage#77"]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("two users on one store: each sees only their own Touches", async () => {
  const sb = await sandbox({ userId: "alice" });
  try {
    const bobConfig = `${sb.dir}/bob.toml`;
    await Deno.writeTextFile(
      bobConfig,
      `[identity]\nuser_id = "bob"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n`,
    );
    const asBob = { RGRAPH_CONFIG: bobConfig };
    await hook(sb, "claude-code", "bash_gh_issue_view");
    const r = await sb.rgraph(["hook", "codex"], {
      stdin: payload("codex", "bash_gh_pr_view"),
      env: asBob,
    });
    assert.equal(r.code, 0);
    // Bob's agent reads the same issue in the same session as Alice's: still his own Touch.
    await sb.rgraph(["hook", "claude-code"], {
      stdin: payload("claude-code", "bash_gh_issue_view"),
      env: asBob,
    });
    const alice = await touches(sb);
    const bob = await touches(sb, [], asBob);
    assert.deepEqual(alice.map((t) => t.address), ["github:memgraph/memgraph#1234"]);
    assert.deepEqual(bob.map((t) => t.address).sort(), [
      "github:memgraph/memgraph#1234",
      "github:openai/codex#2900",
    ]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("no identity: touches refuses with one line; the hook records nothing, exits 0 and logs why", async () => {
  const sb = await sandbox({ userId: null });
  try {
    const t = await sb.rgraph(["touches", "--json"]);
    assert.notEqual(t.code, 0);
    assert.equal(t.stdout, "");
    assert.equal(t.stderr.trim().split("\n").length, 1);
    assert.match(t.stderr, /user_id/);
    const h = await hook(sb, "claude-code", "bash_gh_issue_view");
    assert.deepEqual([h.code, h.stdout], [0, ""]);
    const log = await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`);
    assert.match(log, /claude-code: no \[identity\] user_id/);
    // Nothing was written under any identity either.
    await sb.writeConfig(
      `[identity]\nuser_id = "alice"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n`,
    );
    assert.deepEqual(await touches(sb), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("malformed config: the hook exits 0, prints nothing and logs one line; touches fails clearly", async () => {
  const sb = await sandbox();
  try {
    await sb.writeConfig('[identity]\nuser_id = "alice\n[store]\npath = 3\n');
    for (const name of ["session_start", "bash_gh_issue_view"]) {
      const r = await hook(sb, "claude-code", name);
      assert.deepEqual([r.code, r.stdout], [0, ""], name);
    }
    const log = (await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`)).trim().split("\n");
    assert.equal(log.length, 2);
    for (const line of log) {
      assert.match(line, /^\d{4}-\d\d-\d\dT[\d:.]+Z claude-code: config .*not valid TOML/);
    }
    const t = await sb.rgraph(["touches"]);
    assert.equal(t.code, 1);
    assert.match(t.stderr, /not valid TOML/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a config file that is not UTF-8: the hook logs it and records nothing under a mangled id; commands fail in one line", async () => {
  const sb = await sandbox();
  try {
    // Recorded once with a good file, so the hook's config cache holds a valid entry.
    assert.equal((await hook(sb, "claude-code", "bash_gh_issue_view")).code, 0);
    assert.equal((await touches(sb)).length, 1);
    const enc = new TextEncoder();
    const bytes = [
      ...enc.encode('[identity]\nuser_id = "al'),
      0xff,
      ...enc.encode(`ice"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n`),
    ];
    await Deno.writeFile(sb.configPath, new Uint8Array(bytes));
    const r = await hook(sb, "claude-code", "bash_gh_issue_view");
    assert.deepEqual([r.code, r.stdout], [0, ""]);
    const log = await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`);
    assert.match(log, /claude-code: config .*config\.toml: not valid UTF-8 \(line 2\)/);
    for (const args of [["touches"], ["stats"], ["lookup", "o/r#1"], ["sweep"]]) {
      const c = await sb.rgraph(args);
      assert.equal(c.code, 1, args[0]);
      assert.equal(c.stdout, "", args[0]);
      assert.equal(
        c.stderr,
        `rgraph ${
          args[0]
        }: config ${sb.configPath}: not valid UTF-8 (line 2): save it as UTF-8 text\n`,
      );
    }
    // Read with the bytes as U+FFFD, the id would have been "al\uFFFDice": nothing is stored under it.
    await sb.writeConfig(
      `[identity]\nuser_id = "al\uFFFDice"\n[store]\npath = ${JSON.stringify(sb.dbPath)}\n`,
    );
    assert.deepEqual(await touches(sb), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("bad input to the hook: unknown harness, unknown flag, non-JSON, a broken store — exit 0, no stdout, logged", async () => {
  const sb = await sandbox();
  try {
    const cases: Array<[string[], string, RegExp]> = [
      [["hook", "vim"], payload("claude-code", "bash_gh_issue_view"), /unknown harness 'vim'/],
      [["hook", "claude-code", "--bogus"], "{}", /--bogus/],
      [["hook", "claude-code"], "not json {", /not JSON/],
    ];
    for (const [args, stdin, logged] of cases) {
      const r = await sb.rgraph(args, { stdin });
      assert.deepEqual([r.code, r.stdout], [0, ""], args.join(" "));
      assert.match(await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`), logged);
    }
    await Deno.mkdir(`${sb.dir}/data/rgraph`, { recursive: true });
    await Deno.writeTextFile(
      sb.dbPath,
      "this is not a SQLite database, just some text ".repeat(100),
    );
    const r = await hook(sb, "claude-code", "bash_gh_issue_view");
    assert.deepEqual([r.code, r.stdout], [0, ""]);
    assert.match(await Deno.readTextFile(`${sb.dir}/data/rgraph/hook.log`), /not a database/);
  } finally {
    await sb.cleanup();
  }
});

/** Stores issue memgraph/memgraph#1234 (fetched 3 days ago) through the store API. */
async function storeIssue(dbPath: string) {
  const day = 86_400_000;
  const issue: IssueResource = {
    kind: "issue",
    node_id: "I_kwDOAmemgraph1234",
    address: "github:memgraph/memgraph#1234",
    owner: "memgraph",
    repo: "memgraph",
    url: "https://github.com/memgraph/memgraph/issues/1234",
    fetched_at: new Date(Date.now() - 3 * day - 3_600_000).toISOString(),
    updated_at: new Date(Date.now() - 5 * day - 3_600_000).toISOString(),
    number: 1234,
    title: 'Segfault in MATCH with "quoted" labels',
    body: "Steps to reproduce…",
    state: "open",
    author: "octocat",
    labels: ["bug"],
    assignees: [],
    milestone: null,
    created_at: "2026-01-05T10:00:00.000Z",
    closed_at: null,
    comment_count: 0,
    comments: [],
    referenced_by: [],
  };
  const store = openEmbeddedStore(dbPath);
  try {
    await store.putResources([{ resource: issue }]);
    return await nudgeText(store, itemAddress("memgraph", "memgraph", 1234), new Date());
  } finally {
    await store.close();
  }
}

/** A tool start per harness that reads memgraph/memgraph#1234. */
function readOfStoredIssue(harness: HarnessName): { args: string[]; stdin: string } {
  const p = JSON.parse(payload(
    harness,
    {
      "claude-code": "bash_gh_issue_view",
      codex: "bash_gh_pr_view",
      copilot: "pre_tool_use_bash_gh",
      cursor: "before_shell_gh_pr_list",
      opencode: "tool_bash_gh",
      gemini: "before_tool_shell_gh",
      grok: "pre_tool_terminal_gh_list",
    }[harness],
  ));
  const command = "gh issue view 1234 --repo memgraph/memgraph";
  if (harness === "copilot") p.toolArgs = JSON.stringify({ command });
  else if (harness === "cursor") p.command = command;
  else if (harness === "opencode") p.args = { command };
  else if (harness === "grok") p.toolInput = { command };
  else p.tool_input = { command };
  return {
    args: ["hook", harness, ...(harness === "copilot" ? ["--event", "preToolUse"] : [])],
    stdin: JSON.stringify(p),
  };
}

Deno.test("Nudge: a fetch of something in memory gets one context line where the harness takes one", async () => {
  const sb = await sandbox();
  try {
    const line = await storeIssue(sb.dbPath);
    assert.ok(line !== null);
    assert.match(
      line,
      /^memgraph\/memgraph#1234 is in memory, fetched 3d ago, updated on GitHub 5d ago/,
    );
    for (const harness of HARNESS_NAMES) {
      const { args, stdin } = readOfStoredIssue(harness);
      const r = await sb.rgraph(args, { stdin });
      assert.equal(r.code, 0);
      const expected = HARNESSES[harness].renderNudge(line, {} as ToolStartEvent);
      assert.equal(r.stdout, expected === null ? "" : `${expected}\n`, harness);
    }
    // The fetch still counts: every harness recorded its Touch.
    const ts = await touches(sb);
    assert.deepEqual(new Set(ts.map((t) => t.harness)), new Set(HARNESS_NAMES));
    assert.ok(ts.every((t) => t.address === "github:memgraph/memgraph#1234"));
    // No Nudge on a miss, nor for rgraph's own resource tool, nor for a prompt.
    for (const name of ["bash_gh_issue_list", "resource_tool", "prompt_links"]) {
      const r = await hook(sb, "claude-code", name);
      assert.deepEqual([r.code, r.stdout], [0, ""], name);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("rgraph's own hint and Nudges handed back inside a prompt (Gemini CLI's <hook_context>) name nothing", async () => {
  const sb = await sandbox();
  try {
    const line = await storeIssue(sb.dbPath);
    const gemini = HARNESSES.gemini;
    const p = JSON.parse(payload("gemini", "before_agent"));
    p.prompt = `<hook_context>${sessionHint(gemini.resourceTool)}\n${line}</hook_context>\n` +
      "look at https://github.com/lumendb/lumen/issues/8";
    const r = await sb.rgraph(["hook", "gemini"], { stdin: JSON.stringify(p) });
    assert.deepEqual([r.code, r.stdout], [0, ""], r.stderr);
    assert.deepEqual(
      (await touches(sb)).map((t) => [t.provenance, t.address]),
      [["PROMPTED", "github:lumendb/lumen#8"]],
      "the Nudge's memgraph/memgraph#1234 is rgraph's text, not the person's",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the resource tool call records no FETCHED Touch (its Cache Read is the MCP server's)", async () => {
  const sb = await sandbox();
  try {
    const r = await hook(sb, "claude-code", "resource_tool");
    assert.deepEqual([r.code, r.stdout], [0, ""]);
    assert.deepEqual(await touches(sb), []);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("commands/hook.ts runs as its own entry point, as the hook does through main.ts", async () => {
  const sb = await sandbox();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...RGRAPH_FLAGS,
        new URL("../commands/hook.ts", import.meta.url).pathname,
        "claude-code",
      ],
      env: sb.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(payload("claude-code", "session_start")));
    await w.close();
    const out = await child.output();
    assert.equal(out.code, 0);
    const hint = HARNESSES["claude-code"].renderSessionHint(
      sessionHint(HARNESSES["claude-code"].resourceTool),
    );
    assert.equal(new TextDecoder().decode(out.stdout), `${hint}\n`);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("many hooks in a row: every Touch is recorded and the store's write-ahead log stays short", async () => {
  const sb = await sandbox();
  try {
    // About three times the log the hook leaves behind before folding it in (see hook.ts).
    const calls = 40;
    let longest = 0;
    for (let n = 1; n <= calls; n++) {
      const r = await sb.rgraph(["hook", "claude-code"], {
        stdin: bashCallPayload(`gh issue view ${n} -R o/r`, {
          session: "many",
          toolUse: `toolu_many_${n}`,
          cwd: sb.dir,
        }),
      });
      assert.equal(r.code, 0, r.stderr);
      const wal = await Deno.stat(`${sb.dbPath}-wal`).then((s) => s.size, () => 0);
      longest = Math.max(longest, wal);
    }
    const listed = await touches(sb, ["--session", "many"]);
    assert.equal(listed.length, calls);
    assert.ok(longest < 1024 * 1024, `the write-ahead log grew to ${longest} bytes`);
  } finally {
    await sb.cleanup();
  }
});
