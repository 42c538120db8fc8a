/**
 * PowerShell command lines (Copilot CLI's `powershell` tool) read with the
 * POSIX shell reader — but only those that mean the same to both: simple
 * commands, plain words, `'…'` and `"…"` strings, `|`, `;`, `&&`, `||` and
 * redirections. Anything PowerShell reads differently (backtick escapes,
 * `\` paths, script blocks, `@(…)`, here-strings, type literals, `env:`
 * assignments, typographic quotes and dashes) makes the whole line yield
 * nothing rather than a guess.
 *
 * @module
 */

import type { ShellCommand } from "./platform.ts";
import { commandName } from "./shell.ts";

/** Characters PowerShell reads as quotes or dashes where POSIX sees letters. */
const TYPOGRAPHIC = /[\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u2013\u2014\u2015]/;
/** Outside single quotes: escapes, blocks, splats and here-strings, comment blocks, verbatim args, static calls. */
const FOREIGN = /[`\\{}]|@[({'"]|<#|--%|\]::/;
/** The environment drive, quoted or not (`$env:GH_REPO = …`, `Set-Item 'Env:GH_HOST' …`). */
const ENV_DRIVE = /env:/i;

/**
 * True when `script` reads the same as PowerShell and as a POSIX shell line.
 *
 * @example
 * ```ts
 * readsAsPosix("gh issue view 5 -R a/b 2>$null"); // true
 * readsAsPosix("$env:GH_REPO = 'a/b'; gh issue view 5"); // false
 * ```
 */
export function readsAsPosix(script: string): boolean {
  if (TYPOGRAPHIC.test(script) || ENV_DRIVE.test(script)) return false;
  let outside = "";
  let i = 0;
  while (i < script.length) {
    const c = script[i];
    if (c === "'") {
      const end = script.indexOf("'", i + 1);
      // `''` inside a single-quoted string is a quote to PowerShell, nothing to POSIX.
      if (end < 0 || script[end + 1] === "'") return false;
      outside += " ";
      i = end + 1;
    } else if (c === '"') {
      const end = script.indexOf('"', i + 1);
      if (end < 0 || script[end + 1] === '"') return false;
      // `$…` and escapes inside double quotes matter to both: keep the text for the checks.
      outside += script.slice(i + 1, end);
      i = end + 1;
    } else {
      outside += c;
      i++;
    }
  }
  return !FOREIGN.test(outside);
}

/** PowerShell's ways of changing directory (aliases included), as command names. */
const LOCATION = new Set([
  "cd",
  "chdir",
  "sl",
  "set-location",
  "pushd",
  "push-location",
  "popd",
  "pop-location",
]);

/**
 * The commands with the directory unknown from the first location change on:
 * PowerShell paths are not POSIX paths, and `(cd x)` does not scope the change.
 */
export function afterLocationChange(commands: ShellCommand[]): ShellCommand[] {
  let moved = false;
  return commands.map((cmd) => {
    moved ||= LOCATION.has(commandName(cmd.argv[0]).toLowerCase());
    return moved ? { ...cmd, cwd: null } : cmd;
  });
}
