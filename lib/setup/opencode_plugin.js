// rgraph's OpenCode plugin: OpenCode has no command hooks, so this plugin
// hands each tool start and each prompt to `rgraph hook opencode`, which
// records GitHub reads as private Touches (payload format: lib/capture/harness/opencode.ts
// in rgraph), and when a session goes idle (the agent has answered) starts
// an automatic Sweep with `rgraph sweep --background`, as other harnesses do
// at session end. It never throws and never waits: capture must not slow or
// break the agent. `rgraph install` copies it into .opencode/plugins/ and may
// set the command below to the rgraph it was installed from.
import { spawn } from "node:child_process";

const RGRAPH_COMMAND = ["rgraph"]; // rgraph-command (rewritten by `rgraph install`)

/** Runs `rgraph ARGS` detached, handing it `payload` on stdin (none: no stdin). */
function run(args, payload) {
  try {
    const [cmd, ...rest] = RGRAPH_COMMAND;
    // No cwd option: the payload carries it, and a vanished directory must not stop capture.
    const child = spawn(cmd, [...rest, ...args], {
      stdio: [payload === undefined ? "ignore" : "pipe", "ignore", "ignore"],
      detached: true,
    });
    child.on("error", () => {});
    if (payload !== undefined) {
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
    }
    child.unref();
  } catch {
    // rgraph missing or unspawnable: the agent goes on untouched.
  }
}

function send(payload) {
  run(["hook", "opencode"], payload);
}

function promptText(parts) {
  if (!Array.isArray(parts)) return "";
  return parts
    .filter((p) => p && p.type === "text" && typeof p.text === "string" && !p.synthetic)
    .map((p) => p.text)
    .join("\n");
}

// OpenCode awaits plugins and hooks; they resolve at once since nothing is awaited.
export const RgraphPlugin = ({ directory }) =>
  Promise.resolve({
    // The agent has finished answering: what it read is swept in the background.
    event: ({ event } = {}) => {
      if (event?.type === "session.idle") run(["sweep", "--background"]);
      return Promise.resolve();
    },
    "tool.execute.before": (input, output) => {
      try {
        send({
          event: "tool.execute.before",
          session_id: input?.sessionID ?? null,
          call_id: input?.callID ?? null,
          tool: input?.tool ?? null,
          args: output?.args ?? null,
          cwd: directory ?? null,
        });
      } catch {
        // never let capture fail a tool call
      }
      return Promise.resolve();
    },
    "chat.message": (input, output) => {
      try {
        const prompt = promptText(output?.parts);
        if (prompt === "") return Promise.resolve();
        send({
          event: "chat.message",
          session_id: input?.sessionID ?? null,
          message_id: input?.messageID ?? null,
          agent: input?.agent ?? null,
          prompt,
          cwd: directory ?? null,
        });
      } catch {
        // never let capture fail a prompt
      }
      return Promise.resolve();
    },
  });
