/**
 * The capture policy applied to one event: whether its session's working
 * directory, its harness or its tool keeps it out of memory (`[capture]` in
 * the config file), and which part of a prompt may be scanned at all.
 *
 * Paths compare on path boundaries (`/work/client-x` holds
 * `/work/client-x/src`, never `/work/client-xyz`), both as written and with
 * symlinks resolved, on both sides: a session started through a symlink into
 * an excluded project is excluded, and so is one inside a project excluded
 * through a symlink. Resolving happens per event (a few `realpath` calls),
 * since a link can change after the config cache was written.
 *
 * @example
 * ```ts
 * import { exclusion, visiblePrompt } from "./policy.ts";
 * exclusion(policy, { cwd: "/work/client-x/src", harness: "codex", tool: "Bash" }); // "path"
 * visiblePrompt("see o/r#1 <private>and o/r#2</private>"); // "see o/r#1  "
 * ```
 * @module
 */

import type { CapturePolicy } from "../config/mod.ts";
import { normalPath } from "../config/paths/mod.ts";
import { pauseState } from "./pause.ts";

/** Where a record would come from. */
export interface CaptureSite {
  /** The session's working directory (`null`: the hook process's own). */
  cwd: string | null;
  harness: string | null;
  /** The tool called, for tool calls. */
  tool?: string | null;
}

/** Which rule keeps an event out of memory. */
export type Exclusion = "path" | "harness" | "tool";

/** The rule that excludes `site`, or `null` when it may be recorded. */
export function exclusion(policy: CapturePolicy, site: CaptureSite): Exclusion | null {
  const harness = site.harness?.toLowerCase() ?? null;
  if (harness !== null && (policy.exclude_harnesses as string[]).includes(harness)) {
    return "harness";
  }
  const tool = site.tool?.toLowerCase() ?? null;
  if (tool !== null && policy.exclude_tools.includes(tool)) return "tool";
  if (policy.exclude_paths.length > 0 && insideAny(site.cwd, policy.exclude_paths)) return "path";
  return null;
}

/** True when `dir` is `root` or below it. */
function inside(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root === "/" ? "/" : `${root}/`);
}

/** `path` as written and, when it exists, with its symlinks resolved. */
function spellings(path: string): string[] {
  const out = [path];
  try {
    const real = normalPath(Deno.realPathSync(path));
    if (real !== path) out.push(real);
  } catch {
    // Gone, or not readable: only its written form can match.
  }
  return out;
}

function insideAny(cwd: string | null, roots: string[]): boolean {
  let dir = cwd;
  try {
    if (dir === null) dir = Deno.cwd();
    else if (!dir.startsWith("/")) dir = `${Deno.cwd()}/${dir}`;
  } catch {
    // The hook's own directory was removed: only an absolute cwd can be compared.
    if (dir === null || !dir.startsWith("/")) return false;
  }
  const dirs = spellings(normalPath(dir));
  return roots.some((root) => spellings(root).some((r) => dirs.some((d) => inside(d, r))));
}

const PRIVATE_TAG = /<\s*(\/?)\s*private\s*>/gi;

/**
 * The part of a prompt that may be scanned for addresses: everything outside
 * `<private>`…`</private>` (tags in any case). Blocks nest, so an inner
 * `</private>` does not reveal the rest of an outer block; an unclosed
 * `<private>` hides the rest of the prompt; a stray `</private>` is plain
 * text. Each hidden block leaves a space, so text either side of it never
 * joins into an address neither side names.
 */
export function visiblePrompt(prompt: string): string {
  let out = "";
  let depth = 0;
  let from = 0;
  for (const m of prompt.matchAll(PRIVATE_TAG)) {
    const closing = m[1] === "/";
    if (!closing) {
      if (depth === 0) out += `${prompt.slice(from, m.index)} `;
      depth++;
    } else if (depth > 0 && --depth === 0) {
      from = m.index + m[0].length;
    }
  }
  return depth === 0 ? out + prompt.slice(from) : out;
}

/**
 * Whether anything from `site` may be recorded now: capture is not paused
 * and the policy does not exclude it. For records made outside the hook —
 * Cache Reads of the MCP server and `rgraph lookup`, whose site is their own
 * working directory and the harness that asked.
 */
export function capturing(
  config: { data_dir: string; capture: CapturePolicy },
  site: CaptureSite,
  now: Date = new Date(),
): boolean {
  return !pauseState(config.data_dir, now).paused && exclusion(config.capture, site) === null;
}
