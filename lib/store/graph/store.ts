/**
 * The shared graph store: Resources, Listings and Touches in Memgraph or Neo4j
 * over Bolt (`neo4j-driver`), in the Context Graph family's model (see
 * `model.ts`). Resources and Listings are shared by the team; Touches
 * carry their user id and every read of them filters by it.
 *
 * A batch of Resources is written in one transaction of a fixed number of
 * `UNWIND` statements, sent pipelined: the Bolt round trips do not grow with
 * the number of Resources in a batch or of comments on them, and each
 * Resource lands whole with its comments and edges or not at all.
 *
 * @example
 * ```ts
 * import { connectGraph } from "./store.ts";
 * const store = await connectGraph({ url: "bolt://127.0.0.1:7687", user: null, password: null, database: null });
 * await store.getResource("github:memgraph/memgraph#123");
 * await store.close();
 * ```
 * @module
 */

import neo4j, { type Driver, type ManagedTransaction, type Session } from "neo4j-driver";
import {
  type Edge,
  forgetParams,
  type ForgetQuery,
  type MemoryStats,
  requireUser,
  type ResourceHead,
  type ResourceWrite,
  type Settlement,
  type Store,
  StoreUnavailableError,
  type TouchQuery,
  type UserStats,
} from "../contract.ts";
import type { SqliteStore } from "../sqlite/mod.ts";
import { declaredEdges } from "../declared.ts";
import * as Q from "./cypher.ts";
import {
  commentProps,
  ddl,
  decodeListing,
  decodeResource,
  decodeTouch,
  type Dialect,
  dialectOf,
  isAlreadyExists,
  listingProps,
  resourceProps,
  schemaTag,
  touchProps,
  unreachableReason,
} from "./model.ts";
import { printableUrl } from "../bolt_url.ts";
import type {
  CacheOutcome,
  EdgeKind,
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  ResourceKind,
  Touch,
  UnresolvedReason,
} from "../../types.ts";

/** Resources per write transaction: bounds a transaction's size on big sweeps. */
const BATCH = 250;
/** How many times a lease retries for Touches another sweep took from under it. */
const LEASE_ATTEMPTS = 4;

type Params = Record<string, unknown>;
type Props = Record<string, unknown>;

/** Where the graph store connects, and as whom. */
export interface GraphTarget {
  url: string;
  user: string | null;
  password: string | null;
  database: string | null;
}

/** Options beyond the connection. */
export interface GraphOptions {
  /**
   * Whose pending Touches `leasePending` may lease (the person running the
   * Sweep): others' Touches stay private. `null` leases everyone's (a
   * dedicated team sweeper).
   */
  leaseUser?: string | null;
}

/** Counts of Bolt work issued, for the benchmark: statements run and transactions committed. */
export interface BoltCounts {
  statements: number;
  transactions: number;
}

/** Bolt integers for whole numbers (JS numbers travel as floats), recursively. */
function bolt(value: unknown): unknown {
  if (typeof value === "number" && Number.isSafeInteger(value)) return neo4j.int(value);
  if (Array.isArray(value)) return value.map(bolt);
  if (value !== null && typeof value === "object" && value.constructor === Object) {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) out[k] = bolt(v);
    return out;
  }
  return value;
}

const UNREACHABLE = new Set(["ServiceUnavailable", "SessionExpired"]);

function isUnreachable(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return UNREACHABLE.has(err?.code ?? "") ||
    /ECONNREFUSED|ECONNRESET|connection refused|Could not perform discovery|Failed to connect|Pool is closed|connect(ion)? timed? ?out/i
      .test(err?.message ?? "");
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

function unreachable(url: string, e: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `${printableUrl(url)}: ${unreachableReason(String((e as Error)?.message ?? e))}`,
    e,
  );
}

/** The shared graph store. */
export class GraphStore implements Store {
  readonly kind = "graph" as const;
  readonly dialect: Dialect;
  readonly #driver: Driver;
  readonly #target: GraphTarget;
  readonly #leaseUser: string | null;
  #seq = 0;
  #mirror: SqliteStore | null = null;
  #counts: BoltCounts = { statements: 0, transactions: 0 };

  constructor(driver: Driver, target: GraphTarget, dialect: Dialect, options: GraphOptions) {
    this.#driver = driver;
    this.#target = target;
    this.dialect = dialect;
    this.#leaseUser = options.leaseUser ?? null;
  }

