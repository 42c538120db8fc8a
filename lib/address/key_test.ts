import assert from "node:assert/strict";
import { itemAddress, listingAddress, parseKey, repositoryAddress, shortName } from "./key.ts";

Deno.test("keys lowercase owner and repository", () => {
  assert.equal(repositoryAddress("Memgraph", "MemGraph").key, "github:memgraph/memgraph");
  assert.equal(itemAddress("Memgraph", "memgraph", 123).key, "github:memgraph/memgraph#123");
});

Deno.test("listing keys: alphabetical filters, normalised labels, state always present", () => {
  const rows: [Parameters<typeof listingAddress>[3], string][] = [
    [{}, "state=open"],
    [{ state: "all" }, "state=all"],
    [{ labels: ["Bug", "bug", " area/query "] }, "label=area%2Fquery,bug&state=open"],
    [
      { author: "@Alice", assignee: "Bob", milestone: "v2.1", q: "  crash   on\tstartup " },
      "assignee=bob&author=alice&milestone=v2.1&q=crash%20on%20startup&state=open",
    ],
    [{ labels: ["good first issue"], state: "closed" }, "label=good%20first%20issue&state=closed"],
  ];
  for (const [filters, query] of rows) {
    const a = listingAddress("o", "r", "issues", filters, 50);
    assert.equal(a.key, `github:o/r/issues?${query}`);
    assert.equal(a.limit, 50, "limit is beside the key");
  }
});

Deno.test("merged is a pulls state; on issues it means closed", () => {
  assert.equal(
    listingAddress("o", "r", "pulls", { state: "merged" }, null).key,
    "github:o/r/pulls?state=merged",
  );
  assert.equal(
    listingAddress("o", "r", "issues", { state: "merged" }, null).key,
    "github:o/r/issues?state=closed",
  );
});

Deno.test("parseKey round-trips every key form", () => {
  const addresses = [
    repositoryAddress("o", "r"),
    itemAddress("o", "r.js", 7),
    listingAddress(
      "o",
      "r",
      "pulls",
      { labels: ["a,b", "c d"], author: "x", q: "50% & more" },
      null,
    ),
  ];
  for (const a of addresses) {
    assert.deepEqual(parseKey(a.key), a);
  }
});

Deno.test("parseKey rejects what is not a canonical key", () => {
  for (
    const text of [
      "",
      "o/r",
      "github:o",
      "github:o/r#0",
      "github:o/r#99999999999999999999",
      "github:o/r/issues?color=red",
      "github:o/r/issues?state=weird",
      "gitlab:o/r",
      "github:o/r/wiki",
    ]
  ) {
    assert.equal(parseKey(text), null, text);
  }
});

Deno.test("shortName is what people read", () => {
  assert.equal(shortName(itemAddress("o", "r", 5)), "o/r#5");
  assert.equal(shortName(listingAddress("o", "r", "issues", {}, 5)), "o/r/issues?state=open");
});

Deno.test("@me never enters a shared key: parseKey refuses it, @alice is alice", () => {
  for (
    const text of ["github:a/b/issues?author=@me&state=open", "github:a/b/issues?assignee=%40ME"]
  ) {
    assert.equal(parseKey(text), null, text);
  }
  assert.equal(
    parseKey("github:a/b/issues?author=%40alice")?.key,
    "github:a/b/issues?author=alice&state=open",
  );
});
