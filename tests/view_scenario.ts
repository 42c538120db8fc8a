/**
 * The memory the `rgraph view` tests, screenshots and benchmark look at,
 * built the way a person's fills: real `rgraph hook` processes record two
 * Claude Code sessions' reads (one pasted link, one deleted issue), a real
 * `rgraph sweep` fetches them from the GitHub emulator, and `rgraph lookup`
 * makes Cache Reads (hit, subsumed, miss). Issue #118's author wrote hostile
 * text: a script tag, `javascript:` links, an image with an onerror handler
 * and a bidi override.
 *
 * @example
 * ```ts
 * const w = await viewScenario();
 * await w.sb.rgraph(["touches", "--json"]);
 * await w.close();
 * ```
 * @module
 */

import assert from "node:assert/strict";
import { FACTS } from "./emulator/facts.ts";
import { type World, world } from "./sweep_world.ts";

const BIG = FACTS.big.nameWithOwner;

/** What the hostile issue says; each part must render inert. */
export const HOSTILE = {
  number: 118,
  title: "Planner crash <script>window.__pwned = 'title'</script> \u202Egnp.exe",
  body: [
    "Repro below.",
    "<script>window.__pwned = 'body'</script>",
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    "[click me](javascript:window.__pwned='md')",
    "<a href=\"javascript:window.__pwned='a'\">a link</a>",
    "Filename: \u202Etxt.exe (a right-to-left override)",
  ].join("\n"),
  comment: "<iframe src=\"javascript:window.__pwned='frame'\"></iframe> +1 \u2066isolate\u2069",
  /** A session id as a hostile harness payload could carry it. */
  session: "s-<img src=x onerror=\"window.__pwned='session'\">",
} as const;

/** Records one Claude Code tool call or prompt of `session`. */
export async function hook(w: World, session: string, payload: Record<string, unknown>) {
  const r = await w.sb.rgraph(["hook", "claude-code"], {
    stdin: JSON.stringify({ session_id: session, cwd: w.sb.dir, ...payload }),
  });
  assert.equal(r.code, 0, r.stderr);
}

let call = 0;

/** A Bash call of `command` in `session`. */
export function bash(w: World, session: string, command: string) {
  return hook(w, session, {
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_view_${++call}`,
  });
}

/** The scenario's world, swept, with its Cache Reads made. */
export async function viewScenario(): Promise<World> {
  const w = await world();
  w.gh.editIssue(FACTS.big.owner, FACTS.big.name, HOSTILE.number, {
    title: HOSTILE.title,
    body: HOSTILE.body,
  });
  w.gh.addComment(FACTS.big.owner, FACTS.big.name, HOSTILE.number, HOSTILE.comment, "mallory");
  await bash(w, "s-planner", `gh pr view 610 -R ${BIG}`);
  await bash(w, "s-planner", `gh issue view ${HOSTILE.number} -R ${BIG}`);
  await bash(w, "s-planner", `gh issue view 245 -R ${BIG}`);
  await bash(w, "s-planner", `gh issue view ${FACTS.deleted.number} -R ${BIG}`);
  await hook(w, "s-planner", {
    hook_event_name: "UserPromptSubmit",
    prompt: `Also read https://github.com/${BIG}/issues/42 please`,
  });
  await bash(w, HOSTILE.session, `gh issue view 7 -R ${BIG}`);
  await bash(w, "s-triage", `gh repo view ${BIG}`);
  await bash(
    w,
    "s-triage",
    `gh issue list -R ${BIG} --label "${FACTS.big.goodFirstIssue.label}" --limit 100`,
  );
  await w.sweep();
  // Cache Reads: a hit, a subsumed Listing (narrower than the stored one), a miss.
  assert.equal((await w.lookup("github:lumendb/lumen#610")).outcome, "hit");
  const narrower =
    `gh issue list -R ${BIG} --label "${FACTS.big.goodFirstIssue.label}" --label bug`;
  assert.equal((await w.lookup(narrower)).outcome, "subsumed");
  assert.equal((await w.lookup("github:lumendb/lumen#999")).outcome, "miss");
  return w;
}
