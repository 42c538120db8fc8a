/**
 * `rgraph forget`: takes back what capture kept about the asking user — their
 * Touches that a query selects, in every store they can be in (the embedded
 * store; with a graph store, the hooks' outbox and the server), their notes
 * of `resource` calls, and the lines of rgraph's logs that name what was
 * forgotten. Resources and Listings stay: they are public and shared. Other
 * users' Touches and notes stay. A second run finds nothing.
 *
 * @example
 * ```ts
 * import { forget } from "./forget.ts";
 * const report = await forget(loadConfig(), { session_id: "s1" }, { dryRun: true });
 * report.touches.length; // what would go
 * ```
 * @module
 */

import { type Config, requireUserId } from "../config/mod.ts";
import { forgetMemoryReads, memoryReadsDir } from "../capture/mod.ts";
import { forgetParams, type ForgetQuery, forgetTouches } from "../store/mod.ts";
import { addressesFromPrompt } from "../address/mod.ts";
import { parseAsked } from "../serve/mod.ts";
import { scrubSweepRecord } from "../sweep/mod.ts";
import type { Touch } from "../types.ts";
import { touchJson, touchTable } from "./touches.ts";
import { checkPrivateFile, PRIVATE_FILE_MODE } from "../host/mod.ts";

/** What a forget removed (or, with `dry_run`, would remove). */
export interface ForgetReport {
  dry_run: boolean;
  /** The Touches, once each, oldest first. */
  touches: Touch[];
  /** How many were in the embedded store (with a graph store: its outbox). */
  local: number;
  /** How many were in the shared graph store; `null` without one. */
  shared: number | null;
  /** Notes of `resource` calls in `<data dir>/memory-reads/`. */
  memory_reads: number;
  /** Lines of rgraph's logs. */
  log_lines: number;
}

/**
 * rgraph's logs in the data directory: the hook's, a Sweep's where one is
 * kept, and the shared store's nodes it could not read (a Touch there is
 * named by its id). They carry no user id: the data directory is one user's.
 */
const LOGS = ["hook.log", "sweep.log", "store.log"];

/** Forgets what `query` selects of the configured user's; refuses without an identity. */
export async function forget(
  config: Config,
  query: ForgetQuery,
  options: { dryRun: boolean },
): Promise<ForgetReport> {
  const userId = requireUserId(config);
  const filters = forgetParams(userId, query);
  const found = await forgetTouches(config, userId, query, { dryRun: options.dryRun });
  const within = (iso: string) =>
    (filters.since === null || iso >= filters.since) &&
    (filters.before === null || iso < filters.before);

  const memoryReads = forgetMemoryReads(
    memoryReadsDir(config.data_dir),
    userId,
    (note) =>
      (filters.session === null || note.session_id === filters.session) &&
      within(note.noted_at) &&
      (filters.address === null || parseAsked(note.address, config)?.key === filters.address),
    options.dryRun,
  );

  const addresses = new Set<string>();
  for (const t of found.touches) {
    addresses.add(t.address.toLowerCase());
    if (t.target !== null) addresses.add(t.target.toLowerCase());
  }
  if (filters.address !== null) addresses.add(filters.address.toLowerCase());
  // A session's id goes when the session itself is forgotten, not when a Touch of it is.
  const sessions = new Set<string>(filters.session === null ? [] : [filters.session]);
  if (query.all === true) {
    for (const t of found.touches) if (t.session_id !== null) sessions.add(t.session_id);
  }
  const ids = found.touches.map((t) => t.id);
  const names = (line: string) => {
    const at = /^(\S+) /.exec(line)?.[1];
    if (
      at !== undefined && Number.isFinite(Date.parse(at)) && !within(new Date(at).toISOString())
    ) {
      return false;
    }
    return [...sessions].some((s) => line.includes(s)) || ids.some((id) => line.includes(id)) ||
      namedAddresses(line, config.identity.github_login).some((k) => addresses.has(k));
  };
  let logLines = 0;
  if (addresses.size > 0 || sessions.size > 0) {
    for (const log of LOGS) {
      logLines += scrubLog(`${config.data_dir}/${log}`, names, options.dryRun);
    }
    // The Sweeps' status record keeps the last error, which may name an Address too.
    logLines += scrubSweepRecord(config.data_dir, names, options.dryRun);
  }
  return {
    dry_run: options.dryRun,
    touches: found.touches,
    local: found.local,
    shared: found.shared,
    memory_reads: memoryReads,
    log_lines: logLines,
  };
}

/**
 * The canonical keys a log line names, lowercased: keys written out (taken
 * whole, so `github:o/rx` never names `github:o/r`), and whatever the prompt
 * scanner finds (GitHub links, `owner/repo#N`), fully qualified ones only.
 */
function namedAddresses(line: string, githubLogin: string | null): string[] {
  const written = [...line.toLowerCase().matchAll(/github:[\w.\-/#?&=%,]+/g)]
    // A sentence's full stop or comma after a key is not part of it.
    .map((m) => m[0].replace(/[.,]+$/, ""));
  const scanned = addressesFromPrompt(line, { cwd: null, githubLogin, repoOfCwd: () => null })
    .map((a) => a.key.toLowerCase());
  return [...written, ...scanned];
}

/**
 * Removes the lines `names` selects from the log at `path` and returns how
 * many; with `dryRun` only counts them. The file is replaced in one rename;
 * a line a hook appends meanwhile would go with the old file, so the text is
 * read again whenever the file changed before the rename.
 */
function scrubLog(path: string, names: (line: string) => boolean, dryRun: boolean): number {
  for (let attempt = 0; attempt < 5; attempt++) {
    let text: string;
    try {
      // Never a planted link (and a log an older rgraph made 0644 is narrowed first).
      if (!checkPrivateFile(path)) return 0;
      text = Deno.readTextFileSync(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return 0;
      throw e;
    }
    const lines = text.split("\n");
    const kept = lines.filter((line) => line === "" || !names(line));
    const gone = lines.length - kept.length;
    if (gone === 0 || dryRun) return gone;
    const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    Deno.writeTextFileSync(tmp, kept.join("\n"), { mode: PRIVATE_FILE_MODE, createNew: true });
    if (Deno.statSync(path).size === new TextEncoder().encode(text).length) {
      Deno.renameSync(tmp, path);
      return gone;
    }
    Deno.removeSync(tmp);
  }
  throw new Error(`${path} kept changing while its lines were being forgotten: run forget again`);
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The report as `rgraph forget` prints it: one line, then with `--dry-run` the Touches. */
export function formatForget(r: ForgetReport): string {
  if (r.touches.length === 0 && r.memory_reads === 0 && r.log_lines === 0) {
    return r.dry_run ? "nothing would be forgotten" : "nothing to forget";
  }
  const where = r.shared === null
    ? ""
    : ` (${r.local} in the local outbox, ${r.shared} in the shared store)`;
  const line = `${r.dry_run ? "would forget" : "forgot"} ${
    count(r.touches.length, "Touch", "Touches")
  }${where}, ${count(r.memory_reads, "memory-read note", "memory-read notes")} and ${
    count(r.log_lines, "log line", "log lines")
  }`;
  return r.dry_run && r.touches.length > 0 ? `${line}:\n\n${touchTable(r.touches)}` : line;
}

/** The report as `rgraph forget --json` prints it. */
export function forgetJson(r: ForgetReport) {
  return {
    dry_run: r.dry_run,
    counts: {
      touches: r.touches.length,
      local: r.local,
      shared: r.shared,
      memory_reads: r.memory_reads,
      log_lines: r.log_lines,
    },
    touches: r.touches.map(touchJson),
  };
}
