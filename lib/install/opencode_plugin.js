// rgraph's OpenCode plugin: OpenCode has no command hooks, so this plugin
// hands each tool start and each prompt to `rgraph hook opencode`, which
// records GitHub reads as private Touches (payload format: lib/capture/harness/opencode.ts
// in rgraph), adds rgraph's session hint to the system prompt, and when a
// session goes idle (the agent has answered) starts an automatic Sweep with
// `rgraph sweep --background`, as other harnesses do at session end. It never
// throws, and waits for rgraph only where the answer matters: before rgraph's
// own `resource` tool (the note tying that call to its session must be
// written before the MCP server answers it) and for the hint. `rgraph
// install` copies it into .opencode/plugins/ and sets the command below to
// the rgraph it was installed from. Loaded in place from a checkout instead
// (the OpenCode plugin package plugin/opencode, added with `opencode plugin`),
// it runs everything through that checkout's plugin/rgraph.sh and adds
// rgraph's MCP server to OpenCode's config itself.
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const RGRAPH_COMMAND = ["rgraph"]; // rgraph-command (rewritten by `rgraph install`)

/**
 * The plugin launcher of the checkout this file is part of, when OpenCode
 * loads it where it lies (through plugin/opencode); null for the copy
 * `rgraph install` writes, which never runs a launcher of the project it sits in.
 */
const LAUNCHER = import.meta.url.endsWith("/lib/install/opencode_plugin.js")
  ? fileURLToPath(new URL("../../plugin/rgraph.sh", import.meta.url))
  : null;

/**
 * `program` as a path safe to start from any folder: an absolute path as it
 * is, a bare name found in PATH's absolute folders only (an empty entry,
 * `.` or `bin` names OpenCode's folder, a cloned repository, whose own `sh`
 * would run), else null (as rgraph's lib/host/which.ts finds programs).
 */
