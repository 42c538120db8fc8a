import assert from "node:assert/strict";
import { itemRequests, listingRequests, pages } from "./cost.ts";

Deno.test("ordinary fetch costs: one request per page of 100", () => {
  assert.equal(pages(0), 1);
  assert.equal(pages(100), 1);
  assert.equal(pages(101), 2);
  assert.equal(itemRequests(0), 1);
  assert.equal(itemRequests(100), 2);
  assert.equal(itemRequests(300), 4);
  assert.equal(listingRequests(720), 8 + 720);
});
