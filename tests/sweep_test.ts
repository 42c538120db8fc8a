/**
 * The Sweep end to end: Touches recorded by real `rgraph hook` processes,
 * settled by real `rgraph sweep` processes against the GitHub emulator, and
 * read back as a person would (`rgraph touches --json`, `rgraph lookup
 * --json`) or through the store API where a field is not shown (edges,
 * counts). Request counts come from the emulator.
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import { RGRAPH_FLAGS } from "./helpers.ts";
import { byAddress, type World, world } from "./sweep_world.ts";
import { startEmulator } from "./emulator/mod.ts";
import { openEmbeddedStore } from "../lib/store/mod.ts";
import { listingAddress } from "../lib/address/key.ts";
import type { ItemResource, PullRequestResource, RepositoryResource } from "../lib/types.ts";
import { sweep, type SweepSummary } from "../lib/sweep/mod.ts";
import { touch } from "./store_contract.ts";
import { openSource } from "../lib/github/mod.ts";

const BIG = `${FACTS.big.owner}/${FACTS.big.name}`;
const PY = `${FACTS.pythonClient.owner}/${FACTS.pythonClient.name}`;

Deno.test("touch → sweep → memory: full threads, a pull request in full, an /issues/N that is a pull request, a README of any name", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue view ${FACTS.big.longThread.number} -R ${BIG} --comments`);
    await w.fetched(`gh issue view ${FACTS.detailedPull.number} -R ${BIG}`); // a PR asked as an issue
    await w.fetched(`gh pr view ${FACTS.bigPull.number} -R ${BIG}`);
    await w.fetched(`gh repo view ${PY}`);
    const summary = await w.sweep();
    assert.equal(summary.resolved, 4);
    // The three items' repository came along with them: stored too.
    assert.equal(summary.resources_written, 5);
    assert.equal(summary.source, "graphql");
    assert.equal(summary.requests, w.gh.requests().total);
    const home = await w.read((s) => s.getResource(`github:${BIG}`)) as RepositoryResource;
    assert.equal(home?.kind, "repository");
    assert.ok((home.readme ?? "").length > 20, "with its README");

    const touches = await w.touches();
    for (const t of touches) assert.equal(t.status, "resolved", JSON.stringify(t));

    const issue = await w.read((s) =>
      s.getResource(`github:${BIG}#${FACTS.big.longThread.number}`)
    ) as ItemResource;
    assert.equal(issue.kind, "issue");
    assert.equal(issue.comment_count, FACTS.big.longThread.comments);
    assert.equal(issue.comments.length, FACTS.big.longThread.comments, "every page of the thread");
    assert.equal(new Set(issue.comments.map((c) => c.node_id)).size, issue.comments.length);

    const pr = await w.read((s) =>
      s.getResource(`github:${BIG}#${FACTS.detailedPull.number}`)
    ) as PullRequestResource;
    assert.equal(pr.kind, "pull_request");
    assert.equal(pr.state, "merged");
    assert.equal(pr.base_ref, FACTS.detailedPull.baseRefName);
    assert.equal(pr.files.length, FACTS.detailedPull.files);
    assert.ok(pr.review_comments.length > 0 && pr.review_comments.every((c) => c.path));
    for (const n of FACTS.detailedPull.closes) {
      assert.ok(pr.closes.some((u) => u.endsWith(`/issues/${n}`)), `closes #${n}`);
    }
    const big = await w.read((s) =>
      s.getResource(`github:${BIG}#${FACTS.bigPull.number}`)
    ) as PullRequestResource;
    assert.equal(big.files.length, FACTS.bigPull.files, "files beyond the first page");

    const repo = (await w.lookup(`github:${PY}`)).resource as RepositoryResource;
    assert.equal(repo.readme_path, FACTS.pythonClient.readme);
    assert.ok((repo.readme ?? "").length > 20);
  } finally {
    await w.close();
  }
});

Deno.test("every Unresolved reason, and nothing of a private repository is stored", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue view ${FACTS.missing.number} -R ${BIG}`);
    await w.fetched(`gh issue view ${FACTS.deleted.number} -R ${BIG}`);
    await w.fetched(`gh repo view ${FACTS.missingRepo.owner}/${FACTS.missingRepo.name}`);
    await w.fetched(
      `gh issue view ${FACTS.private.issueNumber} -R ${FACTS.private.owner}/${FACTS.private.name}`,
    );
    await w.fetched(`gh repo view ${FACTS.private.owner}/${FACTS.private.name}`);
    await w.fetched(`gh issue list -R ${FACTS.private.owner}/${FACTS.private.name}`);
    await w.fetched(`gh issue view 3 -R ${BIG}`);
    // A Touch whose address cannot be used (written by an older rgraph, say).
    await w.read((s) =>
      s.recordTouches([{
        user_id: "alice",
        session_id: "s1",
        provenance: "FETCHED",
        address: "github:not a repo/x#1",
        kind: "item",
        limit: null,
        tool_name: null,
        tool_use_id: null,
        agent_id: null,
        harness: null,
        recorded_at: new Date().toISOString(),
        dedup_key: "unparseable-1",
        status: "pending",
      }])
    );
    const summary = await w.sweep();
    assert.deepEqual(summary.unresolved, { not_found: 3, not_public: 3, unparseable: 1 });
    assert.equal(summary.resolved, 1, "one bad Touch never stops the others");

    const touches = await w.touches();
    assert.equal(byAddress(touches, `github:${BIG}#${FACTS.missing.number}`).reason, "not_found");
    assert.equal(byAddress(touches, `github:${BIG}#${FACTS.deleted.number}`).reason, "not_found");
    const priv = `github:${FACTS.private.owner}/${FACTS.private.name}`;
    assert.equal(byAddress(touches, `${priv}#1`).reason, "not_public");
    assert.equal(byAddress(touches, priv).reason, "not_public");
    assert.equal(byAddress(touches, "github:not a repo/x#1").reason, "unparseable");

    const stats = await w.read((s) => s.memoryStats());
    // The one repository stored is the public one #3 came from, not the private one.
    assert.deepEqual(stats.resources, { repository: 1, issue: 1, pull_request: 0 });
    assert.equal((await w.lookup(`github:${BIG}`)).outcome, "hit");
    assert.equal((await w.lookup(priv)).outcome, "miss");
    assert.equal((await w.lookup(`${priv}#1`)).outcome, "miss");
  } finally {
    await w.close();
  }
});

Deno.test("a mention from a private repository the token can see is not stored on the public item", async () => {
  const w = await world();
  try {
    const m = FACTS.private.mentions;
    await w.fetched(`gh issue view ${m.number} -R ${m.owner}/${m.repo}`);
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const found = await w.lookup(`github:${m.owner}/${m.repo}#${m.number}`);
    const item = found.resource as ItemResource;
    const priv = `https://github.com/${FACTS.private.owner}/${FACTS.private.name}/`;
    assert.ok(item.referenced_by.length > 0, "its public mentions are kept");
    assert.ok(
      item.referenced_by.every((u) => !u.toLowerCase().startsWith(priv)),
      JSON.stringify(item.referenced_by),
    );
  } finally {
    await w.close();
  }
});

Deno.test("without a token, a Listing cut short by its limit is not fully expanded and answers no narrower question", async () => {
  const w = await world({ token: null });
  try {
    const label = FACTS.big.goodFirstIssue.label;
    await w.fetched(`gh issue list -R ${BIG} --label "${label}" --limit 10`);
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const [listing] = await w.read((st) =>
      st.findListings(FACTS.big.owner, FACTS.big.name, "issues")
    );
    assert.equal(listing.member_count, 10);
    assert.equal(listing.fully_expanded, false);
    assert.equal(
      listing.total_count,
      FACTS.big.goodFirstIssue.open,
      "all matches were on one page",
    );
    const narrower = listingAddress(
      FACTS.big.owner,
      FACTS.big.name,
      "issues",
      { labels: [label], author: "somebody-else" },
      10,
    );
    assert.equal((await w.lookup(narrower.key)).outcome, "miss");
  } finally {
    await w.close();
  }
});

Deno.test("a Listing keeps GitHub's order, also for members whose threads needed more pages", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue list -R ${BIG} --limit 5`);
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    // GitHub's own order, as its REST API lists it.
    const res = await fetch(
      `${w.gh.apiUrl}/repos/${BIG}/issues?state=open&sort=updated&direction=desc&per_page=30`,
    );
    const github = ((await res.json()) as { number: number; pull_request?: unknown }[])
      .filter((i) => !i.pull_request).slice(0, 5).map((i) => i.number);
    const [listing] = await w.read((st) =>
      st.findListings(FACTS.big.owner, FACTS.big.name, "issues")
    );
    const members = await w.read((st) => st.listingMembers(listing.key));
    assert.deepEqual(members.map((m) => m.number), github);
  } finally {
    await w.close();
  }
});

Deno.test("without a token, Listings bigger than the hour's budget are unresolved rate_limited with their retry time (never pending without a reason); smaller work finishes first; a token configured later fetches them", async () => {
  const w = await world({ token: null });
  try {
    await w.fetched(`gh issue list -R ${BIG} --state open --limit 150`);
    // Each merged pull request costs about four requests without a token.
    await w.fetched(`gh pr list -R ${BIG} --state merged`);
    await w.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`);
    const first = await w.sweep();
    assert.equal(first.source, "rest");
    assert.equal(first.resolved, 1);
    assert.deepEqual(first.unresolved, { rate_limited: 2 });
    assert.equal(first.pending, 0);
    assert.equal(first.retry_at, first.budgets.core?.reset_at);
    assert.equal(first.errors.filter((e) => /members still to read/.test(e)).length, 2);
    const issues = `github:${BIG}/issues?state=open`;
    const pulls = `github:${BIG}/pulls?state=merged`;
    for (const key of [issues, pulls]) {
      const t = byAddress(await w.touches(), key);
      assert.deepEqual([t.status, t.reason], ["unresolved", "rate_limited"]);
    }

    await w.sb.writeConfig(
      (await Deno.readTextFile(w.sb.configPath)).replace(
        "[github]\n",
        `[github]\ntoken = "${w.gh.token}"\n`,
      ),
    );
    const second = await w.sweep();
    assert.equal(second.resolved, 2, JSON.stringify(second));
    for (const key of [issues, pulls]) {
      assert.equal(byAddress(await w.touches(), key).status, "resolved");
    }
  } finally {
    await w.close();
  }
});

Deno.test("a renamed repository and a transferred issue are one Resource each, whichever name was asked", async () => {
  const w = await world();
  const { owner, oldName, newName } = FACTS.renamed;
  const { from, to } = FACTS.transferred;
  try {
    await w.fetched(`gh issue view 1 -R ${owner}/${oldName}`);
    await w.fetched(`gh repo view ${owner}/${oldName}`);
    await w.sweep();
    await w.fetched(`gh issue view 1 -R ${owner}/${newName}`);
    await w.fetched(`gh repo view ${owner}/${newName}`);
    await w.fetched(`gh issue view ${from.number} -R ${from.owner}/${from.repo}`);
    await w.sweep();
    await w.fetched(`gh issue view ${to.number} -R ${to.owner}/${to.repo}`);
    await w.sweep();

    const touches = await w.touches();
    assert.equal(
      byAddress(touches, `github:${owner}/${oldName}#1`).target,
      `github:${owner}/${newName}#1`,
    );
    assert.equal(
      byAddress(touches, `github:${owner}/${oldName}`).target,
      `github:${owner}/${newName}`,
    );
    assert.equal(
      byAddress(touches, `github:${from.owner}/${from.repo}#${from.number}`).target,
      `github:${to.owner}/${to.repo}#${to.number}`,
    );
    assert.equal(
      byAddress(touches, `github:${to.owner}/${to.repo}#${to.number}`).target,
      `github:${to.owner}/${to.repo}#${to.number}`,
    );

    const stats = await w.read((s) => s.memoryStats());
    // The renamed repository once, and the transferred issue's new home (its old one holds
    // nothing stored, so it is not kept).
    assert.deepEqual(stats.resources, { repository: 2, issue: 2, pull_request: 0 });
    assert.equal((await w.lookup(`github:${to.owner}/${to.repo}`)).outcome, "hit");
    assert.equal((await w.lookup(`github:${from.owner}/${from.repo}`)).outcome, "miss");
    // Old names still find the Resource.
    const old = await w.lookup(`github:${from.owner}/${from.repo}#${from.number}`);
    assert.equal(old.resource?.address, `github:${to.owner}/${to.repo}#${to.number}`);
    const repo = (await w.lookup(`github:${owner}/${oldName}`)).resource as RepositoryResource;
    assert.equal(repo.address, `github:${owner}/${newName}`);
    assert.equal(repo.readme_path, FACTS.renamed.readme);
  } finally {
    await w.close();
  }
});

async function edgesBetween(w: World, a: string, b: string) {
  const edges = await w.read((s) => s.edges(a));
  return edges.filter((e) => (e.from === a && e.to === b) || (e.from === b && e.to === a));
}

for (const order of [["source", "target"], ["target", "source"]] as const) {
  Deno.test(`references become edges whichever end is stored first (${order.join(" then ")})`, async () => {
    const w = await world();
    try {
      const pairs = FACTS.references;
      for (const side of order) {
        for (const p of pairs) {
          const it = p[side];
          await w.fetched(`gh issue view ${it.number} -R ${it.owner}/${it.repo}`);
        }
        await w.sweep();
      }
      for (const p of pairs) {
        const a = `github:${p.source.owner}/${p.source.repo}#${p.source.number}`;
        const b = `github:${p.target.owner}/${p.target.repo}#${p.target.number}`;
        // FACTS: `source` mentions (or closes) `target`, so the edge runs source -> target.
        const kind = p.kind === "closes" ? "CLOSES" : "REFERENCES";
        const between = await edgesBetween(w, a, b);
        assert.ok(
          between.some((e) => e.kind === kind && e.from === a && e.to === b),
          `${a} -[${kind}]-> ${b} missing: ${JSON.stringify(between)}`,
        );
      }
    } finally {
      await w.close();
    }
  });
}

Deno.test("refresh only after a real re-fetch: PROMPTED Touches and Cache Reads cost nothing, FETCHED revalidates and refetches only what changed", async () => {
  const w = await world();
  const n = FACTS.big.exactPageThread.number;
  const key = `github:${BIG}#${n}`;
  try {
    await w.fetched(`gh issue view ${n} -R ${BIG}`);
    await w.sweep();
    const first = (await w.lookup(key)).resource as ItemResource;

    w.gh.resetCounts();
    await w.prompted(`Look at https://github.com/${BIG}/issues/${n} please`);
    await w.lookup(key);
    let s = await w.sweep();
    assert.equal(s.resolved, 1);
    assert.equal(w.gh.requests().total, 0, "PROMPTED Touch and Cache Read cost no request");

    await w.fetched(`gh issue view ${n} -R ${BIG} --comments`);
    s = await w.sweep();
    assert.equal(w.gh.requests().total, 1, "one updatedAt probe");
    const probed = (await w.lookup(key)).resource as ItemResource;
    assert.equal(probed.updated_at, first.updated_at);
    assert.ok(probed.fetched_at > first.fetched_at, "revalidated now");

    w.gh.addComment(FACTS.big.owner, FACTS.big.name, n, "A new finding after the first fetch.");
    w.gh.resetCounts();
    await w.fetched(`gh issue view ${n} -R ${BIG} --comments  `);
    s = await w.sweep();
    assert.equal(w.gh.requests().total, 3, "probe, refetch, the 101st comment's page");
    const fresh = await w.read((st) => st.getResource(key)) as ItemResource;
    assert.equal(fresh.comments.length, FACTS.big.exactPageThread.comments + 1);
    assert.ok(fresh.comments.some((c) => c.body === "A new finding after the first fetch."));
  } finally {
    await w.close();
  }
});

Deno.test("Listings: since-revalidation rewrites only what changed; anonymous REST revalidates with 304s", async () => {
  const w = await world();
  const list = `gh issue list -R ${PY} --state open --limit 100`;
  const key = `github:${PY}/issues?state=open`;
  try {
    await w.fetched(list);
    let s = await w.sweep();
    assert.equal(s.resources_written, FACTS.pythonClient.openIssues + 1, "and the repository");
    assert.equal(w.gh.requests().total, 2, "one page, with the repository; its README.rst");
    const listing = await w.read((st) => st.getListing(key));
    assert.equal(listing?.member_count, FACTS.pythonClient.openIssues);
    assert.equal(listing?.fully_expanded, true);

    w.gh.resetCounts();
    await w.fetched(`gh issue list -R ${PY} --state open --limit 3`);
    s = await w.sweep();
    assert.equal(w.gh.requests().total, 1, "an unchanged Listing costs one since-probe");
    assert.equal(s.resources_written, 0);
    const again = await w.read((st) => st.getListing(key));
    assert.equal(again?.member_count, FACTS.pythonClient.openIssues, "a narrower ask keeps all");

    w.gh.addComment(FACTS.pythonClient.owner, FACTS.pythonClient.name, 5, "Still happens on 3.13.");
    w.gh.editIssue(FACTS.pythonClient.owner, FACTS.pythonClient.name, 9, { state: "CLOSED" });
    w.gh.resetCounts();
    await w.fetched(`${list}  `);
    s = await w.sweep();
    assert.equal(
      w.gh.requests().total,
      2,
      "since-probe, then the one changed member that still matches",
    );
    assert.equal(s.resources_written, 1);
    const members = await w.read((st) => st.listingMembers(key));
    assert.equal(
      members.length,
      FACTS.pythonClient.openIssues - 1,
      "the closed issue left the Listing",
    );
    assert.equal(members[0].address, `github:${PY}#5`, "newest-updated first");
    assert.ok(!members.some((m) => m.address === `github:${PY}#9`));
    const five = await w.read((st) => st.getResource(`github:${PY}#5`)) as ItemResource;
    assert.equal(five.comments.at(-1)?.body, "Still happens on 3.13.");
  } finally {
    await w.close();
  }

  const anon = await world({ token: null });
  try {
    await anon.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`);
    let s = await anon.sweep();
    assert.equal(s.source, "rest");
    // REST cannot bring the repository along: it and its README cost two more, once.
    assert.equal(s.requests, 1 + 2, "an issue without comments is one request");
    assert.equal(s.resources_written, 2);
    anon.gh.resetCounts();
    await anon.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG} --json title`);
    s = await anon.sweep();
    assert.equal(anon.gh.requests().notModified, 1, "If-None-Match answered 304");
    assert.equal(s.resolved, 1);

    await anon.fetched(`gh issue list -R ${PY} --limit 20`);
    s = await anon.sweep();
    assert.equal(s.resources_written, FACTS.pythonClient.openIssues + 1, "and the repository");
    anon.gh.addComment(FACTS.pythonClient.owner, FACTS.pythonClient.name, 6, "Seen again.");
    anon.gh.resetCounts();
    await anon.fetched(`gh issue list -R ${PY} --limit 20 --json number`);
    s = await anon.sweep();
    assert.equal(s.resources_written, 1, "only the changed member is refetched");
    assert.equal(anon.gh.requests().rest, 3, "since-list, the issue, its comments");
    const six = await anon.read((st) => st.getResource(`github:${PY}#6`)) as ItemResource;
    assert.equal(six.comments.at(-1)?.body, "Seen again.");
  } finally {
    await anon.close();
  }
});

Deno.test("without a token: budget exhaustion leaves Touches unresolved rate_limited, and later runs (after the reset) retry them until done", async () => {
  const w = await world({ token: null, anonymousLimit: 4 });
  try {
    const numbers = [3, 5, 6, 8, 9, 10];
    for (const n of numbers) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    const first = await w.sweep();
    assert.equal(first.rate_limited, true);
    const limited = first.unresolved.rate_limited ?? 0;
    assert.ok(limited > 0 && first.resolved > 0, JSON.stringify(first));
    assert.equal(first.pending, 0, "none waits silently pending");
    // It stops before the budget runs out: every request it sent was answered.
    assert.ok((first.budget.remaining ?? 99) < 2, JSON.stringify(first.budget));
    assert.equal(first.requests, 4 - first.budget.remaining!);
    let touches = await w.touches();
    assert.ok(
      touches.every((t) =>
        t.status === "resolved" || (t.status === "unresolved" && t.reason === "rate_limited")
      ),
      JSON.stringify(touches),
    );

    // Each later run (after the hourly reset) retries them and makes progress until none is left.
    let left = limited;
    for (let run = 0; left > 0 && run < numbers.length; run++) {
      w.gh.resetBudget();
      const next = await w.sweep();
      assert.ok(next.resolved > 0, JSON.stringify(next));
      assert.equal(next.touches, left, "the rate-limited ones, none lost");
      left = (next.unresolved.rate_limited ?? 0) + next.pending;
    }
    touches = await w.touches();
    assert.ok(touches.every((t) => t.status === "resolved"), JSON.stringify(touches));
  } finally {
    await w.close();
  }
});

Deno.test("transient failures (502, GraphQL timeout, reset connection) are retried and never recorded", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue view 3 -R ${BIG}`);
    w.gh.failNext(1, 502);
    w.gh.failNext(1, "graphql-timeout");
    w.gh.failNext(1, "reset");
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    assert.equal(s.requests, 4);
    assert.equal(byAddress(await w.touches(), `github:${BIG}#3`).status, "resolved");
  } finally {
    await w.close();
  }
});

Deno.test("a refused token: one-line error that never shows the token, Touches stay pending and are not held by a lease", async () => {
  const secret = "ghp_sweeptestsecret0123456789";
  const w = await world({ token: secret });
  try {
    await w.fetched(`gh issue view 3 -R ${BIG}`);
    await w.fetched(`gh repo view ${PY}`);
    await w.fetched(`gh issue list -R ${PY} --limit 5`);
    const r = await w.sb.rgraph(["sweep"]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /refused the token/);
    assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret));
    const dataDir = w.sb.dbPath.slice(0, w.sb.dbPath.lastIndexOf("/"));
    for await (const f of Deno.readDir(dataDir)) {
      if (!f.isFile) continue;
      const bytes = new TextDecoder().decode(await Deno.readFile(`${dataDir}/${f.name}`));
      assert.ok(!bytes.includes(secret), `the token is stored in ${f.name}`);
    }
    assert.ok((await w.touches()).every((t) => t.status === "pending"));

    // With the token fixed, the very next Sweep (well within the lease) settles them all.
    await w.sb.writeConfig(
      (await Deno.readTextFile(w.sb.configPath)).replace(secret, w.gh.token),
    );
    const again = await w.sweep();
    assert.equal(again.resolved, 3, JSON.stringify(again));
  } finally {
    await w.close();
  }
});

Deno.test("plain output is one summary line", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue view 3 -R ${BIG}`);
    const r = await w.sb.rgraph(["sweep"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      // The issue and its repository, in one request.
      /^swept 1 touch: 1 resolved, 0 unresolved, 0 left pending; 2 resources written; 1 GitHub requests/,
    );
    assert.equal(r.stdout.trim().split("\n").length, 1);
  } finally {
    await w.close();
  }
});

Deno.test("kill -9 mid-Sweep: no half-written Resource, no Touch lost, the next Sweep finishes", async () => {
  const w = await world({ latencyMs: 150 });
  try {
    const threads = [
      FACTS.big.longThread.number,
      ...FACTS.big.otherLongThreads.map((t) => t.number),
    ];
    for (const n of threads) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    await w.fetched(`gh issue list -R ${BIG} --state open --limit 300`);
    await w.fetched(`gh pr view ${FACTS.bigPull.number} -R ${BIG}`);

    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...RGRAPH_FLAGS,
        new URL("../main.ts", import.meta.url).pathname,
        "sweep",
        "--lease",
        "1",
      ],
      env: w.sb.env,
      cwd: w.sb.dir,
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 30_000;
    while (w.gh.requests().total < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await child.status;

    const partial = await w.read((s) =>
      s.getResource(`github:${BIG}#${FACTS.big.longThread.number}`)
    );
    if (partial) {
      assert.equal((partial as ItemResource).comments.length, FACTS.big.longThread.comments);
    }
    const afterKill = await w.touches();
    assert.ok(afterKill.some((t) => t.status === "pending"), "killed mid-run");
    assert.ok(afterKill.every((t) => t.status !== "unresolved"));

    await new Promise((r) => setTimeout(r, 1100)); // the killed Sweep's lease runs out
    w.gh.setLatency(0);
    const s = await w.sweep();
    assert.equal(s.unresolved.not_found ?? 0, 0);
    const touches = await w.touches();
    assert.ok(touches.every((t) => t.status === "resolved"), JSON.stringify(touches));
    for (const n of threads) {
      const r = await w.read((st) => st.getResource(`github:${BIG}#${n}`)) as ItemResource;
      assert.equal(r.comments.length, r.comment_count, `#${n} complete`);
    }
    const listing = await w.read((st) => st.getListing(`github:${BIG}/issues?state=open`));
    assert.equal(listing?.member_count, 300);
  } finally {
    await w.close();
  }
});

Deno.test("two Sweeps at once never fetch the same thing twice", async () => {
  const w = await world({ latencyMs: 40 });
  try {
    const numbers = Array.from({ length: 24 }, (_, i) => 100 + i);
    for (const n of numbers) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    // Each may take half, so both really work at the same time.
    const half = ["--limit", String(numbers.length / 2)];
    const [a, b] = await Promise.all([w.sweep(half), w.sweep(half)]);
    assert.equal(a.touches, numbers.length / 2);
    assert.equal(b.touches, numbers.length / 2, "the second Sweep leased the other half");
    // Each item once; the repository came along with the first request of the Sweep that
    // leased first, and with the other's too only if neither lease was first (the other waits
    // for the repository's Sweep, and then finds it stored).
    const written = a.resources_written + b.resources_written - numbers.length;
    assert.ok(written === 1 || written === 2, `each item fetched once (${written} more)`);
    assert.equal(a.requests + b.requests, w.gh.requests().total);
    assert.ok((await w.touches()).every((t) => t.status === "resolved"));
  } finally {
    await w.close();
  }
});

Deno.test("without a configured token, a logged-in gh CLI supplies one for the configured host", async () => {
  const w = await world({ token: null });
  try {
    // A stand-in `gh` that answers only `gh auth token --hostname 127.0.0.1`.
    const bin = `${w.sb.dir}/bin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      `${bin}/gh`,
      `#!/bin/sh\n[ "$*" = "auth token --hostname 127.0.0.1" ] && echo ${w.gh.token} && exit 0\nexit 1\n`,
    );
    await Deno.chmod(`${bin}/gh`, 0o755);
    await w.fetched(`gh issue view 3 -R ${BIG}`);
    const r = await w.sb.rgraph(["sweep", "--json"], {
      env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as SweepSummary;
    assert.equal(s.source, "graphql");
    assert.equal(s.resolved, 1);
    assert.ok(!r.stdout.includes(w.gh.token) && !r.stderr.includes(w.gh.token));
  } finally {
    await w.close();
  }
});

Deno.test("GraphQL rate limit: the rest is unresolved rate_limited, and later Sweeps (after resets) retry and finish", async () => {
  const w = await world({ graphqlLimit: 4 });
  try {
    for (const n of [3, 5, 6]) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    await w.fetched(`gh repo view ${BIG}`);
    await w.fetched(`gh issue list -R ${PY} --limit 5`);
    const first = await w.sweep();
    assert.equal(first.rate_limited, true, JSON.stringify(first));
    assert.ok((first.unresolved.rate_limited ?? 0) > 0, JSON.stringify(first));
    assert.equal(first.pending, 0);
    let left = first.unresolved.rate_limited ?? 0;
    for (let run = 0; left > 0 && run < 5; run++) {
      w.gh.resetBudget();
      const next = await w.sweep();
      assert.equal(next.touches, left, "every rate-limited Touch is taken up again");
      assert.ok(next.resolved > 0, JSON.stringify(next));
      left = (next.unresolved.rate_limited ?? 0) + next.pending;
    }
    const touches = await w.touches();
    assert.ok(touches.every((t) => t.status === "resolved"), JSON.stringify(touches));
  } finally {
    await w.close();
  }
});

Deno.test("with a token, a Listing bigger than the token's whole hourly budget is unresolved rate_limited; small Touches in the same Sweep resolve", async () => {
  // 20 points an hour: all 720 open issues at full depth (8 pages of 4 points) never fit.
  const w = await world({ graphqlLimit: 20 });
  try {
    await w.fetched(`gh issue list -R ${BIG} --state open --limit ${FACTS.big.openIssues}`);
    await w.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`);
    const first = await w.sweep();
    assert.equal(first.source, "graphql");
    assert.deepEqual(first.unresolved, { rate_limited: 1 }, JSON.stringify(first));
    assert.equal(first.resolved, 1);
    assert.equal(first.pending, 0);
    assert.equal(first.rate_limited, false, "the budget did not run out: nothing waits");
    assert.equal(first.budget.limit, 20);
    assert.equal(
      first.errors.filter((e) => /20 an hour.*unresolved rate_limited/.test(e)).length,
      1,
    );
    assert.ok(w.gh.requests().graphql <= 2, "no page of the Listing was fetched");

    const listing = `github:${BIG}/issues?state=open`;
    const touches = await w.touches();
    const big = byAddress(touches, listing);
    assert.equal(big.status, "unresolved");
    assert.equal(big.reason, "rate_limited");
    assert.equal(
      byAddress(touches, `github:${BIG}#${FACTS.big.noComments.number}`).status,
      "resolved",
    );
    const stored = await w.read((st) => st.findListings(FACTS.big.owner, FACTS.big.name, "issues"));
    assert.deepEqual(stored, []);

    // The next Sweep takes it up again but asks GitHub nothing for it (it still cannot fit);
    // a narrower ask is fetched.
    w.gh.resetCounts();
    await w.fetched(`gh issue list -R ${BIG} --state open --limit 100`);
    const second = await w.sweep();
    assert.equal(second.touches, 2, JSON.stringify(second));
    assert.equal(second.resolved, 1, JSON.stringify(second));
    assert.deepEqual(second.unresolved, { rate_limited: 1 });
    // `rgraph touches` lists newest first: the narrower ask of the same Listing comes first.
    const again = (await w.touches()).filter((t) => t.address === listing);
    assert.deepEqual(again.map((t) => [t.status, t.reason]), [
      ["resolved", null],
      ["unresolved", "rate_limited"],
    ]);
    const sent = w.gh.requests().graphql;
    // The budget query, the narrower Listing's one page, and its two long threads' continuations.
    assert.equal(sent, 4, "nothing of the one that cannot fit");
  } finally {
    await w.close();
  }
});

Deno.test("with a token, a budget GitHub reports spent leaves every Touch unresolved rate_limited, retried after the reset", async () => {
  const w = await world({ graphqlLimit: 5 });
  try {
    // Another client of the same token spends the hour first.
    for (let spent = false; !spent;) {
      const res = await fetch(w.gh.graphqlUrl, {
        method: "POST",
        headers: { authorization: `bearer ${w.gh.token}` },
        body: JSON.stringify({ query: "{ viewer { login } }" }),
      });
      const body = await res.json();
      spent = body.errors?.[0]?.type === "RATE_LIMITED";
    }
    for (const n of [3, 5]) await w.fetched(`gh issue view ${n} -R ${BIG}`);
    await w.fetched(`gh issue list -R ${PY} --limit 5`);
    await w.fetched(`gh issue list -R ${BIG} --state open --limit ${FACTS.big.openIssues}`);
    const first = await w.sweep();
    assert.equal(first.rate_limited, true, JSON.stringify(first));
    assert.deepEqual(first.unresolved, { rate_limited: 4 }, JSON.stringify(first));
    assert.equal(first.pending, 0);
    assert.ok(
      (await w.touches()).every((t) => t.status === "unresolved" && t.reason === "rate_limited"),
    );

    w.gh.resetBudget();
    const second = await w.sweep();
    assert.equal(second.touches, 4, "every Touch left rate_limited is taken up");
    const touches = await w.touches();
    for (const t of touches) {
      const big = t.address === `github:${BIG}/issues?state=open`;
      assert.equal(t.status, big ? "unresolved" : "resolved", JSON.stringify(t));
      if (big) assert.equal(t.reason, "rate_limited", "only now is its size known to exceed 5");
    }
  } finally {
    await w.close();
  }
});

Deno.test("search listings (free text, several labels) and pull request listings, at full depth", async () => {
  const w = await world();
  try {
    const phrase = FACTS.big.searchPhrase;
    await w.fetched(`gh issue list -R ${BIG} --search "${phrase.text}" --limit 50`);
    await w.fetched(
      `gh issue list -R ${BIG} --label "${FACTS.big.goodFirstIssue.label}" --limit 100`,
    );
    await w.fetched(`gh pr list -R ${BIG} --state merged --limit 100`);
    const s = await w.sweep();
    assert.equal(s.resolved, 3, JSON.stringify(s));
    const listings = await w.read((st) =>
      st.findListings(FACTS.big.owner, FACTS.big.name, "issues")
    );
    const text = listings.find((l) => l.filters.q !== undefined);
    assert.equal(text?.total_count, phrase.open);
    assert.equal(text?.fully_expanded, true);
    const label = listings.find((l) => l.filters.labels.length === 1);
    assert.equal(label?.member_count, FACTS.big.goodFirstIssue.open);
    const pulls = await w.read((st) => st.findListings(FACTS.big.owner, FACTS.big.name, "pulls"));
    assert.equal(pulls[0]?.member_count, FACTS.big.pulls.merged);
    const members = await w.read((st) => st.listingMembers(pulls[0].key));
    assert.ok(members.every((m) => m.kind === "pull_request" && m.state === "merged"));
  } finally {
    await w.close();
  }
});

Deno.test("a Sweep never fetches what it just fetched: a Listing and its members' Touches cost the Listing's requests alone; a re-fetch after it is revalidated", async () => {
  const list = `gh issue list -R ${PY} --state all --limit 100`;
  const members = Array.from(
    { length: FACTS.pythonClient.openIssues + FACTS.pythonClient.closedIssues },
    (_, i) => i + 1,
  );
  // Reference: the Listing alone, in a world of its own.
  const alone = await world();
  let listingOnly: number;
  try {
    await alone.fetched(list);
    await alone.sweep();
    listingOnly = alone.gh.requests().total;
  } finally {
    await alone.close();
  }

  const w = await world();
  try {
    // As an agent works: list first, then read each member and the repository.
    await w.fetched(list);
    for (const n of members) await w.fetched(`gh issue view ${n} -R ${PY} --comments`);
    await w.fetched(`gh repo view ${PY}`);
    const s = await w.sweep();
    assert.equal(s.resolved, members.length + 2, JSON.stringify(s));
    assert.equal(w.gh.requests().total, listingOnly, "the members and the repository cost nothing");
    assert.equal(s.resources_written, members.length + 1, "each member and the repository once");

    // Touches recorded before an earlier Sweep's fetch are answered by it, too.
    await w.fetched(`gh issue list -R ${BIG} --state open --limit 100`);
    await w.fetched(`gh issue view ${FACTS.big.longThread.number} -R ${BIG} --comments`);
    w.gh.resetCounts();
    const first = await w.sweep(["--limit", "1"]);
    assert.equal(first.touches, 1, "only the Listing, the oldest");
    const listed = w.gh.requests().total;
    const second = await w.sweep();
    assert.equal(second.resolved, 1);
    assert.equal(w.gh.requests().total, listed, "the issue was in the Listing: no request");

    // A real re-fetch after the Sweep's fetch is revalidated: one probe, nothing refetched...
    w.gh.resetCounts();
    await w.fetched(`gh issue view 5 -R ${PY} --comments`);
    const unchanged = await w.sweep();
    assert.equal(w.gh.requests().total, 1, "one updatedAt probe");
    assert.equal(unchanged.resources_written, 0);
    // ...and refetched when GitHub has something new.
    w.gh.addComment(FACTS.pythonClient.owner, FACTS.pythonClient.name, 5, "Fixed on main.");
    w.gh.resetCounts();
    await w.fetched(`gh issue view 5 -R ${PY} --comments`);
    const changed = await w.sweep();
    assert.equal(changed.resources_written, 1);
    assert.equal(w.gh.requests().total, 2, "the probe, then the item");
    const five = await w.read((st) => st.getResource(`github:${PY}#5`)) as ItemResource;
    assert.equal(five.comments.at(-1)?.body, "Fixed on main.");
  } finally {
    await w.close();
  }
});

Deno.test("after a Sweep of only a Listing, the store has its repository, README included", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue list -R ${PY} --limit 5`);
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const repo = (await w.lookup(`github:${PY}`)).resource as RepositoryResource;
    assert.equal(repo?.kind, "repository");
    assert.equal(repo.readme_path, FACTS.pythonClient.readme);
    assert.ok((repo.readme ?? "").length > 20);
    // One page of the Listing with the repository in it, and the README by its name.
    assert.equal(w.gh.requests().total, 2);
  } finally {
    await w.close();
  }
});

Deno.test("a PROMPTED Listing that a stored, broader fully expanded one answers costs no request", async () => {
  const w = await world();
  try {
    await w.fetched(`gh issue list -R ${PY} --state all --limit 100`);
    await w.sweep();
    w.gh.resetCounts();
    await w.prompted(`Triage https://github.com/${PY}/issues?q=is%3Aissue+is%3Aopen+label%3Abug`);
    const s = await w.sweep();
    assert.equal(w.gh.requests().total, 0);
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const t = (await w.touches()).find((x) => x.address.includes("label=bug"));
    assert.equal(t?.target, `github:${PY}/issues?state=all`);
  } finally {
    await w.close();
  }
});

Deno.test("no head-of-line blocking: an old Touch too big for the budget left now waits, newer small ones proceed", async () => {
  const w = await world({ token: null, anonymousLimit: 10 });
  try {
    await w.fetched(`gh issue view ${FACTS.big.longThread.number} -R ${BIG}`);
    await w.sweep(); // spends the issue and its 3 comment pages: 6 of 10 left
    await w.fetched(`gh issue list -R ${PY} --limit 9`); // needs about 10
    await w.fetched(`gh issue view ${FACTS.big.noComments.number} -R ${BIG}`); // needs 1
    const s = await w.sweep();
    assert.equal(s.rate_limited, true);
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const touches = await w.touches();
    const waiting = byAddress(touches, `github:${PY}/issues?state=open`);
    assert.equal(waiting.status, "unresolved");
    assert.equal(waiting.reason, "rate_limited", "visible, and retried by a later Sweep");
    assert.equal(
      byAddress(touches, `github:${BIG}#${FACTS.big.noComments.number}`).status,
      "resolved",
    );
  } finally {
    await w.close();
  }
});

Deno.test("a Listing asked for in full (--paginate) is fetched in full and then answers every-page asks from memory", async () => {
  const w = await world();
  try {
    const command = `gh api --paginate repos/${BIG}/issues --jq '.[].title'`;
    await w.fetched(command);
    const s = await w.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const [listing] = await w.read((st) =>
      st.findListings(FACTS.big.owner, FACTS.big.name, "issues")
    );
    assert.equal(listing.member_count, FACTS.big.openIssues);
    assert.equal(listing.fully_expanded, true);
    const answer = await w.lookup(command);
    assert.equal(answer.outcome, "hit");
  } finally {
    await w.close();
  }
});

Deno.test("a Listing's page writes never hold its next pages back: a slow store overlaps every fetch", async () => {
  const gh = await startEmulator({ latencyMs: 20 });
  const dir = await Deno.makeTempDir();
  const store = openEmbeddedStore(`${dir}/rgraph.db`);
  try {
    const key = listingAddress(FACTS.big.owner, FACTS.big.name, "issues", {}, null).key;
    await store.recordTouches([touch("alice", key, { limit: 1000, session_id: null })]);
    // The first write takes far longer than a request (a remote, busy graph server, say).
    const pages = Math.ceil(FACTS.big.openIssues / 100);
    const answered: number[] = [];
    const slow = new Proxy(store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop !== "putResources") return value.bind(target);
        return async (...args: unknown[]) => {
          // Held until GitHub has answered every page, or 20 s: a Sweep that waited
          // for this write before asking for the next page never gets there.
          const held = Date.now();
          while (
            answered.length === 0 && gh.requests().total < pages && Date.now() - held < 20_000
          ) await new Promise((r) => setTimeout(r, 10));
          await value.apply(target, args);
          answered.push(gh.requests().total);
        };
      },
    });
    gh.resetCounts();
    const github = { token: gh.token, api_url: gh.apiUrl, graphql_url: gh.graphqlUrl };
    const summary = await sweep(slow, () => openSource(github));
    assert.equal(summary.resolved, 1);
    assert.equal(
      summary.resources_written,
      FACTS.big.openIssues + 1,
      "the issues and the repository",
    );
    // GitHub had answered the rest of the Listing by the time its first page was stored;
    // a Sweep that waited for each write would have asked for only one page more.
    assert.ok(answered[0] >= pages, `${answered[0]} requests answered during the first write`);
    assert.equal(
      (await store.getListing(key))?.member_count,
      FACTS.big.openIssues,
      "the Listing waits for its members",
    );
  } finally {
    await store.close();
    await gh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
