/**
 * The graph store's one connection: the Bolt driver and database, with how
 * every concern module (`touches.ts`, `leases.ts`, `resources.ts`, …) runs
 * its statements — one read or write as an auto-commit transaction, or
 * several in one transaction run again from the start on a conflict
 * (`retry.ts`), a lost server reported as {@link StoreUnavailableError} —
 * and what they share: the Bolt work counted, unreadable nodes reported once,
 * the node ids of what this process wrote, and the local index kept in step.
 *
 * @example
 * ```ts
 * import { Connection } from "./connection.ts";
 * const c = new Connection(driver, target, {});
 * const rows = await c.read("MATCH (l:Listing) RETURN count(l) AS n");
 * ```
 * @module
 */

import neo4j, { type Driver, type Session, type Transaction } from "neo4j-driver";
import { StoreUnavailableError } from "../contract.ts";
import type { SqliteStore } from "../sqlite/mod.ts";
import { printableUrl } from "../bolt_url.ts";
import type { Skip } from "./decode.ts";
import { retrying } from "./retry.ts";
import { unreachableReason } from "./server.ts";

/** Statement parameters. */
export type Params = Record<string, unknown>;
/** A row, or a node's properties. */
export type Props = Record<string, unknown>;

/** A statement's rows in a transaction, with how it is counted. */
export type Runner = (query: string, params?: Params) => Promise<Props[]>;

/** Where the graph store connects, and as whom. */
export interface GraphTarget {
  url: string;
  user: string | null;
  password: string | null;
  database: string | null;
}

/** Counts of Bolt work issued, for the benchmark: statements run and transactions committed. */
export interface BoltCounts {
  statements: number;
  transactions: number;
}

/** Bolt integers for whole numbers (JS numbers travel as floats), recursively. */
export function bolt(value: unknown): unknown {
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

/** Whether `e` says the server cannot be reached (rather than refused a statement). */
export function isUnreachable(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return UNREACHABLE.has(err?.code ?? "") ||
    /ECONNREFUSED|ECONNRESET|connection refused|Could not perform discovery|Failed to connect|Pool is closed|connect(ion)? timed? ?out/i
      .test(err?.message ?? "");
}

/** The server at `url` could not be reached, as the one-line error a user reads. */
export function unreachable(url: string, e: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `${printableUrl(url)}: ${unreachableReason(String((e as Error)?.message ?? e))}`,
    e,
  );
}

/** Rows as plain objects. */
export function rowsOf(result: { records: { toObject(): object }[] }): Props[] {
  return result.records.map((r) => r.toObject() as Props);
}

/** A node's properties. */
export function nodeProps(node: unknown): Props {
  return (node as { properties: Props }).properties;
}

/** A value as plain data: nodes as their properties plus `labels`, relationships plus `type`. */
export function plain(v: unknown): unknown {
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

/** Runs `work` in an explicit transaction on `session`: committed if it succeeds, else rolled back. */
export async function inTransaction<T>(
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

/** One driver and database, and what the concern modules share over it. */
export class Connection {
  readonly driver: Driver;
  readonly target: GraphTarget;
  /** The hooks' local index (and outbox) kept in step with what is written, if one is attached. */
  mirror: SqliteStore | null = null;
  /**
   * Node ids of what this store wrote, by address and alias: a Listing of
   * members just written needs no look-up of them (its write checks they
   * are all still there).
   */
  readonly written = new Map<string, string>();
  #counts: BoltCounts = { statements: 0, transactions: 0 };
  readonly #onSkip: Skip | null;
  readonly #skipped = new Set<string>();
  #seq = 0;

  constructor(driver: Driver, target: GraphTarget, onSkip: Skip | null) {
    this.driver = driver;
    this.target = target;
    this.#onSkip = onSkip;
  }

  /** Bolt work issued since the store opened (or since the last reset). */
  boltCounts(reset = false): BoltCounts {
    const out = { ...this.#counts };
    if (reset) this.#counts = { statements: 0, transactions: 0 };
    return out;
  }

  /** Each node that could not be read is reported once per process. */
  readonly skip: Skip = (what, why) => {
    const line = `${what}: ${why}`;
    if (this.#skipped.has(line)) return;
    this.#skipped.add(line);
    this.#onSkip?.(what, why);
  };

  /** Monotonic within this process: orders Touches recorded in the same millisecond. */
  nextSeq(): number {
    this.#seq = Math.max(Date.now() * 1000, this.#seq + 1);
    return this.#seq;
  }

  /**
   * Repeats a write on the local index. Best effort: the graph store has the
   * write already, and the next sync copies whatever the index missed.
   */
  async mirrored(write: (local: SqliteStore) => Promise<void>): Promise<void> {
    if (this.mirror === null) return;
    try {
      await write(this.mirror);
    } catch {
      // The index is a cache of the graph store; see the doc comment.
    }
  }

  #session(mode: "read" | "write"): Session {
    return this.driver.session({
      database: this.target.database ?? undefined,
      defaultAccessMode: mode === "read" ? neo4j.session.READ : neo4j.session.WRITE,
    });
  }

  /** Reports a lost server as {@link StoreUnavailableError}. */
  async #guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (e) {
      if (isUnreachable(e)) throw unreachable(this.target.url, e);
      throw e;
    }
  }

  /**
   * Runs `work` in one transaction, run again from the start on a conflict
   * (see `retry.ts`; Memgraph's unique-constraint conflicts at commit too).
   */
  tx<T>(mode: "read" | "write", work: (run: Runner) => Promise<T>): Promise<T> {
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
  read(query: string, params: Params = {}): Promise<Props[]> {
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
  write(query: string, params: Params = {}): Promise<Props[]> {
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
}
