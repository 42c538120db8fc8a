/**
 * Answer benchmark (issue 29): what an answer from memory costs a model's
 * context. Four subjects are stored in a real embedded store — a 250-comment
 * issue thread, a pull request with 150 changed files, the 689-member
 * open-issues listing and a repository with its README — and every page of
 * each is read through `answer()` (the text `rgraph lookup` prints and the
 * `resource` tool returns). Its bytes are set against the plainest rendering
 * of the same facts, one fact a line, and against an approximation of what
 * `gh` prints for the same data (see `_answer_cost.ts`), both written in
 * this run from the stored Resources.
 *
 * Target: every answer ≤ 1.15× the plain rendering (before: 1.65×, 1.41×, 1.41×).
 *
 * @module
 */

import { sandbox } from "../helpers.ts";
import { openEmbeddedStore } from "../../lib/store/mod.ts";
import { answer } from "../../lib/serve/answer.ts";
import { parseKey } from "../../lib/address/mod.ts";
import { estimatedTokens } from "../../lib/serve/pages.ts";
import {
  bytes,
  ghItem,
  ghListing,
  ghRepository,
  longThread,
  plainItem,
  plainListing,
  plainRepository,
  readmeRepo,
  seedSubjects,
  widePull,
} from "./_answer_cost.ts";
import { FETCHED_AT } from "../fixtures_memory.ts";

const TARGET = 1.15;
const O = "memgraph", R = "memgraph";

/** Every page of `key`'s answer, as `lookup` prints them (a line break after each). */
async function pagesOf(store: ReturnType<typeof openEmbeddedStore>, key: string) {
  const address = parseKey(key)!;
  const pages: string[] = [];
  for (let page = 1;; page++) {
    const a = await answer(store, address, { userId: "bench", now: new Date(), page });
    if (!/^rgraph: (hit|subsumed) /.test(a.text)) throw new Error(a.text.split("\n")[0]);
    if (a.text.includes(`page ${page} does not exist`)) throw new Error(`${key}: no page ${page}`);
    pages.push(`${a.text}\n`);
    const of = /\bpage \d+ of (\d+)\b/.exec(a.text);
    if (!of || page >= Number(of[1])) return pages;
  }
}

const sb = await sandbox();
const store = openEmbeddedStore(sb.dbPath);
await seedSubjects(store, O, R);

const listingKey = `github:${O}/${R}/issues?state=open`;
// The listing's rows as the store holds them: the facts its answer is made from.
const members = await store.listingMembers(listingKey);
const subjects = [
  {
    name: "a 250-comment issue thread",
    key: `github:${O}/${R}#4242`,
    plain: plainItem(longThread(O, R)),
    gh: ghItem(longThread(O, R)),
  },
  {
    name: "a pull request with 150 changed files",
    key: `github:${O}/${R}#4300`,
    plain: plainItem(widePull(O, R)),
    gh: ghItem(widePull(O, R)),
  },
  {
    name: "the 689-row open-issues listing",
    key: listingKey,
    plain: plainListing(listingKey, FETCHED_AT, members),
    gh: ghListing(members),
  },
  {
    name: "a repository with its README",
    key: `github:${O}/${R}`,
    plain: plainRepository(readmeRepo(O, R)),
    gh: ghRepository(readmeRepo(O, R)),
  },
];

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  "answer".padEnd(40) + "pages".padStart(6) + "largest".padStart(16) + "rgraph".padStart(10) +
    "plain".padStart(10) + "gh".padStart(10) + "÷ plain".padStart(9) + "÷ gh".padStart(8),
);
const over: string[] = [];
for (const s of subjects) {
  const pages = await pagesOf(store, s.key);
  const total = pages.reduce((n, p) => n + bytes(p), 0);
  const largest = Math.max(...pages.map(estimatedTokens));
  const plain = bytes(s.plain), gh = bytes(s.gh);
  const ratio = total / plain;
  if (ratio > TARGET) over.push(s.name);
  console.log(
    s.name.padEnd(40) + String(pages.length).padStart(6) +
      `~${largest} tokens`.padStart(16) + kb(total).padStart(10) + kb(plain).padStart(10) +
      kb(gh).padStart(10) + `${ratio.toFixed(2)}×`.padStart(9) +
      `${(total / gh).toFixed(2)}×`.padStart(8),
  );
}
console.log(
  `target: each ≤ ${TARGET}× the plain rendering (one fact a line, from the same stored facts); ` +
    "gh: an approximation of gh's piped output, not gh itself",
);
await store.close();
await sb.cleanup();
if (over.length) {
  console.log(`OVER TARGET: ${over.join(", ")}`);
  Deno.exit(1);
}
