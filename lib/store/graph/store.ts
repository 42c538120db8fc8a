/**
 * The shared graph store: Resources, Listings and Touches in Memgraph or Neo4j
 * over Bolt (`neo4j-driver`), in the Context Graph family's model (see
 * `model.ts`). Resources and Listings are shared by the team; Touches
 * carry their user id and every read of them filters by it.
 *
 * A batch of Resources is written in one transaction of a fixed number of
 * `UNWIND` statements, sent pipelined: the Bolt round trips do not grow with
 * the number of Resources in a batch or of comments on them, and each
 * Resource lands whole with its comments and edges or not at all. A write of
 * one statement is an auto-commit transaction (one round trip). Every
 * transaction is run again from the start on a conflict (`retry.ts`).
 *
 * The server may hold nodes other writers of the family stored: they are
 * read through `decode.ts` (what cannot be read is absent, and reported
 * through `onSkip`), and written beside with `SET +=` (see `model.ts`).
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

import neo4j, { type Driver, type Session, type Transaction } from "neo4j-driver";
import {
  type Edge,
  forgetParams,
  type ForgetQuery,
  headOf,
  type IndexHead,
  type LeaseHeld,
  type MemoryEntry,
  type MemoryPage,
  type MemoryQuery,
  type MemoryStats,
  newestFetchFirst,
  requireUser,
  type ResourceHead,
  type ResourceWrite,
  type Settlement,
  type Store,
  StoreUnavailableError,
  tallyTouches,
  type TouchQuery,
  UnsupportedStoreError,
  type UserStats,
} from "../contract.ts";
import type { SqliteStore } from "../sqlite/mod.ts";
import { declaredEdges } from "../declared.ts";
import { firstLine } from "../../errors.ts";
import * as Q from "./cypher.ts";
import {
  commentProps,
  listingProps,
  OWNED_RESOURCE_KEYS,
  resourceProps,
  touchProps,
} from "./model.ts";
import {
  decodeHead,
  decodeIndexHead,
  decodeListing,
  decodeMember,
  decodeResource,
  decodeTouch,
  type GraphNode,
  type Skip,
  wholeNumber,
} from "./decode.ts";
import { retrying } from "./retry.ts";
import { certificateProblem } from "./tls.ts";
import {
  ALL_ALIASES,
  ALL_LISTINGS,
  CHANGE_COUNTER,
  type ChangeCounter,
  type ChangeCursor,
  CHANGED_HEADS,
  CHANGED_LISTINGS,
  type ChangePage,
  NEWEST_HEADS,
  STAMP_LISTING,
  STAMP_RESOURCES,
} from "./changes.ts";
import {
  currentLogin,
  identify,
  MINIMUM_VERSION,
  refusal,
  type ServerIdentity,
  serverName,
  unreachableReason,
} from "./server.ts";
import { searchGraph, searchProps } from "./search.ts";
import type { SearchPage, SearchRequest } from "../search_query.ts";
import { ensureSchema, type SchemaSession, type SchemaState, schemaState } from "./schema.ts";
import { printableUrl } from "../bolt_url.ts";
import type {
  EdgeKind,
  Listing,
  ListingKind,
  ListingMember,
  NewTouch,
  Resource,
  ResourceKind,
  Touch,
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
   * Sweep): others' Touches stay private. `null` leases none (fail closed:
   * a Sweep without an identity refuses before it opens a store anyway).
   */
  leaseUser?: string | null;
  /**
   * Told once per process about each node that could not be read (another
   * writer's, incomplete or of another type), which is then treated as absent.
   */
  onSkip?: Skip;
}

/** Counts of Bolt work issued, for the benchmark: statements run and transactions committed. */
export interface BoltCounts {
  statements: number;
  transactions: number;
}

/** What `rgraph doctor` shows of the server. */
export interface ServerReport {
  server: ServerIdentity;
  /** The oldest version of this kind of server rgraph runs on. */
  minimum: string;
  schema: SchemaState;
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

function unreachable(url: string, e: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `${printableUrl(url)}: ${unreachableReason(String((e as Error)?.message ?? e))}`,
    e,
  );
}

/**
 * {@link unreachable}, naming the certificate when TLS verification is what
 * failed (`bolt+s`, `neo4j+s`), with the way out: `+ssc` encrypts without
 * verifying, for a self-signed server the team trusts.
 */
