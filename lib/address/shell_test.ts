import assert from "node:assert/strict";
import { shellCommands } from "./shell.ts";

type Row = [
  script: string,
  expected: [argv: string[], cwd?: string | null, env?: Record<string, string | null>][],
];

/**
 * Each command as argv, plus cwd/env where the row cares. An opaque word (one word of unknown value)
 * shows as «its literal text before the expansion»; commands whose words may expand into any number
 * of words are absent.
 */
const ROWS: Row[] = [
  ["gh issue view 5", [[["gh", "issue", "view", "5"]]]],
  ["  gh\tissue   view 5  ", [[["gh", "issue", "view", "5"]]]],
  [`echo 'a b' "c d" e\\ f`, [[["echo", "a b", "c d", "e f"]]]],
  [`echo "a \\"q\\" \\$x \\\\ \\n"`, [[["echo", 'a "q" $x \\ \\n']]]],
  [`echo 'it'\\''s'`, [[["echo", "it's"]]]],
  [`echo $'a\\tb\\'c'`, [[["echo", "a\tb'c"]]]],
  [`echo "cost: $"`, [[["echo", "cost: $"]]]],
  [`echo a"b"'c'd`, [[["echo", "abcd"]]]],
  ["a | b && c || d ; e & f |& g", [[["a"]], [["b"]], [["c"]], [["d"]], [["e"]], [["f"]], [["g"]]]],
  ["a\nb\r\nc", [[["a"]], [["b"]], [["c"]]]],
  ["a \\\n b", [[["a", "b"]]]],
  ["a # comment 'unclosed", [[["a"]]]],
  ["a#b", [[["a#b"]]]],
  ["a 2>&1 >/dev/null <in 3>>log &>all b", [[["a", "b"]]]],
  ["a >| out 2> err", [[["a"]]]],
  ["cat <<EOF\nbody $(gh issue view 1)\nEOF\nnext", [[["cat"]], [["next"]]]],
  ["cat <<-'END'\n\tbody\n\tEND\nnext", [[["cat"]], [["next"]]]],
  ["cat <<< 'gh issue view 1'", [[["cat"]]]],
  ["x $y z", []],
  ["x ${y} z", []],
  ["x `y` z", [[["y"]]]],
  ["x $(y 1 | z) w", [[["y", "1"]], [["z"]]]],
  ["x $((1+2))", []],
  ["x $(echo \"(\" ')') w", [[["echo", "(", ")"]]]],
  ["diff <(a 1) <(b 2)", [[["a", "1"]], [["b", "2"]], [["diff", "«»", "«»"]]]],
  ["echo ~", [[["echo", "«»"]]]],
  // Quoted expansions stay one word each; "$@" and its kin make any number.
  [`curl -H "Authorization: token $T" -o "$F" https://x`, [[[
    "curl",
    "-H",
    "«Authorization: token »",
    "-o",
    "«»",
    "https://x",
  ]]]],
  [`x --opt="$V" "-H$(y)" "$*"`, [[["y"]], [["x", "«--opt=»", "«-H»", "«»"]]]],
  [`x "$@"`, []],
  [`x "\${a[@]}"`, []],
  [`x "\${!pre@}"`, []],
  [`"$CMD" arg`, []],
  [`x "a"$y`, []],
  ["echo a~b", [[["echo", "a~b"]]]],
  ["echo 'unterminated", []],
  [`echo "unterminated`, []],
  ["A=1 B='two words' cmd x", [[["cmd", "x"], undefined, { A: "1", B: "two words" }]]],
  ["A=$(x) cmd", [[["x"]], [["cmd"], undefined, { A: null }]]],
  ["A=1", []],
  ["export A=1 B=2; cmd", [[["export", "A=1", "B=2"], undefined, { A: "1", B: "2" }], [
    ["cmd"],
    undefined,
    { A: "1", B: "2" },
  ]]],
  ["export A=$X; cmd", [[["cmd"], undefined, { A: null }]]],
  ["env -i A=1 cmd", [[["cmd"], undefined, { A: "1" }]]],
  ["cd /a && x; cd b; y; cd ..; z", [
    [["cd", "/a"], "/a"],
    [["x"], "/a"],
    [["cd", "b"], "/a/b"],
    [["y"], "/a/b"],
    [["cd", ".."], "/a"],
    [["z"], "/a"],
  ]],
  ["cd; x", [[["cd"], null], [["x"], null]]],
  ["cd -; x", [[["cd", "-"], null], [["x"], null]]],
  ['cd "$D"; x', [[["x"], null]]],
  ["(cd /a; x); y", [[["cd", "/a"], "/a"], [["x"], "/a"], [["y"], "/start"]]],
  ["pushd /a >/dev/null && x", [[["pushd", "/a"], "/a"], [["x"], "/a"]]],
  ["bash -c 'a 1; b 2'", [[["a", "1"]], [["b", "2"]], [["bash", "-c", "a 1; b 2"]]]],
  ["bash -lc 'cd /x && a'", [[["cd", "/x"], "/x"], [["a"], "/x"], [
    ["bash", "-lc", "cd /x && a"],
    "/start",
  ]]],
  ["bash -e -o pipefail -c 'a'", [[["a"]], [["bash", "-e", "-o", "pipefail", "-c", "a"]]]],
  ["zsh -c a", [[["a"]], [["zsh", "-c", "a"]]]],
  ["bash run.sh -c a", [[["bash", "run.sh", "-c", "a"]]]],
  ["A=1 bash -c 'b'", [[["b"], undefined, { A: "1" }], [["bash", "-c", "b"], undefined, {
    A: "1",
  }]]],
  ["timeout -s KILL 30 a 1", [[["a", "1"]]]],
  ["time nohup command a", [[["a"]]]],
  ["if a; then b; else c; fi", [[["a"]], [["b"]], [["c"]]]],
  ['while read l; do a "$l"; done < f', [[["read", "l"]], [["a", "«»"]]]],
  ["{ a; b; }", [[["a"]], [["b"]]]],
  ["! a", [[["a"]]]],
  ["", []],
  [";;;|||&&&", []],
];

Deno.test("shell reader: words, operators, expansions, cd/export, bash -c", async (t) => {
  for (const [script, expected] of ROWS) {
    await t.step(script.replaceAll("\n", "⏎"), () => {
      const got = shellCommands(script, "/start");
      const shown = got.map((c) => c.argv.map((w, i) => c.opaque?.has(i) ? `«${w}»` : w));
      assert.deepEqual(shown, expected.map(([argv]) => argv));
      expected.forEach(([, cwd, env], i) => {
        if (cwd !== undefined) assert.equal(got[i].cwd, cwd);
        if (env !== undefined) assert.deepEqual(got[i].env, env);
      });
    });
  }
});

Deno.test("shell reader: deep nesting and huge input stay bounded", () => {
  let s = "gh issue view 1";
  for (let i = 0; i < 12; i++) s = `bash -c ${JSON.stringify(s)}`;
  // Past the nesting limit the innermost command is not read; the outer ones are.
  const argvs = shellCommands(s, "/").map((c) => c.argv[0]);
  assert.ok(argvs.length > 0 && argvs.every((a) => a === "bash"));
  const big = "echo 'x' ".repeat(50_000) + "$(".repeat(2_000);
  const start = performance.now();
  shellCommands(big, "/");
  assert.ok(performance.now() - start < 2_000);
});
