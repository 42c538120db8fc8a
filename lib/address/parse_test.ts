import assert from "node:assert/strict";
import fc from "fast-check";
import type { Address } from "../types.ts";
import {
  addressesFromPrompt,
  addressesFromToolCall,
  parseAddress,
  type ParseContext,
} from "./parse.ts";

/** `/work/app` is a clone of acme/app; `/work/other` is not a GitHub repository. */
const REPOS: Record<string, { owner: string; repo: string }> = {
  "/work/app": { owner: "acme", repo: "App" },
};
const ctxOf = (cwd: string | null, githubLogin: string | null = "alice"): ParseContext => ({
  cwd,
  githubLogin,
  repoOfCwd: (dir) => REPOS[dir] ?? null,
});
const CTX = ctxOf("/work/app");

/** An Address as the tests spell it: the key, plus the limit for listings. */
function show(a: Address): string {
  return a.kind === "listing" ? `${a.key} limit=${a.limit}` : a.key;
}

type Row = [input: string, expected: string[], ctx?: ParseContext];

const SHELL: Row[] = [
  // gh issue/pr view
  ["gh issue view 5", ["github:acme/app#5"]],
  ["gh issue view '#5'", ["github:acme/app#5"]],
  ['gh issue view "#5" --comments', ["github:acme/app#5"]],
  // Unquoted `#` starts a shell comment: gh gets no argument and fails.
  ["gh issue view #5", []],
  ["gh issue view 5 -R o/r", ["github:o/r#5"]],
  ["gh issue view 5 --repo o/r", ["github:o/r#5"]],
  ["gh issue view 5 --repo=Octo-Org/Some.Repo", ["github:octo-org/some.repo#5"]],
  ["gh issue view -Ro/r 5", ["github:o/r#5"]],
  ["gh issue -R o/r view 5", []],
  ["gh issue view 5 -R github.com/o/r", ["github:o/r#5"]],
  ["gh issue view 5 -R https://github.com/o/r", ["github:o/r#5"]],
  ["gh issue view 5 -R ghe.example.com/o/r", []],
  ["gh issue view 5 -R not-a-repo", []],
  ["gh issue view https://github.com/o/r/issues/9 --comments", ["github:o/r#9"]],
  ["gh pr view https://github.com/o/r/pull/9", ["github:o/r#9"]],
  ["gh pr view 42 -R o/r --json title,body,comments -q .title", ["github:o/r#42"]],
  ["gh pr view 42 -R o/r --json title --template '{{.title}}'", ["github:o/r#42"]],
  ["gh pr view 42 -R o/r -t '{{.title}}'", ["github:o/r#42"]],
  ["gh issue view 3 --web", ["github:acme/app#3"]],
  ["gh issue view 3 -w", ["github:acme/app#3"]],
  ["gh pr view", []],
  ["gh pr view my-feature-branch", []],
  ["gh pr view 42 --help", []],
  ["gh pr diff 42 -R o/r", ["github:o/r#42"]],
  ["gh pr diff 42 -R o/r --name-only", ["github:o/r#42"]],
  ["gh issue view 5 --bogus-flag", []],
  ["gh issue view 5 6", []],
  // repository from the environment and the working directory
  ["GH_REPO=o/r gh issue view 3", ["github:o/r#3"]],
  ["export GH_REPO=o/r && gh issue view 3", ["github:o/r#3"]],
  ["export GH_REPO=o/r; unset GH_REPO; gh issue view 3", ["github:acme/app#3"]],
  ["GH_REPO=$R gh issue view 3", []],
  ["GH_HOST=ghe.corp gh issue view 3", []],
  ["env GH_REPO=o/r gh issue view 3", ["github:o/r#3"]],
  // gh puts an -R or GH_REPO without a host on GH_HOST
  ["GH_HOST=ghe.corp.com gh issue view 42 -R a/b", []],
  ["GH_HOST=ghe.corp.com GH_REPO=a/b gh issue view 42", []],
  ["export GH_HOST=ghe.corp.com; gh pr list -R a/b", []],
  ["GH_HOST=$H gh issue view 42 -R a/b", []],
  ["GH_HOST=ghe.corp.com gh issue view 42 -R github.com/a/b", ["github:a/b#42"]],
  ["GH_HOST=ghe.corp.com gh issue view https://github.com/a/b/issues/42", ["github:a/b#42"]],
  ["GH_HOST=GitHub.com gh issue view 42 -R a/b", ["github:a/b#42"]],
  ["GH_HOST=ghe.corp.com gh repo view a/b", []],
  ["GH_HOST=ghe.corp.com gh repo view app", []],
  ["GH_HOST=ghe.corp.com gh api repos/a/b/issues/42", []],
  ["GH_HOST=ghe.corp.com gh api --hostname github.com repos/a/b/issues/42", ["github:a/b#42"]],
  ["GH_HOST=ghe.corp.com gh search issues crash --repo a/b", []],

  ["gh issue view 3", [], ctxOf("/work/other")],
  ["gh issue view 3", [], ctxOf(null)],
  ["cd /work/app && gh issue view 3", ["github:acme/app#3"], ctxOf(null)],
  ["cd ../other && gh issue view 3", []],
  ["cd /work/other/../app && gh issue view 3", ["github:acme/app#3"], ctxOf("/tmp")],
  ["cd ~/app && gh issue view 3", []],
  ["cd $DIR && gh issue view 3", []],
  ["(cd /work/other) && gh issue view 3", ["github:acme/app#3"]],
  ["(cd /work/other && gh issue view 3)", []],
  // arguments that need expansion
  ["gh issue view $N -R o/r", []],
  ['gh issue view "$(cat n.txt)" -R o/r', []],
  ["gh issue view `cat n.txt` -R o/r", []],
  ["gh issue view ${N} -R o/r", []],
  ["for n in 1 2 3; do gh issue view $n -R o/r; done", []],
  // only the command word counts
  ["echo 'gh issue view 5 -R o/r'", []],
  ['grep -rn "gh issue view 5 -R o/r" .', []],
  ["rg 'https://github.com/o/r/issues/5' docs/", []],
  ["printf '%s\\n' 'curl https://api.github.com/repos/o/r'", []],
  ["git commit -m 'fix o/r#5 see https://github.com/o/r/issues/5'", []],
  ["cat <<'EOF' > notes.md\ngh issue view 5 -R o/r\nEOF", []],
  [
    "cat <<EOF | gh issue create -R o/r -F -\nbody https://github.com/o/r/issues/5\nEOF\ngh issue view 6 -R o/r",
    [
      "github:o/r#6",
    ],
  ],
  // gh list
  [
    "cd /repo && gh issue list --repo memgraph/memgraph --state open --limit 500 --json number,title,body,comments",
    ["github:memgraph/memgraph/issues?state=open limit=500"],
  ],
  ["gh issue list", ["github:acme/app/issues?state=open limit=30"]],
  ["gh issue list -R o/r -s all -L 1000", ["github:o/r/issues?state=all limit=1000"]],
  ["gh issue list -R o/r --state=closed --limit=50", ["github:o/r/issues?state=closed limit=50"]],
  ["gh issue list -R o/r -sclosed -L50", ["github:o/r/issues?state=closed limit=50"]],
  ["gh issue list -R o/r -s CLOSED", ["github:o/r/issues?state=closed limit=30"]],
  ['gh issue list -R o/r -l bug -l "help wanted"', [
    "github:o/r/issues?label=bug,help%20wanted&state=open limit=30",
  ]],
  ["gh issue list -R o/r --label bug,Enhancement --label=bug", [
    "github:o/r/issues?label=bug,enhancement&state=open limit=30",
  ]],
  ["gh issue list -R o/r -A octocat -a hubot -m v1.2", [
    "github:o/r/issues?assignee=hubot&author=octocat&milestone=v1.2&state=open limit=30",
  ]],
  ["gh issue list -R o/r -m 3", []],
  ["gh issue list -R o/r -m v3", ["github:o/r/issues?milestone=v3&state=open limit=30"]],
  ['gh issue list -R o/r --milestone "Sprint 4"', [
    "github:o/r/issues?milestone=Sprint%204&state=open limit=30",
  ]],
  ["gh issue list -R o/r -A @me", ["github:o/r/issues?author=alice&state=open limit=30"]],
  ["gh issue list -R o/r --assignee @me", ["github:o/r/issues?assignee=alice&state=open limit=30"]],
  ["gh issue list -R o/r -A @me", [], ctxOf("/work/app", null)],
  ['gh issue list -R o/r -S "crash  in:title sort:updated-desc"', [
    "github:o/r/issues?q=crash%20in%3Atitle&state=open limit=30",
  ]],
  ['gh issue list -R o/r --search "is:closed label:bug"', [
    "github:o/r/issues?label=bug&state=closed limit=30",
  ]],
  // gh's own repo:/is: qualifiers and flags go to GitHub beside the query's
  ['gh issue list -R o/r -S "repo:x/y crash"', []],
  ['gh issue list -R o/r -S "repo:O/R crash"', ["github:o/r/issues?q=crash&state=open limit=30"]],
  ['gh issue list -R o/r -S "is:pr crash"', []],
  ['gh issue list -R o/r -S "author:alice" -A bob', []],
  ['gh issue list -R o/r -S "author:alice" -A Alice', [
    "github:o/r/issues?author=alice&state=open limit=30",
  ]],
  ['gh issue list -R o/r -S "milestone:v1" -m v2', []],
  ['gh issue list -R o/r -S "author:@me"', [], ctxOf("/work/app", null)],
  ["gh issue ls -R o/r", ["github:o/r/issues?state=open limit=30"]],
  ["gh issue list -R o/r --json number,title --jq '.[] | .number'", [
    "github:o/r/issues?state=open limit=30",
  ]],
  ["gh issue list -R o/r -w", ["github:o/r/issues?state=open limit=30"]],
  ["gh pr list -R o/r -s merged -L 200", ["github:o/r/pulls?state=merged limit=200"]],
  ["gh pr list -R o/r -l dependencies", [
    "github:o/r/pulls?label=dependencies&state=open limit=30",
  ]],
  ["gh issue list -R o/r -s merged", []],
  ["gh pr list -R o/r --draft", []],
  ["gh pr list -R o/r -B main", []],
  ["gh pr list -R o/r --head feature", []],
  ["gh issue list -R o/r --mention bob", []],
  ["gh issue list -R o/r -s bogus", []],
  // numbers and limits: whole, 1..2^31-1 (GraphQL's Int)
  ["gh issue list -R o/r -L 99999999999999999999", []],
  ["gh issue list -R o/r -L 2147483648", []],
  ["gh issue list -R o/r -L 2147483647", ["github:o/r/issues?state=open limit=2147483647"]],
  ["gh issue list -R o/r -L 1e3", []],
  ["gh issue list -R o/r -L 2.5", []],
  ["gh issue view 99999999999999999999 -R o/r", []],
  ["gh issue view 2147483648 -R o/r", []],
  ["gh issue view '#2147483647' -R o/r", ["github:o/r#2147483647"]],
  ["gh api repos/o/r/issues/9999999999", []],
  ["curl -s https://api.github.com/repos/o/r/issues/99999999999999999999", []],
  ["curl -sL https://github.com/o/r/pull/9999999999.diff", []],
  ["gh issue list -R o/r --limit abc", []],
  ["gh issue list -R o/r --limit 0", []],
  ["gh issue list -R o/r --unknown-flag", []],
  ["gh issue list -R o/r --limit", []],
  // writes and other gh commands
  ["gh issue create -R o/r -t x -b y", []],
  ["gh issue comment 5 -R o/r -b hi", []],
  ["gh issue close 5 -R o/r", []],
  ["gh issue edit 5 -R o/r --add-label bug", []],
  ["gh pr merge 42 -R o/r --squash", []],
  ["gh pr checkout 42", []],
  ["gh pr review 42 --approve", []],
  ["gh repo clone o/r", []],
  ["gh auth status", []],
  ["gh", []],
  // gh repo view
  ["gh repo view o/r", ["github:o/r"]],
  ["gh repo view", ["github:acme/app"]],
  ["gh repo view https://github.com/o/r --json description,stargazerCount", ["github:o/r"]],
  ["gh repo view app", ["github:alice/app"]],
  ["gh repo view app", [], ctxOf("/work/app", null)],
  ["gh repo view o/r --web", ["github:o/r"]],
  ["gh repo view o/r -b dev", ["github:o/r"]],
  // gh api
  ["gh api repos/o/r", ["github:o/r"]],
  ["gh api /repos/o/r/issues/12", ["github:o/r#12"]],
  ["gh api repos/o/r/issues/12/comments --paginate --jq '.[].body'", ["github:o/r#12"]],
  ["gh api --paginate --jq '.[].body' repos/o/r/issues/12/comments", ["github:o/r#12"]],
  ["gh api repos/o/r/pulls/7/files --paginate", ["github:o/r#7"]],
  ["gh api repos/o/r/pulls/7/reviews", ["github:o/r#7"]],
  ["gh api repos/o/r/pulls/7", ["github:o/r#7"]],
  ['gh api repos/o/r/readme -H "Accept: application/vnd.github.raw"', ["github:o/r"]],
  ["gh api repos/o/r/contents/README.md --jq .content", ["github:o/r"]],
  ["gh api repos/o/r/contents/src/main.rs", []],
  // Unquoted `&` sends the first part to the background: gh sees only `state=all`.
  ["gh api repos/o/r/issues?state=all&per_page=100", ["github:o/r/issues?state=all limit=30"]],
  ['gh api "repos/o/r/issues?state=closed&labels=bug,ui&per_page=50"', [
    "github:o/r/issues?label=bug,ui&state=closed limit=50",
  ]],
  ["gh api 'repos/o/r/issues?creator=octocat'", [
    "github:o/r/issues?author=octocat&state=open limit=30",
  ]],
  // REST `milestone` is a milestone number (or `*`/`none`); a key holds titles
  ["gh api 'repos/o/r/issues?creator=octocat&milestone=3'", []],
  ["gh api 'repos/o/r/issues?milestone=none'", []],
  ["curl -s 'https://api.github.com/repos/o/r/issues?milestone=*'", []],
  ["gh api repos/o/r/issues --paginate -X GET -f state=all", [
    "github:o/r/issues?state=all limit=null",
  ]],
  ["gh api --method GET repos/o/r/pulls -F per_page=100", [
    "github:o/r/pulls?state=open limit=100",
  ]],
  ["gh api --method=get repos/o/r/pulls/3", ["github:o/r#3"]],
  // `@me` in REST parameters is the configured login, or no Touch without one
  ["gh api 'repos/o/r/issues?labels=bug&creator=@me'", [
    "github:o/r/issues?author=alice&label=bug&state=open limit=30",
  ]],
  ["gh api 'repos/o/r/issues?assignee=@ME'", [
    "github:o/r/issues?assignee=alice&state=open limit=30",
  ]],
  ["gh api 'repos/o/r/issues?labels=bug&creator=@me'", [], ctxOf("/work/app", null)],
  ["gh api repos/o/r/issues -X GET -f assignee=@me", [], ctxOf("/work/app", null)],
  ["curl -s 'https://api.github.com/repos/o/r/issues?creator=%40me'", [], ctxOf(null, null)],
  ["curl -s 'https://api.github.com/repos/o/r/issues?creator=%40me'", [
    "github:o/r/issues?author=alice&state=open limit=30",
  ]],
  ["gh api 'search/issues?q=repo:o/r+assignee:@me'", [], ctxOf("/work/app", null)],
  ["gh api 'search/issues?q=repo:o/r+review-requested:@me'", [
    "github:o/r/issues?q=review-requested%3Aalice&state=all limit=30",
  ]],
  ["gh api 'repos/o/r/issues?assignee=*'", []],
  ["gh api 'repos/o/r/issues?since=2024-01-01T00:00:00Z'", []],
  ["gh api 'repos/o/r/pulls?head=o:branch'", []],
  ["gh api -X POST repos/o/r/issues -f title=x", []],
  ["gh api repos/o/r/issues -f title=x", []],
  ["gh api repos/o/r/issues/5/comments -f body=hi", []],
  ["gh api -X PATCH repos/o/r/issues/5 -f state=closed", []],
  ["gh api --method DELETE repos/o/r/issues/5/labels/bug", []],
  ["gh api repos/o/r/issues --input body.json", []],
  ["gh api repos/{owner}/{repo}/issues/5", ["github:acme/app#5"]],
  ["gh api repos/{owner}/{repo}/pulls/5", [], ctxOf("/work/other")],
  ["gh api repos/{owner}/{repo}/branches/{branch}", []],
  ["gh api graphql -f query='query { viewer { login } }'", []],
  ["gh api https://api.github.com/repos/o/r/pulls/3", ["github:o/r#3"]],
  ["gh api repos/o/r/commits", []],
  ["gh api repos/o/r/issues/comments", []],
  ["gh api user", []],
  ["gh api --hostname ghe.corp repos/o/r", []],
  ["gh api 'search/issues?q=repo:o/r+is:pr+is:merged'", ["github:o/r/pulls?state=merged limit=30"]],
  ["gh api -X GET search/issues -f q='repo:o/r is:issue is:open crash'", [
    "github:o/r/issues?q=crash&state=open limit=30",
  ]],
  ["gh api 'search/issues?q=crash'", []],
  // gh search, scoped to one repository
  ["gh search issues crash --repo o/r", ["github:o/r/issues?q=crash&state=all limit=30"]],
  ['gh search issues --repo o/r --state open --label bug "memory leak" -L 100', [
    "github:o/r/issues?label=bug&q=memory%20leak&state=open limit=100",
  ]],
  ["gh search issues 'repo:o/r is:closed' --json number,title", [
    "github:o/r/issues?state=closed limit=30",
  ]],
  ["gh search prs --repo o/r --merged --author octocat", [
    "github:o/r/pulls?author=octocat&state=merged limit=30",
  ]],
  ["gh search issues --repo o/r --author @me", [
    "github:o/r/issues?author=alice&state=all limit=30",
  ]],
  ["gh search issues --repo o/r --assignee=@me", [], ctxOf("/work/app", null)],
  ["gh search prs --repo o/r 'author:@me'", [], ctxOf("/work/app", null)],
  ["gh pr list -R o/r --author=@me", [], ctxOf("/work/app", null)],
  ['gh issue list -R o/r -S "author:alice author:bob"', [
    "github:o/r/issues?q=author%3Aalice%20author%3Abob&state=open limit=30",
  ]],
  ["gh search issues --repo o/r 'is:open (label:bug OR label:ui)'", [
    "github:o/r/issues?q=is%3Aopen%20(label%3Abug%20OR%20label%3Aui)&state=all limit=30",
  ]],
  ["gh search issues --repo o/r author:alice --author bob", []],
  ["gh search issues --repo o/r author:alice --author alice", [
    "github:o/r/issues?author=alice&state=all limit=30",
  ]],
  ["gh search issues crash", []],
  ["gh search issues crash --repo o/r --repo o/s", []],
  ["gh search issues crash --repo o/r --language go", []],
  ["gh search code parseKey --repo o/r", []],
  // curl and wget
  ["curl -s https://api.github.com/repos/o/r/issues/5", ["github:o/r#5"]],
  ['curl -sSL -H "Accept: application/vnd.github+json" https://api.github.com/repos/o/r', [
    "github:o/r",
  ]],
  ["curl -sL https://github.com/o/r/issues/5", ["github:o/r#5"]],
  ["curl -L https://github.com/o/r/pull/5.diff", ["github:o/r#5"]],
  ["curl -L https://github.com/o/r/pull/5.patch -o 5.patch", ["github:o/r#5"]],
  ["curl -L https://github.com/o/r/pull/5.txt", []],
  ['curl -s "https://api.github.com/repos/o/r/issues?state=all&per_page=100&labels=bug"', [
    "github:o/r/issues?label=bug&state=all limit=100",
  ]],
  ["curl --url https://api.github.com/repos/o/r/pulls/9 -o pr.json", ["github:o/r#9"]],
  ["curl -G -d state=closed -d per_page=100 https://api.github.com/repos/o/r/issues", [
    "github:o/r/issues?state=closed limit=100",
  ]],
  ['curl -X POST -d \'{"body":"x"}\' https://api.github.com/repos/o/r/issues/5/comments', []],
  ['curl -d \'{"title":"x"}\' https://api.github.com/repos/o/r/issues', []],
  ["curl -XPATCH https://api.github.com/repos/o/r/issues/5", []],
  ["curl --request PUT https://api.github.com/repos/o/r/pulls/5/merge", []],
  ["curl --json '{}' https://api.github.com/repos/o/r/issues", []],
  ["curl -I https://github.com/o/r", []],
  ["curl -X GET https://api.github.com/repos/o/r/issues/5", ["github:o/r#5"]],
  // Expansions only where they cannot change the address: a header, an output file, a --jq filter.
  ['curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/repos/o/r/issues/5', [
    "github:o/r#5",
  ]],
  ['curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/repos/O/R', ["github:o/r"]],
  [
    'curl -sSL -H "Authorization: token $(gh auth token)" https://api.github.com/repos/o/r/pulls/9',
    [
      "github:o/r#9",
    ],
  ],
  ['curl -o "$OUT/5.json" --header="Accept: $A" https://api.github.com/repos/o/r/issues/5', [
    "github:o/r#5",
  ]],
  ['curl -H"Authorization: token $T" -u "me:$PASS" https://api.github.com/repos/o/r', [
    "github:o/r",
  ]],
  ["curl -o ~/issue.json https://api.github.com/repos/o/r/issues/5", ["github:o/r#5"]],
  ['wget --header "Authorization: token $T" -O "$F" https://api.github.com/repos/o/r/pulls/9', [
    "github:o/r#9",
  ]],
  ['gh api repos/o/r/issues/5 --jq "$FILTER"', ["github:o/r#5"]],
  ['gh api -H "Authorization: token $T" repos/o/r/pulls/9', ["github:o/r#9"]],
  ['gh issue view 5 -R o/r --json title,body --jq "$Q" > "$OUT"', ["github:o/r#5"]],
  ['gh pr view 42 -R o/r --template "$TPL"', ["github:o/r#42"]],
  // … and never where a value is or may become the address, the method or a filter.
  ['curl -H "Authorization: token $T" "$URL"', []],
  ['curl -s "https://api.github.com/repos/o/r/issues/$N"', []],
  ['curl -X "$METHOD" https://api.github.com/repos/o/r/issues/5', []],
  ['curl -H "Authorization: token $T" -d "$BODY" https://api.github.com/repos/o/r/issues', []],
  ['curl -K "$CFG" https://api.github.com/repos/o/r', []],
  ['curl "$OPTS" https://api.github.com/repos/o/r', []],
  ['curl -s"$FLAGS" https://api.github.com/repos/o/r', []],
  ["curl -H $HDR https://api.github.com/repos/o/r", []],
  ['curl -H "$@" https://api.github.com/repos/o/r', []],
  ['wget -i "$LIST" https://api.github.com/repos/o/r', []],
  ['gh issue view "$N" -R o/r', []],
  ['gh issue view 5 -R "$REPO"', []],
  ['gh issue list -R o/r --label "$L"', []],
  ['gh issue list -R o/r --search "$Q"', []],
  ['gh issue list -R o/r -L "$N"', []],
  ['gh api "repos/o/r/issues/$N"', []],
  ['gh api repos/o/r/issues -f "state=$S"', []],
  ['gh api -X "$M" repos/o/r/issues/5', []],
  ['gh api --hostname "$H" repos/o/r/issues/5', []],
  ['gh "$GROUP" view 5 -R o/r', []],
  ['"$GH" issue view 5 -R o/r', []],
  ['gh issue view 5 -R o/r -- "$X"', []],
  ["curl https://example.com/o/r/issues/5", []],
  ["curl https://raw.githubusercontent.com/o/r/main/README.md", []],
  ["wget -qO- https://api.github.com/repos/o/r/pulls/9", ["github:o/r#9"]],
  ["wget -q -O - https://github.com/o/r", ["github:o/r"]],
  ["wget --post-data 'x=1' https://api.github.com/repos/o/r/issues", []],
  ["wget --method=DELETE https://api.github.com/repos/o/r/issues/5", []],
  // composition
  ["gh issue view 5 -R o/r | head -50", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r 2>&1 | tee out.txt", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r > /tmp/x.json 2>/dev/null && jq .title /tmp/x.json", ["github:o/r#5"]],
  ["true || gh issue view 5 -R o/r", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r; gh pr view 6 -R o/r", ["github:o/r#5", "github:o/r#6"]],
  ["gh issue view 5 -R o/r\ngh issue view 5 -R o/r", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r & gh issue view 7 -R o/r & wait", ["github:o/r#5", "github:o/r#7"]],
  [
    "for n in $(gh issue list -R o/r --json number -q '.[].number'); do gh issue view $n -R o/r; done",
    ["github:o/r/issues?state=open limit=30"],
  ],
  ["COUNT=$(gh api repos/o/r/issues --paginate --jq length | wc -l)", [
    "github:o/r/issues?state=open limit=null",
  ]],
  ["sh -c 'gh issue view 5 -R o/r'", ["github:o/r#5"]],
  ['bash -lc "gh pr view 42 -R o/r --comments"', ["github:o/r#42"]],
  ['bash -l -c "cd /work/app && gh issue list -L 100"', [
    "github:acme/app/issues?state=open limit=100",
  ], ctxOf(null)],
  ['/usr/bin/env bash -c "gh issue view 5 -R o/r"', ["github:o/r#5"]],
  ['bash -c "bash -c \\"gh issue view 5 -R o/r\\""', ["github:o/r#5"]],
  ["bash script.sh gh issue view 5", []],
  ["timeout 30 gh issue view 5 -R o/r", ["github:o/r#5"]],
  ["nohup gh issue view 5 -R o/r &", ["github:o/r#5"]],
  ["if gh issue view 5 -R o/r; then echo ok; fi", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r # check the bug", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r --json title --jq '.title | ascii_downcase'", ["github:o/r#5"]],
  ["gh issue view 5 -R o/r \\\n  --comments", ["github:o/r#5"]],
  ["/opt/homebrew/bin/gh issue view 5 -R o/r", ["github:o/r#5"]],
  ["gh issue view 5 -R 'o/r", []],
  ["ls -la", []],
  ["", []],
];

Deno.test("shell commands: every gh/api/curl/wget form, composed and negative", async (t) => {
  for (const [command, expected, ctx] of SHELL) {
    await t.step(command.replaceAll("\n", "⏎"), () => {
      const got = addressesFromToolCall({ tool: "Bash", input: { command } }, ctx ?? CTX);
      assert.deepEqual(got.map(show), expected);
    });
  }
});

type CallRow = [tool: string, input: unknown, expected: string[], ctx?: ParseContext];

const HARNESS_SHELLS: CallRow[] = [
  // Codex: argv list, with and without a shell wrapper, and a workdir argument
  ["shell", { command: ["bash", "-lc", "gh issue view 7"] }, ["github:acme/app#7"]],
  ["shell", { command: ["gh", "issue", "view", "7", "-R", "o/r"] }, ["github:o/r#7"]],
  ["shell", { command: ["gh", "issue", "view", "$N", "-R", "o/r"] }, []],
  ["shell", { command: ["bash", "-lc", "gh issue view 7"], workdir: "/work/other" }, []],
  ["shell", { command: ["gh", "issue", "list"], workdir: "/work/app" }, [
    "github:acme/app/issues?state=open limit=30",
  ], ctxOf(null)],
  ["shell", ["bash", "-lc", "gh pr view 3 -R o/r"], ["github:o/r#3"]],
  ["Bash", { command: "gh issue view 7", description: "View issue" }, ["github:acme/app#7"]],
  ["exec_command", { cmd: "gh issue view 7 -R o/r" }, ["github:o/r#7"]],
  // Copilot CLI: JSON-string arguments
  ["bash", JSON.stringify({ command: "gh issue view 5 -R o/r", description: "x" }), [
    "github:o/r#5",
  ]],
  ["bash", "gh issue view 5 -R o/r", ["github:o/r#5"]],
  // Gemini, Cursor, Grok
  ["run_shell_command", { command: "gh pr list -R o/r -s closed" }, [
    "github:o/r/pulls?state=closed limit=30",
  ]],
  ["Shell", { command: "gh repo view o/r" }, ["github:o/r"]],
  ["run_terminal_cmd", { command: "curl -s https://api.github.com/repos/o/r/issues/1" }, [
    "github:o/r#1",
  ]],
  ["run_terminal_command", { command: "gh issue view 1 -R o/r" }, ["github:o/r#1"]],
  // Copilot CLI on Windows: the powershell tool, gh.exe and curl.exe
  ["powershell", { command: "gh issue view 5 -R a/b" }, ["github:a/b#5"]],
  ["powershell", JSON.stringify({ command: "gh.exe issue view 5 -R a/b", description: "x" }), [
    "github:a/b#5",
  ]],
  ["powershell", { command: "gh issue view 5" }, ["github:acme/app#5"]],
  ["powershell", { command: "gh issue list -R a/b -A @me 2>$null | Out-String" }, [
    "github:a/b/issues?author=alice&state=open limit=30",
  ]],
  ["powershell", { command: "gh pr view 7 -R a/b --json title,body; gh issue view 8 -R a/b" }, [
    "github:a/b#7",
    "github:a/b#8",
  ]],
  ["powershell", { command: "& 'C:\\Program Files\\GitHub CLI\\GH.EXE' issue view 5 -R a/b" }, [
    "github:a/b#5",
  ]],
  ["powershell", { command: "curl.exe -s https://api.github.com/repos/a/b/issues/5" }, [
    "github:a/b#5",
  ]],
  ["powershell", { command: "gh issue view 5 -R a/b --jq '.title'" }, ["github:a/b#5"]],
  ["powershell", { command: "gh issue view $n -R a/b" }, []],
  ["powershell", { command: "$env:GH_REPO = 'a/b'; gh issue view 5" }, []],
  ["powershell", { command: "Set-Item 'Env:GH_HOST' 'ghe.corp'; gh issue view 5 -R a/b" }, []],
  [
    "powershell",
    { command: "[Environment]::SetEnvironmentVariable('GH_REPO', 'a/b'); gh issue view 5" },
    [],
  ],
  ["powershell", { command: "Set-Location ..; gh issue view 5" }, []],
  ["powershell", { command: "sl other; gh issue view 5 -R a/b" }, ["github:a/b#5"]],
  ["powershell", { command: "(cd other); gh issue view 5" }, []],
  ["powershell", { command: "gh issue list -R a/b | ForEach-Object { $_.title }" }, []],
  ["powershell", { command: "gh issue view 5 `\n  -R a/b" }, []],
  ["powershell", { command: 'gh issue view 5 -R "C:\\a/b"' }, []],
  ["powershell", { command: "gh issue list -R a/b -S 'label:\"won''t fix\"'" }, []],
  ["powershell", { command: 'gh issue list -R a/b -S "a""b"' }, []],
  ["powershell", { command: "gh issue view 5 -R \u2018a/b\u2019" }, []],
  ["powershell", { command: "gh issue view 5 \u2013R a/b" }, []],
  ["powershell", { command: "gh @args" }, []],
  ["powershell", { command: "gh @('issue', 'view', '5')" }, []],
  ["powershell", { command: "<# note #> gh issue view 5 -R a/b" }, []],
  ["powershell", { command: "gh --% issue view 5 -R a/b" }, []],
  ["Bash", { command: "gh.exe issue view 5 -R a/b" }, ["github:a/b#5"]],
  // not a shell tool
  ["Read", { file_path: "/work/app/gh issue view 5" }, []],
  ["Bash", { command: 42 }, []],
  ["Bash", null, []],
];

const FETCHES: CallRow[] = [
  ["WebFetch", { url: "https://github.com/o/r/issues/5", prompt: "summarize" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/pull/5/files" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/pull/5/commits/abc123" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/pull/5?diff=split#discussion_r1" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/issues/5#issuecomment-1234567" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/issues/5?ts=2" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r" }, ["github:o/r"]],
  ["WebFetch", { url: "https://github.com/O/R/" }, ["github:o/r"]],
  ["WebFetch", { url: "github.com/o/r/issues/5" }, ["github:o/r#5"]],
  ["web_fetch", { urls: ["https://github.com/o/r/issues/5", "https://github.com/o/r/issues/5"] }, [
    "github:o/r#5",
  ]],
  ["WebFetch", { url: "https://github.com/o/r.git" }, ["github:o/r"]],
  ["WebFetch", { url: "http://www.github.com/O/R/issues/5" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://github.com/o/r/issues" }, ["github:o/r/issues?state=open limit=25"]],
  ["WebFetch", { url: "https://github.com/o/r/pulls" }, ["github:o/r/pulls?state=open limit=25"]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is%3Aissue+is%3Aclosed" }, [
    "github:o/r/issues?state=closed limit=25",
  ]],
  ["WebFetch", { url: 'https://github.com/o/r/issues?q=is:open+label:"good first issue"' }, [
    "github:o/r/issues?label=good%20first%20issue&state=open limit=25",
  ]],
  [
    "WebFetch",
    {
      url:
        "https://github.com/o/r/issues?q=label%3Abug+author%3Aoctocat+assignee%3Ahubot+milestone%3A%22v1.0%22+segfault",
    },
    ["github:o/r/issues?assignee=hubot&author=octocat&label=bug&milestone=v1.0&q=segfault&state=all limit=25"],
  ],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is%3Apr+is%3Amerged" }, [
    "github:o/r/pulls?state=merged limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/pulls?q=is%3Apr+state%3Aclosed+label%3Abug%2Cui" }, [
    "github:o/r/pulls?q=label%3Abug%2Cui&state=closed limit=25",
  ]],
  // repeated single-valued qualifiers are not narrowed to the last one: the query stays free text
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+author:alice+author:bob" }, [
    "github:o/r/issues?q=is%3Aopen%20author%3Aalice%20author%3Abob&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:issue+is:open+is:closed+label:bug" }, [
    "github:o/r/issues?q=is%3Aopen%20is%3Aclosed%20label%3Abug&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=assignee:a+assignee:b+milestone:v1" }, [
    "github:o/r/issues?q=assignee%3Aa%20assignee%3Ab%20milestone%3Av1&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=milestone:v1+milestone:v2" }, [
    "github:o/r/issues?q=milestone%3Av1%20milestone%3Av2&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+state:open+author:Al+author:al" }, [
    "github:o/r/issues?author=al&state=open limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:issue+is:pr" }, []],
  // boolean queries: the whole query as free text, no filters derived
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+(label:bug+OR+label:ui)" }, [
    "github:o/r/issues?q=is%3Aopen%20(label%3Abug%20OR%20label%3Aui)&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/pulls?q=is:pr+(+is:open+)+label:x" }, [
    "github:o/r/pulls?q=(%20is%3Aopen%20)%20label%3Ax&state=all limit=25",
  ]],
  ["WebFetch", { url: 'https://github.com/o/r/issues?q=label:"a (b)"+is:closed' }, [
    "github:o/r/issues?label=a%20(b)&state=closed limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+NOT+label:bug" }, [
    "github:o/r/issues?q=is%3Aopen%20NOT%20label%3Abug&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:issue+NOT+is:pr" }, [
    "github:o/r/issues?q=NOT%20is%3Apr&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=label:bug+AND+is:closed" }, [
    "github:o/r/issues?q=label%3Abug%20AND%20is%3Aclosed&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+-label:bug" }, [
    "github:o/r/issues?q=-label%3Abug&state=open limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=label:bug+OR+label:ui" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=is:open+(label:bug" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=(author:@me+OR+assignee:@me)" }, [
    "github:o/r/issues?q=(author%3Aalice%20OR%20assignee%3Aalice)&state=all limit=25",
  ]],
  [
    "WebFetch",
    { url: "https://github.com/o/r/issues?q=(author:@me+OR+assignee:@me)" },
    [],
    ctxOf(
      null,
      null,
    ),
  ],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=author%3A%40me" }, [], ctxOf(null, null)],
  ["WebFetch", { url: "https://github.com/o/r/issues?q=author%3A%40me" }, [
    "github:o/r/issues?author=alice&state=all limit=25",
  ]],
  ["WebFetch", { url: "https://github.com/o/r/issues?labels=bug" }, [
    "github:o/r/issues?label=bug&state=open limit=25",
  ]],
  ["WebFetch", { url: "https://api.github.com/repos/o/r/issues/5" }, ["github:o/r#5"]],
  ["WebFetch", { url: "https://api.github.com/repos/o/r/pulls?state=all&per_page=100" }, [
    "github:o/r/pulls?state=all limit=100",
  ]],
  // GitHub's own pages and code pages are not Resources
  ["WebFetch", { url: "https://github.com/orgs/o/repositories" }, []],
  ["WebFetch", { url: "https://github.com/settings/tokens" }, []],
  ["WebFetch", { url: "https://github.com/features/actions" }, []],
  ["WebFetch", { url: "https://github.com/marketplace/actions/checkout" }, []],
  ["WebFetch", { url: "https://github.com/topics/graph-database" }, []],
  ["WebFetch", { url: "https://github.com/o/r/discussions/5" }, []],
  ["WebFetch", { url: "https://github.com/o/r/releases" }, []],
  ["WebFetch", { url: "https://github.com/o/r/releases/tag/v1.0" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues/new" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues/new/choose" }, []],
  ["WebFetch", { url: "https://github.com/o/r/tree/main/src" }, []],
  ["WebFetch", { url: "https://github.com/o/r/blob/main/README.md" }, []],
  ["WebFetch", { url: "https://github.com/o/r/wiki" }, []],
  ["WebFetch", { url: "https://github.com/o/r/actions/runs/1" }, []],
  ["WebFetch", { url: "https://github.com/o/r/commit/abc" }, []],
  ["WebFetch", { url: "https://gist.github.com/u/abc123" }, []],
  ["WebFetch", { url: "https://docs.github.com/en/rest/issues" }, []],
  ["WebFetch", { url: "https://github.com/login" }, []],
  ["WebFetch", { url: "https://github.com/notifications" }, []],
  ["WebFetch", { url: "https://github.com/o" }, []],
  ["WebFetch", { url: "https://github.com/" }, []],
  ["WebFetch", { url: "https://github.com/search?q=repo%3Ao%2Fr+crash&type=issues" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues/9999999999" }, []],
  ["WebFetch", { url: "https://github.com/o/r/pull/2147483648/files" }, []],
  ["WebFetch", { url: "https://github.com/o/r/issues/0" }, []],
  ["WebFetch", { url: "https://example.com/o/r/issues/5" }, []],
  ["WebFetch", { url: "ftp://github.com/o/r" }, []],
  ["WebFetch", { url: "not a url" }, []],
  // Gemini: URLs inside the prompt; Copilot: JSON string; OpenCode: url + format
  [
    "web_fetch",
    { prompt: "Summarize https://github.com/o/r/issues/5 and https://github.com/o/r/pull/6." },
    ["github:o/r#5", "github:o/r#6"],
  ],
  ["web_fetch", JSON.stringify({ url: "https://github.com/o/r/issues/5" }), ["github:o/r#5"]],
  ["webfetch", { url: "https://github.com/o/r/pull/8", format: "markdown" }, ["github:o/r#8"]],
  ["mcp__fetch__fetch", { url: "https://github.com/o/r/issues/2" }, ["github:o/r#2"]],
  // Gemini CLI names MCP tools mcp_<server>_<tool>, with single underscores (0.61).
  ["mcp_fetch_fetch", { url: "https://github.com/o/r/issues/2", max_length: 5000 }, [
    "github:o/r#2",
  ]],
  ["mcp_web_tools_fetch_url", { url: "https://github.com/o/r/pull/3" }, ["github:o/r#3"]],
  ["mcp_fetch_fetch_html", { url: "https://github.com/o/r/issues/2" }, []],
  ["mcp__fetch", { url: "https://github.com/o/r/issues/2" }, []],
  ["WebSearch", { query: "https://github.com/o/r/issues/5" }, []],
];

const MCP: CallRow[] = [
  // Gemini CLI's naming (mcp_<server>_<tool>), as its real runs call the GitHub MCP server.
  ["mcp_github_issue_read", { method: "get", owner: "lumendb", repo: "lumen", issue_number: 6 }, [
    "github:lumendb/lumen#6",
  ]],
  ["mcp_github_create_issue", { owner: "o", repo: "r", title: "x" }, []],
  ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }, [
    "github:o/r#5",
  ]],
  ["mcp__github__issue_read", { method: "get_comments", owner: "o", repo: "r", issue_number: 5 }, [
    "github:o/r#5",
  ]],
  ["mcp__github__issue_read", { method: "get_labels", owner: "O", repo: "R", issue_number: 5 }, [
    "github:o/r#5",
  ]],
  ["mcp__plugin_github_github__issue_read", {
    method: "get",
    owner: "o",
    repo: "r",
    issue_number: 5,
  }, [
    "github:o/r#5",
  ]],
  [
    "mcp__github__pull_request_read",
    { method: "get_files", owner: "o", repo: "r", pullNumber: 9 },
    [
      "github:o/r#9",
    ],
  ],
  ["mcp__github__pull_request_read", { method: "get_diff", owner: "o", repo: "r", pullNumber: 9 }, [
    "github:o/r#9",
  ]],
  ["mcp__github__get_issue", { owner: "o", repo: "r", issue_number: "5" }, ["github:o/r#5"]],
  ["mcp__github__get_issue_comments", { owner: "o", repo: "r", issue_number: 5 }, ["github:o/r#5"]],
  ["mcp__github__get_pull_request", { owner: "o", repo: "r", pull_number: 9 }, ["github:o/r#9"]],
  ["mcp__github__get_pull_request_files", { owner: "o", repo: "r", pull_number: 9 }, [
    "github:o/r#9",
  ]],
  ["mcp__github__get_pull_request_reviews", { owner: "o", repo: "r", pullNumber: 9 }, [
    "github:o/r#9",
  ]],
  ["mcp__github__get_pull_request_review_comments", { owner: "o", repo: "r", pull_number: 9 }, [
    "github:o/r#9",
  ]],
  ["mcp__github__list_issues", { owner: "o", repo: "r" }, ["github:o/r/issues?state=all limit=30"]],
  ["mcp__github__list_issues", {
    owner: "o",
    repo: "r",
    state: "OPEN",
    labels: ["Bug"],
    perPage: 100,
  }, [
    "github:o/r/issues?label=bug&state=open limit=100",
  ]],
  ["mcp__github__list_issues", {
    owner: "o",
    repo: "r",
    state: "CLOSED",
    orderBy: "UPDATED_AT",
    direction: "DESC",
  }, [
    "github:o/r/issues?state=closed limit=30",
  ]],
  ["mcp__github__list_issues", { owner: "o", repo: "r", labels: ["a", "b"] }, []],
  ["mcp__github__list_issues", { owner: "o", repo: "r", since: "2025-01-01T00:00:00Z" }, []],
  ["mcp__github__list_issues", { owner: "o" }, []],
  ["mcp__github__list_pull_requests", { owner: "o", repo: "r", state: "closed" }, [
    "github:o/r/pulls?state=closed limit=30",
  ]],
  ["mcp__github__list_pull_requests", { owner: "o", repo: "r" }, [
    "github:o/r/pulls?state=open limit=30",
  ]],
  ["mcp__github__list_pull_requests", { owner: "o", repo: "r", head: "o:feature" }, []],
  ["mcp__github__search_issues", { query: "repo:o/r is:open crash" }, [
    "github:o/r/issues?q=crash&state=open limit=30",
  ]],
  ["mcp__github__search_issues", { query: "is:open crash", owner: "o", repo: "r", perPage: 50 }, [
    "github:o/r/issues?q=crash&state=open limit=50",
  ]],
  ["mcp__github__search_issues", { q: "repo:o/r label:bug" }, [
    "github:o/r/issues?label=bug&state=all limit=30",
  ]],
  ["mcp__github__search_issues", { query: "repo:o/r is:open assignee:@me" }, [
    "github:o/r/issues?assignee=alice&state=open limit=30",
  ]],
  [
    "mcp__github__search_issues",
    { query: "repo:o/r is:open assignee:@me" },
    [],
    ctxOf(
      "/work/app",
      null,
    ),
  ],
  [
    "mcp__github__search_pull_requests",
    { query: 'repo:o/r author:"@me"' },
    [],
    ctxOf(
      "/work/app",
      null,
    ),
  ],
  ["mcp__github__list_issues", { owner: "o", repo: "r", assignee: "@me" }, []],
  ["mcp__github__search_issues", { query: "repo:o/r is:open author:alice author:bob" }, [
    "github:o/r/issues?q=is%3Aopen%20author%3Aalice%20author%3Abob&state=all limit=30",
  ]],
  ["mcp__github__search_issues", { query: "repo:o/r (label:bug OR label:ui)" }, [
    "github:o/r/issues?q=(label%3Abug%20OR%20label%3Aui)&state=all limit=30",
  ]],
  ["mcp__github__search_issues", { query: "repo:o/r OR repo:o/s" }, []],
  ["mcp__github__search_issues", { query: "crash" }, []],
  ["mcp__github__search_issues", { query: "repo:o/r repo:o/s crash" }, []],
  ["mcp__github__search_pull_requests", { query: "is:merged", owner: "o", repo: "r" }, [
    "github:o/r/pulls?state=merged limit=30",
  ]],
  ["mcp__github__get_file_contents", { owner: "o", repo: "r", path: "README.md" }, ["github:o/r"]],
  ["mcp__github__get_file_contents", { owner: "o", repo: "r", path: "/readme.rst" }, [
    "github:o/r",
  ]],
  ["mcp__github__get_file_contents", { owner: "o", repo: "r", path: "src/main.rs" }, []],
  ["mcp__github__get_file_contents", { owner: "o", repo: "r", path: "docs/README.md" }, []],
  ["github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 5 }, [
    "github:o/r#5",
  ]],
  ["github-mcp-server-get_issue", { owner: "o", repo: "r", issue_number: 5 }, ["github:o/r#5"]],
  [
    "mcp__github__issue_read",
    JSON.stringify({ method: "get", owner: "o", repo: "r", issue_number: 5 }),
    [
      "github:o/r#5",
    ],
  ],
  // write tools and other servers
  ["mcp__github__create_issue", { owner: "o", repo: "r", title: "x" }, []],
  ["mcp__github__issue_write", { method: "update", owner: "o", repo: "r", issue_number: 5 }, []],
  ["mcp__github__add_issue_comment", { owner: "o", repo: "r", issue_number: 5, body: "x" }, []],
  ["mcp__github__update_issue", { owner: "o", repo: "r", issue_number: 5 }, []],
  ["mcp__github__merge_pull_request", { owner: "o", repo: "r", pullNumber: 5 }, []],
  [
    "mcp__github__create_pull_request",
    { owner: "o", repo: "r", title: "x", head: "a", base: "b" },
    [],
  ],
  ["mcp__gitlab__get_issue", { owner: "o", repo: "r", issue_number: 5 }, []],
  ["get_issue", { owner: "o", repo: "r", issue_number: 5 }, []],
  ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 1e20 }, []],
  ["mcp__github__issue_read", { owner: "o", repo: "r", issue_number: "99999999999999999999" }, []],
  ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: 1.5 }, []],
  ["mcp__github__list_pull_requests", { owner: "o", repo: "r", perPage: 1e300 }, [
    "github:o/r/pulls?state=open limit=30",
  ]],
  ["mcp__github__list_pull_requests", { owner: "o", repo: "r", perPage: 500 }, [
    "github:o/r/pulls?state=open limit=100",
  ]],
  ["mcp__github__issue_read", { method: "get", owner: "o", repo: "r", issue_number: -1 }, []],
  ["mcp__github__issue_read", { method: "get", owner: "o/x", repo: "r", issue_number: 1 }, []],
  ["mcp__github__issue_read", "not json", []],
];

