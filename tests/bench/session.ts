/**
 * Session benchmark (issue 28): a 200-call session of a realistic tool mix
 * per harness — reads, edits, searches, todo updates, shell commands,
 * subagents, and about 10% GitHub reads of each form (`gh` in the shell, a
 * subagent's `gh`, a web fetch of github.com, a GitHub MCP tool, rgraph's
 * `resource`) — replayed through the hooks `rgraph install` wrote, as that
 * harness dispatches them: its matcher applied as the harness reads one
 * (`*` or none: every tool; letters, digits, `_` and `|`: exact names;
 * anything else: an unanchored regular expression), Cursor's events fired
 * for each call, Copilot's command started for every call (its gate decides
 * in `sh`), OpenCode's installed plugin asked for each call.
 *
 * Reference, same run, interleaved call by call: the same installed hook
 * command (without the gate) run on every call, as before the narrowed
 * dispatch. Each run is `sh -c <command>` with the payload on standard
 * input, timed to its exit. Target: the session's hook time ≤ 35% of the
 * reference, and every GitHub read recorded (a Touch of the session per
 * read; a note per `resource` call).
 *
 * @module
 */

import { sandbox } from "../helpers.ts";
import { dispatches, mentionsGitHub, ungated } from "../../lib/install/dispatch.ts";
import { HARNESS_NAMES, type HarnessName } from "../../lib/types.ts";
import { median, time } from "./_run.ts";

const CALLS = Number(Deno.env.get("RGRAPH_BENCH_CALLS") ?? 200);

/** What a call does, whatever the harness calls its tool. */
type Kind =
  | "read"
  | "edit"
  | "search"
  | "todo"
  | "shell"
  | "task"
  | "gh"
  | "fetch"
  | "mcp"
  | "resource";

/** The mix, per 200 calls: ~10% GitHub reads, a third of them inside subagents' turns. */
const MIX: [Kind, number][] = [
  ["read", 50],
  ["edit", 28],
  ["search", 30],
  ["todo", 14],
  ["shell", 54],
  ["task", 4],
  ["gh", 6],
  ["fetch", 4],
  ["mcp", 5],
  ["resource", 5],
];

/** A small deterministic generator (mulberry32), so every run replays the same session. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call {
  kind: Kind;
  n: number;
  /** Inside a subagent's turn: the subagent's id. */
  agent: string | null;
}

/** The session: the mix shuffled; the eight calls after a `task` are its subagent's. */
function session(): Call[] {
  const next = random(28);
  const kinds = MIX.flatMap(([k, count]) =>
    Array(Math.round(count * CALLS / 200)).fill(k) as Kind[]
  );
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  // Each subagent's first call reads GitHub in its shell (a subagent's gh must be recorded too).
  kinds.forEach((k, i) => {
    if (k !== "task" || i + 1 >= kinds.length) return;
    const gh = kinds.findIndex((x, j) => x === "gh" && j !== i + 1 && kinds[j - 1] !== "task");
    if (gh >= 0) [kinds[i + 1], kinds[gh]] = [kinds[gh], kinds[i + 1]];
  });
  let agent: string | null = null;
  let left = 0;
  return kinds.map((kind, n) => {
    const call = { kind, n, agent: left-- > 0 ? agent : null };
    if (kind === "task") [agent, left] = [`agent-${n}`, 8];
    return call;
  });
}

const SHELL = ["ls -la src", "git status --short", "deno test tests/x_test.ts", "npm run build"];

/** What a call reads on GitHub (its Touch's address), if anything. */
function readOf(call: Call): string | null {
  switch (call.kind) {
    case "gh":
      return `github:bench/cli#${call.n}`;
    case "fetch":
      return `github:bench/web#${call.n}`;
    case "mcp":
      return `github:bench/mcp#${call.n}`;
    default:
      return null;
  }
}

/** One tool call as a harness presents it: its tool name and input. */
interface Tool {
  name: string;
  input: Record<string, unknown>;
}

