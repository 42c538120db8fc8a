/**
 * `rgraph view [--port N] [--no-open]`: serves a private, read-only page of
 * the configured user's memory on 127.0.0.1 (see `lib/view/`), prints its
 * URL with the access token, opens it in the browser unless `--no-open`,
 * and runs until interrupted. Refuses without an identity: the page shows
 * private Touches.
 *
 * @module
 */

import { noArguments, parseCommand } from "../lib/cli.ts";
import { loadConfig, requireUserId } from "../lib/config/mod.ts";
import { UsageError } from "../lib/errors.ts";
import { openStore } from "../lib/store/mod.ts";
import { DEFAULT_PORT, loadAssets, openInBrowser, startView, ViewData } from "../lib/view/mod.ts";

const SPEC = {
  name: "view",
  summary: "Serve a private, read-only web page of your memory on 127.0.0.1",
  usage: "rgraph view [--port N] [--no-open]",
  options: {
    port: {
      type: "string",
      arg: "N",
      help: `listen on port N (0: any free port; default ${DEFAULT_PORT}, else any free one)`,
    },
    "no-open": { type: "boolean", help: "print the URL only; do not open a browser" },
  },
  examples: [
    { does: "open your memory in the browser", run: "rgraph view" },
    { does: "on a fixed port, printing the URL only", run: "rgraph view --port 4747 --no-open" },
  ],
} as const;

function portFlag(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    throw new UsageError(`rgraph view: --port takes a port number from 0 to 65535, not '${value}'`);
  }
  return n;
}

/** Runs `rgraph view ARGS` until SIGINT or SIGTERM. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (parsed === null) return 0;
  noArguments(SPEC, parsed.positionals);
  const port = portFlag(parsed.values.port);
  const config = loadConfig();
  const userId = requireUserId(config);
  // The page reads the graph store itself: only the outbox is sent on, no local index refreshed.
  const store = await openStore(config, { sync: "outbox" });
  let cleanup = () => {};
  try {
    const view = await startView({
      port,
      data: new ViewData(store, config, userId),
      assets: await loadAssets(),
    });
    console.log(`rgraph view: serving ${userId}'s memory at ${view.url}`);
    console.log("(only this machine can reach it; press Ctrl-C to stop)");
    if (!parsed.values["no-open"]) {
      const opened = openInBrowser(view.url, config.data_dir, view.port);
      cleanup = opened.cleanup;
      if (!opened.ok) console.log(`open the URL above in your browser (${opened.why})`);
    }
    const stop = () => view.close();
    const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
    for (const s of signals) Deno.addSignalListener(s, stop);
    await view.finished;
    for (const s of signals) Deno.removeSignalListener(s, stop);
    return 0;
  } finally {
    cleanup();
    await store.close();
  }
}