function absoluteProgram(program) {
  if (program.startsWith("/")) return program;
  if (program.includes("/")) return null;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (!dir.startsWith("/")) continue;
    const file = `${dir.replace(/\/+$/, "")}/${program}`;
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * What rgraph runs for `what`, through the launcher (which does first-run work at session start) or
 * RGRAPH_COMMAND; its program an absolute path (throws when there is none).
 */
function rgraphArgv(what) {
  const own = {
    "session-start": ["hook", "opencode"],
    hook: ["hook", "opencode"],
    "session-end": ["sweep", "--background"],
    "serve-mcp": ["serve-mcp"],
  };
  const [program, ...args] = LAUNCHER !== null
    ? ["sh", LAUNCHER, "opencode", what]
    : [...RGRAPH_COMMAND, ...own[what]];
  const found = absoluteProgram(program);
  if (found === null) throw new Error(`${program}: not found in PATH's absolute folders`);
  return [found, ...args];
}

/** The longest the plugin waits for rgraph: a stuck hook must not hold the agent. */
const WAIT_MS = 3000;

/** rgraph's own tool, as OpenCode names MCP tools (`<server>_<tool>`). */
const RESOURCE_TOOL = "rgraph_resource";

/**
 * Whether a call of `tool` with `args` can read GitHub: the shell, the web fetch, or an MCP tool
 * (`<server>_<tool>`; OpenCode's own tools have no `_`), rgraph's `resource` among them, whose
 * text names `gh` as a word, `github` or rgraph's `resource` tool. Any other call (read, edit, grep, todowrite,
 * task, `ls` in the shell…) starts no process: the test the installed hooks of other harnesses
 * make in `sh` (`dispatches` and `READ_PATTERNS` in lib/install/dispatch.ts), made here
 * in-process.
 */
function mayReadGitHub(tool, args) {
  if (tool !== "bash" && tool !== "webfetch" && !(typeof tool === "string" && tool.includes("_"))) {
    return false;
  }
  try {
    return /[^A-Za-z0-9_-]gh[^A-Za-z0-9_-]|[Gg][Ii][Tt][Hh][Uu][Bb]|rgraph[_:-]resource|rgraph__resource/
      .test(
        JSON.stringify([tool, args]),
      );
  } catch {
    return true; // arguments that cannot be written as JSON: let rgraph decide
  }
}

/**
 * Runs `rgraph hook opencode` with `payload` on its standard input. Resolves
 * with what it printed once it exits (or WAIT_MS pass) when `wait`, at once
 * otherwise; never rejects.
 */
function send(payload, wait = false, what = "hook") {
  return new Promise((resolve) => {
    try {
      const [cmd, ...args] = rgraphArgv(what);
      // No cwd option: the payload carries it, and a vanished directory must not stop capture.
      const child = spawn(cmd, args, {
        stdio: ["pipe", wait ? "pipe" : "ignore", "ignore"],
        detached: !wait,
      });
      let out = "";
      const timer = wait ? setTimeout(() => resolve(""), WAIT_MS) : null;
      child.on("error", () => resolve(""));
      child.stdin.on("error", () => {});
      if (wait) {
        child.stdout.on("data", (chunk) => out += chunk);
        child.on("close", () => {
          clearTimeout(timer);
          resolve(out);
        });
      }
      child.stdin.end(JSON.stringify(payload));
      if (!wait) {
        child.unref();
        resolve("");
      }
    } catch {
      // rgraph missing or unspawnable: the agent goes on untouched.
      resolve("");
    }
  });
}

function promptText(parts) {
  if (!Array.isArray(parts)) return "";
  return parts
    .filter((p) => p && p.type === "text" && typeof p.text === "string" && !p.synthetic)
    .map((p) => p.text)
    .join("\n");
}

/** Starts `rgraph sweep --background` detached: an automatic Sweep, which reads no payload. */
function sweepInBackground() {
  try {
    const [cmd, ...args] = rgraphArgv("session-end");
    const child = spawn(cmd, args, {
      stdio: "ignore",
      detached: true,
    });
    child.on("error", () => {});
    child.unref();
  } catch {
    // rgraph missing or unspawnable: the agent goes on untouched.
  }
}

/** The session hint rgraph answers a session start with (`{"system": "…"}`), or null. */
async function sessionHint(directory) {
  try {
    const out = await send(
      { event: "session.created", session_id: null, cwd: directory },
      true,
      "session-start",
    );
    const hint = out.trim() === "" ? null : JSON.parse(out).system;
    return typeof hint === "string" && hint !== "" ? hint : null;
  } catch {
    return null;
  }
}

// OpenCode awaits plugins and hooks. chat.message gives the message id and agent on
// output.message, not on input (OpenCode 1.18); both are read.
export const RgraphPlugin = ({ directory }) => {
  // Asked once, when OpenCode loads the plugin: it is ready by the first model request.
  const hint = sessionHint(directory ?? null);
  const hooks = {
    // The agent has finished answering: what it read is swept in the background.
    event: ({ event } = {}) => {
      if (event?.type === "session.idle") sweepInBackground();
      return Promise.resolve();
    },
    "tool.execute.before": async (input, output) => {
      try {
        const tool = input?.tool ?? null;
        if (!mayReadGitHub(tool, output?.args ?? null)) return;
        await send({
          event: "tool.execute.before",
          session_id: input?.sessionID ?? null,
          call_id: input?.callID ?? null,
          tool,
          args: output?.args ?? null,
          cwd: directory ?? null,
        }, tool === RESOURCE_TOOL);
      } catch {
        // never let capture fail a tool call
      }
    },
    "chat.message": (input, output) => {
      try {
        const prompt = promptText(output?.parts);
        if (prompt === "") return Promise.resolve();
        send({
          event: "chat.message",
          session_id: input?.sessionID ?? output?.message?.sessionID ?? null,
          message_id: output?.message?.id ?? input?.messageID ?? null,
          agent: output?.message?.agent ?? input?.agent ?? null,
          prompt,
          cwd: directory ?? null,
        });
      } catch {
        // never let capture fail a prompt
      }
      return Promise.resolve();
    },
    // The hint joins the first system text rather than adding an entry: OpenCode 1.18 merges every
    // entry after the first into one once there are more than two, which would fold other plugins'
    // lines into rgraph's.
    "experimental.chat.system.transform": async (_input, output) => {
      try {
        const line = await hint;
        const system = output?.system;
        if (line === null || !Array.isArray(system)) return;
        if (typeof system[0] === "string") system[0] = `${system[0]}\n${line}`;
        else system.push(line);
      } catch {
        // never let the hint fail a request
      }
    },
  };
  if (LAUNCHER !== null) {
    // As a plugin package rgraph brings its MCP server too; one the user configured wins.
    hooks.config = (config) => {
      try {
        if (config && typeof config === "object") {
          config.mcp = {
            rgraph: { type: "local", command: rgraphArgv("serve-mcp") },
            ...(config.mcp ?? {}),
          };
        }
      } catch {
        // no sh in PATH's absolute folders: no MCP server rather than the project's own
      }
      return Promise.resolve();
    };
  }
  return Promise.resolve(hooks);
};
