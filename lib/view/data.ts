/**
 * What the view's JSON endpoints answer, read from one open store for the
 * configured user only: their sessions, memory (shared), one Resource's
 * page, and the numbers `rgraph stats` and `rgraph status` print, built by
 * their own code. Everything a store returns passes the one rule for
 * untrusted text (`lib/untrusted.ts`) before it leaves.
 *
 * @example
 * ```ts
 * import { ViewData } from "./data.ts";
 * const data = new ViewData(store, config, "alice");
 * (await data.sessions()).sessions.length;
 * ```
 * @module
 */

import type { Config } from "../config/mod.ts";
import { formatStats, type StatsReport, statsReport } from "../user_data/mod.ts";
import {
  type MemoryEntry,
  SEARCH_PAGE_SIZE,
  SearchQueryError,
  sendOutbox,
  type Store,
  UnsupportedStoreError,
  type UserStats,
} from "../store/mod.ts";
import { placeText, searchMemory, searchRequest } from "../serve/mod.ts";
import { formatStatus, statusOf, type StatusReport } from "../sweep/mod.ts";
import type { Listing, ListingMember, Touch } from "../types.ts";
import { neutralize } from "../untrusted.ts";
import {
  cleanStrings,
  type DayReads,
  hitRateByDay,
  type ResourcePage,
  resourcePage,
  sessionsOf,
  type SessionView,
} from "./shape.ts";

/** Entries of memory per page of the Memory view. */
export const MEMORY_PAGE = 100;

/**
 * What the Memory view's box finds by Address rather than by text: one word
 * with an Address's punctuation (`owner/repo`, `github:…`, `#N`, `issues?`).
 */
