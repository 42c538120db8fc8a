import assert from "node:assert/strict";
import { hasCredentials, printableUrl } from "./bolt_url.ts";

Deno.test("printableUrl drops every part of the credentials, whatever the password holds", () => {
  const cases: [string, string, string[]][] = [
    ["bolt://neo4j:p@ss/word@db.example:7687", "bolt://db.example:7687", [
      "p@ss",
      "ss/word",
      "word",
    ]],
    ["neo4j+s://alice:Secret@host", "neo4j+s://host", ["alice", "Secret"]],
    ["bolt://u:a:b?c#d@h:1", "bolt://h:1", ["a:b", "?c", "#d"]],
    ["bolt://u:%40x%2Fy@h", "bolt://h", ["%40x"]],
    ["bolt://only-user@h", "bolt://h", ["only-user"]],
    ["bolt://u:@@@@h", "bolt://h", []],
  ];
  for (const [url, printed, absent] of cases) {
    const out = printableUrl(url);
    assert.equal(out, printed, url);
    for (const part of absent) assert.ok(!out.includes(part), `${url} printed ${part}`);
    assert.ok(hasCredentials(url));
  }
});

Deno.test("printableUrl leaves URLs without credentials, and text that is no URL, as they are", () => {
  for (const url of ["bolt://127.0.0.1:7687", "neo4j://db/x", "/home/me/rgraph.db", "a@b"]) {
    assert.equal(printableUrl(url), url);
    assert.ok(!hasCredentials(url));
  }
});
