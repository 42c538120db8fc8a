import assert from "node:assert/strict";
import { stripAnsi } from "./check.ts";
import { fixIn, rgraphMessage } from "./harness.ts";

const ESC = String.fromCharCode(27);

Deno.test("stripAnsi removes colour and other escape sequences, and nothing else", () => {
  assert.equal(
    stripAnsi(`${ESC}[0m${ESC}[1m${ESC}[31merror${ESC}[0m: Module not found "a[1m"`),
    'error: Module not found "a[1m"',
  );
  assert.equal(stripAnsi("plain [31m text"), "plain [31m text");
});

Deno.test("rgraphMessage recognises serve-mcp's own one-line errors, not crashes or other programs", () => {
  assert.equal(
    rgraphMessage("rgraph serve-mcp: no identity configured: set [identity] user_id in /c.toml"),
    "no identity configured: set [identity] user_id in /c.toml",
  );
  assert.equal(rgraphMessage("rgraph serve-mcp: internal error: TypeError: x"), null);
  assert.equal(rgraphMessage('error: Module not found "file:///old/main.ts".'), null);
  assert.equal(rgraphMessage(""), null);
});

Deno.test("fixIn takes the instruction from a message, else points at the checks that give one", () => {
  assert.equal(
    fixIn("no identity configured: set [identity] user_id in /c.toml"),
    "set [identity] user_id in /c.toml",
  );
  assert.match(fixIn("config /c.toml: not valid TOML: bad key"), /reinstalling would not help/);
});