async function unreachableAtConnect(url: string, e: unknown): Promise<StoreUnavailableError> {
  const message = String((e as Error)?.message ?? e);
  if (!/^(bolt|neo4j)\+s:/i.test(url) || !/certificate/i.test(message)) return unreachable(url, e);
  const problem = await certificateProblem(url);
  const what = problem ?? "not trusted";
  return new StoreUnavailableError(
    `${printableUrl(url)}: its TLS certificate was refused: ${what}; give the server a ` +
      `certificate this system trusts, or use ${
        printableUrl(url).replace(/\+s:/i, "+ssc:")
      } to encrypt without verifying it`,
    e,
  );
}

/** Rows as plain objects. */
function rowsOf(result: { records: { toObject(): object }[] }): Props[] {
  return result.records.map((r) => r.toObject() as Props);
}

/** A statement's rows in a transaction, with how it is counted. */
type Runner = (query: string, params?: Params) => Promise<Props[]>;

/** Raised inside a Listing write whose members changed under it: it is written again, the long way. */
class MembersMoved extends Error {}

/** The shared graph store. */
export class GraphStore implements Store {
  readonly kind = "graph" as const;
  readonly server: ServerIdentity;
  /** The login the server says this connection is (`SHOW CURRENT USER`); null when it has none to tell. */
  readonly login: string | null;
  readonly #driver: Driver;
  readonly #target: GraphTarget;
  readonly #leaseUser: string | null;
  readonly #onSkip: Skip | null;
  readonly #skipped = new Set<string>();
  #seq = 0;
  #mirror: SqliteStore | null = null;
  #counts: BoltCounts = { statements: 0, transactions: 0 };
  /**
   * Node ids of what this store wrote, by address and alias: a Listing of
   * members just written needs no look-up of them (its write checks they
   * are all still there).
   */
  readonly #written = new Map<string, string>();
  /** Whether the last lease found fewer Touches than it asked for. */
  #leasedShort = false;

  constructor(
    driver: Driver,
    target: GraphTarget,
    server: ServerIdentity,
    options: GraphOptions,
    login: string | null = null,
  ) {
    this.#driver = driver;
    this.#target = target;
    this.server = server;
    this.login = login;
    this.#leaseUser = options.leaseUser ?? null;
    this.#onSkip = options.onSkip ?? null;
  }

  /** The server this store talks to, fit to print: its URL without credentials, and database. */
  get where(): string {
    const db = this.#target.database;
    return `${printableUrl(this.#target.url)}${db ? ` (database ${db})` : ""}`;
  }

  /**
   * Keeps `local` (the hooks' local index) in step with what this store
   * writes, and closes it with the store.
   */
  attachLocalIndex(local: SqliteStore): void {
    this.#mirror = local;
  }