/** The generic parts of a call, in one harness's names. */
function tool(harness: HarnessName, call: Call, cwd: string): Tool {
  const n = call.n;
  const sh = (command: string) => {
    const name = {
      "claude-code": "Bash",
      codex: "Bash",
      gemini: "run_shell_command",
      grok: "run_terminal_command",
      copilot: "bash",
      cursor: "Shell",
      opencode: "bash",
    }[harness];
    return { name, input: { command } };
  };
  const named = (names: Record<HarnessName, string>, input: Record<string, unknown>) => ({
    name: names[harness],
    input,
  });
  switch (call.kind) {
    case "read":
      // Codex reads files through its shell.
      return harness === "codex" ? sh(`sed -n 1,120p src/mod_${n % 9}.ts`) : named({
        "claude-code": "Read",
        codex: "",
        gemini: "read_file",
        grok: "read_file",
        copilot: "view",
        cursor: "Read",
        opencode: "read",
      }, { file_path: `${cwd}/src/mod_${n % 9}.ts`, path: `${cwd}/src/mod_${n % 9}.ts` });
    case "edit":
      return named({
        "claude-code": "Edit",
        codex: "apply_patch",
        gemini: "replace",
        grok: "edit_file",
        copilot: "edit",
        cursor: "Edit",
        opencode: "edit",
      }, { file_path: `${cwd}/src/mod_${n % 9}.ts`, old_string: "a", new_string: "b" });
    case "search":
      return harness === "codex" ? sh(`rg -n "fn_${n}" src`) : named({
        "claude-code": n % 2 ? "Grep" : "Glob",
        codex: "",
        gemini: n % 2 ? "search_file_content" : "glob",
        grok: "grep",
        copilot: n % 2 ? "grep" : "glob",
        cursor: n % 2 ? "Grep" : "Glob",
        opencode: n % 2 ? "grep" : "glob",
      }, { pattern: `fn_${n}` });
    case "todo":
      return named({
        "claude-code": "TodoWrite",
        codex: "update_plan",
        gemini: "write_todos",
        grok: "todo_write",
        copilot: "update_todo",
        cursor: "TodoWrite",
        opencode: "todowrite",
      }, { todos: [{ content: `step ${n}`, status: "pending" }] });
    case "shell":
      return sh(SHELL[n % SHELL.length]);
    case "task":
      return named({
        "claude-code": "Task",
        codex: "spawn_agent",
        gemini: "codebase_investigator",
        grok: "task",
        copilot: "task",
        cursor: "Task",
        opencode: "task",
      }, { description: "look around", prompt: "find the tests" });
    case "gh":
      return sh(`gh issue view ${n} --repo bench/cli --comments`);
    case "fetch": {
      const url = `https://github.com/bench/web/issues/${n}`;
      // Codex and Cursor have no fetch tool with a hook of its own: they fetch in the shell.
      if (harness === "codex" || harness === "cursor") return sh(`curl -sL ${url}`);
      return named({
        "claude-code": "WebFetch",
        codex: "",
        gemini: "web_fetch",
        grok: "web_fetch",
        copilot: "web_fetch",
        cursor: "",
        opencode: "webfetch",
      }, harness === "gemini" ? { prompt: `Summarise ${url}` } : { url, prompt: "summarise" });
    }
    case "mcp":
      return named({
        "claude-code": "mcp__github__issue_read",
        codex: "mcp__github__issue_read",
        gemini: "mcp_github_issue_read",
        grok: "mcp__github__issue_read",
        copilot: "github-mcp-server-issue_read",
        cursor: "issue_read",
        opencode: "github_issue_read",
      }, { method: "get", owner: "bench", repo: "mcp", issue_number: n });
    case "resource":
      return named({
        "claude-code": "mcp__rgraph__resource",
        codex: "mcp__rgraph__resource",
        gemini: "mcp_rgraph_resource",
        grok: "mcp__rgraph__resource",
        copilot: "rgraph-resource",
        cursor: "resource",
        opencode: "rgraph_resource",
      }, { address: `bench/memo#${n}` });
  }
}

