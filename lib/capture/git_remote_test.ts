import assert from "node:assert/strict";
import { join } from "node:path";
import { readGitRemote } from "./git_remote.ts";

const config = (url: string) =>
  `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${url}\n`;

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

Deno.test("readGitRemote reads real repository layouts from disk", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rgraph-git-" });
  try {
    // A clone with a nested working directory.
    const clone = join(root, "clone");
    write(join(clone, ".git", "config"), config("git@github.com:Memgraph/memgraph.git"));
    Deno.mkdirSync(join(clone, "src", "deep"), { recursive: true });

    // A linked worktree: `.git` is a file; config lives in the main repository's git dir.
    const worktree = join(root, "wt");
    write(join(clone, ".git", "worktrees", "wt", "commondir"), "../..\n");
    write(join(worktree, ".git"), `gitdir: ${join(clone, ".git", "worktrees", "wt")}\n`);

    // A submodule: `.git` file with a relative gitdir holding its own config.
    const sub = join(clone, "vendor", "lib");
    write(
      join(clone, ".git", "modules", "vendor", "lib", "config"),
      config("https://github.com/dep/lib"),
    );
    write(join(sub, ".git"), "gitdir: ../../.git/modules/vendor/lib\n");

    const gitlab = join(root, "gitlab");
    write(join(gitlab, ".git", "config"), config("git@gitlab.com:o/r.git"));
    const noOrigin = join(root, "no-origin");
    write(
      join(noOrigin, ".git", "config"),
      '[remote "upstream"]\n\turl = https://github.com/u/r\n',
    );
    const broken = join(root, "broken");
    write(join(broken, ".git"), "not a gitdir line\n");
    const plain = join(root, "plain");
    Deno.mkdirSync(plain);

    const cases: [string, string, string | null][] = [
      ["repository root", clone, "Memgraph/memgraph"],
      ["walks up from a subdirectory", join(clone, "src", "deep"), "Memgraph/memgraph"],
      ["worktree uses the common config", worktree, "Memgraph/memgraph"],
      ["submodule uses its own config", sub, "dep/lib"],
      ["non-GitHub remote", gitlab, null],
      ["no origin remote", noOrigin, null],
      ["unreadable .git file", broken, null],
      ["directory outside any repository", plain, null],
      ["missing directory", join(root, "does-not-exist"), null],
    ];
    for (const [name, dir, expected] of cases) {
      await t.step(name, () => {
        const r = readGitRemote(dir);
        assert.equal(r && `${r.owner}/${r.repo}`, expected);
      });
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
