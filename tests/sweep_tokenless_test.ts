/**
 * Without a token (60 requests an hour): a Listing's cost is planned from
 * what GitHub's list shows, not from the limit asked; work that will finish
 * goes first; a Listing too big for one hour is read across hours, resuming
 * where it stopped and never reading again what memory holds; what waits is
 * `unresolved: rate_limited` with when it is retried. Real `rgraph hook`,
 * `sweep`, `touches` and `lookup` processes against the emulator, whose
 * `resetBudget` stands in for the hour passing. Request counts are compared
 * with the floor — what the work minimally needs — computed from the
 * emulator's dataset in the same run.
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import type { ItemRec } from "./emulator/dataset.ts";
import { byAddress, type World, world } from "./sweep_world.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const PY = `${FACTS.pythonClient.owner}/${FACTS.pythonClient.name}`;

/** The open issues of a repository in the emulator's dataset, and its open items of both kinds. */
function openItems(w: World, owner: string, name: string): { issues: ItemRec[]; listed: number } {
  const repo = w.gh.dataset.repo(owner, name)!.repo;
  const open = [...repo.items.values()].filter((i) => i.state === "OPEN");
  return { issues: open.filter((i) => i.kind === "issue"), listed: open.length };
}

/**
 * What reading a Listing of `issues` (all of them, one kind) minimally
 * costs without a token: the list's pages (pull requests share them:
 * `/issues` lists both), each member's comment pages, and the repository
 * with its README.
 */
function floor(issues: ItemRec[], listed: number): number {
  const comments = issues.reduce((n, i) => n + Math.ceil(i.comments.length / 100), 0);
  return Math.max(1, Math.ceil(listed / 100)) + comments + 2;
}

Deno.test("without a token, a small Listing asked with --limit 100 is fetched in one Sweep for what it really costs: its one page and its issues' comment pages", async () => {
  const w = await world({ token: null });
  try {
    const { issues, listed } = openItems(w, FACTS.pythonClient.owner, FACTS.pythonClient.name);
    await w.fetched(`gh issue list -R ${PY} --limit 100`);
    const key = (await w.touches())[0].address;
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    assert.deepEqual([s.pending, s.unresolved, s.rate_limited], [0, {}, false]);
    // The floor, plus the free GET /rate_limit that learnt the budget first.
    const least = floor(issues, listed);
    assert.equal(w.gh.requests().rest, least + 1, `floor ${least}`);
    console.log(
      `tokenless ${issues.length}-issue --limit 100 listing: ${w.gh.requests().rest} requests ` +
        `(floor ${least}, + 1 free /rate_limit)`,
    );
    assert.equal(byAddress(await w.touches(), key).status, "resolved");
    const hit = await w.lookup(key) as { outcome: string; members?: unknown[] };
    assert.equal(hit.outcome, "hit");
    assert.equal(hit.members?.length, issues.length);
  } finally {
    await w.close();
  }
});

Deno.test("without a token, a 720-issue Listing is read across hourly Sweeps: each hour resumes where the last stopped, nothing is read twice, what waits is rate_limited with its retry time, and a small Touch asked beside it finishes in the first hour", async () => {
  const w = await world({ token: null });
  try {
    const { issues, listed } = openItems(w, FACTS.big.owner, FACTS.big.name);
    assert.equal(issues.length, FACTS.big.openIssues);
    await w.fetched(`gh issue list -R ${BIG} --limit 1000`);
    const key = (await w.touches())[0].address;
    await w.fetched(`gh issue view 1 -R ${PY}`);
    const summaries = [];
    for (let hour = 0; hour < 40; hour++) {
      if (hour > 0) w.gh.resetBudget(); // the hour has passed
      const s = await w.sweep();
      summaries.push(s);
      const t = byAddress(await w.touches(), key);
      if (t.status === "resolved") break;
      // Deferred visibly, with when it is retried: GitHub's reset of the core budget.
      assert.deepEqual([t.status, t.reason], ["unresolved", "rate_limited"], JSON.stringify(s));
      assert.deepEqual(s.unresolved, { rate_limited: 1 });
      assert.equal(s.retry_at, s.budgets.core?.reset_at);
      assert.ok(s.retry_at && Date.parse(s.retry_at) > Date.now(), s.retry_at ?? "");
      assert.ok(s.errors.some((e) => e.startsWith(`${key}: `) && /members still to read/.test(e)));
      // Every hour reads members, so the Listing gets somewhere.
      assert.ok(s.resources_written > 0, `hour ${hour} read nothing`);
    }
    assert.equal(byAddress(await w.touches(), `github:${PY}#1`).status, "resolved");
    assert.equal(summaries[0].resolved, 1, "the small Touch finished in the first hour");
    assert.equal(byAddress(await w.touches(), key).status, "resolved", "read to its end");
    const hit = await w.lookup(key) as { outcome: string; paging?: { total: number } };
    assert.equal(hit.outcome, "hit");
    assert.equal(hit.paging?.total, issues.length);
    // Nothing was read twice: each thread page once, across every hour.
    const threads = w.gh.restLog().filter((p) => /\/issues\/\d+\/comments/.test(p));
    assert.equal(new Set(threads).size, threads.length, "no thread page was read twice");
    const sweeps = summaries.length;
    const spent = summaries.reduce((n, s) => n + s.requests, 0);
    const least = floor(issues, listed) + itemFloor(w);
    const pages = Math.ceil(listed / 100);
    // Each later hour reads the list again (to see what changed), and learns its budget.
    assert.ok(spent <= least + (sweeps - 1) * pages + sweeps, `${spent} vs floor ${least}`);
    console.log(
      `tokenless ${issues.length}-issue listing: ${spent} requests over ${sweeps} hourly Sweeps ` +
        `(floor ${least}; ${(spent / least).toFixed(2)}x)`,
    );
  } finally {
    await w.close();
  }
});

/** What the small Touch beside the big Listing minimally costs: the issue, its comment pages, its repository. */
function itemFloor(w: World): number {
  const item = w.gh.dataset.repo(FACTS.pythonClient.owner, FACTS.pythonClient.name)!.repo.items
    .get(1)!;
  return 1 + Math.ceil(item.comments.length / 100) + 2;
}

Deno.test("without a token, re-reading a Listing's member (stored with no ETag) costs one request when it has not changed: its updated_at is compared before its comments are read", async () => {
  const w = await world({ token: null });
  try {
    const { issues } = openItems(w, FACTS.pythonClient.owner, FACTS.pythonClient.name);
    const talked = issues.filter((i) =>
      i.comments.length > 0
    ).sort((x, y) => y.comments.length - x.comments.length)[0];
    assert.ok(talked, "an open issue with comments");
    await w.fetched(`gh issue list -R ${PY} --limit 100`);
    assert.equal((await w.sweep()).resolved, 1);
    await w.fetched(`gh issue view ${talked.number} -R ${PY} --comments`);
    w.gh.resetCounts();
    const s = await w.sweep();
    assert.equal(s.resolved, 1);
    assert.equal(w.gh.requests().rest, 1, "the issue alone, not its comments");
    w.gh.addComment(FACTS.pythonClient.owner, FACTS.pythonClient.name, talked.number, "new");
    await w.fetched(`gh issue view ${talked.number} -R ${PY} --comments`);
    w.gh.resetCounts();
    assert.equal((await w.sweep()).resolved, 1);
    // Changed: the issue, then its comments.
    assert.equal(w.gh.requests().rest, 1 + Math.ceil((talked.comments.length) / 100));
  } finally {
    await w.close();
  }
});
