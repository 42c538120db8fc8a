/**
 * `rgraph stats` after a scripted run of real processes: `rgraph hook`
 * captures reads, `rgraph sweep` settles them against the GitHub emulator,
 * `rgraph lookup` answers from memory — then the counts a person sees.
 */

import assert from "node:assert/strict";
import { startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { type Sandbox, sandbox } from "./helpers.ts";
import { itemRequests, listingRequests } from "../lib/sweep/cost.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const PY = `${FACTS.pythonClient.owner}/${FACTS.pythonClient.name}`;
const PRIVATE = `${FACTS.private.owner}/${FACTS.private.name}`;

let call = 0;

async function hook(box: Sandbox, payload: Record<string, unknown>): Promise<void> {
  const r = await box.rgraph(["hook", "claude-code"], {
    stdin: JSON.stringify({ session_id: "s1", cwd: box.dir, ...payload }),
  });
  assert.equal(r.code, 0, r.stderr);
}

function fetched(box: Sandbox, command: string): Promise<void> {
  return hook(box, {
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_stats_${++call}`,
  });
}

async function lookup(box: Sandbox, address: string): Promise<string> {
  const r = await box.rgraph(["lookup", address, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).outcome;
}

async function stats(box: Sandbox, ...args: string[]): Promise<any> {
  const r = await box.rgraph(["stats", "--json", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("stats after capture → sweep → lookup counts Cache Reads by outcome, settled Touches by reason, and what memory holds", async () => {
  const gh = await startEmulator();
  const box = await sandbox({
    extra:
      `[github]\ntoken = "${gh.token}"\napi_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`,
  });
  try {
    const { longThread, noComments } = FACTS.big;
    await fetched(box, `gh issue view ${longThread.number} -R ${BIG} --comments`);
    await fetched(box, `gh issue view ${noComments.number} -R ${BIG}`);
    await fetched(box, `gh issue view ${FACTS.deleted.number} -R ${BIG}`);
    await fetched(box, `gh issue view ${FACTS.private.issueNumber} -R ${PRIVATE}`);
    await fetched(box, `gh issue list -R ${PY} --state all`);
    await hook(box, {
      hook_event_name: "UserPromptSubmit",
      prompt: `see https://github.com/${BIG}/issues/${noComments.number}`,
    });

    const before = await stats(box);
    assert.equal(before.touches.pending, 6);
    assert.equal(before.cache_reads.total, 0);

    const sweep = await box.rgraph(["sweep"]);
    assert.equal(sweep.code, 0, sweep.stderr);

    assert.equal(await lookup(box, `${BIG}#${longThread.number}`), "hit");
    assert.equal(await lookup(box, `${BIG}#${noComments.number}`), "hit");
    assert.equal(await lookup(box, `gh issue list -R ${PY}`), "subsumed");
    // Fewer than the Listing holds: reckoned as what was asked, 5 members.
    assert.equal(await lookup(box, `gh issue list -R ${PY} --state all --limit 5`), "hit");
    assert.equal(await lookup(box, `${BIG}#${FACTS.big.exactPageThread.number}`), "miss");

    const s = await stats(box);
    assert.equal(s.user_id, "alice");
    assert.equal(s.since, null);
    assert.deepEqual(s.cache_reads, { hit: 3, subsumed: 1, miss: 1, total: 5 });
    assert.deepEqual(s.touches, {
      pending: 0,
      resolved: 4,
      unresolved: { not_found: 1, not_public: 1 },
    });
    // The two hits alone would have cost 1 + 3 comment pages and 1 request; the subsumed listing more.
    const pyIssues = FACTS.pythonClient.openIssues + FACTS.pythonClient.closedIssues;
    // The subsumed `gh issue list` (gh's default limit, 30) is reckoned on the Listing that
    // answered it, every issue of the repository: its page and each thread. Every figure is a
    // whole number of requests (a limit bound as a number once made it 33.29).
    assert.equal(
      s.requests_avoided,
      itemRequests(longThread.comments) + itemRequests(0) +
        listingRequests(Math.min(30, pyIssues)) +
        listingRequests(5),
    );
    assert.equal(s.memory.resources.issue, 2 + pyIssues);
    assert.equal(
      s.memory.resources.total,
      s.memory.resources.repository + s.memory.resources.issue + s.memory.resources.pull_request,
    );
    assert.ok(s.memory.comments >= longThread.comments);
    assert.ok(s.memory.listings >= 1);
    assert.ok(s.memory.size_bytes > 0);

    // The table a person reads.
    const table = await box.rgraph(["stats"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Cache Reads +5 {2}\(hit 3, subsumed 1, miss 1\)$/m);
    assert.match(table.stdout, /^Unresolved Touches +2 {2}\(not_found 1, not_public 1\)$/m);
    assert.match(table.stdout, new RegExp(`^GitHub requests avoided +${s.requests_avoided}$`, "m"));
    assert.match(table.stdout, /^Store size +\d+\.\d (KB|MB)$/m);

    // --since after everything: no Touches of the period; memory is unchanged.
    const later = await stats(box, "--since", "2999-01-01");
    assert.equal(later.since, "2999-01-01T00:00:00.000Z");
    assert.deepEqual(later.cache_reads, { hit: 0, subsumed: 0, miss: 0, total: 0 });
    assert.equal(later.requests_avoided, 0);
    assert.deepEqual(later.touches, { pending: 0, resolved: 0, unresolved: {} });
    assert.deepEqual(later.memory.resources, s.memory.resources);

    // Another user of the same store sees the shared memory but none of alice's reads.
    await box.writeConfig(
      `[identity]\nuser_id = "bob"\n[store]\npath = ${JSON.stringify(box.dbPath)}\n`,
    );
    const bob = await stats(box);
    assert.deepEqual(bob.cache_reads, { hit: 0, subsumed: 0, miss: 0, total: 0 });
    assert.deepEqual(bob.touches, { pending: 0, resolved: 0, unresolved: {} });
    assert.equal(bob.memory.resources.issue, s.memory.resources.issue);
  } finally {
    await box.cleanup();
    await gh.close();
  }
});

Deno.test("stats refuses without an identity and rejects a bad --since, in one line each", async () => {
  const box = await sandbox({ userId: null });
  try {
    const r = await box.rgraph(["stats"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /^rgraph stats: no identity configured: set \[identity\] user_id/);
    const bad = await box.rgraph(["stats", "--since", "last tuesday"]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--since takes a date \(2026-01-31.*today, yesterday, or a duration ago/,
    );
  } finally {
    await box.cleanup();
  }
});
