/**
 * Unit tests of the GitHub source's pure parts: the boundary decoders,
 * listing plans, README choice, Link parsing, token scrubbing and retries.
 */

import assert from "node:assert/strict";
import { listingAddress } from "../address/key.ts";
import { decode, SchemaDriftError } from "./decode.ts";
import { DEFAULT_RETRY, Limiter, scrub, TransientError, withRetries } from "./http.ts";
import { itemResource, readmeName } from "./map.ts";
import { planListing, searchQuery } from "./queries.ts";
import { nextLink, RestClient } from "./rest.ts";
import { ghHost } from "./token.ts";
import { ItemNode } from "./types.ts";

const page = (nodes: unknown[], more = false) => ({
  pageInfo: { hasNextPage: more, endCursor: more ? "c1" : null },
  nodes,
  totalCount: nodes.length,
});

const PUBLIC = { visibility: "PUBLIC" };
const PRIVATE = { visibility: "PRIVATE" };

function issueJson(overrides: Record<string, unknown> = {}) {
  return {
    __typename: "Issue",
    issueState: "OPEN",
    id: "I_1",
    number: 7,
    title: "Crash",
    body: "It crashes.",
    url: "https://github.com/Acme/Rocket/issues/7",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-02T00:00:00Z",
    closedAt: null,
    author: { login: "ann" },
    repository: { id: "R_1", nameWithOwner: "Acme/Rocket", visibility: "PUBLIC" },
    labels: { nodes: [{ name: "bug" }] },
    assignees: { nodes: [] },
    milestone: null,
    comments: page([{
      id: "IC_1",
      author: null,
      createdAt: "2026-01-01T01:00:00Z",
      updatedAt: "2026-01-01T01:00:00Z",
      body: "same here",
    }]),
    timelineItems: page([
      { source: { url: "https://github.com/Acme/Rocket/pull/9", repository: PUBLIC } },
      { source: { url: "https://github.com/Acme/Rocket/pull/9", repository: PUBLIC } },
      { source: { url: "https://github.com/Acme/Secret/issues/1", repository: PRIVATE } },
      { source: {} },
    ]),
    ...overrides,
  };
}

Deno.test("decoding: a full issue maps to a Resource at its repository's current name", () => {
  const r = itemResource(decode(ItemNode, issueJson()), "2026-02-01T00:00:00Z");
  assert.equal(r.kind, "issue");
  assert.equal(r.address, "github:acme/rocket#7");
  assert.equal(r.state, "open");
  assert.deepEqual(
    r.referenced_by,
    ["https://github.com/Acme/Rocket/pull/9"],
    "one per source, and none from a private repository",
  );
  assert.equal(r.comments[0].author, null, "a deleted user is null, not a crash");
  assert.equal(r.fetched_at, "2026-02-01T00:00:00Z");
});

Deno.test("decoding: schema drift fails loudly with the path of the field", () => {
  assert.throws(
    () => decode(ItemNode, issueJson({ title: 5 }), "repository.i0"),
    (e: unknown) =>
      e instanceof SchemaDriftError && /repository\.i0\.title: expected string/.test(e.message),
  );
  assert.throws(
    () => decode(ItemNode, issueJson({ milestone: undefined })),
    (e: unknown) => e instanceof SchemaDriftError && /\$\.milestone/.test(e.message),
    "a missing field is drift, not null",
  );
  assert.throws(() => decode(ItemNode, issueJson({ __typename: "Discussion" })), SchemaDriftError);
  assert.throws(() => decode(ItemNode, issueJson({ issueState: "LOCKED" })), SchemaDriftError);
});

