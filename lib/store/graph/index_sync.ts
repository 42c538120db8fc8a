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
 * afresh: every head once, stamped or not (another writer's nodes and an
 * earlier rgraph's carry no stamp; their later changes reach the index when
 * a command reads them, see `GraphStore`).
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
/** Heads per page when an index is filled afresh (fewer round trips; each row is small). */
const FILL_PAGE = 20_000;

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
    size = PAGE,
  ): Promise<number> => {
    let written = 0;
    for (;;) {
      const page = await read(cursor);
      cursor = page.next;
      report.read += page.read;
      written += page.items.length;
      if (page.read > 0) await write(page.items, cursor);
      if (page.read < size) return written;
    }
  };
  const heads = (heads: IndexHead[], mark?: IndexMark) =>
    local.putIndex({ heads, listings: [], mark });
  const listings = (listings: Listing[], mark?: IndexMark) =>
    local.putIndex({ heads: [], listings, mark });
  if (had !== mark) {
    // Filled afresh: every head once, by node id, then on from the counter read
    // above (what changed meanwhile is stamped after it). The fill keeps no
    // cursor of its own: cut short, it starts again.
    const aliases = await graph.allAliases();
    report.heads += await pages(
      START,
      (c) => graph.changedHeads(c, FILL_PAGE, true),
      (h) => heads(h.map((x) => ({ ...x, aliases: aliases.get(x.node_id) ?? [] }))),
      FILL_PAGE,
    );
    report.listings += await pages(
      START,
      (c) => graph.changedListings(c, FILL_PAGE, true),
      (l) => listings(l),
      FILL_PAGE,
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
