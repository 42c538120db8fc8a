import assert from "node:assert/strict";
import type { CapturePolicy } from "../config/load.ts";
import { exclusion, visiblePrompt } from "./policy.ts";

const NONE: CapturePolicy = {
  exclude_paths: [],
  exclude_harnesses: [],
  exclude_tools: [],
  prompts: true,
};

Deno.test("exclusion: on path boundaries, the root covers everything, a relative cwd is the hook's", () => {
  const policy = { ...NONE, exclude_paths: ["/nonexistent/work/client-x"] };
  const at = (cwd: string | null) => exclusion(policy, { cwd, harness: "codex" });
  assert.equal(at("/nonexistent/work/client-x"), "path");
  assert.equal(at("/nonexistent/work/client-x/src/"), "path");
  assert.equal(at("/nonexistent/work//client-x/../client-x/src"), "path");
  assert.equal(at("/nonexistent/work/client-xyz"), null);
  assert.equal(at("/nonexistent/work"), null);
  assert.equal(exclusion({ ...NONE, exclude_paths: ["/"] }, { cwd: "/a", harness: null }), "path");
  const here = { ...NONE, exclude_paths: [Deno.cwd()] };
  assert.equal(exclusion(here, { cwd: "sub/dir", harness: null }), "path");
  assert.equal(exclusion(here, { cwd: null, harness: null }), "path");
});

Deno.test("exclusion: harness and tool names compare ignoring case; the first rule that applies is named", () => {
  const policy: CapturePolicy = {
    ...NONE,
    exclude_harnesses: ["cursor"],
    exclude_tools: ["webfetch"],
    exclude_paths: ["/nonexistent/x"],
  };
  assert.equal(exclusion(policy, { cwd: "/nonexistent/x", harness: "Cursor" }), "harness");
  assert.equal(exclusion(policy, { cwd: "/y", harness: "codex", tool: "WebFetch" }), "tool");
  assert.equal(exclusion(policy, { cwd: "/y", harness: "codex", tool: "WebFetchX" }), null);
  assert.equal(exclusion(NONE, { cwd: "/y", harness: "cursor", tool: "webfetch" }), null);
});

Deno.test("visiblePrompt: private blocks become a space; unclosed hides the rest; blocks nest", () => {
  assert.equal(visiblePrompt("a <private>b</private> c"), "a   c");
  assert.equal(visiblePrompt("a <Private >b</ PRIVATE> c"), "a   c");
  assert.equal(visiblePrompt("a <private>b"), "a  ");
  assert.equal(visiblePrompt("<private>1<private>2</private>3</private>4"), " 4");
  assert.equal(visiblePrompt("a </private> b"), "a </private> b");
  assert.equal(visiblePrompt("no tags"), "no tags");
});
