/**
 * Keeping a machine's local index (`sqlite/local_index.ts`) in step with the
 * graph store by the change stamp (`changes.ts`): a sync reads the server's
 * change counter, and only when it moved since this machine last saw it
 * reads the heads and Listings stamped after the cursor, in pages. An
 * unchanged server costs that one small query; a changed one costs what
 * changed; a new machine reads heads only (never bodies or comments), so
 * its index stays a few hundred bytes per Resource.
 *
 * The cursor names the server (URL and database) and its epoch: pointed at
 * another server, or at one emptied and set up again, the index is filled
 * afresh.
 *
 * @example
 * ```ts
 * import { refreshLocalIndex } from "./index_sync.ts";
 * const { heads, listings, read } = await refreshLocalIndex(graph, local);
 * ```
 * @module
 */

import type { IndexUpdate, SqliteStore } from "../sqlite/mod.ts";
import type { ChangeCursor } from "./changes.ts";
import type { GraphStore } from "./store.ts";

/** Heads (or Listings) read from the server per page: one local transaction each. */
const PAGE = 5000;

/** Where a local index stands with one server. */
interface IndexMark {
  server: string;
  epoch: string;
  /** The counter value every change up to which the index holds. */
  stamp: number;
  heads: ChangeCursor;
  listings: ChangeCursor;
  /** The last sync: when, and how many changes it read from the server. */
  last: { at: string; read: number };
}

/** What one refresh did. */
export interface IndexReport {
  /** Heads and Listings written into the local index. */
  heads: number;
  listings: number;
  /** Changed nodes read from the server (0: it was unchanged). */
  read: number;
}

const START: ChangeCursor = { stamp: -1, id: "" };

function parseMark(text: string | null): IndexMark | null {
  if (text === null) return null;
  try {
    const m = JSON.parse(text);
    return typeof m?.server === "string" && typeof m?.epoch === "string" &&
        Number.isSafeInteger(m?.stamp) && m?.heads && m?.listings
      ? m as IndexMark
      : null;
  } catch {
    return null;
  }
}

/** The last sync's figures as the local index records them; `null` before the first. */
export async function lastIndexSync(
  local: SqliteStore,
): Promise<{ at: string; read: number; server: string } | null> {
  const mark = parseMark(await local.indexMark());
  return mark === null ? null : { ...mark.last, server: mark.server };
}

/**
 * Brings the local index up to date with the graph store (see the module
 * comment). Each page is written with the cursor after it, so an
 * interrupted sync resumes where it stopped.
 */
export async function refreshLocalIndex(
  graph: GraphStore,
  local: SqliteStore,
): Promise<IndexReport> {
  const report: IndexReport = { heads: 0, listings: 0, read: 0 };
  const counter = await graph.changeCounter();
  if (counter === null) return report;
  const had = parseMark(await local.indexMark());
  const mark: IndexMark = had !== null && had.server === graph.where && had.epoch === counter.epoch
    ? had
    : {
      server: graph.where,
      epoch: counter.epoch,
      stamp: -1,
      heads: START,
      listings: START,
      last: { at: "", read: 0 },
    };
  const save = (update: Omit<IndexUpdate, "mark">) =>
    local.putIndex({ ...update, mark: JSON.stringify(mark) });
  if (mark.stamp !== counter.stamp) {
    for (;;) {
      const page = await graph.changedHeads(mark.heads, PAGE);
      mark.heads = page.next;
      report.read += page.read;
      report.heads += page.heads.length;
      if (page.read > 0) await save({ heads: page.heads, listings: [] });
      if (page.read < PAGE) break;
    }
    for (;;) {
      const page = await graph.changedListings(mark.listings, PAGE);
      mark.listings = page.next;
      report.read += page.read;
      report.listings += page.listings.length;
      if (page.read > 0) await save({ heads: [], listings: page.listings });
      if (page.read < PAGE) break;
    }
    mark.stamp = counter.stamp;
  }
  mark.last = { at: new Date().toISOString(), read: report.read };
  await save({ heads: [], listings: [] });
  return report;
}