const ADDRESS_LIKE = /^(?=\S*[/#?:])\S+$/;

/** Sessions per page of the Sessions view, the newest first. */
export const SESSIONS_PAGE = 10;

/** The newest Touches the Sessions view groups (a page at most reads these). */
export const TOUCHES_READ = 5000;

/** Days of Cache Reads the hit-rate chart shows. */
const CHART_DAYS = 30;

/** Members of a Listing shown on its page. */
const LISTING_MEMBERS_SHOWN = 200;

/**
 * The change mark is computed at most this often, however many pages poll
 * it: a viewer's reads must never crowd the hooks' writes.
 */
export const MARK_INTERVAL_MS = 1000;

/** The Value view: `rgraph stats --json` and `rgraph status --json`, their text, and reads per day. */
export interface ValueView {
  stats: StatsReport;
  status: StatusReport;
  /** `rgraph stats` as it prints. */
  stats_text: string;
  /** `rgraph status` as it prints, line by line. */
  status_lines: string[];
  /** Cache Reads per day over the last 30 days. */
  reads_by_day: DayReads[];
}

/** A page of the Memory view (see {@link ViewData.memory}). */
export interface MemorySearchPage {
  entries: (MemoryEntry & { matched?: string; snippet?: string })[];
  total: number;
  offset: number;
  /** Whether a search answered (else: everything, newest first). */
  searched: boolean;
  /** With a search: how many stored Resources it covered. */
  in_scope?: number;
  /** A query the search refused, or a server without search, in one line. */
  error?: string;
}

/** A Listing's page: the Listing and its first members. */
export interface ListingPage {
  listing: Listing;
  members: ListingMember[];
}

/** Reads the view's answers from `store` for `userId`. */
export class ViewData {
  readonly #store: Store;
  readonly #config: Config;
  readonly #userId: string;
  #mark: { at: number; value: Promise<string> } | null = null;

  constructor(store: Store, config: Config, userId: string) {
    this.#store = store;
    this.#config = config;
    this.#userId = userId;
  }

  /**
   * The user's Touches by harness and session, the newest session first,
   * {@link SESSIONS_PAGE} sessions from `offset`, grouped from their newest
   * {@link TOUCHES_READ} Touches (`read` says how many were; `rgraph
   * touches` lists every one), so a redraw costs the same however many
   * there are.
   */
  async sessions(offset: number): Promise<
    {
      user_id: string;
      read: number;
      touches: number;
      total: number;
      offset: number;
      sessions: SessionView[];
    }
  > {
    const newest: Touch[] = [];
    for await (const page of this.#store.touchPages(this.#userId, {}, 1000)) {
      newest.push(...page);
      if (newest.length >= TOUCHES_READ) break;
    }
    const all = sessionsOf(newest.slice(0, TOUCHES_READ).reverse());
    return clean({
      user_id: this.#userId,
      read: Math.min(newest.length, TOUCHES_READ),
      touches: touchCount(await this.#store.userStats(this.#userId)),
      total: all.length,
      offset,
      sessions: all.slice(offset, offset + SESSIONS_PAGE),
    });
  }

  /**
   * One page of memory: everything, newest fetch first; with an address (or
   * its start), what has it in its Address or title; with words, what a
   * search of memory finds (`rgraph search`'s answer, 20 a page, each entry
   * saying where it matched, with a snippet). A person browsing is not a
   * Cache Read: the view records nothing.
   */
  async memory(text: string, offset: number): Promise<MemorySearchPage> {
    const q = text.trim();
    // An address (or the start of one) is looked up by address, as before; words are searched.
    if (q === "" || ADDRESS_LIKE.test(q)) {
      const page = await this.#store.searchMemory({
        text: q || undefined,
        offset,
        limit: MEMORY_PAGE,
      });
      return clean({ ...page, offset, searched: false });
    }
    try {
      const request = searchRequest({ text: q, page: Math.floor(offset / SEARCH_PAGE_SIZE) + 1 });
      const found = await searchMemory(this.#store, request, {
        userId: this.#userId,
        via: "view",
        now: new Date(),
        record: false,
      });
      const entries = found.page.hits.map((h) => ({
        address: h.address,
        kind: h.kind,
        title: h.title,
        state: h.state,
        fetched_at: h.fetched_at,
        updated_at: h.updated_at,
        matched: placeText(h.place),
        snippet: h.snippet,
      }));
      return clean({
        entries,
        total: found.page.total,
        offset: (request.page - 1) * SEARCH_PAGE_SIZE,
        searched: true,
        in_scope: found.page.in_scope,
      });
    } catch (e) {
      if (!(e instanceof SearchQueryError || e instanceof UnsupportedStoreError)) throw e;
      return clean({ entries: [], total: 0, offset: 0, searched: true, error: e.message });
    }
  }

  /** A Resource's page or a Listing's, by Address; null when memory has neither. */
  async resource(
    address: string,
  ): Promise<{ resource: ResourcePage } | { listing: ListingPage } | null> {
    const resource = await this.#store.getResource(address);
    if (resource !== null) {
      const edges = await this.#store.edges(resource.address);
      const heads = await this.#store.getHeads([...new Set(edges.flatMap((e) => [e.from, e.to]))]);
      return clean({ resource: resourcePage(resource, edges, heads) });
    }
    const listing = await this.#store.getListing(address);
    if (listing === null) return null;
    const members = await this.#store.listingMembers(listing.key, {
      offset: 0,
      limit: LISTING_MEMBERS_SHOWN,
    });
    return clean({ listing: { listing, members } });
  }

  /** The Value view at `now`. */
  async value(now: Date): Promise<ValueView> {
    const [user, memory, served] = await Promise.all([
      this.#store.userStats(this.#userId),
      this.#store.memoryStats(),
      this.#store.listTouches(this.#userId, {
        status: "served",
        since: new Date(now.getTime() - CHART_DAYS * 86_400_000).toISOString(),
      }),
    ]);
    const stats = statsReport(this.#userId, null, user, memory);
    const status = statusOf(this.#config, user);
    return clean({
      stats,
      status,
      stats_text: formatStats(stats),
      status_lines: formatStatus(status, now).split("\n"),
      reads_by_day: hitRateByDay(served),
    });
  }

  /**
   * A text that changes when anything the pages show may have: the store's
   * mark and the data directory's files (the Sweep record, the lock, a
   * pause). Computed at most every {@link MARK_INTERVAL_MS}; with a graph
   * store, the hooks' outbox is sent on first.
   */
  change(): Promise<string> {
    const now = Date.now();
    if (this.#mark === null || now - this.#mark.at >= MARK_INTERVAL_MS) {
      // With a graph store, what hooks recorded locally is sent on first, so it shows.
      const value = sendOutbox(this.#store)
        .then(() => Promise.all([this.#store.changeMark(this.#userId), dirMark(this.#config)]))
        .then((parts) => parts.join(" "));
      // A failed read is asked again at the next poll, not remembered.
      value.catch(() => (this.#mark = null));
      this.#mark = { at: now, value };
    }
    return this.#mark.value;
  }
}

/** How many Touches `stats` counts for the user, in every status. */
function touchCount(u: UserStats): number {
  const reads = u.cache_reads;
  const unresolved = Object.values(u.unresolved).reduce((a, n) => a + (n ?? 0), 0);
  return reads.hit + reads.subsumed + reads.miss + u.pending + u.resolved + unresolved;
}

/** Every string of an answer through the one rule for untrusted text. */
function clean<T>(value: T): T {
  return cleanStrings(value, neutralize);
}

/**
 * Names, sizes and change times of the data directory's files other than
 * the database and its journals (the store's mark covers those): the Sweep
 * record, its lock and log, a pause.
 */
function dirMark(config: Config): string {
  const db = config.store.path.slice(config.store.path.lastIndexOf("/") + 1);
  const parts: string[] = [];
  try {
    for (const entry of Deno.readDirSync(config.data_dir)) {
      if (!entry.isFile || entry.name.startsWith(db)) continue;
      const info = Deno.statSync(`${config.data_dir}/${entry.name}`);
      parts.push(`${entry.name}:${info.size}:${info.mtime?.getTime() ?? 0}`);
    }
  } catch {
    // No data directory yet: nothing to mark.
  }
  return parts.sort().join(",");
}
