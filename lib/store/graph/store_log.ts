/**
 * `<data dir>/store.log`: one line for each node of the shared store that
 * rgraph could not read and treated as absent (another writer's, incomplete
 * or of another type), e.g.
 * `2026-11-01T12:00:00.000Z skipped Resource github:o/r#5 (node I_x): no title`.
 * Each line is written once: one already in the file is not written again,
 * so commands that meet the same node every time add nothing.
 *
 * @example
 * ```ts
 * import { storeLog } from "./store_log.ts";
 * const skip = storeLog(config.data_dir);
 * skip("Listing github:o/r/issues?labels=bug", "key is no rgraph Listing key");
 * ```
 * @module
 */

import type { Skip } from "./decode.ts";
import { neutralizeLine } from "../../untrusted.ts";
import { privateDataDir } from "../../config/paths/mod.ts";
import { appendPrivateFile } from "../../host/mod.ts";

/** Past this size the log starts afresh (the old one is kept as `store.log.old`). */
const MAX_BYTES = 1 << 20;

/** Lines of the log without their time. */
function entries(path: string): Set<string> {
  let text = "";
  try {
    if (Deno.statSync(path).size > MAX_BYTES) {
      Deno.renameSync(path, `${path}.old`);
      return new Set();
    }
    text = Deno.readTextFileSync(path);
  } catch {
    // No log yet.
  }
  return new Set(text.split("\n").filter((l) => l !== "").map((l) => l.replace(/^\S+ /, "")));
}

/** A {@link Skip} that logs to `<dataDir>/store.log`; it never throws. */
export function storeLog(dataDir: string): Skip {
  const path = `${dataDir}/store.log`;
  let seen: Set<string> | null = null;
  return (what, why) => {
    const entry = neutralizeLine(`skipped ${what}: ${why}`).replace(/\s+/g, " ");
    try {
      seen ??= entries(path);
      if (seen.has(entry)) return;
      seen.add(entry);
      privateDataDir(dataDir);
      appendPrivateFile(path, `${new Date().toISOString()} ${entry}\n`);
    } catch {
      // A log that cannot be written must not fail the command that read the graph.
    }
  };
}
