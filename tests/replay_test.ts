/**
 * rgraph against real GitHub answers: `@octokit/fixtures` 23.1.2's recorded
 * api.github.com exchanges, replayed by `tests/replay/server.ts` to real
 * `rgraph hook`, `sweep`, `touches`, `lookup` and `status` processes
 * without a token (the REST source). What the recordings do not hold (the
 * threads of the listed issues, say) GitHub would answer; the replay
 * answers 404, which rgraph must treat as a list not read to its end.
 */

import assert from "node:assert/strict";
import { startReplay } from "./replay/server.ts";
import { type Sandbox, sandbox } from "./helpers.ts";
import { type Commands, commands } from "./sweep_world.ts";
import type { RepositoryResource } from "../lib/types.ts";

const ORG = "octokit-fixture-org";

/** Recorded answers of one scenario, and a sandbox whose config points at them. */
async function replaying<T>(
  scenario: string,
  fn: (run: Commands & { sb: Sandbox }, log: () => string[]) => Promise<T>,
): Promise<T> {
  const replay = await startReplay([scenario]);
  const sb = await sandbox({
    extra: `[github]\napi_url = "${replay.apiUrl}"\ngraphql_url = "${replay.apiUrl}/graphql"\n`,
  });
  try {
    return await fn({ sb, ...commands(sb) }, replay.log);
  } finally {
    await replay.close();
    await sb.cleanup();
  }
}

Deno.test("replayed get-repository: the repository is stored as GitHub answered it, and asked again it is revalidated with a 304", async () => {
  await replaying("get-repository", async (run, log) => {
    await run.fetched(`gh repo view ${ORG}/hello-world`);
    const s = await run.sweep();
    assert.equal(s.resolved, 1, JSON.stringify(s));
    const found = await run.lookup(`github:${ORG}/hello-world`);
    assert.equal(found.outcome, "hit");
    const repo = found.resource as RepositoryResource;
    assert.equal(repo.node_id, "MDA6RW50aXR5MQ==");
    assert.equal(repo.stars, 42);
    assert.equal(repo.readme, null, "GitHub's 404 for its README: it has none recorded");
    assert.equal((await run.touches())[0].target, `github:${ORG}/hello-world`);

    await run.fetched(`gh repo view ${ORG}/hello-world`);
    const again = await run.sweep();
    assert.deepEqual([again.resolved, again.resources_written], [1, 0]);
    assert.ok(log().includes(`GET /repos/${ORG}/hello-world 304`), log().join("\n"));
  });
});

Deno.test("replayed rename-repository: GitHub's 301 is followed, and the old name answers with the repository under its new one", async () => {
  await replaying("rename-repository", async (run, log) => {
    await run.fetched(`gh repo view ${ORG}/rename-repository`);
    assert.equal((await run.sweep()).resolved, 1);
    assert.deepEqual(log().slice(0, 2), [
      `GET /repos/${ORG}/rename-repository 301`,
      "GET /repositories/1000 200",
    ]);
    const old = await run.lookup(`github:${ORG}/rename-repository`);
    assert.equal(old.outcome, "hit");
    assert.equal(
      (old.resource as RepositoryResource).address,
      `github:${ORG}/rename-repository-newname`,
    );
    assert.equal((await run.touches())[0].target, `github:${ORG}/rename-repository-newname`);
  });
});

Deno.test("replayed paginate-issues: every Link page is followed in order, and issues whose 42 comments cannot be read are not stored as threads of none", async () => {
  await replaying("paginate-issues", async (run, log) => {
    await run.fetched(`gh issue list -R ${ORG}/paginate-issues --limit 100`);
    const key = (await run.touches())[0].address;
    const s = await run.sweep();
    const pages = log().filter((l) => /\/issues\?/.test(l)).map((l) => {
      const [, at, status] = l.split(" ");
      const url = new URL(at, "http://x");
      return `${url.pathname} page ${url.searchParams.get("page") ?? 1} ${status}`;
    });
    assert.deepEqual(pages, [
      `/repos/${ORG}/paginate-issues/issues page 1 200`,
      "/repositories/1000/issues page 2 200",
      "/repositories/1000/issues page 3 200",
      "/repositories/1000/issues page 4 200",
      "/repositories/1000/issues page 5 200",
    ]);
    // The threads are not in the recording: a list GitHub did not serve is not stored as empty.
    assert.ok(log().some((l) => /\/issues\/\d+\/comments\?per_page=100 404$/.test(l)));
    assert.deepEqual([s.resolved, s.pending], [0, 1]);
    assert.ok(s.incomplete.includes(key), JSON.stringify(s.incomplete));
    assert.equal((await run.touches())[0].status, "pending");
    assert.equal((await run.lookup(key)).outcome, "miss");
    assert.equal((await run.lookup(`github:${ORG}/paginate-issues#13`)).outcome, "miss");
  });
});

Deno.test("replayed search-issues: the search answer's X-RateLimit-Resource budget is the search one, shown apart by sweep --json and status", async () => {
  await replaying("search-issues", async (run, log) => {
    await run.fetched(`gh issue list -R ${ORG}/search-issues --search sesame`);
    const s = await run.sweep();
    assert.ok(log().some((l) => /^GET \/search\/issues\?q=.* 200$/.test(l)), log().join("\n"));
    assert.deepEqual(s.budgets.search, {
      remaining: 29,
      limit: 30,
      reset_at: s.budgets.search?.reset_at,
    });
    assert.equal(s.budgets.core, undefined, "a search says nothing of core");
    assert.notEqual(s.budget.limit, 30, "the main budget is not the search one");
    const status = await run.sb.rgraph(["status"]);
    const lines = status.stdout.split("\n").filter((l) => l.startsWith("GitHub budget"));
    console.log(`replay, status after a search:\n${lines.join("\n")}`);
    assert.ok(lines.some((l) => l.startsWith("GitHub budget search: 29 of 30 REST searches left")));
  });
});
