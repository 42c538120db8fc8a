/**
 * Running a real `rgraph` process for a benchmark and reading its figures.
 *
 * @module
 */

import { RGRAPH_FLAGS, type Sandbox } from "../helpers.ts";

/** One run of a command: wall time, peak memory (KB, from GNU time), exit code. */
export async function measure(
  sb: Sandbox,
  args: string[],
): Promise<{ ms: number; rssKb: number; code: number }> {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const started = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M", Deno.execPath(), "run", ...RGRAPH_FLAGS, main, ...args],
    env: sb.env,
    cwd: sb.dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
  const rssKb = Number(lines[lines.length - 1]) || 0;
  return { ms, rssKb, code: out.code };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function time(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
