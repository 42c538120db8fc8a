/**
 * Complete or visibly not: a thread, a pull request's changed files or
 * review comments, a README, a repository or a Listing member that GitHub
 * fails on part-way is never stored as if whole. Real `rgraph hook`,
 * `rgraph sweep`, `rgraph touches` and `rgraph lookup` processes against the
 * emulator, which fails chosen REST paths (one page of a thread, say) while
 * answering everything else as usual.
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import { byAddress, world } from "./sweep_world.ts";
import type { PullRequestResource, RepositoryResource } from "../lib/types.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const key = (n: number) => `github:${BIG}#${n}`;
const LONG = FACTS.big.longThread;

/** How many entries the thread `lookup --json` shows holds in all. */
function threadTotal(found: { thread?: { paging: { total: number } } }): number {
  assert.ok(found.thread, JSON.stringify(found));
  return found.thread.paging.total;
}

Deno.test("without a token, a thread whose second page GitHub answers 404 is not stored: the Touch stays pending, the summary names it, lookup misses; once GitHub answers, the whole thread is stored", async () => {
  const w = await world({ token: null });
  try {
    await w.fetched(`gh issue view ${LONG.number} -R ${BIG} --comments`);
    w.gh.faultPath(new RegExp(`/issues/${LONG.number}/comments\\?.*page=2`), 404);
    const s = await w.sweep();
    assert.equal(s.resolved, 0);
    assert.equal(s.pending, 1);
    assert.deepEqual(s.incomplete, [key(LONG.number)]);
    assert.ok(
      s.errors.some((e) =>
        e.startsWith(`${key(LONG.number)}: `) && /page 2 of its comments/.test(e)
      ),
      JSON.stringify(s.errors),
    );
    assert.equal(byAddress(await w.touches(), key(LONG.number)).status, "pending");
    assert.equal((await w.lookup(key(LONG.number))).outcome, "miss");

    w.gh.clearFaults();
    const again = await w.sweep();
    assert.deepEqual([again.resolved, again.incomplete], [1, []]);
    const hit = await w.lookup(key(LONG.number));
    assert.equal(hit.outcome, "hit");
    assert.equal(threadTotal(hit), LONG.comments);
  } finally {
    await w.close();
  }
});

Deno.test("a stored thread stays as it was when its refetch cannot be read to its end; three such Sweeps settle the Touch unavailable with GitHub's answer", async () => {
  const w = await world({ token: null });
  try {
    await w.fetched(`gh issue view ${LONG.number} -R ${BIG} --comments`);
    assert.equal((await w.sweep()).resolved, 1);
    w.gh.addComment(FACTS.big.owner, FACTS.big.name, LONG.number, "one more");
    await w.fetched(`gh issue view ${LONG.number} -R ${BIG} --comments`);
    w.gh.faultPath(new RegExp(`/issues/${LONG.number}/comments\\?.*page=3`), 403);
    for (let i = 0; i < 3; i++) assert.deepEqual((await w.sweep()).incomplete, [key(LONG.number)]);
    const touches = (await w.touches()).filter((t) => t.address === key(LONG.number));
    assert.deepEqual(touches.map((t) => t.status).sort(), ["resolved", "unresolved"]);
    const failed = touches.find((t) => t.status === "unresolved")!;
    assert.equal(failed.reason, "unavailable");
    assert.match(failed.detail ?? "", /HTTP 403 for page 3 of its comments/);
    // The earlier complete version is what memory still answers with.
    const kept = await w.lookup(key(LONG.number));
    assert.equal(kept.outcome, "hit");
    assert.equal(threadTotal(kept), LONG.comments);
  } finally {
    await w.close();
  }
});