for (
  const [name, rows] of [["harness shell tools", HARNESS_SHELLS], ["web fetches", FETCHES], [
    "GitHub MCP tools",
    MCP,
  ]] as const
) {
  Deno.test(`tool calls: ${name}`, async (t) => {
    for (const [tool, input, expected, ctx] of rows) {
      await t.step(`${tool} ${typeof input === "string" ? input : JSON.stringify(input)}`, () => {
        const got = addressesFromToolCall({ tool, input }, ctx ?? CTX);
        assert.deepEqual(got.map(show), expected);
      });
    }
  });
}

const PROMPTS: Row[] = [
  ["Please look at https://github.com/o/r/issues/5", ["github:o/r#5"]],
  ["See [the issue](https://github.com/o/r/issues/5) first.", ["github:o/r#5"]],
  ["(see https://github.com/o/r/pull/5).", ["github:o/r#5"]],
  ["<https://github.com/o/r/issues/5>", ["github:o/r#5"]],
  ["**https://github.com/o/r/issues/5**", ["github:o/r#5"]],
  ["`https://github.com/o/r/issues/5`", ["github:o/r#5"]],
  ['"https://github.com/o/r/issues/5"', ["github:o/r#5"]],
  ["github.com/o/r/issues/5, thanks", ["github:o/r#5"]],
  ["www.github.com/o/r/pull/5!", ["github:o/r#5"]],
  ["the repo https://github.com/memgraph/memgraph: go over its open issues", [
    "github:memgraph/memgraph",
  ]],
  ["fix memgraph/memgraph#123 now", ["github:memgraph/memgraph#123"]],
  ["(memgraph/memgraph#123)", ["github:memgraph/memgraph#123"]],
  ["Closes o/r#5.", ["github:o/r#5"]],
  ["o/r#5,o/r#6", ["github:o/r#5", "github:o/r#6"]],
  ["src/foo#3", []],
  ["see lib/parser#12 and docs/api#2", []],
  ["./scripts/run#3", []],
  ["see a/b/c#3", []],
  ["foo.bar/baz#3", []],
  ["mail me@x/y#3", []],
  ["ÜBER/repo#3", []],
  ["Straße/repo#3 and 日本o/r#4", []],
  ["U\u0308BER/repo#3", []],
  ["o/r#3é", []],
  ["siehe o/r#3.", ["github:o/r#3"]],
  ["«o/r#3»", ["github:o/r#3"]],
  ["éGitHub.com/o/r/issues/5", []],
  ["voir: github.com/o/r/issues/5", ["github:o/r#5"]],
  ["o/r#9999999999", []],
  ["o/r#99999999999999999999", []],
  ["o/r#0", []],
  ["o/r#12abc", []],
  ["o/r#", []],
  ["#12", []],
  ["o/r#5 and https://github.com/o/r/issues/5 and O/R#5", ["github:o/r#5"]],
  ["https://github.com/o/r/pull/6 then https://github.com/o/r/issues/5", [
    "github:o/r#6",
    "github:o/r#5",
  ]],
  ["[https://github.com/o/r/issues/5](https://github.com/o/r/issues/5)", ["github:o/r#5"]],
  ["https://github.com/o/r/blob/main/x.ts#L3", []],
  ["https://github.com/o/r/issues?q=is%3Aopen+label%3Abug please", [
    "github:o/r/issues?label=bug&state=open limit=25",
  ]],
  ["https://docs.github.com/en/rest and https://gist.github.com/u/1", []],
  ["mygithub.com/o/r/issues/5", []],
  ["no links here", []],
  ["", []],
];