/** The payload of `call`'s tool hook, as `harness` writes it, for `event` where that varies. */
function payload(
  harness: HarnessName,
  call: Call,
  sessionId: string,
  cwd: string,
  event?: string,
): string {
  const t = tool(harness, call, cwd);
  const id = `call_${sessionId}_${call.n}`;
  const agent = call.agent ? { agent_id: call.agent, agent_type: "general-purpose" } : {};
  switch (harness) {
    case "claude-code":
    case "codex":
      return JSON.stringify({
        session_id: sessionId,
        transcript_path: `${cwd}/.transcript.jsonl`,
        cwd,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: t.name,
        tool_input: t.input,
        tool_use_id: id,
        ...agent,
      });
    case "gemini":
      return JSON.stringify({
        session_id: sessionId,
        transcript_path: `${cwd}/.transcript.json`,
        cwd,
        hook_event_name: "BeforeTool",
        timestamp: new Date(Date.UTC(2026, 11, 1) + call.n * 1000).toISOString(),
        tool_name: t.name,
        tool_input: t.input,
      });
    case "grok":
      return JSON.stringify({
        hookEventName: "PreToolUse",
        sessionId,
        cwd,
        toolName: t.name,
        toolInput: t.input,
        toolUseId: id,
      });
    case "copilot":
      return JSON.stringify({
        sessionId,
        timestamp: Date.UTC(2026, 11, 1) + call.n * 1000,
        cwd,
        toolName: t.name,
        toolArgs: t.input,
      });
    case "opencode":
      return JSON.stringify({
        event: "tool.execute.before",
        session_id: sessionId,
        call_id: id,
        tool: t.name,
        args: t.input,
        cwd,
      });
    case "cursor": {
      const common = {
        conversation_id: sessionId,
        generation_id: `gen_${call.n}`,
        workspace_roots: [cwd],
        hook_event_name: event,
      };
      if (event === "beforeShellExecution") {
        return JSON.stringify({ ...common, command: t.input.command, cwd });
      }
      if (event === "beforeMCPExecution") {
        const server = call.kind === "resource" ? "rgraph serve-mcp" : "github-mcp-server stdio";
        return JSON.stringify({
          ...common,
          tool_name: t.name,
          tool_input: t.input,
          command: server,
        });
      }
      return JSON.stringify({ ...common, tool_name: t.name, tool_input: t.input });
    }
  }
}

/** Whether a matcher selects `tool`, as Claude Code (and Codex, Gemini CLI, Grok) read one. */
function selects(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  const m = String(matcher);
  return /^[A-Za-z0-9_|]+$/.test(m) ? m.split("|").includes(tool) : new RegExp(m).test(tool);
}

type Json = Record<string, any>;

/** rgraph's handler(s) in a hooks file for `event`, with their group's matcher. */
function entries(doc: Json, event: string): { command: string; matcher: unknown }[] {
  const list: Json[] = doc.hooks?.[event] ?? [];
  return list.flatMap((e) =>
    Array.isArray(e.hooks)
      ? e.hooks.map((h: Json) => ({ command: h.command, matcher: e.matcher }))
      : [{ command: e.bash ?? e.command, matcher: undefined }]
  ).filter((h) => typeof h.command === "string" && / hook /.test(h.command));
}

/** One hook start: what runs (a shell command, or an argv without one) with which payload. */
interface Run {
  sh?: string;
  argv?: string[];
  payload: string;
}

const sb = await sandbox();
const cwd = `${sb.dir}/work`;
await Deno.mkdir(`${cwd}/src`, { recursive: true });

/** The hooks file and tool event(s) of each harness, as `rgraph install` writes them. */
const HOOKS: Record<Exclude<HarnessName, "opencode">, [string, string[]]> = {
  "claude-code": [".claude/settings.json", ["PreToolUse"]],
  codex: [".codex/hooks.json", ["PreToolUse"]],
  gemini: [".gemini/settings.json", ["BeforeTool"]],
  grok: [".grok/hooks/rgraph.json", ["PreToolUse"]],
  copilot: [".github/hooks/rgraph.json", ["preToolUse"]],
  cursor: [".cursor/hooks.json", ["beforeShellExecution", "beforeMCPExecution", "preToolUse"]],
};

/** Cursor's events for a call: preToolUse for every tool, and the shell's or MCP's own. */
function cursorEvents(call: Call, t: Tool): string[] {
  const own = t.name === "Shell"
    ? ["beforeShellExecution"]
    : ["mcp", "resource"].includes(call.kind)
    ? ["beforeMCPExecution"]
    : [];
  return [...own, "preToolUse"];
}

