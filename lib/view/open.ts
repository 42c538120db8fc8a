/**
 * Opening the view in the person's browser without putting the token where
 * other local users can read it: a command line is visible to everyone on
 * the machine (`ps`), so the browser is given a file instead — a small page,
 * readable only by its owner, that forwards to the URL (as Jupyter does).
 * The file is removed when the view stops.
 *
 * @example
 * ```ts
 * import { openInBrowser } from "./open.ts";
 * const opened = openInBrowser(view.url, "/home/me/.local/share/rgraph", view.port);
 * if (!opened.ok) console.log(opened.why);
 * opened.cleanup();
 * ```
 * @module
 */

import { firstLine } from "../errors.ts";
import { absoluteProgram, privateDir, writePrivateFile } from "../host/mod.ts";

/** What became of asking the browser to open the view. */
export type Opened = { ok: true; cleanup: () => void } | {
  ok: false;
  why: string;
  cleanup: () => void;
};

/**
 * The program that opens a file in the default browser on this system, as an
 * absolute path (never one the working directory supplies: `rgraph view` runs
 * in a project folder, where an empty PATH entry would find its `xdg-open`),
 * or its bare name when none is found.
 */
function opener(): { name: string; path: string | null } {
  switch (Deno.build.os) {
    case "darwin":
      return { name: "open", path: "/usr/bin/open" };
    case "windows":
      return {
        name: "explorer.exe",
        path: `${Deno.env.get("SystemRoot") ?? "C:\\Windows"}\\explorer.exe`,
      };
    default:
      return { name: "xdg-open", path: absoluteProgram("xdg-open") };
  }
}

/** The forwarding page: the URL is ours (hex token, loopback address), so it needs no escaping. */
function launcherHtml(url: string): string {
  return `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${url}">
<title>rgraph view</title>
<p><a href="${url}">Open rgraph view</a></p>
`;
}

/**
 * Writes the forwarding page (folder 0700, file 0600, under `dataDir/view/`)
 * and starts the system's opener on it, not waiting for it.
 */
export function openInBrowser(url: string, dataDir: string, port: number): Opened {
  const dir = `${dataDir}/view`;
  const file = `${dir}/open-${port}.html`;
  const cleanup = () => {
    try {
      Deno.removeSync(file);
    } catch {
      // Already gone.
    }
  };
  try {
    privateDir(dir, { narrow: true });
    writePrivateFile(file, launcherHtml(url));
  } catch (e) {
    cleanup();
    return { ok: false, why: `could not write ${file}: ${firstLine(e)}`, cleanup };
  }
  const command = opener();
  if (command.path === null) {
    return { ok: false, why: `no ${command.name} in PATH's absolute folders`, cleanup };
  }
  try {
    const child = new Deno.Command(command.path, {
      args: [file],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.catch(() => {});
    return { ok: true, cleanup };
  } catch (e) {
    return { ok: false, why: `could not start ${command.path}: ${firstLine(e)}`, cleanup };
  }
}