  /**
   * Keeps `local` (the hooks' local index) in step with what this store
   * writes, and closes it with the store.
   */
  attachLocalIndex(local: SqliteStore): void {
    this.#mirror = local;
  }

  /**
   * Repeats a write on the local index. Best effort: the graph store has the
   * write already, and the next sync copies whatever the index missed.
   */
  async #mirrored(write: (local: SqliteStore) => Promise<void>): Promise<void> {
    if (this.#mirror === null) return;
    try {
      await write(this.#mirror);
    } catch {
      // The index is a cache of the graph store; see the doc comment.
    }
  }

  /** Bolt work issued since the store opened (or since the last reset). */
  boltCounts(reset = false): BoltCounts {
    const out = { ...this.#counts };
    if (reset) this.#counts = { statements: 0, transactions: 0 };
    return out;
  }

  #session(): Session {
    return this.#driver.session({ database: this.#target.database ?? undefined });
  }

  /** Runs `work` on a fresh session, reporting a lost server as {@link StoreUnavailableError}. */
  async #withSession<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = this.#session();
    try {
      return await work(session);
    } catch (e) {
      if (isUnreachable(e)) {
        throw unreachable(this.#target.url, e);
      }
      throw e;
    } finally {
      await session.close();
    }
  }

  /** Runs `work` in one managed transaction (retried by the driver on transient errors). */
  #tx<T>(mode: "read" | "write", work: (run: Runner) => Promise<T>): Promise<T> {
    return this.#withSession(async (session) => {
      const fn = (tx: ManagedTransaction) => work(this.#runner(tx));
      const out = mode === "read" ? await session.executeRead(fn) : await session.executeWrite(fn);
      this.#counts.transactions++;
      return out;
    });
  }

  /**
   * One read statement as an auto-commit transaction: one round trip, where a
   * managed transaction needs a second for its commit. Reads never conflict,
   * so they need no retry.
   */
  #read(query: string, params: Params = {}): Promise<Props[]> {
    return this.#withSession(async (session) => {
      this.#counts.statements++;
      this.#counts.transactions++;
      const result = await session.run(query, bolt(params) as Params);
      return result.records.map((r) => r.toObject() as Props);
    });
  }

  #runner(tx: ManagedTransaction): Runner {
    return async (query, params = {}) => {
      this.#counts.statements++;
      const result = await tx.run(query, bolt(params) as Params);
      return result.records.map((r) => r.toObject() as Props);
    };
  }

  /** Monotonic within this process: orders Touches recorded in the same millisecond. */
  #nextSeq(): number {
    this.#seq = Math.max(Date.now() * 1000, this.#seq + 1);
    return this.#seq;
  }

  // --- Touches -------------------------------------------------------------------

  recordTouches(touches: NewTouch[]): Promise<number> {
    return this.importTouches(touches);
  }

  /**
   * Records Touches keeping whatever they already carry (status, reason,
   * settlement): the outbox drain and `migrate` move settled ones too. A
   * Touch already stored for its user and dedup key is skipped. Returns how
   * many were new.
   */
  async importTouches(touches: (NewTouch & Partial<Touch>)[]): Promise<number> {
    for (const t of touches) requireUser(t.user_id);
    if (touches.length === 0) return 0;
    const rows = touches.map((t) => touchProps(t, this.#nextSeq()));
    return await this.#tx("write", async (run) => (await run(Q.RECORD_TOUCHES, { rows })).length);
  }

  async listTouches(userId: string, query: TouchQuery = {}): Promise<Touch[]> {
    requireUser(userId);
    const rows = await this.#read(Q.LIST_TOUCHES, {
      user: userId,
      session: query.session_id ?? null,
      since: query.since ?? null,
      status: query.status ?? null,
    });
    return rows.map((r) => decodeTouch(nodeProps(r.t)));
  }

  async leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    const won: Props[] = [];
    for (let attempt = 0; attempt < LEASE_ATTEMPTS && won.length < limit; attempt++) {
      const now = Date.now();
      const rows = await this.#tx("write", (run) =>
        run(Q.LEASE_PENDING, {
          owner,
          now,
          until: now + leaseMs,
          limit: limit - won.length,
          user: this.#leaseUser,
          retry: retrySettledBefore ?? "",
        }));
      for (const r of rows) if (r.won) won.push(nodeProps(r.t));
      // Only Touches another sweep took first can make a retry find more.
      if (rows.every((r) => r.won)) break;
    }
    won.sort((a, b) =>
      String(a.recorded_at).localeCompare(String(b.recorded_at)) ||
      (a.seq as number) - (b.seq as number)
    );
    return won.map(decodeTouch);
  }

  async settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    await this.#tx("write", async (run) => {
      const held = await run(Q.SETTLE[settlement.status], {
        id,
        owner,
        now: new Date().toISOString(),
        target: settlement.status === "resolved" ? settlement.target : null,
        reason: settlement.status === "unresolved" ? settlement.reason : null,
        detail: settlement.status === "unresolved" ? settlement.detail ?? null : null,
        failure: settlement.status === "pending" ? settlement.failure ?? null : null,
      });
      if (held.length && settlement.status === "resolved") await run(Q.LINK_TOUCHES, { ids: [id] });
    });
  }

  async forgetTouches(
    userId: string,
    query: ForgetQuery,
    options: { dryRun?: boolean } = {},
  ): Promise<Touch[]> {
    const params = forgetParams(userId, query);
    if (options.dryRun) {
      const rows = await this.#read(Q.FORGET_PREVIEW, params);
      return rows.map((r) => decodeTouch(nodeProps(r.t)));
    }
    return await this.#tx("write", async (run) => {
      const rows = await run(Q.FORGET_TOUCHES, params);
      const sids = [...new Set(rows.map((r) => r.sid).filter((s) => typeof s === "string"))];
      if (sids.length) await run(Q.DROP_EMPTY_SESSIONS, { sids });
      return rows.map((r) => decodeTouch(r.was as Props));
    });
  }

  // --- Resources -----------------------------------------------------------------

  async putResources(writes: ResourceWrite[]): Promise<void> {
    for (let i = 0; i < writes.length; i += BATCH) {
      await this.#tx("write", (run) => this.#putBatch(run, writes.slice(i, i + BATCH)));
    }
    await this.#mirrored((local) => local.putResources(writes));
  }

  /**
   * One batch in one transaction: the write lock and one read pipelined, then
   * the writes pipelined, leaving out those the read shows would find nothing.
   */
  async #putBatch(run: Runner, writes: ResourceWrite[]): Promise<void> {
    const ids = writes.map((w) => w.resource.node_id);
    const addresses = writes.map((w) => w.resource.address);
    const claims = writes.flatMap((w) =>
      [w.resource.address, ...(w.aliases ?? [])].map((key) => ({
        node_id: w.resource.node_id,
        key,
      }))
    );
    const [, found] = await Promise.all([
      run(Q.WRITE_LOCK),
      run(Q.BEFORE_WRITE, { ids, claims, addresses }),
    ]);
    const before = new Map<string, string>();
    const pairs: Props[] = [];
    const pending = new Set<string>();
    let aliased = false;
    for (const { what, a, b } of found) {
      if (what === "previous") before.set(a as string, b as string);
      else if (what === "stale") pairs.push({ into: a, stale: b });
      else if (what === "pending") pending.add(a as string);
      else aliased = true;
    }

    const upserts = {
      repository: [] as Props[],
      issue: [] as Props[],
      pull_request: [] as Props[],
    };
    const aliases: Props[] = [];
    const threads: Props[] = [];
    const refetched: Props[] = [];
    const refs: Props[] = [];
    const keys: Props[] = [];
    for (const { resource: r, aliases: asked = [] } of writes) {
      const node = r.node_id;
      const prev = before.get(node);
      const mine = new Set([...asked, ...(prev !== undefined ? [prev] : [])]);
      mine.delete(r.address);
      for (const key of mine) aliases.push({ node_id: node, key });
      for (const key of [r.address, ...mine]) {
        if (pending.has(key)) keys.push({ node_id: node, key });
      }
      const thread = r.kind === "repository" ? [] : [
        ...r.comments.map((c, i) => commentProps(c, false, i)),
        ...(r.kind === "pull_request"
          ? r.review_comments.map((c, i) => commentProps(c, true, i))
          : []),
      ];
      upserts[r.kind].push({ node_id: node, props: resourceProps(r) });
      if (thread.length) threads.push({ node_id: node, comments: thread });
      // A refetch clears what the new version may no longer have; a new Resource has nothing to clear.
      if (prev !== undefined) {
        refetched.push({ node_id: node, comment_ids: thread.map((c) => c.node_id) });
      }
      for (const edge of declaredEdges(r)) refs.push({ node, ...edge });
    }
    const when = (cond: boolean, ...qs: [string, Params][]) => cond ? qs : [];
    const steps: [string, Params][] = [
      ...(Object.keys(upserts) as ResourceKind[]).flatMap((kind) =>
        when(upserts[kind].length > 0, [Q.UPSERT[kind], { rows: upserts[kind] }])
      ),
      ...when(pairs.length > 0, ...Q.ABSORB.map((q): [string, Params] => [q, { pairs }])),
      ...when(aliased, [Q.SET_ALIASES[0], { addresses }]),
      ...when(aliases.length > 0, [Q.SET_ALIASES[1], { aliases }]),
      ...when(
        refetched.length > 0,
        [Q.PUT_COMMENTS[0], { rows: refetched }],
        ...Q.CLEAR_EDGES.map((q): [string, Params] => [q, {
          ids: refetched.map((r) => r.node_id),
        }]),
      ),
      ...when(threads.length > 0, [Q.PUT_COMMENTS[1], { threads }]),
      ...when(refs.length > 0, [Q.LINK_REFERENCES, { refs }]),
      ...when(keys.length > 0, [Q.BACKFILL, { keys }]),
    ];
    // Statements are queued in order on the transaction and answered in one go.
    await Promise.all(steps.map(([q, p]) => run(q, p)));
  }

  async getResource(address: string): Promise<Resource | null> {
    const rows = await this.#read(Q.GET_RESOURCE, { key: address });
    if (rows.length === 0) return null;
    const comments = (rows[0].comments as unknown[]).map(nodeProps);
    return decodeResource(nodeProps(rows[0].n), comments);
  }

  /** Many Resources by address or alias in one query; missing ones are left out. */
  async getResources(addresses: string[]): Promise<Map<string, Resource>> {
    const out = new Map<string, Resource>();
    if (addresses.length === 0) return out;
    const rows = await this.#read(Q.GET_RESOURCES, { keys: addresses });
    for (const r of rows) {
      out.set(
        r.k as string,
        decodeResource(nodeProps(r.n), (r.comments as unknown[]).map(nodeProps)),
      );
    }
    return out;
  }

  async getHeads(addresses: string[]): Promise<Map<string, ResourceHead>> {
    const heads = new Map<string, ResourceHead>();
    if (addresses.length === 0) return heads;
    const rows = await this.#read(Q.GET_HEADS, { keys: addresses });
    for (const r of rows) {
      heads.set(r.k as string, {
        node_id: r.node_id as string,
        kind: r.kind as ResourceKind,
        address: r.address as string,
        title: (r.title as string | null) ?? null,
        fetched_at: r.fetched_at as string,
        updated_at: r.updated_at as string,
        etag: (r.etag as string | null) ?? null,
      });
    }
    return heads;
  }

  async touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void> {
    if (addresses.length === 0) return;
    await this.#tx("write", (run) => run(Q.TOUCH_FETCHED_AT, { keys: addresses, at: fetchedAt }));
    await this.#mirrored((local) => local.touchFetchedAt(addresses, fetchedAt));
  }

  async edges(address: string): Promise<Edge[]> {
    const rows = await this.#read(Q.EDGES, { key: address });
    if (rows.length === 0) return [];
    const seen = new Map<string, Edge>();
    for (
      const [kind, from, to] of [...rows[0].outs as unknown[][], ...rows[0].ins as unknown[][]]
    ) {
      if (kind === null || from === null || to === null) continue;
      const e = { kind: kind as EdgeKind, from: from as string, to: to as string };
      seen.set(`${e.kind}\u0000${e.from}\u0000${e.to}`, e);
    }
    return [...seen.values()].sort((a, b) =>
      cmp(a.kind, b.kind) || cmp(a.from, b.from) || cmp(a.to, b.to)
    );
  }

  // --- Listings ------------------------------------------------------------------

  async putListing(listing: Listing, members: string[]): Promise<void> {
    await this.#tx("write", async (run) => {
      const [, resolved] = await Promise.all([
        run(Q.WRITE_LOCK),
        run(Q.RESOLVE_KEYS, { keys: [...new Set(members)] }),
      ]);
      const nodeOf = new Map(resolved.map((r) => [r.k as string, r.node_id as string]));
      const seen = new Set<string>();
      const rows: Props[] = [];
      for (const address of members) {
        const node = nodeOf.get(address);
        if (node === undefined || seen.has(node)) continue;
        rows.push({ node_id: node, position: seen.size });
        seen.add(node);
      }
      // A member that could not be stored makes the Listing partial: it must not pass for complete.
      const complete = listing.fully_expanded && rows.length >= listing.member_count;
      const props = listingProps(listing, rows.length, complete);
      await Promise.all([
        run(Q.PUT_LISTING[0], { props }),
        run(Q.PUT_LISTING[1], { key: listing.key, members: rows }),
        run(Q.PUT_LISTING[2], { key: listing.key }),
      ]);
    });
    await this.#mirrored((local) => local.putListing(listing, members));
  }

  async getListing(key: string): Promise<Listing | null> {
    const rows = await this.#read(Q.GET_LISTING, { key });
    return rows.length ? decodeListing(nodeProps(rows[0].l)) : null;
  }

  async findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]> {
    const rows = await this.#read(Q.FIND_LISTINGS, {
      repo: `github:${owner.toLowerCase()}/${repo.toLowerCase()}`,
      kind,
    });
    return rows.map((r) => decodeListing(nodeProps(r.l)));
  }

  async listingMembers(
    key: string,
    range?: { offset: number; limit: number },
  ): Promise<ListingMember[]> {
    const from = Math.max(0, range?.offset ?? 0);
    const to = range ? from + Math.max(0, range.limit) : Number.MAX_SAFE_INTEGER;
    const rows = await this.#read(Q.LISTING_MEMBERS, { key, from, to });
    return rows.map((r) => {
      const n = nodeProps(r.n);
      return {
        position: r.position as number,
        address: n.address as string,
        number: n.number as number,
        kind: n.kind as ListingMember["kind"],
        title: n.title as string,
        state: n.state as ListingMember["state"],
        author: (n.author as string | undefined) ?? null,
        labels: (n.labels as string[] | undefined) ?? [],
        assignees: (n.assignees as string[] | undefined) ?? [],
        milestone: (n.milestone as string | undefined) ?? null,
        updated_at: n.updated_at as string,
        comment_count: (n.comment_count as number | undefined) ?? 0,
      };
    });
  }

  // --- Reports -------------------------------------------------------------------

  async userStats(userId: string, since?: string): Promise<UserStats> {
    requireUser(userId);
    const params = { user: userId, since: since ?? null };
    const [groups, avoided] = await this.#tx(
      "read",
      (run) => Promise.all([run(Q.TOUCH_COUNTS, params), run(Q.REQUESTS_AVOIDED, params)]),
    );
    const stats: UserStats = {
      cache_reads: { hit: 0, subsumed: 0, miss: 0 },
      requests_avoided: (avoided[0]?.n as number | null) ?? 0,
      pending: 0,
      oldest_pending: null,
      resolved: 0,
      unresolved: {},
    };
    for (const g of groups) {
      const n = g.n as number;
      if (g.status === "served" && g.outcome !== null) {
        stats.cache_reads[g.outcome as CacheOutcome] += n;
      } else if (g.status === "pending") {
        stats.pending += n;
        stats.oldest_pending = g.oldest as string;
      } else if (g.status === "resolved") stats.resolved += n;
      else if (g.status === "unresolved" && g.reason !== null) {
        const reason = g.reason as UnresolvedReason;
        stats.unresolved[reason] = (stats.unresolved[reason] ?? 0) + n;
      }
    }
    return stats;
  }

  async memoryStats(): Promise<MemoryStats> {
    const [kinds, comments, listings] = await this.#tx(
      "read",
      (run) => Promise.all([run(Q.RESOURCE_COUNTS), run(Q.COMMENT_COUNT), run(Q.LISTING_COUNT)]),
    );
    const resources: Record<ResourceKind, number> = { repository: 0, issue: 0, pull_request: 0 };
    for (const k of kinds) resources[k.kind as ResourceKind] = k.n as number;
    return {
      resources,
      comments: comments[0].n as number,
      listings: listings[0].n as number,
      size_bytes: null,
    };
  }

  // --- Sync (outbox and local index) ---------------------------------------------

  /** Address, fetch time and GitHub update time of every stored Resource. */
  async allHeads(): Promise<{ address: string; fetched_at: string; updated_at: string }[]> {
    const rows = await this.#read(Q.ALL_HEADS);
    return rows as { address: string; fetched_at: string; updated_at: string }[];
  }

  /** Every stored Listing. */
  async allListings(): Promise<Listing[]> {
    const rows = await this.#read(Q.ALL_LISTINGS);
    return rows.map((r) => decodeListing(nodeProps(r.l)));
  }

  /**
   * Runs one read-only Cypher statement and returns its rows (whole numbers as
   * numbers, nodes as their properties plus `labels`). For tests and
   * diagnostics that look at the graph as another component would.
   */
  async cypher(query: string, params: Params = {}): Promise<Props[]> {
    const rows = await this.#read(query, params);
    return rows.map((r) => {
      const out: Props = {};
      for (const [k, v] of Object.entries(r)) out[k] = plain(v);
      return out;
    });
  }

  async close(): Promise<void> {
    await this.#mirror?.close();
    await this.#driver.close();
  }
}

