/**
 * Team benchmark (`deno task bench team`): ten teammates on one Neo4j server
 * at once, sixty hooks each, two Sweeps each, an MCP server each answering
 * `resource` all along, one Sweep killed with `kill -9` (`tests/team_load.ts`),
 * the GitHub emulator at 100 ms. The reference is one user's Sweep of the
 * same union, measured in the same run.
 *
 * Targets: nothing lost or duplicated, no failed Sweep, no error answer,
 * GitHub requests ≤ 1.5× the reference, the killed Sweep's work settled
 * within 60 s of the kill (Sweeps take the default lease).
 *
 * Uses the server `RGRAPH_TEST_NEO4J_URL` names (holding its test lock, and
 * emptying it), else starts one of its own.
 *
 * @module
 */

import { exclusive } from "../graph_helpers.ts";
import { reportTable, teamLoad, type TeamLoadReport } from "../team_load.ts";
import { freshServer } from "./_neo4j.ts";

const USERS = 10;
const HOOKS = 60;
const LATENCY = 100;

const ok = (cond: boolean) => (cond ? "OK" : "MISSED");

function run(url: string): Promise<TeamLoadReport> {
  return teamLoad({
    url,
    users: USERS,
    hooks: HOOKS,
    latencyMs: LATENCY,
  });
}

const shared = Deno.env.get("RGRAPH_TEST_NEO4J_URL");
let r: TeamLoadReport;
if (shared) {
  r = await exclusive(shared, () => run(shared));
} else {
  const server = await freshServer();
  try {
    r = await run(server.url);
  } finally {
    await server.stop();
  }
}
console.log(reportTable(r));
const whole = r.touches === USERS * HOOKS && r.duplicateTouches === 0 && r.unsettled === 0 &&
  r.foreign === 0 && r.duplicateNodes === 0 && r.duplicateListings === 0;
console.log(`nothing lost or duplicated, nobody sees another's Touches: ${ok(whole)}`);
console.log(`no failed Sweep: ${ok(r.failedSweeps.length === 0)} ${r.failedSweeps.join(" | ")}`);
console.log(`no error answer: ${ok(r.errorAnswers.length === 0)} ${r.errorAnswers.join(" | ")}`);
console.log(
  `GitHub requests ≤ 1.5× one user's: ${(r.requests / r.reference).toFixed(2)}× ` +
    ok(r.requests <= 1.5 * r.reference),
);
console.log(
  `killed Sweep's work taken up within 60 s: ${(r.recoveryMs / 1000).toFixed(1)} s ` +
    ok(r.recoveryMs <= 60_000),
);
