/**
 * Answers an Address from memory — the `resource` MCP tool and `rgraph lookup`
 * share this — and records the read as a Cache Read: a Touch of the asking
 * user with status `served`, which the Sweep never picks up.
 *
 * @example
 * ```ts
 * import { answer } from "./answer.ts";
 * const a = await answer(store, parseKey("github:o/r#5"), { userId: "alice", now: new Date() });
 * a.outcome; // "hit" | "subsumed" | "miss"
 * console.log(a.text);
 * ```
 * @module
 */

import type {
  Address,
  CacheOutcome,
  ItemResource,
  Listing,
  ListingAddress,
  ListingMember,
  NewTouch,
  Resource,
} from "../types.ts";
import type { Store } from "../store/mod.ts";
import type { Config } from "../config/mod.ts";
import { chooseListing, MAX_ADDRESS_CHARS, memberMatches, parseAddress } from "../address/mod.ts";
import { terminalJson } from "../untrusted.ts";
import { readGitRemote } from "../capture/mod.ts";
import {
  itemPaging,
  type ListingView,
  planItem,
  planListing,
  renderItem,
  renderListing,
  renderMiss,
  renderPartialMiss,
  renderRepository,
  spanPaging,
} from "./render.ts";
import type { RowSpan } from "./frame.ts";

/** Who asks, and how. */
export interface AnswerOptions {
  /** 1-based page of a thread or listing; default 1. */
  page?: number;
  userId: string;
  sessionId?: string | null;
  toolUseId?: string | null;
  /** The harness's subagent that asked, when its hook reported the call. */
  agentId?: string | null;
  /** Which harness asked, when known. */
  harness?: string | null;
  /** Recorded as the Touch's tool name: `resource` for the MCP tool, `lookup` for the command. */
  via?: "resource" | "lookup";
  now: Date;
  /** Fence nonce; random when omitted (tests pass one to compare output). */
  nonce?: string;
  /** Keeps whole listings between answers of a long-lived server (see {@link MemberCache}). */
  cache?: MemberCache;
  /**
   * `false` answers without recording the Cache Read: capture is paused, or
   * the capture policy excludes where the read came from. Default `true`.
   */
  record?: boolean;
}

/** What one question over a listing serves: its matching members (capped by its limit), cut into pages. */
interface PlannedRows {
  matched: number;
  served: ListingMember[];
  pages: RowSpan[];
}

/** How many questions' plans an entry of {@link MemberCache} keeps. */
const PLANS_PER_LISTING = 32;

/**
 * The members of recently read Listings, for a long-lived server: paging
 * through a listing, or asking several narrower questions of one broad
 * listing, reads its members once, and cuts each question's rows into
 * pages once. An entry serves only the listing version it was read from
 * (same `fetched_at`) and only for `ttlMs`, so a re-fetched member's new
 * title or state shows within that time.
 *
 * @example
 * ```ts
 * const cache = new MemberCache();
 * await answer(store, address, { userId, now: new Date(), cache });
 * ```
 */
export class MemberCache {
  readonly #entries = new Map<
    string,
    {
      fetched_at: string;
      at: number;
      members: ListingMember[];
      plans: Map<string, PlannedRows>;
    }
  >();
  constructor(readonly capacity = 8, readonly ttlMs = 60_000) {}

  #entry(listing: Listing, nowMs: number) {
    const hit = this.#entries.get(listing.key);
    if (!hit || hit.fetched_at !== listing.fetched_at || nowMs - hit.at >= this.ttlMs) return null;
    // Re-insert: Maps iterate in insertion order, so the first key is the least recently used.
    this.#entries.delete(listing.key);
    this.#entries.set(listing.key, hit);
    return hit;
  }

  /** The cached members of this version of `listing`, or null. */
  get(listing: Listing, nowMs: number): ListingMember[] | null {
    return this.#entry(listing, nowMs)?.members ?? null;
  }

  /** Keeps every member of `listing`, evicting the least recently used entry when full. */
  put(listing: Listing, nowMs: number, members: ListingMember[]): void {
    this.#entries.delete(listing.key);
    this.#entries.set(listing.key, {
      fetched_at: listing.fetched_at,
      at: nowMs,
      members,
      plans: new Map(),
    });
    if (this.#entries.size > this.capacity) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** The kept plan of `question` over this version of `listing`, or null. */
  plan(listing: Listing, nowMs: number, question: string): PlannedRows | null {
    return this.#entry(listing, nowMs)?.plans.get(question) ?? null;
  }

  /** Keeps `planned` with this version of `listing` while its members are kept. */
  keepPlan(listing: Listing, nowMs: number, question: string, planned: PlannedRows): void {
    const plans = this.#entry(listing, nowMs)?.plans;
    if (!plans) return;
    plans.set(question, planned);
    if (plans.size > PLANS_PER_LISTING) plans.delete(plans.keys().next().value!);
  }
}