/**
 * For each call: the hook starts the installed config makes, and the one
 * start of the reference (the same hook on every call).
 */
async function plan(
  harness: HarnessName,
  calls: Call[],
): Promise<{ narrow: Run[][]; every: Run[] }> {
  const dir = `${sb.dir}/${harness}`;
  await Deno.mkdir(dir);
  const r = await sb.rgraph(["install", harness, "--dir", dir]);
  if (r.code !== 0) throw new Error(`install ${harness}: ${r.stderr}`);
  const narrowId = `narrow-${harness}`, everyId = `every-${harness}`;
  if (harness === "opencode") return await planOpencode(dir, calls, narrowId, everyId);
  const [file, events] = HOOKS[harness];
  const doc = JSON.parse(await Deno.readTextFile(`${dir}/${file}`));
  const hooked = Object.fromEntries(events.map((e) => [e, entries(doc, e)]));
  const toolEvent = events.at(-1)!;
  const plain = (command: string) => ungated(command) ?? command;
  const anyCommand = Object.values(hooked).flat()[0].command;
  const narrow = calls.map((call) => {
    const t = tool(harness, call, cwd);
    const fired = harness === "cursor" ? cursorEvents(call, t) : [toolEvent];
    return fired.flatMap((event) =>
      hooked[event].filter((h) => selects(h.matcher, t.name)).map((h) => ({
        sh: h.command,
        payload: payload(harness, call, narrowId, cwd, event),
      }))
    );
  });
  const every = calls.map((call) => ({
    sh: plain(anyCommand),
    payload: payload(harness, call, everyId, cwd, harness === "cursor" ? "preToolUse" : undefined),
  }));
  return { narrow, every };
}

/** OpenCode: the installed plugin itself says which calls start rgraph (a witness records them). */
async function planOpencode(dir: string, calls: Call[], narrowId: string, everyId: string) {
  const installed = await Deno.readTextFile(`${dir}/.opencode/plugins/rgraph.js`);
  const line = /^const RGRAPH_COMMAND = (\[.*\]);.*$/m;
  const argv = [...JSON.parse(line.exec(installed)![1]), "hook", "opencode"];
  const seen = `${sb.dir}/opencode-witness`;
  await Deno.mkdir(seen);
  const witness = installed.replace(
    line,
    `const RGRAPH_COMMAND = ${
      JSON.stringify(["sh", "-c", `cat > "$(mktemp ${seen}/call.XXXXXX)"`, "sh"])
    };`,
  );
  const path = `${sb.dir}/opencode-witness.js`;
  await Deno.writeTextFile(path, witness);
  const plugin = await (Object.values(await import(`file://${path}`))[0] as any)({
    directory: cwd,
  });
  for (const call of calls) {
    const t = tool("opencode", call, cwd);
    await plugin["tool.execute.before"]({
      tool: t.name,
      sessionID: narrowId,
      callID: `call_${narrowId}_${call.n}`,
    }, { args: t.input });
  }
  // The plugin does not wait for most starts: give the last ones time to write.
  await new Promise((r) => setTimeout(r, 1500));
  const started = new Set<number>();
  for (const e of Deno.readDirSync(seen)) {
    const p = JSON.parse(await Deno.readTextFile(`${seen}/${e.name}`));
    if (p.event === "tool.execute.before") started.add(Number(p.call_id.split("_").at(-1)));
  }
  return {
    narrow: calls.map((call) =>
      started.has(call.n) ? [{ argv, payload: payload("opencode", call, narrowId, cwd) }] : []
    ),
    every: calls.map((call) => ({ argv, payload: payload("opencode", call, everyId, cwd) })),
  };
}

/**
 * Whether a hook start goes on to Deno: the gate's rule (the same test in
 * JavaScript, which lib/install/dispatch_test.ts holds to the `sh` one).
 */
function startsDeno(harness: HarnessName, run: Run): boolean {
  if (run.sh === undefined || ungated(run.sh) === null) return true;
  const p = JSON.parse(run.payload);
  return mentionsGitHub(run.payload) &&
    (harness !== "copilot" || dispatches("copilot", p.toolName));
}

