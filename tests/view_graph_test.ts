/**
 * `rgraph view` on the shared graph store (a real server): the page's
 * answers come from the server, for the configured user only, and a Touch a
 * hook records in the local outbox while the page is open shows up without
 * a reload (the view sends the outbox on as it polls).
 *
 * @module
 */

import assert from "node:assert/strict";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import {
  bashPayload,
  ok,
  requireServerInCi,
  SERVERS,
  serverTest,
  teammate,
  touchesOf,
  wipe,
} from "./graph_helpers.ts";
import { rawGet, startView } from "./view_helpers.ts";

requireServerInCi();

for (const server of SERVERS) {
  serverTest(
    server,
    "rgraph view answers from the graph store and shows new Touches live",
    async () => {
      await wipe(server.url);
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      const bob = await teammate("bob", server.url, emu);
      const big = FACTS.big.nameWithOwner;
      try {
        await ok(
          alice.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue view 42 -R ${big}`, { session_id: "s-graph" }),
          }),
          "hook",
        );
        await ok(
          bob.rgraph(["hook", "claude-code"], {
            stdin: bashPayload(`gh issue view 7 -R ${big}`, { session_id: "s-bob" }),
          }),
          "hook",
        );
        await ok(alice.rgraph(["sweep"]), "sweep");
        await ok(bob.rgraph(["sweep"]), "sweep");
        const view = await startView(alice);
        try {
          const host = `127.0.0.1:${view.port}`;
          const get = async (path: string) => {
            const r = await rawGet(view.port, path, { host, "x-rgraph-token": view.token });
            assert.equal(r.status, 200, r.body);
            return JSON.parse(r.body);
          };
          const ids = (s: { sessions: { touches: { id: string }[] }[] }) =>
            s.sessions.flatMap((g) => g.touches.map((t) => t.id)).sort();
          const sessions = await get("/api/sessions");
          assert.deepEqual(
            ids(sessions),
            (await touchesOf(alice)).map((t) => t.id as string).sort(),
          );
          assert.ok(!JSON.stringify(sessions).includes("s-bob"), "another user's Touches shown");
          // Memory is shared: both users' issues are there.
          const memory = await get(`/api/memory?q=${encodeURIComponent("lumendb/lumen#")}`);
          const addresses = memory.entries.map((e: { address: string }) => e.address);
          assert.ok(addresses.includes("github:lumendb/lumen#42"));
          assert.ok(addresses.includes("github:lumendb/lumen#7"));
          const value = await get("/api/value");
          const stats = JSON.parse((await ok(alice.rgraph(["stats", "--json"]), "stats")).stdout);
          assert.deepEqual(value.stats.touches, stats.touches);
          assert.deepEqual(value.stats.memory.resources, stats.memory.resources);
          // A new Touch, recorded by a hook in the outbox only, while the page polls.
          const before = (await get("/api/change")).mark;
          await ok(
            alice.rgraph(["hook", "claude-code"], {
              stdin: bashPayload(`gh issue view 3 -R ${big}`, { session_id: "s-graph-2" }),
            }),
            "hook",
          );
          let mark = before;
          for (let i = 0; i < 150 && mark === before; i++) {
            await new Promise((r) => setTimeout(r, 200));
            mark = (await get("/api/change")).mark;
          }
          assert.notEqual(mark, before);
          const after = await get("/api/sessions");
          const live = after.sessions.find((g: { session_id: string }) =>
            g.session_id === "s-graph-2"
          );
          assert.equal(live?.touches[0].address, "github:lumendb/lumen#3");
          assert.equal(live?.touches[0].status, "pending");
        } finally {
          await view.stop();
        }
      } finally {
        await alice.cleanup();
        await bob.cleanup();
        await emu.close();
      }
    },
  );
}
