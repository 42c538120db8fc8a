/**
 * Host: rgraph's footprint on the user's machine — files and folders only the user can read or
 * write, made without following a planted link, and programs found without trusting the working
 * directory. Deno built-ins only (the hook loads it on every tool call); imports nothing of
 * rgraph's beyond `errors.ts` and `invocation.ts`.
 *
 * @example
 * ```ts
 * import { appendPrivateFile, privateDir, which } from "./mod.ts";
 * const dir = privateDir(`${Deno.env.get("HOME")}/.local/share/rgraph`); // 0700
 * appendPrivateFile(`${dir}/hook.log`, "one line\n"); // 0600
 * which("git"); // "/usr/bin/git"
 * ```
 * @module
 */

export * from "./private_files.ts";
export * from "./which.ts";
export * from "./size.ts";