  /** The hooks' local index (and outbox) this store keeps in step, if one is attached. */
  get localIndex(): SqliteStore | null {
    return this.#mirror;
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

  /** Each node that could not be read is reported once per process. */
  readonly #skip: Skip = (what, why) => {
    const line = `${what}: ${why}`;
    if (this.#skipped.has(line)) return;
    this.#skipped.add(line);
    this.#onSkip?.(what, why);
  };

  #session(mode: "read" | "write" = "write"): Session {
    return this.#driver.session({
      database: this.#target.database ?? undefined,
      defaultAccessMode: mode === "read" ? neo4j.session.READ : neo4j.session.WRITE,
    });
  }

  /** Reports a lost server as {@link StoreUnavailableError}. */
  async #guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (e) {
      if (isUnreachable(e)) throw unreachable(this.#target.url, e);
      throw e;
    }
  }

  /**
   * Runs `work` in one transaction, run again from the start on a conflict
   * (see `retry.ts`; Memgraph's unique-constraint conflicts at commit too).
   */
  #tx<T>(mode: "read" | "write", work: (run: Runner) => Promise<T>): Promise<T> {
    return this.#guard(retrying(async () => {
      const session = this.#session(mode);
      try {
        const out = await inTransaction(session, (tx) => work(this.#runner(tx)));
        this.#counts.transactions++;
        return out;
      } finally {
        await session.close();
      }
    }));
  }

  /**
   * One read statement as an auto-commit transaction: one round trip, where a
   * transaction needs a second for its commit. Reads never conflict, so they
   * need no retry.
   */
  #read(query: string, params: Params = {}): Promise<Props[]> {
    return this.#guard((async () => {
      const session = this.#session("read");
      try {
        this.#counts.statements++;
        this.#counts.transactions++;
        return rowsOf(await session.run(query, bolt(params) as Params));
      } finally {
        await session.close();
      }
    })());
  }

  /**
   * One write statement as an auto-commit transaction (one round trip, where
   * an explicit transaction needs two), run again from the start on a
   * conflict as every transaction is: a statement on its own commits whole
   * or not at all.
   */
  #write(query: string, params: Params = {}): Promise<Props[]> {
    return this.#guard(retrying(async () => {
      const session = this.#session("write");
      try {
        this.#counts.statements++;
        const rows = rowsOf(await session.run(query, bolt(params) as Params));
        this.#counts.transactions++;
        return rows;
      } finally {
        await session.close();
      }
    }));
  }

  #runner(tx: Transaction): Runner {
    return async (query, params = {}) => {
      this.#counts.statements++;
      return rowsOf(await tx.run(query, bolt(params) as Params));
    };
  }

  /** Monotonic within this process: orders Touches recorded in the same millisecond. */
  #nextSeq(): number {
    this.#seq = Math.max(Date.now() * 1000, this.#seq + 1);
    return this.#seq;
  }

  /** The server, the oldest version rgraph runs on, and the schema record as it is now. */
  async serverReport(): Promise<ServerReport> {
    const schema = await schemaState((q) => this.#read(q), this.server);
    return { server: this.server, minimum: MINIMUM_VERSION[this.server.kind], schema };
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
    return (await this.#write(Q.RECORD_TOUCHES, { rows })).length;
  }

  /** Touches from their nodes, leaving out (and reporting) those that cannot be read. */
  #touches(nodes: Props[]): Touch[] {
    return nodes.flatMap((p) => {
      const t = decodeTouch(p, this.#skip);
      return t === null ? [] : [t];
    });
  }

  async listTouches(userId: string, query: TouchQuery = {}): Promise<Touch[]> {
    requireUser(userId);
    const rows = await this.#read(Q.LIST_TOUCHES, {
      user: userId,
      session: query.session_id ?? null,
      since: query.since ?? null,
      status: query.status ?? null,
    });
    return this.#touches(rows.map((r) => nodeProps(r.t)));
  }

  async *touchPages(
    userId: string,
    query: TouchQuery = {},
    pageSize = 1000,
  ): AsyncGenerator<Touch[]> {
    requireUser(userId);
    // Past every ISO time and sequence number: the first page starts at the newest.
    let end = { at: "\uffff", seq: Number.MAX_SAFE_INTEGER };
    for (let first = true;; first = false) {
      const rows = await this.#read(Q.TOUCH_PAGE, {
        user: userId,
        ...end,
        first,
        session: query.session_id ?? null,
        since: query.since ?? null,
        status: query.status ?? null,
        n: pageSize,
      });
      const nodes = rows.map((r) => nodeProps(r.t));
      const page = this.#touches(nodes);
      if (page.length > 0) yield page;
      const last = nodes.findLast((p) => typeof p.recorded_at === "string");
      if (nodes.length < pageSize || last === undefined) return;
      end = { at: String(last.recorded_at), seq: Number(last.seq ?? 0) };
    }
  }

  async leasePending(
    owner: string,
    limit: number,
    leaseMs: number,
    retrySettledBefore?: string,
  ): Promise<Touch[]> {
    const won: Props[] = [];
    const params = () => {
      const now = Date.now();
      return {
        owner,
        now,
        until: now + leaseMs,
        limit: limit - won.length,
        user: this.#leaseUser,
        retry: retrySettledBefore ?? "",
      };
    };
    // After a lease that found fewer than asked, the next (a Sweep's last) most
    // likely finds nothing: a read answers that, the lease itself is a write.
    if (this.#leasedShort && (await this.#read(Q.LEASE_PROBE, params())).length === 0) {
      return [];
    }
    for (let attempt = 0; attempt < LEASE_ATTEMPTS && won.length < limit; attempt++) {
      const rows = await this.#write(Q.LEASE_PENDING, params());
      for (const r of rows) if (r.won) won.push(nodeProps(r.t));
      // Only Touches another sweep took first can make a retry find more.
      if (rows.every((r) => r.won)) break;
    }
    this.#leasedShort = won.length < limit;
    won.sort((a, b) =>
      String(a.recorded_at).localeCompare(String(b.recorded_at)) ||
      Number(a.seq) - Number(b.seq)
    );
    return this.#touches(won);
  }

  async leasedByOthers(owner: string): Promise<LeaseHeld[]> {
    const rows = await this.#read(Q.LEASED_BY_OTHERS, { owner, now: Date.now() });
    return rows.map((r) => ({
      address: String(r.address),
      owner: String(r.owner),
      until: Number(r.until),
    }));
  }

  async settleTouch(id: string, owner: string, settlement: Settlement): Promise<void> {
    await this.#write(Q.SETTLE[settlement.status], {
      id,
      owner,
      now: new Date().toISOString(),
      target: settlement.status === "resolved" ? settlement.target : null,
      reason: settlement.status === "unresolved" ? settlement.reason : null,
      detail: settlement.status === "unresolved" ? settlement.detail ?? null : null,
      failure: settlement.status === "pending" ? settlement.failure ?? null : null,
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
      return this.#touches(rows.map((r) => nodeProps(r.t)));
    }
    return await this.#tx("write", async (run) => {
      const rows = await run(Q.FORGET_TOUCHES, params);
      const sids = [...new Set(rows.map((r) => r.sid).filter((s) => typeof s === "string"))];
      if (sids.length) await run(Q.DROP_EMPTY_SESSIONS, { sids });
      if (rows.length) await run(Q.DROP_EMPTY_COUNTS, { user: userId });
      return this.#touches(rows.map((r) => r.was as Props));
    });
  }

  // --- Resources -----------------------------------------------------------------

  async putResources(writes: ResourceWrite[]): Promise<void> {
    for (let i = 0; i < writes.length; i += BATCH) {
      const batch = writes.slice(i, i + BATCH);
      await this.#tx("write", (run) => this.#putBatch(run, batch));
      for (const { resource: r, aliases = [] } of batch) {
        for (const key of [r.address, ...aliases]) this.#written.set(key, r.node_id);
      }
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
      run(Q.BEFORE_WRITE, {
        ids,
        claims,
        addresses,
        owned: OWNED_RESOURCE_KEYS,
        relationships: Q.ABSORBED_RELATIONSHIPS,
      }),
    ]);
    // Stored before, and where (null: another writer released its address).
    const before = new Map<string, string | null>();
    const absorbed: Props[] = [];
    const released: Props[] = [];
    const pending = new Set<string>();
    let aliased = false;
    for (const { what, a, b, own } of found) {
      if (what === "previous") before.set(a as string, typeof b === "string" ? b : null);
      else if (what === "stale") (own === true ? absorbed : released).push({ into: a, stale: b });
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
      const mine = new Set([...asked, ...(typeof prev === "string" ? [prev] : [])]);
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
      // Search: the node carries its whole text for the index (see search.ts).
      upserts[r.kind].push({ node_id: node, props: { ...resourceProps(r), ...searchProps(r) } });
      if (thread.length) threads.push({ node_id: node, comments: thread });
      // A refetch clears what the new version may no longer have; a new Resource has nothing to clear.
      if (before.has(node)) {
        refetched.push({ node_id: node, comment_ids: thread.map((c) => c.node_id) });
      }
      for (const edge of declaredEdges(r)) refs.push({ node, ...edge });
    }
    const when = (cond: boolean, ...qs: [string, Params][]) => cond ? qs : [];
    const each = (qs: readonly string[], params: Params): [string, Params][] =>
      qs.map((q) => [q, params]);
    const steps: [string, Params][] = [
      ...(Object.keys(upserts) as ResourceKind[]).flatMap((kind) =>
        when(upserts[kind].length > 0, [Q.UPSERT[kind], { rows: upserts[kind] }])
      ),
      ...when(absorbed.length > 0, ...each(Q.ABSORB, { pairs: absorbed })),
      ...when(released.length > 0, ...each(Q.RELEASE, { pairs: released })),
      ...when(aliased, [Q.SET_ALIASES[0], { addresses }]),
      ...when(aliases.length > 0, [Q.SET_ALIASES[1], { aliases }]),
      ...when(
        refetched.length > 0,
        [Q.PUT_COMMENTS[0], { rows: refetched }],
        ...each(Q.CLEAR_EDGES, { ids: refetched.map((r) => r.node_id) }),
      ),
      ...when(threads.length > 0, [Q.PUT_COMMENTS[1], { threads }]),
      ...when(refs.length > 0, [Q.LINK_REFERENCES, { refs }]),
      ...when(keys.length > 0, [Q.BACKFILL, { keys }]),
      [STAMP_RESOURCES, { ids, epoch: crypto.randomUUID() }],
    ];
    // Statements are queued in order on the transaction and answered in one go.
    await Promise.all(steps.map(([q, p]) => run(q, p)));
  }

  /**
   * The one Resource rows name (two nodes may share an address when another
   * writer put them there): the one that can be read, most recently fetched.
   */
  #pick(candidates: (Resource | null)[]): Resource | null {
    let best: Resource | null = null;
    for (const r of candidates) {
      if (r !== null && (best === null || r.fetched_at > best.fetched_at)) best = r;
    }
    return best;
  }

  #resource(row: Props): Resource | null {
    return decodeResource(row.n as GraphNode, row.comments as GraphNode[], this.#skip);
  }

  async getResource(address: string): Promise<Resource | null> {
    const rows = await this.#read(Q.GET_RESOURCE, { key: address });
    const found = this.#pick(rows.map((r) => this.#resource(r)));
    if (found !== null) await this.#remember([found]);
    return found;
  }

  /**
   * Puts the heads of Resources read here into the local index when it lacks
   * them as they are: another writer's node carries no change stamp, so no
   * sync brings it, and the hook's next Nudge should know it all the same.
   */
  async #remember(resources: Resource[]): Promise<void> {
    await this.#mirrored(async (local) => {
      const have = await local.getHeads(resources.map((r) => r.address));
      const heads = resources.filter((r) => {
        const h = have.get(r.address);
        return h === undefined || h.node_id !== r.node_id || h.fetched_at !== r.fetched_at ||
          h.updated_at !== r.updated_at;
      }).map((r): IndexHead => ({ ...headOf(r), aliases: [] }));
      if (heads.length) await local.putIndex({ heads, listings: [] });
    });
  }

  /** Many Resources by address or alias in one query; missing ones are left out. */
  async getResources(addresses: string[]): Promise<Map<string, Resource>> {
    const out = new Map<string, Resource>();
    if (addresses.length === 0) return out;
    const rows = await this.#read(Q.GET_RESOURCES, { keys: addresses });
    for (const r of rows) {
      const k = r.k as string;
      const best = this.#pick([out.get(k) ?? null, this.#resource(r)]);
      if (best !== null) out.set(k, best);
    }
    await this.#remember([...out.values()]);
    return out;
  }

  async getHeads(addresses: string[]): Promise<Map<string, ResourceHead>> {
    const heads = new Map<string, ResourceHead>();
    if (addresses.length === 0) return heads;
    const rows = await this.#read(Q.GET_HEADS, { keys: addresses });
    for (const r of rows) {
      const head = decodeHead(r.n as GraphNode, this.#skip);
      const k = r.k as string;
      const had = heads.get(k);
      if (head !== null && (had === undefined || head.fetched_at > had.fetched_at)) {
        heads.set(k, head);
      }
    }
    return heads;
  }

  async touchFetchedAt(addresses: string[], fetchedAt: string): Promise<void> {
    if (addresses.length === 0) return;
    await this.#write(Q.TOUCH_FETCHED_AT, {
      keys: addresses,
      at: fetchedAt,
      epoch: crypto.randomUUID(),
    });
    await this.#mirrored((local) => local.touchFetchedAt(addresses, fetchedAt));
  }

  async edges(address: string): Promise<Edge[]> {
    const rows = await this.#read(Q.EDGES, { key: address });
    if (rows.length === 0) return [];
    const seen = new Map<string, Edge>();
    for (
      const [kind, from, to] of [...rows[0].outs as unknown[][], ...rows[0].ins as unknown[][]]
    ) {
      if (typeof kind !== "string" || typeof from !== "string" || typeof to !== "string") continue;
      const e = { kind: kind as EdgeKind, from, to };
      seen.set(`${e.kind}\u0000${e.from}\u0000${e.to}`, e);
    }
    return [...seen.values()].sort((a, b) =>
      cmp(a.kind, b.kind) || cmp(a.from, b.from) || cmp(a.to, b.to)
    );
  }

  // --- Listings ------------------------------------------------------------------

  async putListing(listing: Listing, members: string[]): Promise<void> {
    const unique = [...new Set(members)];
    const known = unique.every((a) => this.#written.has(a));
    try {
      await this.#tx("write", (run) => this.#putListing(run, listing, members, known));
    } catch (e) {
      if (!(e instanceof MembersMoved)) throw e;
      await this.#tx("write", (run) => this.#putListing(run, listing, members, false));
    }
    await this.#mirrored((local) => local.putListing(listing, members));
  }

  /**
   * One Listing write. Members this store wrote are known by node id, and
   * then everything goes in one flight; a member no longer found there (another
   * writer folded it away meanwhile) undoes it, to be written again with every
   * member looked up.
   */
  async #putListing(
    run: Runner,
    listing: Listing,
    members: string[],
    known: boolean,
  ): Promise<void> {
    const lock = run(Q.WRITE_LOCK);
    const nodeOf = known ? this.#written : new Map(
      (await Promise.all([lock, run(Q.RESOLVE_KEYS, { keys: [...new Set(members)] })]))[1]
        .map((r) => [r.k as string, r.node_id as string]),
    );
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
    const [, , drawn] = await Promise.all([
      lock,
      run(Q.PUT_LISTING[0], { props }),
      run(Q.PUT_LISTING[1], { key: listing.key, members: rows }),
      run(Q.PUT_LISTING[2], { key: listing.key }),
      run(STAMP_LISTING, { key: listing.key, epoch: crypto.randomUUID() }),
    ]);
    if (known && Number(drawn[0]?.n ?? 0) !== rows.length) throw new MembersMoved();
  }

  async getListing(key: string): Promise<Listing | null> {
    const rows = await this.#read(Q.GET_LISTING, { key });
    return rows.length ? decodeListing(nodeProps(rows[0].l), this.#skip) : null;
  }

  #listings(rows: Props[]): Listing[] {
    return rows.flatMap((r) => {
      const l = decodeListing(nodeProps(r.l), this.#skip);
      return l === null ? [] : [l];
    });
  }

  async findListings(owner: string, repo: string, kind: ListingKind): Promise<Listing[]> {
    const rows = await this.#read(Q.FIND_LISTINGS, {
      prefix: `github:${owner.toLowerCase()}/${repo.toLowerCase()}/${kind}?`,
    });
    return this.#listings(rows);
  }

  async listingMembers(
    key: string,
    range?: { offset: number; limit: number },
  ): Promise<ListingMember[]> {
    const from = Math.max(0, range?.offset ?? 0);
    const to = range ? from + Math.max(0, range.limit) : Number.MAX_SAFE_INTEGER;
    const rows = await this.#read(Q.LISTING_MEMBERS, { key, from, to });
    return rows.flatMap((r) => {
      const m = decodeMember(Number(r.position), r.n as GraphNode, this.#skip);
      return m === null ? [] : [m];
    });
  }

  // --- Reports -------------------------------------------------------------------

  async userStats(userId: string, since?: string): Promise<UserStats> {
    requireUser(userId);
    if (since !== undefined) {
      const groups = await this.#read(Q.TOUCH_COUNTS, { user: userId, since });
      return tallyTouches(groups, sumAvoided(groups));
    }
    // The running counts, and the oldest pending Touch: a few nodes, whatever the Touches.
    const [groups, oldest] = await this.#tx(
      "read",
      (run) =>
        Promise.all([
          run(Q.TOUCH_TALLY, { user: userId }),
          run(Q.OLDEST_PENDING, { user: userId }),
        ]),
    );
    for (const g of groups) if (g.status === "pending") g.oldest = oldest[0]?.oldest ?? null;
    return tallyTouches(groups, sumAvoided(groups));
  }

  async memoryStats(): Promise<MemoryStats> {
    const [repository, issue, pull_request, comments, listings] = await this.#tx(
      "read",
      (run) =>
        Promise.all(
          [
            Q.RESOURCE_COUNTS.repository,
            Q.RESOURCE_COUNTS.issue,
            Q.RESOURCE_COUNTS.pull_request,
            Q.COMMENT_COUNT,
            Q.LISTING_COUNT,
          ].map((q) => run(q)),
        ),
    );
    const count = (rows: Props[]) => (typeof rows[0]?.n === "number" ? rows[0].n as number : 0);
    return {
      resources: {
        repository: count(repository),
        issue: count(issue),
        pull_request: count(pull_request),
      },
      comments: count(comments),
      listings: count(listings),
      size_bytes: null,
    };
  }

  /** Search: see `search.ts`. */
  search(request: SearchRequest): Promise<SearchPage> {
    return searchGraph(this.server.kind, request, {
      read: (statements) =>
        this.#tx("read", (run) => Promise.all(statements.map(([q, p]) => run(q, p)))),
      resources: (addresses) => this.getResources(addresses),
    });
  }

  async searchMemory(query: MemoryQuery): Promise<MemoryPage> {
    const params = {
      text: query.text ? query.text.toLowerCase() : null,
      to: (query.offset ?? 0) + query.limit,
    };
    const [resources, listings, nResources, nListings] = await this.#tx(
      "read",
      (run) =>
        Promise.all([
          run(Q.SEARCH_RESOURCES, params),
          run(Q.SEARCH_LISTINGS, params),
          run(Q.COUNT_RESOURCES, params),
          run(Q.COUNT_LISTINGS, params),
        ]),
    );
    const entries: MemoryEntry[] = [];
    for (const r of resources) {
      const node = r.n as GraphNode;
      const head = decodeHead(node, this.#skip);
      if (head === null) continue;
      const state = node.properties.state;
      entries.push({
        address: head.address,
        kind: head.kind,
        title: head.title,
        state: head.kind !== "repository" && typeof state === "string" ? state.toLowerCase() : null,
        fetched_at: head.fetched_at,
        updated_at: head.updated_at,
      });
    }
    for (const l of this.#listings(listings)) {
      entries.push({
        address: l.key,
        kind: "listing",
        title: null,
        state: null,
        fetched_at: l.fetched_at,
        updated_at: null,
      });
    }
    const from = query.offset ?? 0;
    return {
      entries: entries.sort(newestFetchFirst).slice(from, from + query.limit),
      total: Number(nResources[0]?.n ?? 0) + Number(nListings[0]?.n ?? 0),
    };
  }

  /**
   * The server's counts and newest times (see `CHANGE_MARK`), with
   * the hooks' outbox's own mark: Touches a hook recorded there since are
   * news too, before any command sends them on.
   */
  async changeMark(userId: string): Promise<string> {
    requireUser(userId);
    const rows = await this.#tx(
      "read",
      (run) => Promise.all(Q.CHANGE_MARK.map((q) => run(q, { user: userId }))),
    );
    const local = this.#mirror === null ? "" : await this.#mirror.changeMark(userId);
    return JSON.stringify([
      ...rows.map(([r]) => [r?.n, r?.newest, r?.settled].map((v) => String(plain(v ?? null)))),
      local,
    ]);
  }

  // --- Sync (outbox and local index) ---------------------------------------------
  // --- Changes (what a local index syncs by, see `changes.ts`) -------------------

  /** The change counter and the server's epoch; `null` before anything was set up. */
  async changeCounter(): Promise<ChangeCounter | null> {
    const [row] = await this.#read(CHANGE_COUNTER);
    const stamp = wholeNumber(row?.stamp);
    return typeof row?.epoch === "string" && stamp !== null ? { epoch: row.epoch, stamp } : null;
  }

  /**
   * Up to `limit` heads changed after `cursor`, oldest change first; `next`
   * is the cursor after them (what cannot be read as a head is passed over,
   * and counted in `read` all the same).
   */
  async changedHeads(cursor: ChangeCursor, limit: number): Promise<ChangePage<IndexHead>> {
    const rows = await this.#read(CHANGED_HEADS, { ...cursor, limit });
    const last = rows.at(-1);
    const next = last === undefined
      ? cursor
      : { stamp: wholeNumber(last.stamp) ?? cursor.stamp, id: String(last.node_id) };
    return { items: this.#indexHeads(rows), read: rows.length, next };
  }

  /** The heads of the `limit` most recently fetched Resources, stamped or not, without aliases. */
  async newestHeads(limit: number): Promise<IndexHead[]> {
    return this.#indexHeads(await this.#read(NEWEST_HEADS, { limit }));
  }

  #indexHeads(rows: Props[]): IndexHead[] {
    return rows.flatMap((r) => {
      const head = decodeIndexHead({ aliases: [], ...r });
      return head === null ? [] : [head];
    });
  }

  /** Up to `limit` Listings changed after `cursor` (by key), as {@link changedHeads}. */
  async changedListings(
    cursor: ChangeCursor,
    limit: number,
    all = false,
  ): Promise<ChangePage<Listing>> {
    const rows = await this.#read(all ? ALL_LISTINGS : CHANGED_LISTINGS, { ...cursor, limit });
    const last = rows.at(-1);
    const next = last === undefined
      ? cursor
      : { stamp: wholeNumber(last.stamp) ?? cursor.stamp, id: String(nodeProps(last.l).key) };
    return { items: this.#listings(rows), read: rows.length, next };
  }

  /** The old addresses of every Resource that has any, by node id. */
  async allAliases(): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const { node_id, key } of await this.#read(ALL_ALIASES)) {
      if (typeof node_id !== "string" || typeof key !== "string") continue;
      out.set(node_id, [...out.get(node_id) ?? [], key]);
    }
    return out;
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

