import assert from "node:assert/strict";
import { githubRepoOfRemote, originUrl } from "./remote.ts";

const REMOTES: [string, string | null][] = [
  ["https://github.com/memgraph/memgraph.git", "memgraph/memgraph"],
  ["https://github.com/memgraph/memgraph", "memgraph/memgraph"],
  ["https://github.com/memgraph/memgraph/", "memgraph/memgraph"],
  ["http://github.com/o/r", "o/r"],
  ["https://x-access-token:secret@github.com/o/r.git", "o/r"],
  ["https://www.github.com/o/r.git", "o/r"],
  ["git@github.com:Octo-Org/Hello.World.git", "Octo-Org/Hello.World"],
  ["git@github.com:o/r", "o/r"],
  ["github.com:o/r.git", "o/r"],
  ["ssh://git@github.com/o/r.git", "o/r"],
  ["ssh://git@github.com:22/o/r", "o/r"],
  ["git+ssh://git@github.com/o/r.git", "o/r"],
  ["git://github.com/o/r.git", "o/r"],
  ["https://gitlab.com/o/r.git", null],
  ["git@gitlab.com:o/r.git", null],
  ["git@github-work:o/r.git", null],
  ["https://github.example.com/o/r.git", null],
  ["https://github.com/o", null],
  ["https://github.com/o/r/extra", null],
  ["/srv/git/r.git", null],
  ["../r.git", null],
  ["file:///srv/git/r.git", null],
  ["", null],
];

Deno.test("githubRepoOfRemote: https, ssh, scp-like and git forms; other hosts null", async (t) => {
  for (const [url, expected] of REMOTES) {
    await t.step(url || "(empty)", () => {
      const r = githubRepoOfRemote(url);
      assert.equal(r && `${r.owner}/${r.repo}`, expected);
    });
  }
});

const CONFIGS: [string, string, string | null][] = [
  [
    "plain",
    '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    "git@github.com:o/r.git",
  ],
  [
    "origin after another remote",
    '[remote "upstream"]\n\turl = https://github.com/up/r\n[remote "origin"]\n\turl = https://github.com/me/r\n',
    "https://github.com/me/r",
  ],
  ["no origin", '[remote "upstream"]\n\turl = https://github.com/up/r\n', null],
  [
    "url of a later section is not origin's",
    '[remote "origin"]\n\tfetch = x\n[branch "main"]\n\turl = nope\n',
    null,
  ],
  [
    "case-insensitive section and key, spaces",
    '[Remote "origin"]\n  URL=https://github.com/o/r\n',
    "https://github.com/o/r",
  ],
  [
    "quoted value",
    '[remote "origin"]\n\turl = "https://github.com/o/r"\n',
    "https://github.com/o/r",
  ],
  ["subsection is case-sensitive", '[remote "Origin"]\n\turl = https://github.com/o/r\n', null],
  ["CRLF", '[remote "origin"]\r\n\turl = https://github.com/o/r\r\n', "https://github.com/o/r"],
  ["empty", "", null],
];

Deno.test('originUrl: the url of [remote "origin"]', async (t) => {
  for (const [name, config, expected] of CONFIGS) {
    await t.step(name, () => assert.equal(originUrl(config), expected));
  }
});
