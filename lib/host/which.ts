/**
 * Finding a program on `PATH` the way rgraph may run it: only in absolute
 * directories. A relative entry (`.`, `bin`, or the empty entry a stray
 * `::` makes, which shells read as `.`) names a folder of whatever directory
 * rgraph runs in — a cloned repository's `./gh` would be run as the user's
 * `gh`. Pure apart from looking at the file system.
 *
 * @example
 * ```ts
 * import { which } from "./which.ts";
 * which("gh", "/usr/local/bin:.:/usr/bin"); // "/usr/bin/gh" (never ./gh)
 * ```
 * @module
 */

/**
 * The first executable file named `bin` in the absolute directories of `path`
 * (a PATH value), or null. A `bin` holding a slash is no name to look up:
 * null.
 */
export function which(bin: string, path: string = Deno.env.get("PATH") ?? ""): string | null {
  if (bin === "" || bin.includes("/")) return null;
  for (const dir of path.split(":")) {
    if (!dir.startsWith("/")) continue;
    const file = `${dir.replace(/\/+$/, "")}/${bin}`;
    try {
      const st = Deno.statSync(file);
      if (st.isFile && (st.mode === null || (st.mode & 0o111) !== 0)) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * The program of an argv made safe to start: an absolute path as it is, a
 * bare name looked up by {@link which}; null for a relative path (`./x`,
 * `bin/x`) or a name found nowhere.
 *
 * @example
 * ```ts
 * absoluteProgram("/usr/bin/deno"); // "/usr/bin/deno"
 * absoluteProgram("./gh"); // null
 * ```
 */
export function absoluteProgram(
  program: string,
  path: string = Deno.env.get("PATH") ?? "",
): string | null {
  if (program.startsWith("/")) return program;
  return which(program, path);
}