Deno.test("without a token, a pull request whose changed files or review comments GitHub fails on is not stored; once GitHub answers, both lists are whole", async () => {
  const w = await world({ token: null });
  const pull = FACTS.detailedPull.number, big = FACTS.bigPull.number;
  try {
    await w.fetched(`gh pr view ${pull} -R ${BIG}`);
    await w.fetched(`gh pr view ${big} -R ${BIG}`);
    w.gh.faultPath(new RegExp(`/pulls/${pull}/comments`), 404);
    w.gh.faultPath(new RegExp(`/pulls/${big}/files\\?.*page=2`), 422);
    const s = await w.sweep();
    assert.deepEqual([s.resolved, s.pending], [0, 2]);
    assert.deepEqual([...s.incomplete].sort(), [key(pull), key(big)].sort());
    assert.ok(s.errors.some((e) => /review comments/.test(e)), JSON.stringify(s.errors));
    assert.ok(
      s.errors.some((e) => /page 2 of its changed files/.test(e)),
      JSON.stringify(s.errors),
    );
    assert.equal((await w.lookup(key(pull))).outcome, "miss");
    assert.equal((await w.lookup(key(big))).outcome, "miss");

    w.gh.clearFaults();
    assert.equal((await w.sweep()).resolved, 2);
    const found = await w.lookup(key(pull));
    const detailed = found.resource as PullRequestResource;
    assert.equal(detailed.files.length, FACTS.detailedPull.files);
    // The thread shows the review comments after the comments.
    assert.ok(threadTotal(found) > detailed.comment_count, JSON.stringify(found.thread));
    const many = (await w.lookup(key(big))).resource as PullRequestResource;
    assert.equal(many.files.length, FACTS.bigPull.files);
  } finally {
    await w.close();
  }
});

Deno.test("without a token, a README GitHub answers 403 for (not 404: no README) leaves the repository unstored and pending, named in the summary", async () => {
  const w = await world({ token: null });
  try {
    await w.fetched(`gh repo view ${BIG}`);
    w.gh.faultPath(new RegExp(`^/repos/${BIG}/readme`), 403);
    const s = await w.sweep();
    assert.deepEqual([s.resolved, s.pending, s.incomplete], [0, 1, [`github:${BIG}`]]);
    assert.ok(s.errors.some((e) => /for its README/.test(e)), JSON.stringify(s.errors));
    assert.equal((await w.lookup(`github:${BIG}`)).outcome, "miss");
    w.gh.clearFaults();
    assert.equal((await w.sweep()).resolved, 1);
    const repo = (await w.lookup(`github:${BIG}`)).resource as RepositoryResource;
    assert.ok(repo.readme && repo.readme.length > 0);
  } finally {
    await w.close();
  }
});

Deno.test("without a token, the repository of a stored issue that GitHub answers 404 for is counted and named, and a later Sweep that meets the issue stores it", async () => {
  const w = await world({ token: null });
  const n = FACTS.big.noComments.number;
  try {
    await w.fetched(`gh issue view ${n} -R ${BIG}`);
    w.gh.faultPath(new RegExp(`^/repos/${BIG}$`), 404);
    const s = await w.sweep();
    assert.equal(s.resolved, 1);
    assert.deepEqual(s.incomplete, [`github:${BIG}`]);
    assert.ok(
      s.errors.some((e) => e.startsWith(`github:${BIG}: `) && /not stored/.test(e)),
      JSON.stringify(s.errors),
    );
    assert.equal((await w.lookup(`github:${BIG}`)).outcome, "miss");

    w.gh.clearFaults();
    await w.prompted(`see https://github.com/${BIG}/issues/${n}`);
    const later = await w.sweep();
    assert.deepEqual(later.incomplete, []);
    assert.equal((await w.lookup(`github:${BIG}`)).outcome, "hit");
  } finally {
    await w.close();
  }
});

Deno.test("with a token, a Listing member GitHub fails on is not dropped: the Listing is not stored short, its Touch is retried, and the next Sweep stores every member", async () => {
  const w = await world();
  const list =
    `gh issue list -R ${FACTS.pythonClient.owner}/${FACTS.pythonClient.name} --limit 100`;
  try {
    await w.fetched(list);
    const listing = (await w.touches())[0].address;
    // Its newest-updated open issue: a member of the first page.
    w.gh.faultItem(FACTS.pythonClient.owner, FACTS.pythonClient.name, 13, {
      kind: "node",
      type: "INTERNAL",
    }, 1);
    const s = await w.sweep();
    assert.deepEqual([s.resolved, s.pending, s.listings_written], [0, 1, 0]);
    assert.deepEqual(s.incomplete, [listing]);
    assert.equal((await w.lookup(listing)).outcome, "miss");
    const again = await w.sweep();
    assert.deepEqual([again.resolved, again.listings_written], [1, 1]);
    const hit = await w.lookup(listing) as { outcome: string; listing?: { member_count: number } };
    assert.equal(hit.outcome, "hit");
  } finally {
    await w.close();
  }
});
