/**
 * The GitHub emulator behaves like GitHub where rgraph depends on it, and
 * its dataset is what `FACTS` says — checked through the emulator's own HTTP
 * API, as the sweep will see it.
 */

import assert from "node:assert/strict";
import { parse, validate } from "graphql";
import { type Emulator, startEmulator } from "./emulator/mod.ts";
import { FACTS } from "./emulator/facts.ts";
import { buildDataset } from "./emulator/dataset.ts";
import { githubSchema } from "./emulator/schema.ts";

type Json = any;

async function gql(
  gh: Emulator,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = gh.token,
): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(gh.graphqlUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function rest(
  gh: Emulator,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; headers: Headers; text: string }> {
  const res = await fetch(path.startsWith("http") ? path : gh.apiUrl + path, {
    headers,
    redirect: "manual",
  });
  const text = await res.text();
  let body: Json = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch { /* raw media type */ }
  return { status: res.status, body, headers: res.headers, text };
}

const BIG = `owner: "${FACTS.big.owner}", name: "${FACTS.big.name}"`;

/** Pages through a connection at `path` in `query` (which takes `$after`), collecting nodes. */
async function collect(gh: Emulator, query: string, pick: (data: Json) => Json): Promise<Json[]> {
  const out: Json[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const { body } = await gql(gh, query, { after });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const conn = pick(body.data);
    out.push(...conn.nodes);
    if (!conn.pageInfo.hasNextPage) return out;
    after = conn.pageInfo.endCursor;
  }
  throw new Error("connection never ended");
}

Deno.test("emulator: GraphQL answers like GitHub and holds the FACTS dataset", async (t) => {
  const gh = await startEmulator();
  try {
    await t.step("GraphQL needs the token", async () => {
      const none = await gql(gh, "{ viewer { login } }", {}, null);
      assert.equal(none.status, 401);
      assert.match(none.body.message, /requires you to be authenticated/);
      const wrong = await gql(gh, "{ viewer { login } }", {}, "not-the-token");
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.message, "Bad credentials");
      const ok = await gql(gh, "{ viewer { login } }");
      assert.equal(ok.status, 200);
      assert.equal(ok.body.data.viewer.login, FACTS.viewerLogin);
    });

    await t.step(
      "invalid documents are rejected with GitHub's messages, before execution",
      async () => {
        const unknown = await gql(gh, `{ repository(${BIG}) { nameWithOwner starCount } }`);
        assert.equal(unknown.status, 200);
        assert.equal(unknown.body.data, undefined);
        assert.equal(
          unknown.body.errors[0].message,
          "Field 'starCount' doesn't exist on type 'Repository'",
        );
        assert.equal(unknown.body.errors[0].extensions.code, "undefinedField");
        assert.deepEqual(unknown.body.errors[0].path, ["query", "repository", "starCount"]);
        const badArg = await gql(
          gh,
          `{ repository(${BIG}) { issues(first: 1, sort: UPDATED) { totalCount } } }`,
        );
        assert.equal(
          badArg.body.errors[0].message,
          "Field 'issues' doesn't accept argument 'sort'",
        );
        assert.deepEqual(badArg.body.errors[0].path, ["query", "repository", "issues", "sort"]);
        const syntax = await gql(gh, `{ repository(${BIG}) { name `);
        assert.ok(syntax.body.errors[0].message.length > 0);
        assert.equal(syntax.body.data, undefined);
      },
    );

    await t.step("connections need first/last within 1..100", async () => {
      const missing = await gql(gh, `{ repository(${BIG}) { issues { totalCount } } }`);
      assert.equal(missing.body.errors[0].type, "MISSING_PAGINATION_BOUNDARIES");
      assert.equal(
        missing.body.errors[0].message,
        "You must provide a `first` or `last` value to properly paginate the `issues` connection.",
      );
      const tooMany = await gql(
        gh,
        `query($n: Int) { repository(${BIG}) { issues(first: $n) { totalCount } } }`,
        {
          n: 101,
        },
      );
      assert.equal(tooMany.body.errors[0].type, "EXCESSIVE_PAGINATION");
      assert.match(
        tooMany.body.errors[0].message,
        /Requesting 101 records on the `issues` connection/,
      );
    });

    await t.step(
      "rateLimit reports GitHub's cost: connection requests / 100, at least 1",
      async () => {
        const small = await gql(gh, `{ rateLimit { cost limit remaining used resetAt } }`);
        assert.equal(small.body.data.rateLimit.cost, 1);
        assert.equal(small.body.data.rateLimit.limit, 5000);
        assert.ok(Date.parse(small.body.data.rateLimit.resetAt) > Date.now());
        // 1 issues request + 100 comments requests + 100 labels requests = 201 -> 2 points.
        const big = await gql(
          gh,
          `{ rateLimit { cost remaining } repository(${BIG}) { issues(first: 100) { nodes { comments(first: 100) { totalCount } labels(first: 10) { totalCount } } } } }`,
        );
        assert.equal(big.body.data.rateLimit.cost, 2);
        assert.equal(big.headers.get("x-ratelimit-resource"), "graphql");
        assert.equal(
          Number(big.headers.get("x-ratelimit-remaining")),
          big.body.data.rateLimit.remaining,
        );
      },
    );

    await t.step("the big repository has the FACTS counts", async () => {
      const { body } = await gql(
        gh,
        `{ repository(${BIG}) {
            nameWithOwner visibility isPrivate stargazerCount pushedAt description
            open: issues(first: 1, states: OPEN) { totalCount }
            closed: issues(first: 1, states: CLOSED) { totalCount }
            openPulls: pullRequests(first: 1, states: OPEN) { totalCount }
            merged: pullRequests(first: 1, states: MERGED) { totalCount }
            closedPulls: pullRequests(first: 1, states: CLOSED) { totalCount }
            gfi: issues(first: 1, states: OPEN, labels: ["${FACTS.big.goodFirstIssue.label}"]) { totalCount }
            readme: object(expression: "HEAD:README.md") { ... on Blob { text } }
          }
          search(query: "repo:${FACTS.big.nameWithOwner} is:issue is:open ${FACTS.big.searchPhrase.text}", type: ISSUE, first: 20) {
            issueCount nodes { ... on Issue { number title state } }
          } }`,
      );
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const r = body.data.repository;
      assert.equal(r.nameWithOwner, FACTS.big.nameWithOwner);
      assert.equal(r.visibility, "PUBLIC");
      assert.equal(r.isPrivate, false);
      assert.ok(r.open.totalCount >= 700);
      assert.equal(r.open.totalCount, FACTS.big.openIssues);
      assert.equal(r.closed.totalCount, FACTS.big.closedIssues);
      assert.equal(r.openPulls.totalCount, FACTS.big.pulls.open);
      assert.equal(r.merged.totalCount, FACTS.big.pulls.merged);
      assert.equal(r.closedPulls.totalCount, FACTS.big.pulls.closed);
      assert.equal(r.gfi.totalCount, FACTS.big.goodFirstIssue.open);
      assert.match(r.readme.text, /^# lumen/);
      assert.equal(body.data.search.issueCount, FACTS.big.searchPhrase.open);
      for (const n of body.data.search.nodes) {
        assert.match(n.title, /bolt handshake/i);
        assert.equal(n.state, "OPEN");
      }
    });

    await t.step(
      "paging all open issues at full depth: every issue once, comments complete",
      async () => {
        const nodes = await collect(
          gh,
          `query($after: String) { repository(${BIG}) { issues(first: 100, after: $after, states: OPEN, orderBy: {field: UPDATED_AT, direction: DESC}) {
          pageInfo { hasNextPage endCursor }
          nodes { id number updatedAt author { __typename login } comments(first: 100) { totalCount nodes { id author { login } body createdAt } } }
        } } }`,
          (d) => d.repository.issues,
        );
        assert.equal(nodes.length, FACTS.big.openIssues);
        assert.equal(new Set(nodes.map((n) => n.number)).size, nodes.length);
        const times = nodes.map((n) => n.updatedAt);
        assert.deepEqual(times, [...times].sort().reverse(), "ordered by updatedAt, newest first");
        assert.equal(new Set(times).size, times.length, "updatedAt times are distinct");
        const long = nodes.find((n) => n.number === FACTS.big.longThread.number);
        assert.equal(long.comments.totalCount, FACTS.big.longThread.comments);
        assert.equal(long.comments.nodes.length, 100);
        const total = nodes.reduce((s, n) => s + n.comments.totalCount, 0);
        assert.ok(total >= 900, `only ${total} comments on open issues`);
        assert.ok(nodes.every((n) => n.author.__typename === "User"));
      },
    );

    await t.step(
      "the long thread pages to exactly its comment count; the 100-comment one ends in one page",
      async () => {
        const comments = await collect(
          gh,
          `query($after: String) { repository(${BIG}) { issue(number: ${FACTS.big.longThread.number}) {
          comments(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id createdAt } } } } }`,
          (d) => d.repository.issue.comments,
        );
        assert.equal(comments.length, FACTS.big.longThread.comments);
        assert.equal(new Set(comments.map((c) => c.id)).size, comments.length);
        assert.ok(comments.every((c) => c.id.startsWith("IC_kwDO")));
        const { body } = await gql(
          gh,
          `{ repository(${BIG}) {
          exact: issue(number: ${FACTS.big.exactPageThread.number}) { comments(first: 100) { totalCount pageInfo { hasNextPage } } }
          none: issue(number: ${FACTS.big.noComments.number}) { comments(first: 100) { totalCount nodes { id } } }
          ${
            FACTS.big.otherLongThreads.map((x) =>
              `t${x.number}: issue(number: ${x.number}) { state comments(first: 1) { totalCount } }`
            ).join(" ")
          } } }`,
        );
        const r = body.data.repository;
        assert.equal(r.exact.comments.totalCount, 100);
        assert.equal(r.exact.comments.pageInfo.hasNextPage, false);
        assert.equal(r.none.comments.totalCount, 0);
        for (const x of FACTS.big.otherLongThreads) {
          assert.equal(r[`t${x.number}`].comments.totalCount, x.comments);
          assert.equal(r[`t${x.number}`].state, x.state);
        }
      },
    );

    await t.step(
      "pull requests: files, review threads, closing references, draft, closed",
      async () => {
        const p = FACTS.detailedPull;
        const { body } = await gql(
          gh,
          `{ repository(${BIG}) {
          detailed: issueOrPullRequest(number: ${p.number}) { __typename ... on PullRequest {
            id state merged mergedAt baseRefName headRefName isDraft
            files(first: 100) { totalCount nodes { path additions deletions changeType } }
            reviewThreads(first: 100) { totalCount nodes { path line isResolved comments(first: 100) { nodes { id author { login } body createdAt path } } } }
            closingIssuesReferences(first: 10) { nodes { url number repository { nameWithOwner } } }
          } }
          big: pullRequest(number: ${FACTS.bigPull.number}) { files(first: 100) { totalCount pageInfo { hasNextPage } } }
          draft: pullRequest(number: ${FACTS.draftPull.number}) { isDraft state }
          closed: pullRequest(number: ${FACTS.closedPull.number}) { state merged }
        } }`,
        );
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        const d = body.data.repository.detailed;
        assert.equal(d.__typename, "PullRequest");
        assert.ok(d.id.startsWith("PR_kwDO"));
        assert.equal(d.state, p.state);
        assert.equal(d.merged, true);
        assert.equal(d.baseRefName, p.baseRefName);
        assert.equal(d.headRefName, p.headRefName);
        assert.equal(d.files.totalCount, p.files);
        assert.equal(d.reviewThreads.totalCount, p.reviewThreads);
        for (const th of d.reviewThreads.nodes) {
          assert.ok(th.comments.nodes.length >= 1);
          assert.ok(
            th.comments.nodes.every((c: Json) =>
              c.path === th.path && c.id.startsWith("PRRC_kwDO")
            ),
          );
        }
        assert.deepEqual(
          d.closingIssuesReferences.nodes.map((n: Json) => n.number),
          [...p.closes],
        );
        assert.equal(body.data.repository.big.files.totalCount, FACTS.bigPull.files);
        assert.equal(body.data.repository.big.files.pageInfo.hasNextPage, true);
        assert.deepEqual(body.data.repository.draft, { isDraft: true, state: "OPEN" });
        assert.deepEqual(body.data.repository.closed, { state: "CLOSED", merged: false });
        const files = await collect(
          gh,
          `query($after: String) { repository(${BIG}) { pullRequest(number: ${FACTS.bigPull.number}) {
          files(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { path } } } } }`,
          (x) => x.repository.pullRequest.files,
        );
        assert.equal(new Set(files.map((f) => f.path)).size, FACTS.bigPull.files);
      },
    );

    await t.step("every FACTS reference is a cross-reference event on its target", async () => {
      for (const ref of FACTS.references) {
        const { body } = await gql(
          gh,
          `{ repository(owner: "${ref.target.owner}", name: "${ref.target.repo}") { issueOrPullRequest(number: ${ref.target.number}) {
            ... on Issue { timelineItems(first: 100, itemTypes: [CROSS_REFERENCED_EVENT]) { nodes { ...X } } }
            ... on PullRequest { timelineItems(first: 100, itemTypes: [CROSS_REFERENCED_EVENT]) { nodes { ...X } } }
          } } }
          fragment X on CrossReferencedEvent { isCrossRepository willCloseTarget
            source { ... on Issue { number repository { nameWithOwner } } ... on PullRequest { number repository { nameWithOwner } } }
            target { ... on Issue { number } ... on PullRequest { number } } }`,
        );
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        const events = body.data.repository.issueOrPullRequest.timelineItems.nodes;
        const hit = events.find((e: Json) =>
          e.source.number === ref.source.number &&
          e.source.repository.nameWithOwner === `${ref.source.owner}/${ref.source.repo}`
        );
        assert.ok(hit, `no event for ${JSON.stringify(ref)}`);
        assert.equal(hit.target.number, ref.target.number);
        assert.equal(hit.isCrossRepository, ref.isCrossRepository);
        assert.equal(hit.willCloseTarget, ref.kind === "closes");
      }
    });

    await t.step("renamed, transferred, deleted, private, missing", async () => {
      const { body } = await gql(
        gh,
        `{
          old: repository(owner: "${FACTS.renamed.owner}", name: "${FACTS.renamed.oldName}") { id nameWithOwner }
          now: repository(owner: "${FACTS.renamed.owner}", name: "${FACTS.renamed.newName}") { id nameWithOwner object(expression: "HEAD:README.md") { id } }
          priv: repository(owner: "${FACTS.private.owner}", name: "${FACTS.private.name}") { visibility isPrivate issue(number: ${FACTS.private.issueNumber}) { title } }
          moved: repository(owner: "${FACTS.transferred.to.owner}", name: "${FACTS.transferred.to.repo}") { issue(number: ${FACTS.transferred.to.number}) { id number } }
          gone: repository(${BIG}) { issue(number: ${FACTS.transferred.from.number}) { id } }
          deleted: repository(${BIG}) { issueOrPullRequest(number: ${FACTS.deleted.number}) { __typename } }
          missing: repository(owner: "${FACTS.missingRepo.owner}", name: "${FACTS.missingRepo.name}") { id }
        }`,
      );
      const d = body.data;
      assert.equal(d.old.nameWithOwner, `${FACTS.renamed.owner}/${FACTS.renamed.newName}`);
      assert.equal(d.old.id, d.now.id);
      assert.equal(d.now.object, null, "its README is not README.md");
      assert.equal(d.priv.visibility, "PRIVATE");
      assert.equal(d.priv.isPrivate, true);
      assert.ok(d.priv.issue.title);
      assert.equal(d.moved.issue.number, FACTS.transferred.to.number);
      assert.ok(d.moved.issue.id.startsWith("I_kwDO"));
      assert.equal(d.gone.issue, null);
      assert.equal(d.deleted.issueOrPullRequest, null);
      assert.equal(d.missing, null);
      const byPath = new Map<string, Json>(body.errors.map((e: Json) => [e.path.join("."), e]));
      assert.equal(byPath.get("gone.issue").type, "NOT_FOUND");
      assert.equal(
        byPath.get("gone.issue").message,
        `Could not resolve to an Issue with the number of ${FACTS.transferred.from.number}.`,
      );
      assert.equal(byPath.get("deleted.issueOrPullRequest").type, "NOT_FOUND");
      assert.equal(
        byPath.get("missing").message,
        `Could not resolve to a Repository with the name '${FACTS.missingRepo.owner}/${FACTS.missingRepo.name}'.`,
      );
      assert.equal(byPath.size, 3);
    });

    await t.step("node(id) and nodes(ids) resolve ids; unknown ids are NOT_FOUND", async () => {
      const first = await gql(gh, `{ repository(${BIG}) { id issue(number: 1) { id title } } }`);
      const { id: repoId, issue } = first.body.data.repository;
      const { body } = await gql(
        gh,
        `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Issue { title } } }`,
        {
          ids: [repoId, issue.id, "I_kwDOnope"],
        },
      );
      assert.equal(body.data.nodes[0].__typename, "Repository");
      assert.equal(body.data.nodes[1].title, issue.title);
      assert.equal(body.data.nodes[2], null);
      assert.equal(body.errors[0].type, "NOT_FOUND");
      assert.deepEqual(body.errors[0].path, ["nodes", 2]);
    });

    await t.step("the root tree names the README; its blob is found by that name", async () => {
      const { body } = await gql(
        gh,
        `query($expr: String!) { repository(owner: "${FACTS.pythonClient.owner}", name: "${FACTS.pythonClient.name}") {
          root: object(expression: "HEAD:") { ... on Tree { entries { name type } } }
          md: object(expression: "HEAD:README.md") { id }
          readme: object(expression: $expr) { ... on Blob { text } } } }`,
        { expr: `HEAD:${FACTS.pythonClient.readme}` },
      );
      const r = body.data.repository;
      assert.ok(
        r.root.entries.some((e: Json) => e.name === FACTS.pythonClient.readme && e.type === "blob"),
      );
      assert.equal(r.md, null);
      assert.match(r.readme.text, /^# lumen-py/);
    });

    await t.step("review threads are nodes: their comments page by node(id)", async () => {
      const first = await gql(
        gh,
        `{ repository(${BIG}) { pullRequest(number: ${FACTS.detailedPull.number}) { reviewThreads(first: 1) { nodes { id path } } } } }`,
      );
      const thread = first.body.data.repository.pullRequest.reviewThreads.nodes[0];
      assert.ok(thread.id.startsWith("PRRT_kwDO"));
      const { body } = await gql(
        gh,
        `query($id: ID!) { node(id: $id) { ... on PullRequestReviewThread { path comments(first: 100) { nodes { path } } } } }`,
        { id: thread.id },
      );
      assert.equal(body.data.node.path, thread.path);
      assert.ok(body.data.node.comments.nodes.every((c: Json) => c.path === thread.path));
    });

    await t.step("GitHub Enterprise paths: /api/v3 and /api/graphql", async () => {
      const r = await rest(gh, `/api/v3/repos/${FACTS.big.nameWithOwner}`);
      assert.equal(r.body.full_name, FACTS.big.nameWithOwner);
      const res = await fetch(`${gh.apiUrl}/api/graphql`, {
        method: "POST",
        headers: { authorization: `token ${gh.token}` },
        body: JSON.stringify({ query: "{ viewer { login } }" }),
      });
      assert.equal((await res.json()).data.viewer.login, FACTS.viewerLogin);
    });

    await t.step("requests are counted", async () => {
      gh.resetCounts();
      await gql(gh, "{ viewer { login } }");
      await rest(gh, "/rate_limit");
      await rest(gh, `/repos/${FACTS.big.nameWithOwner}`);
      assert.deepEqual(gh.requests(), {
        graphql: 1,
        rest: 2,
        total: 3,
        notModified: 0,
        peakConcurrent: 1,
      });
    });
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: GraphQL points run out with RATE_LIMITED and refill with resetBudget", async () => {
  const gh = await startEmulator({ graphqlLimit: 2 });
  try {
    const q = "{ rateLimit { remaining } }";
    assert.equal((await gql(gh, q)).body.data.rateLimit.remaining, 1);
    assert.equal((await gql(gh, q)).body.data.rateLimit.remaining, 0);
    const limited = await gql(gh, q);
    assert.equal(limited.status, 200);
    assert.equal(limited.body.errors[0].type, "RATE_LIMITED");
    assert.equal(limited.headers.get("x-ratelimit-remaining"), "0");
    gh.resetBudget();
    assert.equal((await gql(gh, q)).body.data.rateLimit.remaining, 1);
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: REST shapes, Link pagination, ETag/304, redirects and gone items", async (t) => {
  const gh = await startEmulator();
  const auth = { authorization: `token ${gh.token}` };
  try {
    await t.step("repository JSON and README under any name", async () => {
      const r = await rest(gh, `/repos/${FACTS.big.nameWithOwner}`, auth);
      assert.equal(r.status, 200);
      assert.equal(r.body.full_name, FACTS.big.nameWithOwner);
      assert.equal(r.body.visibility, "public");
      assert.equal(r.body.private, false);
      const g = await gql(gh, `{ repository(${BIG}) { id } }`);
      assert.equal(r.body.node_id, g.body.data.repository.id);
      const py = await rest(gh, `/repos/${FACTS.pythonClient.nameWithOwner}/readme`, auth);
      assert.equal(py.body.name, FACTS.pythonClient.readme);
      const text = new TextDecoder().decode(
        Uint8Array.from(atob(py.body.content.replace(/\n/g, "")), (c) => c.charCodeAt(0)),
      );
      assert.match(text, /^# lumen-py/);
      const raw = await rest(gh, `/repos/${FACTS.renamed.owner}/${FACTS.renamed.newName}/readme`, {
        ...auth,
        accept: "application/vnd.github.raw",
      });
      assert.match(raw.text, /^# lumen-viz/);
    });

    await t.step("issue lists mix pull requests and paginate with Link", async () => {
      let url: string | null =
        `${gh.apiUrl}/repos/${FACTS.big.nameWithOwner}/issues?state=open&per_page=100`;
      const seen: Json[] = [];
      while (url) {
        const page = await rest(gh, url, auth);
        assert.equal(page.status, 200);
        seen.push(...page.body);
        url = page.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1] ?? null;
      }
      const pulls = seen.filter((x) => x.pull_request);
      assert.equal(pulls.length, FACTS.big.pulls.open);
      assert.equal(seen.length - pulls.length, FACTS.big.openIssues);
      assert.ok(seen.every((x) => x.state === "open" && x.node_id && x.user.login && x.updated_at));
      const first = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues?state=open&per_page=100`,
        auth,
      );
      assert.match(first.headers.get("link")!, /page=8>; rel="last"/);
    });

    await t.step("comments page, and since filters on updated_at", async () => {
      const n = FACTS.big.longThread.number;
      const p3 = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${n}/comments?per_page=100&page=3`,
        auth,
      );
      assert.equal(p3.body.length, FACTS.big.longThread.comments - 200);
      assert.equal(p3.headers.get("link")?.includes('rel="next"'), false);
      const last = p3.body.at(-1);
      const since = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${n}/comments?since=${last.updated_at}`,
        auth,
      );
      assert.ok(since.body.length >= 1);
      assert.ok(since.body.every((c: Json) => c.updated_at >= last.updated_at));
    });

    await t.step("ETag and If-None-Match: 304, free with a token, charged without", async () => {
      const path = `/repos/${FACTS.big.nameWithOwner}/issues/${FACTS.big.noComments.number}`;
      const a = await rest(gh, path, auth);
      const etag = a.headers.get("etag")!;
      assert.match(etag, /^W\/".+"$/);
      const before = Number(a.headers.get("x-ratelimit-remaining"));
      gh.resetCounts();
      const b = await rest(gh, path, { ...auth, "if-none-match": etag });
      assert.equal(b.status, 304);
      assert.equal(Number(b.headers.get("x-ratelimit-remaining")), before);
      assert.equal(gh.requests().notModified, 1);
      assert.equal(gh.requests().rest, 1);
      const anon = await rest(gh, path);
      const anonEtag = anon.headers.get("etag")!;
      assert.notEqual(anonEtag, etag, "ETags differ per token");
      const anonBefore = Number(anon.headers.get("x-ratelimit-remaining"));
      const c = await rest(gh, path, { "if-none-match": anonEtag });
      assert.equal(c.status, 304);
      assert.equal(Number(c.headers.get("x-ratelimit-remaining")), anonBefore - 1);
      gh.addComment(FACTS.big.owner, FACTS.big.name, FACTS.big.noComments.number, "A change.");
      const d = await rest(gh, path, { ...auth, "if-none-match": etag });
      assert.equal(d.status, 200, "a new comment changes the ETag");
      assert.equal(d.body.comments, 1);
    });

    await t.step("301 for the renamed repository and the transferred issue", async () => {
      const old = await rest(
        gh,
        `/repos/${FACTS.renamed.owner}/${FACTS.renamed.oldName}/issues/${FACTS.renamed.issueNumber}`,
      );
      assert.equal(old.status, 301);
      const loc = old.headers.get("location")!;
      assert.match(loc, /\/repositories\/\d+\/issues\/1$/);
      const followed = await rest(gh, loc);
      assert.equal(followed.status, 200);
      assert.equal(
        followed.body.repository_url.endsWith(
          `/repos/${FACTS.renamed.owner}/${FACTS.renamed.newName}`,
        ),
        true,
      );
      const moved = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${FACTS.transferred.from.number}`,
      );
      assert.equal(moved.status, 301);
      const there = await rest(gh, moved.headers.get("location")!);
      assert.equal(there.body.number, FACTS.transferred.to.number);
      assert.ok(
        there.body.repository_url.endsWith(
          `/repos/${FACTS.transferred.to.owner}/${FACTS.transferred.to.repo}`,
        ),
      );
    });

    await t.step("404 for missing and private (anonymous), 410 for the deleted issue", async () => {
      const missing = await rest(gh, `/repos/${FACTS.missingRepo.owner}/${FACTS.missingRepo.name}`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.message, "Not Found");
      const priv = await rest(gh, `/repos/${FACTS.private.owner}/${FACTS.private.name}`);
      assert.equal(priv.status, 404);
      const privWithToken = await rest(
        gh,
        `/repos/${FACTS.private.owner}/${FACTS.private.name}`,
        auth,
      );
      assert.equal(privWithToken.body.visibility, "private");
      const deleted = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${FACTS.deleted.number}`,
      );
      assert.equal(deleted.status, 410);
      const beyond = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${FACTS.missing.number}`,
      );
      assert.equal(beyond.status, 404);
    });

    await t.step(
      "timelines: cross-references from private content only with the token",
      async () => {
        const m = FACTS.private.mentions;
        const path = `/repos/${m.owner}/${m.repo}/issues/${m.number}/timeline?per_page=100`;
        const sources = (body: Json) =>
          body.filter((e: Json) => e.event === "cross-referenced").map((e: Json) =>
            e.source.issue.repository.full_name
          );
        const anon = sources((await rest(gh, path)).body);
        const token = sources((await rest(gh, path, auth)).body);
        const priv = `${FACTS.private.owner}/${FACTS.private.name}`;
        assert.ok(!anon.includes(priv));
        assert.ok(token.includes(priv));
        assert.ok(
          anon.includes(FACTS.pythonClient.nameWithOwner),
          "public cross-repository references stay",
        );
      },
    );

    await t.step("pull request detail: files and review comments with paths", async () => {
      const base = `/repos/${FACTS.big.nameWithOwner}/pulls/${FACTS.detailedPull.number}`;
      const pr = await rest(gh, base, auth);
      assert.equal(pr.body.merged, true);
      assert.equal(pr.body.base.ref, FACTS.detailedPull.baseRefName);
      const files = await rest(gh, `${base}/files?per_page=100`, auth);
      assert.equal(files.body.length, FACTS.detailedPull.files);
      const comments = await rest(gh, `${base}/comments?per_page=100`, auth);
      assert.ok(comments.body.length >= FACTS.detailedPull.reviewThreads);
      assert.ok(
        comments.body.every((c: Json) => files.body.some((f: Json) => f.filename === c.path)),
      );
      const asIssue = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/issues/${FACTS.detailedPull.number}`,
        auth,
      );
      assert.ok(asIssue.body.pull_request);
      const notPull = await rest(
        gh,
        `/repos/${FACTS.big.nameWithOwner}/pulls/${FACTS.big.noComments.number}`,
        auth,
      );
      assert.equal(notPull.status, 404);
    });

    await t.step("search/issues parses the qualifiers", async () => {
      const q = encodeURIComponent(
        `repo:${FACTS.big.nameWithOwner} is:issue is:open label:"${FACTS.big.goodFirstIssue.label}"`,
      );
      const r = await rest(gh, `/search/issues?q=${q}&per_page=100`, auth);
      assert.equal(r.body.total_count, FACTS.big.goodFirstIssue.open);
      assert.equal(r.headers.get("x-ratelimit-resource"), "search");
    });
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: the anonymous budget runs out with GitHub's 403, /rate_limit is free", async () => {
  const gh = await startEmulator({ anonymousLimit: 3 });
  try {
    const path = `/repos/${FACTS.big.nameWithOwner}`;
    for (let i = 0; i < 3; i++) assert.equal((await rest(gh, path)).status, 200);
    const over = await rest(gh, path);
    assert.equal(over.status, 403);
    assert.equal(over.headers.get("x-ratelimit-remaining"), "0");
    assert.ok(Number(over.headers.get("x-ratelimit-reset")) > Date.now() / 1000);
    assert.match(over.body.message, /^API rate limit exceeded for /);
    const limits = await rest(gh, "/rate_limit");
    assert.equal(limits.status, 200);
    assert.equal(limits.body.resources.core.remaining, 0);
    assert.equal(
      (await rest(gh, path, { authorization: `token ${gh.token}` })).status,
      200,
      "the token has its own budget",
    );
    gh.resetBudget();
    assert.equal((await rest(gh, path)).status, 200);
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: latency, injected failures, and edits", async () => {
  const gh = await startEmulator({ latencyMs: 120, warm: true });
  try {
    const t0 = performance.now();
    await gql(gh, "{ viewer { login } }");
    assert.ok(performance.now() - t0 >= 120);
    assert.equal(gh.requests().total, 1, "warming up is not a request");
    gh.setLatency(0);

    gh.failNext(1, 502);
    assert.equal((await gql(gh, "{ viewer { login } }")).status, 502);
    assert.equal((await gql(gh, "{ viewer { login } }")).status, 200);
    gh.failNext(1, "graphql-timeout");
    const timeout = await gql(gh, "{ viewer { login } }");
    assert.match(timeout.body.errors[0].message, /may be the result of a timeout/);
    gh.failNext(1, "reset");
    await assert.rejects(async () => {
      const res = await fetch(`${gh.apiUrl}/rate_limit`);
      await res.text();
    });
    gh.failNext(1, "hang");
    await assert.rejects(() =>
      fetch(`${gh.apiUrl}/rate_limit`, { signal: AbortSignal.timeout(200) })
    );

    const n = FACTS.big.noComments.number;
    const query = `query($since: DateTime) { repository(${BIG}) {
      issue(number: ${n}) { updatedAt title comments(first: 10) { totalCount nodes { body author { login } } } }
      issues(first: 100, filterBy: { since: $since }) { totalCount nodes { number } } } }`;
    const before = (await gql(gh, query, { since: null })).body.data.repository;
    const newest = (await gql(
      gh,
      `{ repository(${BIG}) { issues(first: 1, orderBy: {field: UPDATED_AT, direction: DESC}) { nodes { updatedAt } } } }`,
    )).body.data.repository.issues.nodes[0].updatedAt;
    gh.addComment(FACTS.big.owner, FACTS.big.name, n, "Still seeing this on 1.0.3.", "felix-braun");
    const after = (await gql(gh, query, { since: newest })).body.data.repository;
    assert.ok(after.issue.updatedAt > before.issue.updatedAt);
    assert.equal(after.issue.comments.totalCount, 1);
    assert.deepEqual(after.issue.comments.nodes[0], {
      body: "Still seeing this on 1.0.3.",
      author: { login: "felix-braun" },
    });
    assert.ok(
      after.issues.nodes.some((x: Json) => x.number === n),
      "since finds the changed issue",
    );
    assert.ok(after.issues.totalCount <= 2, "since leaves out issues unchanged since the newest");
    gh.editIssue(FACTS.big.owner, FACTS.big.name, n, { title: "Renamed title", state: "CLOSED" });
    const edited = (await gql(gh, query, { since: after.issue.updatedAt })).body.data.repository;
    assert.equal(edited.issue.title, "Renamed title");
    assert.ok(edited.issue.updatedAt > after.issue.updatedAt);
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: live renames, transfers and deletions behave like GitHub", async () => {
  const gh = await startEmulator();
  try {
    const { owner, newName, oldName } = FACTS.renamed;
    const before = await gql(gh, `{ repository(owner: "${owner}", name: "${newName}") { id } }`);
    gh.renameRepo(owner, newName, "lumen-graph-viz");
    for (const name of [oldName, newName, "lumen-graph-viz"]) {
      const r = await gql(
        gh,
        `{ repository(owner: "${owner}", name: "${name}") { id nameWithOwner } }`,
      );
      assert.deepEqual(r.body.data.repository, {
        id: before.body.data.repository.id,
        nameWithOwner: `${owner}/lumen-graph-viz`,
      });
    }
    assert.equal((await rest(gh, `/repos/${owner}/${newName}`)).status, 301);

    const n = FACTS.big.noComments.number;
    const old = await gql(gh, `{ repository(${BIG}) { issue(number: ${n}) { id title } } }`);
    const py = FACTS.pythonClient;
    const moved = gh.transferIssue(FACTS.big.owner, FACTS.big.name, n, py.owner, py.name);
    assert.equal(moved, FACTS.transferred.to.number + 1);
    const after = await gql(
      gh,
      `query($old: ID!) {
        gone: repository(${BIG}) { issue(number: ${n}) { id } }
        oldId: node(id: $old) { id }
        there: repository(owner: "${py.owner}", name: "${py.name}") { issue(number: ${moved}) { id title url } } }`,
      { old: old.body.data.repository.issue.id },
    );
    assert.equal(after.body.data.gone.issue, null);
    assert.equal(after.body.data.oldId, null);
    assert.ok(after.body.errors.every((e: Json) => e.type === "NOT_FOUND"));
    assert.equal(after.body.data.there.issue.title, old.body.data.repository.issue.title);
    assert.notEqual(after.body.data.there.issue.id, old.body.data.repository.issue.id);
    const redirect = await rest(gh, `/repos/${FACTS.big.nameWithOwner}/issues/${n}`);
    assert.equal(redirect.status, 301);
    assert.equal((await rest(gh, redirect.headers.get("location")!)).body.number, moved);

    gh.deleteIssue(FACTS.big.owner, FACTS.big.name, 1);
    assert.equal((await rest(gh, `/repos/${FACTS.big.nameWithOwner}/issues/1`)).status, 410);
    const deleted = await gql(
      gh,
      `{ repository(${BIG}) { issueOrPullRequest(number: 1) { __typename } } }`,
    );
    assert.equal(deleted.body.errors[0].type, "NOT_FOUND");
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: more requests in flight than maxConcurrent get the secondary-limit 403", async () => {
  const gh = await startEmulator({ latencyMs: 100, maxConcurrent: 3 });
  try {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => rest(gh, `/repos/${FACTS.big.nameWithOwner}`)),
    );
    const limited = answers.filter((a) => a.status === 403);
    assert.equal(limited.length, 3);
    assert.ok(limited.every((a) => a.headers.get("retry-after") === "60"));
    assert.match(limited[0].body.message, /secondary rate limit/);
    assert.equal(gh.requests().peakConcurrent, 6);
  } finally {
    await gh.close();
  }
});

Deno.test("emulator: the dataset is deterministic and realistic", () => {
  const a = buildDataset();
  const b = buildDataset();
  const digest = (ds: ReturnType<typeof buildDataset>) =>
    ds.repos.map((r) =>
      [...r.items.values()].map((i) => `${i.nodeId}|${i.title}|${i.updatedAt}|${i.comments.length}`)
        .join("\n")
    )
      .join("\n");
  assert.equal(digest(a), digest(b));
  const big = a.repo(FACTS.big.owner, FACTS.big.name)!.repo;
  const items = [...big.items.values()];
  assert.ok(items.reduce((s, i) => s + i.comments.length, 0) >= 900);
  assert.ok(items.filter((i) => i.comments.length > 100).length >= 3);
  assert.ok(new Set(items.map((i) => i.title)).size > items.length / 3, "titles vary");
  assert.ok(new Set(items.map((i) => i.author)).size >= 20, "many authors");
  assert.ok(items.every((i) => i.labels.every((l) => big.labels.some((x) => x.name === l))));
  // Cross-references in both directions between issues and pull requests.
  const refs = items.flatMap((i) => i.timeline);
  assert.ok(refs.some((e) => e.source.kind === "issue" && e.target.kind === "pull"));
  assert.ok(refs.some((e) => e.source.kind === "pull" && e.target.kind === "issue"));
  assert.ok(refs.some((e) => e.source.kind === "issue" && e.target.kind === "issue"));
  assert.ok(refs.some((e) => e.source.repo !== e.target.repo));
});

Deno.test("emulator: the schema is GitHub's published one", () => {
  const ok = validate(
    githubSchema(),
    parse(`{ repository(owner: "a", name: "b") { issueOrPullRequest(number: 1) { __typename } } }`),
  );
  assert.equal(ok.length, 0);
  const bad = validate(
    githubSchema(),
    parse(`{ repository(owner: "a", name: "b") { issueCount } }`),
  );
  assert.equal(bad.length, 1);
});

Deno.test("emulator: per-item faults, shaped as GitHub returns them", async (t) => {
  const gh = await startEmulator();
  const [a, b] = [FACTS.big.noComments.number, FACTS.big.otherLongThreads[0].number];
  const both = `query($n0: Int!, $n1: Int!) { repository(${BIG}) {
    i0: issueOrPullRequest(number: $n0) { __typename ... on Issue { number } }
    i1: issueOrPullRequest(number: $n1) { __typename ... on Issue { number } } } }`;
  const vars = { n0: a, n1: b };
  try {
    await t.step("a node error nulls that node only, with type, path and message", async () => {
      gh.faultItem(FACTS.big.owner, FACTS.big.name, b, { kind: "node", type: "INTERNAL" }, 1);
      const { status, body } = await gql(gh, both, vars);
      assert.equal(status, 200);
      assert.deepEqual(body.data.repository.i0, { __typename: "Issue", number: a });
      assert.equal(body.data.repository.i1, null);
      assert.equal(body.errors.length, 1);
      assert.equal(body.errors[0].type, "INTERNAL");
      assert.deepEqual(body.errors[0].path, ["repository", "i1"]);
      assert.equal(typeof body.errors[0].message, "string");
      assert.ok(Array.isArray(body.errors[0].locations));
      // Used up: the next request answers in full; REST never saw it.
      assert.equal((await gql(gh, both, vars)).body.errors, undefined);
      const r = await rest(gh, `/repos/${FACTS.big.nameWithOwner}/issues/${b}`);
      assert.equal(r.status, 200);
    });

    await t.step("an untyped node error has no type", async () => {
      gh.faultItem(FACTS.big.owner, FACTS.big.name, a, { kind: "node", message: "odd" }, 1);
      const { body } = await gql(gh, both, vars);
      assert.deepEqual(Object.keys(body.errors[0]).sort(), ["locations", "message", "path"]);
      assert.equal(body.errors[0].message, "odd");
    });

    await t.step(
      "a request fault fails every request asking for the item, GraphQL and REST",
      async () => {
        gh.faultItem(FACTS.big.owner, FACTS.big.name, b, {
          kind: "request",
          failure: "graphql-timeout",
        });
        for (let i = 0; i < 2; i++) {
          const { status, body } = await gql(gh, both, vars);
          assert.equal(status, 200);
          assert.equal(body.data, null);
          assert.match(body.errors[0].message, /^Something went wrong while executing your query/);
        }
        // A request that does not ask for it is answered.
        const one =
          `query { repository(${BIG}) { issueOrPullRequest(number: ${a}) { __typename } } }`;
        assert.equal((await gql(gh, one)).body.errors, undefined);
        gh.faultItem(FACTS.big.owner, FACTS.big.name, b, { kind: "request", failure: 502 });
        assert.equal((await gql(gh, both, vars)).status, 502);
        assert.equal(
          (await rest(gh, `/repos/${FACTS.big.nameWithOwner}/issues/${b}/comments`)).status,
          502,
        );
        assert.equal((await rest(gh, `/repos/${FACTS.big.nameWithOwner}/issues/${a}`)).status, 200);
        gh.clearFaults();
        assert.equal((await gql(gh, both, vars)).body.errors, undefined);
      },
    );
  } finally {
    await gh.close();
  }
});
