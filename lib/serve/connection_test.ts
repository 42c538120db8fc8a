import assert from "node:assert/strict";
import { StoreConnection } from "./connection.ts";
import { type Store, StoreUnavailableError } from "../store/contract.ts";
import { openEmbeddedStore } from "../store/mod.ts";

/** An opener that is down until `up()` is called, counting attempts; opens real embedded stores. */
async function server() {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-conn-" });
  let isUp = false;
  let attempts = 0;
  const opened: Store[] = [];
  return {
    attempts: () => attempts,
    opened,
    up: () => void (isUp = true),
    down: () => void (isUp = false),
    open: (): Promise<Store> => {
      attempts++;
      if (!isUp) {
        return Promise.reject(new StoreUnavailableError("bolt://127.0.0.1:1: connection refused"));
      }
      const s = openEmbeddedStore(`${dir}/rgraph.db`);
      opened.push(s);
      return Promise.resolve(s);
    },
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

const kind = (s: Store) => Promise.resolve(s.kind);

Deno.test("a store that is down fails fast during the backoff and is retried after it", async () => {
  const srv = await server();
  let now = 0;
  const conn = new StoreConnection(srv.open, {
    minRetryMs: 1000,
    maxRetryMs: 4000,
    now: () => now,
  });
  try {
    await assert.rejects(conn.use(kind), StoreUnavailableError);
    assert.equal(srv.attempts(), 1);
    now = 999;
    await assert.rejects(conn.use(kind), /connection refused/);
    assert.equal(srv.attempts(), 1, "no new attempt inside the backoff");
    now = 1000;
    await assert.rejects(conn.use(kind), StoreUnavailableError);
    assert.equal(srv.attempts(), 2);
    // The wait doubles (2 s), then is capped (4 s).
    now = 2999;
    await assert.rejects(conn.use(kind));
    assert.equal(srv.attempts(), 2);
    now = 3000;
    await assert.rejects(conn.use(kind));
    assert.equal(srv.attempts(), 3);
    now = 7000;
    await assert.rejects(conn.use(kind));
    now = 11_000;
    await assert.rejects(conn.use(kind));
    assert.equal(srv.attempts(), 5, "the wait stops growing at maxRetryMs");
    srv.up();
    now = 15_000;
    assert.equal(await conn.use(kind), "sqlite");
    assert.equal(await conn.use(kind), "sqlite");
    assert.equal(srv.attempts(), 6, "an open store is kept");
  } finally {
    await conn.close();
    await srv.cleanup();
  }
});

Deno.test("a store lost during a call is closed and re-opened after the backoff", async () => {
  const srv = await server();
  srv.up();
  let now = 0;
  const conn = new StoreConnection(srv.open, { minRetryMs: 1000, now: () => now });
  try {
    assert.equal(await conn.use(kind), "sqlite");
    await assert.rejects(
      conn.use(() => Promise.reject(new StoreUnavailableError("bolt://x: connection reset"))),
      /connection reset/,
    );
    await assert.rejects(conn.use(kind), /connection reset/, "fails fast while the backoff runs");
    await assert.rejects(
      () => srv.opened[0].getResource("github:o/r#1"),
      "the lost store was closed",
    );
    now = 1000;
    assert.equal(await conn.use(kind), "sqlite");
    assert.equal(srv.attempts(), 2);
  } finally {
    await conn.close();
    await srv.cleanup();
  }
});

Deno.test("concurrent first calls share one attempt; other errors pass through without a backoff", async () => {
  const srv = await server();
  srv.up();
  const conn = new StoreConnection(srv.open, { now: () => 0 });
  try {
    assert.deepEqual(await Promise.all([conn.use(kind), conn.use(kind), conn.use(kind)]), [
      "sqlite",
      "sqlite",
      "sqlite",
    ]);
    assert.equal(srv.attempts(), 1);
    await assert.rejects(conn.use(() => Promise.reject(new TypeError("bad input"))), TypeError);
    assert.equal(
      await conn.use(kind),
      "sqlite",
      "no backoff after an error that is not the store's",
    );
    assert.equal(srv.attempts(), 1);
  } finally {
    await conn.close();
    await srv.cleanup();
  }
});

Deno.test("an already open store is used as is", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-conn-" });
  const store = openEmbeddedStore(`${dir}/rgraph.db`);
  const conn = StoreConnection.of(store);
  try {
    assert.equal(await conn.use((s) => Promise.resolve(s === store)), true);
  } finally {
    await conn.close();
    await Deno.remove(dir, { recursive: true });
  }
});