/** Runs `work` in an explicit transaction on `session`: committed if it succeeds, else rolled back. */
async function inTransaction<T>(
  session: Session,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const tx = session.beginTransaction();
  try {
    const out = await work(tx);
    await tx.commit();
    return out;
  } catch (e) {
    if (tx.isOpen()) await tx.rollback().catch(() => {});
    throw e;
  }
}

/** Requests avoided over count groups: only answered Cache Reads carry any. */
function sumAvoided(groups: Props[]): number {
  return groups.reduce((n, g) => n + (wholeNumber(g.avoided) ?? 0), 0);
}

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
 * Connects to a graph server, finds out which one it is and refuses one
 * older than rgraph runs on, and makes sure the schema is set up. Throws
 * {@link StoreUnavailableError} when the server cannot be reached, and
 * {@link UnsupportedStoreError} when it is too old or its schema cannot be
 * set up.
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
      userAgent: "rgraph",
    });
  } catch (e) {
    throw unreachable(target.url, e);
  }
  const where = printableUrl(target.url);
  try {
    const info = await driver.getServerInfo({ database: target.database ?? undefined });
    const session = driver.session({ database: target.database ?? undefined });
    try {
      const run = async (q: string, p: Params = {}) =>
        rowsOf(await session.run(q, bolt(p) as Params));
      const server = await identify(info.agent ?? "", run);
      const refused = refusal(server);
      if (refused !== null) {
        throw new UnsupportedStoreError(
          `${where}: ${refused}`,
          `upgrade the server to ${
            serverName({ ...server, version: MINIMUM_VERSION[server.kind], edition: null })
          } or later`,
        );
      }
      const setup: SchemaSession = {
        run,
        write: (q, p = {}) =>
          retrying(() =>
            inTransaction(session, async (tx) => rowsOf(await tx.run(q, bolt(p) as Params)))
          ),
      };
      try {
        await ensureSchema(setup, server);
      } catch (e) {
        if (isUnreachable(e)) throw e;
        throw new UnsupportedStoreError(
          `${where}: its schema could not be set up: ${firstLine(e)}`,
          "check that the user may create indexes and constraints on the server",
          e,
        );
      }
      return new GraphStore(driver, target, server, options, await currentLogin(run));
    } finally {
      await session.close();
    }
  } catch (e) {
    await driver.close();
    if (e instanceof UnsupportedStoreError) throw e;
    // Any other server-side refusal here (authentication, unknown database) also means no shared store.
    if (isUnreachable(e) || e instanceof neo4j.Neo4jError) {
      throw await unreachableAtConnect(target.url, e);
    }
    throw e;
  }
}
