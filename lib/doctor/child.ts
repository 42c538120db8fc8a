/**
 * Running the programs doctor checks (installed hook commands, harness
 * binaries): bounded in time, output collected, never throwing for a program
 * that fails or does not exist.
 *
 * @example
 * ```ts
 * import { runChild } from "./child.ts";
 * (await runChild(["/usr/bin/codex", "--version"], { timeoutMs: 5_000 })).stdout; // "codex-cli 0.171.0\n"
 * ```
 * @module
 */

import { firstLine } from "../errors.ts";

/** What one run produced. `code` is null when it could not start. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed for running longer than allowed. */
  timedOut: boolean;
  /** Why it could not start, when it could not. */
  error: string | null;
}

/** How to run it. */
export interface ChildOptions {
  timeoutMs: number;
  cwd?: string;
  /** The whole environment when given (nothing inherited). */
  env?: Record<string, string>;
  stdin?: string;
}

const dec = new TextDecoder();

/**
 * Runs `argv` to its end or its time limit. Its program must be an absolute
 * path (see `lib/host/which.ts`): a bare name would be looked up on a PATH that
 * may name the directory doctor checks.
 */
export async function runChild(argv: string[], options: ChildOptions): Promise<ChildResult> {
  let child: Deno.ChildProcess;
  if (!argv[0]?.startsWith("/")) {
    const error = `${argv[0]} is not an absolute path: not run`;
    return { code: null, stdout: "", stderr: "", timedOut: false, error };
  }
  try {
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: options.cwd,
      ...(options.env ? { env: options.env, clearEnv: true } : {}),
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    const error = firstLine(e);
    return { code: null, stdout: "", stderr: "", timedOut: false, error };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, options.timeoutMs);
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin)).catch(() => {});
    await w.close().catch(() => {});
  }
  try {
    const out = await child.output();
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      timedOut,
      error: null,
    };
  } finally {
    clearTimeout(timer);
  }
}