Deno.test("prompts: URLs and owner/repo#N, each once, paths rejected", async (t) => {
  for (const [text, expected, ctx] of PROMPTS) {
    await t.step(text || "(empty)", () => {
      assert.deepEqual(addressesFromPrompt(text, ctx ?? CTX).map(show), expected);
    });
  }
});

const ONE: [string, string | null, ParseContext?][] = [
  ["https://github.com/o/r/issues/5", "github:o/r#5"],
  ["  https://github.com/o/r/pull/5/files  ", "github:o/r#5"],
  ["github.com/o/r/pull/5", "github:o/r#5"],
  ["https://api.github.com/repos/o/r", "github:o/r"],
  ["O/R#5", "github:o/r#5"],
  ["o/r", "github:o/r"],
  ["src/foo#3", "github:src/foo#3"],
  ["o/r#9999999999", null],
  ["github:o/r#5", "github:o/r#5"],
  ["github:o/r", "github:o/r"],
  ["github:o/r/issues?label=bug", "github:o/r/issues?label=bug&state=open limit=null"],
  ["github:o/r/issues?author=@me", null],
  ["gh issue list -R o/r -A @me", null, ctxOf("/work/app", null)],
  ["https://github.com/o/r/issues?q=assignee%3A%40me", null, ctxOf(null, null)],
  ["github:o/r/issues?bogus=1", null],
  ["gh issue list -R o/r -l bug", "github:o/r/issues?label=bug&state=open limit=30"],
  ["gh pr view 5", "github:acme/app#5"],
  ["gh pr view 5", null, ctxOf(null)],
  ["gh api repos/o/r/pulls/3/files", "github:o/r#3"],
  ["curl https://api.github.com/repos/o/r/issues/5", "github:o/r#5"],
  ["https://github.com/o/r/releases", null],
  ["not an address", null],
  ["", null],
];

