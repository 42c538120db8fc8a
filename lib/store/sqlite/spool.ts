/**
 * The hooks' spool. A hook waits under a second for a busy store (the
 * harness kills it at five); when the store stays busy, or cannot be used at
 * all, the hook keeps its Touches here instead of losing them: one small
 * JSON file per hook call in `touch-spool/` beside the store. The next
 * command that opens the store (and `serve-mcp`'s background scheduler)
 * records them; the store skips a Touch it has, so recording twice is
 * harmless.
 *
 * A file is written under a temporary name and renamed, so a reader never
 * sees half of one; a drain claims a file by renaming it, so two drains
 * never record one file twice, and puts it back when the store refuses it.
 *
 * @example
 * ```ts
 * import { drainSpool, spoolTouches } from "./spool.ts";
 * spoolTouches("/home/me/.local/share/rgraph/rgraph.db", touches); // in the hook
 * await drainSpool(store); // in a command: the kept Touches are recorded
 * ```
 * @module
 */

import type { NewTouch } from "../../types.ts";
import type { SqliteStore } from "./store.ts";
import { privateDir, writePrivateFile } from "../../host/mod.ts";

/** A claim older than this was left by a drain that died: the next drain takes the file back. */
const STALE_CLAIM_MS = 60_000;

/** The spool folder of the store at `storePath`. */
export function spoolDir(storePath: string): string {
  return `${storePath.slice(0, storePath.lastIndexOf("/")) || "."}/touch-spool`;
}

/** Keeps `touches` in the spool of the store at `storePath`. Throws when nothing could be written. */
export function spoolTouches(storePath: string, touches: NewTouch[]): void {
  const dir = spoolDir(storePath);
  // Owner-only, like the store: a Touch is private.
  privateDir(dir, { narrow: true });
  const name = `${Date.now()}-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  writePrivateFile(`${dir}/${name}.json`, JSON.stringify(touches));
}

/** The spool's files a drain may take: kept ones, and claims a dead drain left behind. */
function waiting(dir: string, now: number): string[] {
  const names: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile) continue;
      if (e.name.endsWith(".json")) names.push(e.name);
      else if (/\.json\.claim-\d+$/.test(e.name)) {
        const at = Deno.statSync(`${dir}/${e.name}`).mtime?.getTime() ?? now;
        if (now - at > STALE_CLAIM_MS) names.push(e.name);
      }
    }
  } catch {
    // No spool (the usual case), or one that cannot be read: nothing to record.
  }
  return names.sort();
}

/**
 * Records what the spool of `store` keeps, oldest first, and returns how many
 * Touches were recorded. Never throws: a file the store refuses now (busy,
 * say) waits for the next drain, and one that is not a spool file is set
 * aside as `*.bad`.
 */
export async function drainSpool(store: SqliteStore): Promise<number> {
  const dir = spoolDir(store.path);
  let recorded = 0;
  for (const name of waiting(dir, Date.now())) {
    const kept = `${dir}/${name.replace(/\.claim-\d+$/, "")}`;
    const claim = `${kept}.claim-${Deno.pid}`;
    try {
      Deno.renameSync(`${dir}/${name}`, claim);
    } catch {
      continue; // Another drain took it.
    }
    let touches: NewTouch[];
    try {
      const parsed = JSON.parse(Deno.readTextFileSync(claim));
      if (!Array.isArray(parsed)) throw new Error("not a list of Touches");
      touches = parsed;
    } catch {
      try {
        Deno.renameSync(claim, `${kept}.bad`);
      } catch { /* gone: nothing to set aside */ }
      continue;
    }
    try {
      await store.recordTouches(touches);
      recorded += touches.length;
      Deno.removeSync(claim);
    } catch {
      // The store refused them now: they wait for the next drain.
      try {
        Deno.renameSync(claim, kept);
      } catch { /* a stale claim is taken back by a later drain */ }
      break;
    }
  }
  return recorded;
}