Deno.test("listing plans: the repository connection only where it filters exactly, search otherwise", () => {
  const plan = (kind: "issues" | "pulls", f: Parameters<typeof listingAddress>[3]) =>
    planListing(listingAddress("o", "r", kind, f, 30));
  assert.equal(plan("issues", {}).via, "issues");
  assert.deepEqual(plan("issues", { labels: ["bug"], author: "a" }), {
    via: "issues",
    states: ["OPEN"],
    labels: ["bug"],
    filterBy: { createdBy: "a" },
  });
  assert.equal(plan("issues", { labels: ["a", "b"] }).via, "search", "GraphQL labels match ANY");
  assert.equal(plan("issues", { milestone: "v1" }).via, "search");
  assert.deepEqual(plan("pulls", { state: "closed" }), {
    via: "pullRequests",
    states: ["CLOSED", "MERGED"],
    labels: null,
  });
  assert.equal(plan("pulls", { assignee: "x" }).via, "search");
  assert.equal(
    searchQuery(
      listingAddress("o", "r", "issues", { labels: ["good first issue"], q: "crash" }, 30),
    ),
    'repo:o/r is:issue is:open label:"good first issue" sort:updated-desc crash',
  );
});

Deno.test("README: the file GitHub would show, whatever its name", () => {
  const blob = (name: string) => ({ name, type: "blob" });
  assert.equal(readmeName([blob("src"), blob("README.rst"), blob("readme.md")]), "readme.md");
  assert.equal(readmeName([blob("README"), blob("LICENSE")]), "README");
  assert.equal(readmeName([{ name: "readme", type: "tree" }, blob("main.go")]), null);
});

Deno.test("Link: the next page, or none", () => {
  assert.equal(
    nextLink(
      '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"',
    ),
    "https://api.github.com/x?page=2",
  );
  assert.equal(nextLink('<https://api.github.com/x?page=1>; rel="prev"'), null);
  assert.equal(nextLink(null), null);
});

Deno.test("the token never survives into a message; gh is asked only about the configured host", () => {
  assert.equal(scrub("bad ghp_abc in ghp_abc", "ghp_abc"), "bad [token] in [token]");
  assert.equal(scrub("nothing", null), "nothing");
  assert.equal(ghHost("https://api.github.com"), "github.com");
  assert.equal(ghHost("https://ghe.corp.example/api/v3"), "ghe.corp.example");
  assert.equal(ghHost("not a url"), null);
});

Deno.test("retries: transient failures are retried with backoff, others are not", async () => {
  let calls = 0;
  const fast = { ...DEFAULT_RETRY, baseMs: 1 };
  const v = await withRetries(() => {
    if (++calls < 3) throw new TransientError("502");
    return Promise.resolve("ok");
  }, fast);
  assert.equal(v, "ok");
  assert.equal(calls, 3);
  calls = 0;
  await assert.rejects(
    () => withRetries(() => (calls++, Promise.reject(new Error("bug"))), fast),
    /bug/,
  );
  assert.equal(calls, 1);
  await assert.rejects(
    () => withRetries(() => Promise.reject(new TransientError("down")), fast),
    TransientError,
  );
});

Deno.test("the limiter never runs more than its bound at once", async () => {
  const limiter = new Limiter(2);
  let active = 0, peak = 0;
  await Promise.all(Array.from({ length: 8 }, () =>
    limiter.run(async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
    })));
  assert.equal(peak, 2);
});

Deno.test("REST: a redirect to another origin is followed without the token", async () => {
  const seen: Record<string, string | null> = {};
  const serve = (name: string, handler: (req: Request) => Response) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      seen[`${name} ${new URL(req.url).pathname}`] = req.headers.get("authorization");
      return handler(req);
    });
  const json = () => Response.json({ ok: true }, { headers: { "x-ratelimit-remaining": "59" } });
  const other = serve("other", json);
  const otherUrl = `http://127.0.0.1:${other.addr.port}`;
  const api = serve("api", (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/away") return Response.redirect(`${otherUrl}/there`, 301);
    if (path === "/moved") {
      return new Response(null, { status: 301, headers: { location: "/here" } });
    }
    return json();
  });
  try {
    const client = new RestClient({
      apiUrl: `http://127.0.0.1:${api.addr.port}`,
      token: "secret-token",
      limiter: new Limiter(2),
    });
    assert.equal((await client.get("/moved")).status, 200);
    assert.equal((await client.get("/away")).status, 200);
    assert.deepEqual(seen, {
      "api /moved": "bearer secret-token",
      "api /here": "bearer secret-token",
      "api /away": "bearer secret-token",
      "other /there": null,
    });
  } finally {
    await api.shutdown();
    await other.shutdown();
  }
});
