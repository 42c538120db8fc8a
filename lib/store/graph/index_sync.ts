/**
 * Keeping a machine's local index (`sqlite/local_index.ts`) in step with the
 * graph store by the change stamp (`changes.ts`): a sync reads the server's
 * change counter, and only when it moved since this machine last saw it
 * reads the heads and Listings stamped after the cursor, in pages. An
 * unchanged server costs that one small query; a changed one costs what
 * changed; a new machine reads the newest heads only (never bodies or
 * comments), so its first command and its index stay bounded.
 *
 * The cursor names the server (URL and database) and its epoch: pointed at
 * another server, or at one emptied and set up again, the index is filled
 * afresh: the newest heads once (at most {@link FILL_HEADS}), stamped or
 * not; what it leaves out, and the later changes of nodes without a stamp
 * (another writer's, an earlier rgraph's), reach the index when a command
 * reads them (see `GraphStore`).
 *
 * @example
 * ```ts
 * import { refreshLocalIndex } from "./index_sync.ts";
 * const { heads, listings, read } = await refreshLocalIndex(graph, local);
 * ```
 * @module
 */

import type { IndexMark, SqliteStore } from "../sqlite/mod.ts";
import type { IndexHead } from "../contract.ts";
import type { Listing } from "../../types.ts";
import type { ChangeCursor, ChangePage } from "./changes.ts";
import type { GraphStore } from "./store.ts";

/** Changed heads (or Listings) read from the server per page: one local transaction each. */
const PAGE = 5000;
/**
 * Heads a local index filled afresh reads: the most recently fetched, so a
 * new machine's first command stays bounded however large the team's memory
 * (a few MB; about 250 bytes a head).
 */
const FILL_HEADS = 20_000;

/** What one refresh did. */
export interface IndexReport {
  /** Heads and Listings written into the local index. */
  heads: number;
  listings: number;
  /** Changed nodes read from the server (0: it was unchanged). */
  read: number;
}

const START: ChangeCursor = { stamp: -1, id: "" };

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
  const had = await local.indexMark();
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
  const save = () => local.putIndex({ heads: [], listings: [], mark });
  /** Reads pages from `cursor` on, writing each (`write`) until one comes back short. */
  const pages = async <T>(
    cursor: ChangeCursor,
    read: (c: ChangeCursor) => Promise<ChangePage<T>>,
    write: (items: T[], next: ChangeCursor) => Promise<void>,
  ): Promise<number> => {
    let written = 0;
    for (;;) {
      const page = await read(cursor);
      cursor = page.next;
      report.read += page.read;
      written += page.items.length;
      if (page.read > 0) await write(page.items, cursor);
      if (page.read < PAGE) return written;
    }
  };
  const heads = (heads: IndexHead[], mark?: IndexMark) =>
    local.putIndex({ heads, listings: [], mark });
  const listings = (listings: Listing[], mark?: IndexMark) =>
    local.putIndex({ heads: [], listings, mark });
  if (had !== mark) {
    // Filled afresh: the newest heads once, then on from the counter read above
    // (what changed meanwhile is stamped after it). Older ones reach the index
    // when a command reads them. The fill keeps no cursor: cut short, it starts again.
    const aliases = await graph.allAliases();
    const newest = await graph.newestHeads(FILL_HEADS);
    report.read += newest.length;
    report.heads += newest.length;
    for (let i = 0; i < newest.length; i += PAGE) {
      await heads(
        newest.slice(i, i + PAGE).map((h) => ({ ...h, aliases: aliases.get(h.node_id) ?? [] })),
      );
    }
    report.listings += await pages(
      START,
      (c) => graph.changedListings(c, PAGE, true),
      (l) => listings(l),
    );
    mark.stamp = counter.stamp;
    mark.heads = mark.listings = { stamp: counter.stamp, id: "" };
  }
  if (mark.stamp !== counter.stamp) {
    report.heads += await pages(mark.heads, (c) => graph.changedHeads(c, PAGE), (h, next) => {
      mark.heads = next;
      return heads(h, mark);
    });
    report.listings += await pages(
      mark.listings,
      (c) => graph.changedListings(c, PAGE),
      (l, next) => {
        mark.listings = next;
        return listings(l, mark);
      },
    );
    mark.stamp = counter.stamp;
  }
  mark.last = { at: new Date().toISOString(), read: report.read };
  await save();
  return report;
}