Deno.test("parseAddress: one Address from any accepted form", async (t) => {
  for (const [text, expected, ctx] of ONE) {
    await t.step(text || "(empty)", () => {
      const a = parseAddress(text, ctx ?? CTX);
      assert.equal(a && show(a), expected);
    });
  }
});

Deno.test("never throws on arbitrary input", () => {
  const tools = fc.constantFrom(
    "Bash",
    "shell",
    "run_shell_command",
    "WebFetch",
    "web_fetch",
    "mcp__github__issue_read",
    "mcp__github__list_issues",
    "mcp__github__search_issues",
    "anything",
  );
  const shellish = fc.array(
    fc.constantFrom(
      "gh",
      "issue",
      "pr",
      "view",
      "list",
      "api",
      "-R",
      "o/r",
      "-L",
      "'",
      '"',
      "$(",
      ")",
      "`",
      "\\",
      "|",
      "&&",
      ";",
      "<<",
      "EOF",
      "\n",
      "#",
      "5",
      "https://github.com/o/r/issues/5",
      "curl",
      "-X",
      "bash",
      "-c",
      "cd",
      "..",
      "-s",
      "=",
      "{owner}",
    ),
    { maxLength: 30 },
  ).map((ws) => ws.join(" "));
  fc.assert(
    fc.property(
      tools,
      fc.oneof(fc.jsonValue(), fc.string(), shellish, fc.dictionary(fc.string(), fc.jsonValue())),
      (tool, input) => {
        addressesFromToolCall({ tool, input }, CTX);
        addressesFromToolCall({
          tool,
          input: {
            command: input,
            url: input,
            query: input,
            owner: input,
            repo: "r",
            issue_number: input,
          },
        }, CTX);
        if (typeof input === "string") {
          addressesFromPrompt(input, CTX);
          parseAddress(input, CTX);
        }
      },
    ),
    { numRuns: 2000 },
  );
});