/**
 * Every member of `source`, from `cache` when it holds this version. The
 * whole listing is read: pages are cut by what their rows cost, so where a
 * page starts depends on every row before it, and a filtered answer reports
 * how many match even when the asked limit shows fewer.
 */
async function storedMembers(
  store: Store,
  source: Listing,
  nowMs: number,
  cache: MemberCache | undefined,
): Promise<ListingMember[]> {
  let all = cache?.get(source, nowMs);
  if (!all) {
    all = await store.listingMembers(source.key);
    cache?.put(source, nowMs, all);
  }
  return all;
}

/** The rows `asked` is served from `all` (every one for an exact hit), cut into pages. */
function planRows(all: ListingMember[], asked: ListingAddress, exact: boolean): PlannedRows {
  const matching = exact ? all : all.filter((m) => memberMatches(asked.filters, m));
  const served = matching.slice(0, asked.limit ?? matching.length);
  return { matched: matching.length, served, pages: planListing(served) };
}

/** An answer: the outcome, the canonical key asked, the text for a model or person, and JSON. */
export interface Answer {
  outcome: CacheOutcome;
  /** `null` when the address could not be understood. */
  key: string | null;
  text: string;
  json: Record<string, unknown>;
}

/** The address forms the tool and `lookup` accept, for error messages. */
const ACCEPTED_FORMS =
  "a GitHub URL (https://github.com/OWNER/REPO/issues/N, …/pull/N, …/issues?q=…), OWNER/REPO#N, " +
  "OWNER/REPO, a canonical key (github:OWNER/REPO#N, github:OWNER/REPO/issues?label=bug&state=open) " +
  "or a gh command line (gh issue view N -R OWNER/REPO, gh issue list -R OWNER/REPO --label bug)";

/**
 * Parses what a model or person typed into an Address, with every form the
 * capture parser knows. A bare `#N` or a `gh` line without `-R` resolves
 * against the git remote of the current directory (where the harness started
 * the server); `@me` against the configured GitHub login.
 */
export function parseAsked(text: string, config: Config): Address | null {
  let cwd: string | null = null;
  try {
    cwd = Deno.cwd();
  } catch {
    // A deleted working directory: only fully qualified addresses parse.
  }
  return parseAddress(text.trim(), {
    cwd,
    githubLogin: config.identity.github_login,
    repoOfCwd: readGitRemote,
  });
}

/**
 * Why `text` is not an address, in one sentence: too long to be one, `@me`
 * without a configured GitHub login (it cannot enter a shared key
 * unresolved), or not a form the parser knows.
 */
