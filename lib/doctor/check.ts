/**
 * One line of `rgraph doctor`'s report, and how the report prints.
 *
 * @example
 * ```ts
 * import { fail, formatChecks, ok } from "./check.ts";
 * formatChecks([ok("store", "~/.local/share/rgraph/rgraph.db"), fail("identity", "no user_id", "add it")], false);
 * ```
 * @module
 */

import { neutralizeLine } from "../untrusted.ts";

/** One line of the report. */
export interface Check {
  check: string;
  ok: boolean;
  /** Works, but deserves a look (says so, with a fix, and does not fail the report). */
  warning?: true;
  detail: string;
  /** What to do about a failure or a warning; empty when ok. */
  fix: string;
}

/** What to check. */
export interface DoctorOptions {
  /** The project directory whose harness configs are checked (the home's always are). */
  dir: string;
  /** Also ask GitHub whether the token is valid. */
  online: boolean;
  /** How long a probe or MCP server may take. */
  timeoutMs?: number;
  /** `--command`: the command line `rgraph install --command` wrote, so doctor can prove it is rgraph's. */
  command?: string;
}

// Built from the code point: a control character in a regex literal trips the linter.
const ANSI = new RegExp(`${String.fromCharCode(27)}(\\[[0-9;?]*[ -/]*[@-~]|[@-Z\\\\-_])`, "g");

/** Text without terminal escapes: a child's colours would garble the report and its JSON. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

export const ok = (check: string, detail: string): Check => ({
  check,
  ok: true,
  detail: stripAnsi(detail),
  fix: "",
});
export const fail = (check: string, detail: string, fix: string): Check => ({
  check,
  ok: false,
  detail: stripAnsi(detail),
  fix: stripAnsi(fix),
});

export const warn = (check: string, detail: string, fix: string): Check => ({
  check,
  ok: true,
  warning: true,
  detail: stripAnsi(detail),
  fix: stripAnsi(fix),
});

/**
 * The report as lines: `✓`/`!`/`✗` on a colour terminal, `ok`/`WARN`/`FAIL`
 * otherwise. Details and fixes may quote what a project's files hold (a
 * config path a hostile hook names): each is one line by the one rule for
 * untrusted text, so none can forge a line of the report or drive the terminal.
 */
export function formatChecks(checks: Check[], fancy: boolean): string {
  return checks.map((c) => {
    const mark = c.warning
      ? (fancy ? "\x1b[33m!\x1b[0m" : "WARN")
      : fancy
      ? (c.ok ? "\x1b[32m✓\x1b[0m" : "\x1b[31m✗\x1b[0m")
      : c.ok
      ? "ok  "
      : "FAIL";
    const fix = !c.ok || c.warning ? ` — fix: ${neutralizeLine(c.fix)}` : "";
    return `${mark} ${c.check}: ${neutralizeLine(c.detail)}${fix}`;
  }).join("\n");
}