/** Starts one hook as the harness does and waits for it: its wall time. */
async function start(run: Run): Promise<number> {
  const [cmd, ...args] = run.sh !== undefined ? ["sh", "-c", run.sh] : run.argv!;
  const t = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    env: sb.env,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(run.payload)).catch(() => {});
  await w.close().catch(() => {});
  await child.status;
  return performance.now() - t;
}

const calls = session();
const reads = calls.filter((c) => readOf(c) !== null);
const resources = calls.filter((c) => c.kind === "resource");
interface Row {
  harness: HarnessName;
  runs: number;
  denoStarts: number;
  narrowMs: number;
  everyMs: number;
  recorded: number;
  noted: number;
  perRun: number[];
}
const rows: Row[] = [];
const only = Deno.env.get("RGRAPH_BENCH_HARNESSES")?.split(",");
for (const harness of HARNESS_NAMES.filter((h) => only?.includes(h) ?? true)) {
  const { narrow, every } = await plan(harness, calls);
  let narrowMs = 0, everyMs = 0;
  const perRun: number[] = [];
  // Interleaved call by call: load on the shared machine colours both sides alike.
  for (let i = 0; i < calls.length; i++) {
    for (const run of narrow[i]) {
      const ms = await start(run);
      narrowMs += ms;
      perRun.push(ms);
    }
    everyMs += await start(every[i]);
  }
  const listed = await sb.rgraph(["touches", "--session", `narrow-${harness}`, "--json"]);
  const ours = new Set(JSON.parse(listed.stdout).map((t: Json) => t.address));
  let noted = 0;
  const notesDir = `${sb.dir}/data/rgraph/memory-reads`;
  try {
    for (const e of Deno.readDirSync(notesDir)) {
      const note = JSON.parse(await Deno.readTextFile(`${notesDir}/${e.name}`));
      if (note.session_id === `narrow-${harness}`) noted++;
    }
  } catch {
    // No note written at all.
  }
  const missing = reads.map((c) => readOf(c)!).filter((a) => !ours.has(a));
  if (missing.length) console.log(`${harness}: not recorded: ${missing.join(", ")}`);
  rows.push({
    harness,
    runs: narrow.flat().length,
    denoStarts: narrow.flat().filter((run) => startsDeno(harness, run)).length,
    narrowMs,
    everyMs,
    recorded: reads.filter((c) => ours.has(readOf(c)!)).length,
    noted,
    perRun,
  });
}
await sb.cleanup();

const subagentReads = calls.filter((c) => c.agent !== null && readOf(c) !== null).length;
console.log(
  `${calls.length} calls per session: ${reads.length + resources.length} GitHub reads ` +
    `(${calls.filter((c) => c.kind === "gh").length} gh, ${
      calls.filter((c) => c.kind === "fetch").length
    } web fetch, ${
      calls.filter((c) => c.kind === "mcp").length
    } GitHub MCP, ${resources.length} resource; ` +
    `${subagentReads} inside subagents), ${
      calls.filter((c) => c.kind === "task").length
    } subagents`,
);
console.log(
  "| harness | hooks started (Deno) | hook time | hook on every call | ratio (target ≤ 35%) | GitHub reads recorded |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
let failed = false;
for (const r of rows) {
  const ratio = r.narrowMs / r.everyMs;
  const all = r.recorded === reads.length && r.noted === resources.length;
  failed ||= !all;
  console.log(
    `| ${r.harness} | ${r.runs} (${r.denoStarts}) of ${calls.length} | ${time(r.narrowMs)} | ${
      time(r.everyMs)
    } | ${(100 * ratio).toFixed(0)}% | ${r.recorded + r.noted} of ${
      reads.length + resources.length
    }${all ? "" : " (MISSING)"} |`,
  );
}
const runMedians = rows.map((r) => `${r.harness} ${time(median(r.perRun))}`).join(", ");
console.log(`median hook run (dispatched calls): ${runMedians}`);
if (failed) {
  console.log("a GitHub read was not recorded");
  Deno.exit(1);
}
