// A witness plugin for the OpenCode harness test (not rgraph's): it records
// where OpenCode puts what rgraph's plugin needs, and proves a system-prompt
// line added by a plugin reaches the model. OpenCode calls every export of a
// plugin file as a plugin, so this file exports only that. Each line of $RGRAPH_WITNESS_LOG
// is one JSON observation.
import { appendFileSync } from "node:fs";

const LOG = process.env.RGRAPH_WITNESS_LOG;
const WITNESS_LINE = "rgraph-witness: a line from a plugin's system transform";

function note(observation) {
  if (!LOG) return;
  try {
    appendFileSync(LOG, JSON.stringify(observation) + "\n");
  } catch {
    // a witness never breaks the session
  }
}

export const RgraphWitness = () =>
  Promise.resolve({
    "chat.message": (input, output) => {
      note({
        hook: "chat.message",
        input: {
          sessionID: input?.sessionID ?? null,
          messageID: input?.messageID ?? null,
          agent: input?.agent ?? null,
        },
        output: { id: output?.message?.id ?? null, agent: output?.message?.agent ?? null },
      });
      return Promise.resolve();
    },
    "experimental.chat.system.transform": (input, output) => {
      note({ hook: "experimental.chat.system.transform", sessionID: input?.sessionID ?? null });
      if (Array.isArray(output?.system)) output.system.push(WITNESS_LINE);
      return Promise.resolve();
    },
  });