type Runner = (query: string, params?: Params) => Promise<Props[]>;

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nodeProps(node: unknown): Props {
  return (node as { properties: Props }).properties;
}

function plain(v: unknown): unknown {
  if (neo4j.isNode(v as never)) {
    const n = v as unknown as { labels: string[]; properties: Props };
    return { labels: [...n.labels].sort(), ...n.properties };
  }
  if (neo4j.isRelationship(v as never)) {
    const r = v as unknown as { type: string; properties: Props };
    return { type: r.type, ...r.properties };
  }
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/**
 * Creates the constraints and indexes unless this schema is recorded as
 * applied already (one lookup instead of a statement per index: commands
 * open the store on every run).
 */
async function ensureSchema(session: Session, dialect: Dialect): Promise<void> {
  const statements = ddl(dialect);
  const tag = schemaTag([...statements, ...Q.UPGRADES]);
  const seen = await session.run(Q.SCHEMA_APPLIED, { tag });
  if (seen.records.length) return;
  for (const statement of statements) {
    try {
      await session.run(statement);
    } catch (e) {
      if (!isAlreadyExists(firstLine(e))) throw e;
    }
  }
  if (dialect === "neo4j") await session.run("CALL db.awaitIndexes(60)");
  for (const upgrade of Q.UPGRADES) await session.run(upgrade);
  await session.run(Q.RECORD_SCHEMA, { tag });
}

/**
 * Connects to a graph server, detects its dialect and makes sure the schema
 * (constraints and indexes) exists. Throws {@link StoreUnavailableError} when
 * the server cannot be reached.
 */
export async function connectGraph(
  target: GraphTarget,
  options: GraphOptions = {},
): Promise<GraphStore> {
  const auth = target.user !== null
    ? neo4j.auth.basic(target.user, target.password ?? "")
    : undefined;
  let driver: Driver;
  try {
    driver = neo4j.driver(target.url, auth, {
      disableLosslessIntegers: true,
      connectionTimeout: 5000,
      connectionAcquisitionTimeout: 10_000,
      maxTransactionRetryTime: 10_000,
      userAgent: "rgraph",
    });
  } catch (e) {
    throw unreachable(target.url, e);
  }
  try {
    const info = await driver.getServerInfo({ database: target.database ?? undefined });
    const session = driver.session({ database: target.database ?? undefined });
    try {
      let component: string | null = null;
      if (!/memgraph/i.test(info.agent ?? "")) {
        try {
          const r = await session.run("CALL dbms.components() YIELD name RETURN name");
          component = String(r.records[0]?.get("name") ?? "");
        } catch {
          component = null;
        }
      }
      const dialect = dialectOf(info.agent ?? "", component);
      await ensureSchema(session, dialect);
      return new GraphStore(driver, target, dialect, options);
    } finally {
      await session.close();
    }
  } catch (e) {
    await driver.close();
    // Any server-side refusal here (authentication, unknown database) also means no shared store.
    if (isUnreachable(e) || e instanceof neo4j.Neo4jError) throw unreachable(target.url, e);
    throw e;
  }
}