export function notAnAddress(text: string, githubLogin: string | null): string {
  if (text.length > MAX_ADDRESS_CHARS) {
    return `not an address: ${text.length} characters, longer than any (at most ${MAX_ADDRESS_CHARS})`;
  }
  // Quoted as JSON, with what JSON leaves raw (C1, bidi, zero-width) escaped too: the one rule.
  const shown = terminalJson(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  if (githubLogin === null && /@me\b/i.test(text)) {
    return `${shown} uses @me, which needs your GitHub login: set [identity] github_login in rgraph's ` +
      "config, or name the login instead of @me";
  }
  return `not an address: ${shown}. Accepted: ${ACCEPTED_FORMS}`;
}

/** The answer for an address that could not be understood (no Touch is recorded). */
export function invalidAnswer(text: string, githubLogin: string | null = null): Answer {
  return {
    outcome: "miss",
    key: null,
    text: `rgraph: ${notAnAddress(text, githubLogin)}.`,
    json: {
      outcome: "invalid",
      key: null,
      // What was asked, as it was, unless it is too long to be an address: then its length.
      input: text.length > MAX_ADDRESS_CHARS ? `(${text.length} characters)` : text,
      accepted: ACCEPTED_FORMS,
    },
  };
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Resource fields for JSON, without the (paged) thread. */
function resourceJson(r: Resource): Record<string, unknown> {
  if (r.kind === "repository") return { ...r };
  const { comments: _c, ...rest } = r;
  if (r.kind === "pull_request") {
    const { review_comments: _r, ...pr } = rest as Omit<ItemResource, "comments"> & {
      review_comments?: unknown;
    };
    return pr;
  }
  return rest;
}

interface Found {
  outcome: CacheOutcome;
  target: string | null;
  text: string;
  json: Record<string, unknown>;
}

async function findResource(
  store: Store,
  address: Address & { kind: "item" | "repository" },
  page: number,
  ctx: { now: Date; nonce: string },
): Promise<Found | null> {
  const r = await store.getResource(address.key);
  if (r === null) return null;
  if (r.kind === "repository") {
    return {
      outcome: "hit",
      target: r.address,
      text: renderRepository(r, address.key, page, ctx),
      json: { resource: resourceJson(r) },
    };
  }
  const plan = planItem(r);
  const p = itemPaging(plan, page);
  return {
    outcome: "hit",
    target: r.address,
    text: renderItem(r, address.key, page, ctx, plan),
    json: {
      resource: resourceJson(r),
      thread: { paging: p, entries: plan.thread.slice(p.offset, p.offset + p.count) },
    },
  };
}

async function findListing(
  store: Store,
  asked: ListingAddress,
  page: number,
  ctx: { now: Date; nonce: string },
  cache: MemberCache | undefined,
): Promise<Found | null> {
  const stored = await store.findListings(asked.owner, asked.repo, asked.listing);
  const match = chooseListing(asked, stored);
  if (match.outcome === "miss") {
    // A truncated copy of exactly this listing cannot answer a question for
    // more than it holds; say so, so the model can narrow the ask or fetch.
    const partial = stored.find((l) => l.key === asked.key);
    if (!partial) return null;
    return {
      outcome: "miss",
      target: null,
      text: renderPartialMiss(asked, partial, ctx.now),
      json: { partial },
    };
  }
  const source = match.listing;
  const nowMs = Date.now();
  const question = `${asked.key} limit=${asked.limit ?? "none"}`;
  let planned = cache?.plan(source, nowMs, question);
  if (!planned) {
    const all = await storedMembers(store, source, nowMs, cache);
    planned = planRows(all, asked, match.outcome === "hit");
    cache?.keepPlan(source, nowMs, question, planned);
  }
  const matched = planned.matched, served = planned.served.length;
  const p = spanPaging(planned.pages, served, page);
  const rows = planned.served.slice(p.offset, p.offset + p.count);
  const view: ListingView = {
    outcome: match.outcome,
    askedKey: asked.key,
    source,
    matched,
    served,
    limit: asked.limit,
    paging: p,
    rows,
  };
  return {
    outcome: match.outcome,
    target: source.key,
    text: renderListing(view, ctx),
    json: { source, matched, served, limit: asked.limit, paging: p, members: rows },
  };
}

/**
 * Answers `address` from memory and records the Cache Read for `userId`
 * (unless `record` is false).
 * `null` (an address that could not be parsed) gets {@link invalidAnswer}
 * without a Touch. Never calls GitHub.
 */
export async function answer(
  store: Store,
  address: Address | null,
  opts: AnswerOptions,
): Promise<Answer> {
  if (address === null) return invalidAnswer("");
  const page = opts.page ?? 1;
  const ctx = { now: opts.now, nonce: opts.nonce ?? randomNonce() };
  const found = address.kind === "listing"
    ? await findListing(store, address, page, ctx, opts.cache)
    : await findResource(store, address, page, ctx);
  const outcome: CacheOutcome = found?.outcome ?? "miss";
  if (opts.record !== false) {
    await store.recordTouches([cacheRead(address, outcome, found?.target ?? null, opts)]);
  }
  const kind = address.kind;
  if (found === null) {
    return {
      outcome,
      key: address.key,
      text: renderMiss(address.key),
      json: { outcome, key: address.key, kind },
    };
  }
  return {
    outcome,
    key: address.key,
    text: found.text,
    json: { outcome, key: address.key, kind, ...found.json },
  };
}

/** The Touch a Cache Read leaves: FETCHED, `served`, unique per read. */
function cacheRead(
  address: Address,
  outcome: CacheOutcome,
  target: string | null,
  opts: AnswerOptions,
): NewTouch {
  return {
    user_id: opts.userId,
    session_id: opts.sessionId ?? null,
    provenance: "FETCHED",
    address: address.key,
    kind: address.kind,
    limit: address.kind === "listing" ? address.limit : null,
    tool_name: opts.via ?? "resource",
    tool_use_id: opts.toolUseId ?? null,
    agent_id: opts.agentId ?? null,
    harness: opts.harness ?? null,
    recorded_at: opts.now.toISOString(),
    // Every read is its own event: two identical questions are two Cache Reads.
    dedup_key: `cache-read:${crypto.randomUUID()}`,
    status: "served",
    outcome,
    target,
  };
}
