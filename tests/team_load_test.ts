/**
 * A team on one graph server at once (`team_load.ts`), sized for CI: six
 * teammates, thirty hooks each, two Sweeps each and an MCP server each
 * answering all along, one Sweep killed with `kill -9`. Nothing is lost or
 * duplicated, no Sweep fails, no answer is an error, the killed Sweep's work
 * is taken up within its lease, and the team asks GitHub at most 1.5× what
 * one user asks for the same union. `deno task bench team` runs it at 10 × 60.
 */

import assert from "node:assert/strict";
import { requireServerInCi, SERVERS, serverTest } from "./graph_helpers.ts";
import { reportTable, teamLoad } from "./team_load.ts";

requireServerInCi();

for (const server of SERVERS) {
  serverTest(
    server,
    "six teammates at once lose, duplicate and fail nothing, and share GitHub's work",
    async () => {
      // An 8 s lease: renewed every 2 s while its Sweep lives, free 8 s after a kill.
      const r = await teamLoad({
        url: server.url,
        users: 6,
        hooks: 30,
        latencyMs: 20,
        leaseSeconds: 8,
      });
      console.log(reportTable(r));
      assert.equal(r.touches, 6 * 30, "every hook's Touch reached the server");
      assert.equal(r.duplicateTouches, 0);
      assert.equal(r.unsettled, 0, "every Touch settled, the killed Sweep's too");
      assert.equal(r.foreign, 0, "no teammate sees another's Touches");
      assert.deepEqual(r.failedSweeps, []);
      assert.equal(r.sweeps, 2 * 6 - 1);
      assert.ok(r.answers > 0);
      assert.deepEqual(r.errorAnswers, []);
      assert.equal(r.duplicateNodes, 0);
      assert.equal(r.duplicateListings, 0);
      assert.ok(r.recoveryMs < 8_000 + 20_000, `recovered after ${r.recoveryMs} ms`);
      assert.ok(r.requests <= 1.5 * r.reference, `${r.requests} against ${r.reference}`);
    },
  );
}
