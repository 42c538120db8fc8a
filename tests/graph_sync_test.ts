/**
 * The local index a machine keeps of a shared graph store (what the hook's
 * Nudge reads, the hook never using the network), as teammates see it: what
 * another machine stores reaches this one's Nudge after its next look-up;
 * a server that did not change is read no further than its change counter
 * (`rgraph status --json` shows how many changes the last sync read); a new
 * machine keeps heads only, not the team's bodies and comments.
 *
 * @module
 */

import assert from "node:assert/strict";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import type { Sandbox } from "./helpers.ts";
import { issue } from "./store_contract.ts";
import {
  bashPayload,
  freshGraphStore,
  ok,
  requireServerInCi,
  SERVERS,
  serverTest,
  teammate,
} from "./graph_helpers.ts";

requireServerInCi();

const { big } = FACTS;
const SLUG = `${big.owner}/${big.name}`;

/** The Nudge the sandbox's hook adds before `gh issue view N`, or "" when none. */
async function nudge(sb: Sandbox, command: string): Promise<string> {
  const r = await sb.rgraph(["hook", "claude-code"], { stdin: bashPayload(command) });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** How many changes the sandbox's last sync read from the server, as `status --json` says. */
async function lastSyncRead(sb: Sandbox): Promise<number> {
  const status = JSON.parse((await ok(sb.rgraph(["status", "--json"]), "status")).stdout);
  assert.ok(status.local_index, "status names the local index's last sync");
  return status.local_index.read;
}

/** Bytes of the sandbox's database files (the file and its write-ahead log). */
async function fileBytes(sb: Sandbox): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const suffix of ["", "-wal"]) {
    try {
      out.push(await Deno.readFile(`${sb.dbPath}${suffix}`));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return out;
}

for (const server of SERVERS) {
  serverTest(
    server,
    "what another machine stores reaches this one's Nudge at its next look-up; an unchanged server is read no further",
    async () => {
      await (await freshGraphStore(server.url)).close();
      const emu = await startEmulator();
      const alice = await teammate("alice", server.url, emu);
      const bob = await teammate("bob", server.url, emu);
      try {
        // Bob's machine knows nothing of #3 yet.
        await ok(bob.rgraph(["lookup", `github:${SLUG}#3`]), "bob's first lookup");
        assert.doesNotMatch(await nudge(bob, `gh issue view 3 -R ${SLUG}`), /is in memory/);

        // Alice's machine stores #3.
        await nudge(alice, `gh issue view 3 -R ${SLUG}`);
        await ok(alice.rgraph(["sweep"]), "alice's sweep");

        // Bob's next look-up (of anything) brings it to his hook.
        await ok(bob.rgraph(["lookup", `github:${SLUG}#999999`]), "bob's lookup");
        assert.ok(await lastSyncRead(bob) > 0, "the changed server was read");
        assert.match(await nudge(bob, `gh issue view 3 -R ${SLUG}`), /is in memory/);

        // Nothing changed since: the next sync reads no change at all.
        await ok(bob.rgraph(["lookup", `github:${SLUG}#999999`]), "bob's lookup again");
        assert.equal(await lastSyncRead(bob), 0);

        // Alice stores one more: Bob's sync reads what changed, not the rest again.
        await nudge(alice, `gh issue view 5 -R ${SLUG}`);
        await ok(alice.rgraph(["sweep"]), "alice's second sweep");
        await ok(bob.rgraph(["lookup", `github:${SLUG}#999999`]), "bob's third lookup");
        const read = await lastSyncRead(bob);
        assert.ok(read >= 1, `read ${read}`);
        assert.match(await nudge(bob, `gh issue view 5 -R ${SLUG}`), /is in memory/);
        assert.match(await nudge(bob, `gh issue view 3 -R ${SLUG}`), /is in memory/);
      } finally {
        await alice.cleanup();
        await bob.cleanup();
        await emu.close();
      }
    },
  );

  serverTest(
    server,
    "a new machine's local index keeps the team's heads, not their bodies and comments",
    async () => {
      const graph = await freshGraphStore(server.url);
      const emu = await startEmulator();
      const carol = await teammate("carol", server.url, emu);
      const COUNT = 200;
      const marker = "BODY-TEXT-THE-INDEX-MUST-NOT-HOLD";
      let stored = 0;
      try {
        const writes = Array.from({ length: COUNT }, (_, i) => {
          const body = `${marker} ${"x".repeat(4000)}`;
          const comments = Array.from({ length: 4 }, (_, c) => ({
            node_id: `IC_sync_${i}_${c}`,
            author: "someone",
            created_at: "2026-01-05T08:00:00.000Z",
            body: `${marker} comment ${"y".repeat(1000)}`,
          }));
          stored += body.length + comments.reduce((n, c) => n + c.body.length, 0);
          return { resource: issue(i + 1, { body, comments, comment_count: comments.length }) };
        });
        await graph.putResources(writes);

        const hit = await ok(carol.rgraph(["lookup", "github:acme/rocket#7"]), "carol's lookup");
        assert.match(hit.stdout, /\bhit\b/);
        // Her hook knows every one of them, not only what she looked up.
        assert.match(await nudge(carol, "gh issue view 150 -R acme/rocket"), /is in memory/);

        const files = await fileBytes(carol);
        const size = files.reduce((n, f) => n + f.length, 0);
        assert.ok(size < stored / 4, `local index ${size} bytes for ${stored} bytes of bodies`);
        const text = new TextDecoder("latin1");
        const bodies = files.reduce((n, f) => n + text.decode(f).split(marker).length - 1, 0);
        // Only the Resource carol read herself may be mirrored whole (a body and 4 comments).
        assert.ok(bodies <= 5, `${bodies} bodies or comments in the local files`);
      } finally {
        await graph.close();
        await carol.cleanup();
        await emu.close();
      }
    },
  );
}
