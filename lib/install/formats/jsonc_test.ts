import assert from "node:assert/strict";
import fc from "fast-check";
import {
  appendElement,
  appendMember,
  JsonSyntaxError,
  parseJsonc,
  removeChild,
  toValue,
} from "./jsonc.ts";
import { removeOurs, syncList, syncMember } from "./json_edit.ts";

Deno.test("parseJsonc reads what JSON.parse reads, with offsets", () => {
  const text = '{"a": [1, 2.5e3, "x\\"y"], "b": {"c": null, "d": true}}';
  const doc = parseJsonc(text, false);
  assert.deepEqual(toValue(doc), JSON.parse(text));
  assert.equal(
    doc.type === "object" && text.slice(doc.members[1].start, doc.members[1].value.end),
    '"b": {"c": null, "d": true}',
  );
});

Deno.test("parseJsonc: comments and trailing commas only in JSONC; errors name line and column", () => {
  const text = '{\n  // c\n  "a": 1, /* d */\n  "b": [2,],\n}\n';
  assert.deepEqual(toValue(parseJsonc(text, true)), { a: 1, b: [2] });
  assert.throws(() => parseJsonc(text, false), JsonSyntaxError);
  assert.throws(() => parseJsonc('{"a": 1,}', false), /trailing comma at line 1/);
  assert.throws(
    () => parseJsonc('{\n  "a": tru\n}', false),
    /unexpected character at line 2, column 8/,
  );
  assert.throws(() => parseJsonc('{"a": 1} x', false), /after the value/);
  assert.throws(() => parseJsonc('{"a": "\n"}', false), /control character/);
});

Deno.test("appends keep the file's indent, tabs and CRLF, and sit before a trailing comment", () => {
  const tabs = '{\n\t"a": 1 // keep\n}\n';
  assert.equal(
    appendMember(tabs, parseJsonc(tabs, true), "b", { c: [1] }),
    '{\n\t"a": 1,\n\t"b": {\n\t\t"c": [\n\t\t\t1\n\t\t]\n\t} // keep\n}\n',
  );
  const crlf = '{\r\n  "a": []\r\n}\r\n';
  const doc = parseJsonc(crlf, false);
  const arr = doc.type === "object" ? doc.members[0].value : doc;
  assert.equal(
    appendElement(crlf, arr, { x: 1 }),
    '{\r\n  "a": [\r\n    {\r\n      "x": 1\r\n    }\r\n  ]\r\n}\r\n',
  );
  const inline = '{"a": [1, 2]}';
  const d2 = parseJsonc(inline, false);
  assert.equal(
    appendElement(inline, d2.type === "object" ? d2.members[0].value : d2, 3),
    '{"a": [1, 2, 3]}',
  );
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 5 });

Deno.test("property: removing an appended member restores the text byte for byte", () => {
  fc.assert(
    fc.property(
      jsonObject,
      fc.string({ maxLength: 5 }),
      jsonValue,
      fc.constantFrom(0, 2, 4, "\t"),
      (obj, key, value, indent) => {
        const text = JSON.stringify(obj, null, indent) + "\n";
        const added = appendMember(text, parseJsonc(text, false), key, value);
        const after = parseJsonc(added, false);
        assert.ok(after.type === "object");
        assert.deepEqual(toValue(after.members.at(-1)!.value), JSON.parse(JSON.stringify(value)));
        assert.equal(removeChild(added, after, after.members.length - 1), text);
      },
    ),
    { numRuns: 300 },
  );
});

const ours = (v: unknown) =>
  typeof v === "object" && v !== null && (v as { id?: string }).id === "rgraph";

Deno.test("syncList then removeOurs round-trips any document with a list, and syncList is idempotent", () => {
  fc.assert(
    fc.property(jsonObject, fc.array(jsonValue, { maxLength: 4 }), (obj, existing) => {
      const text = JSON.stringify({ ...obj, hooks: { start: existing } }, null, 2) + "\n";
      const entry = { id: "rgraph", command: "x" };
      const once = syncList(text, false, ["hooks", "start"], [entry], ours);
      assert.equal(syncList(once, false, ["hooks", "start"], [entry], ours), once);
      const list = (toValue(parseJsonc(once, false)) as any).hooks.start;
      assert.deepEqual(list, [...JSON.parse(JSON.stringify(existing)), entry]);
      // An emptied list goes with its container (rgraph cannot tell it created neither).
      if (existing.length > 0) assert.equal(removeOurs(once, false, ours), text);
    }),
    { numRuns: 200 },
  );
});

Deno.test("containers created for rgraph's entry go again on removal; the user's stay", () => {
  const text = '{\n  "theme": "dark"\n}\n';
  const added = syncList(text, false, ["hooks", "PreToolUse"], [{ id: "rgraph" }], ours);
  assert.deepEqual(JSON.parse(added), { theme: "dark", hooks: { PreToolUse: [{ id: "rgraph" }] } });
  assert.equal(removeOurs(added, false, ours), text);
  assert.throws(
    () => syncList('{"hooks": []}', false, ["hooks", "x"], [{}], ours),
    /'hooks' is not an object/,
  );
  assert.throws(
    () => syncList('{"hooks": {"x": 1}}', false, ["hooks", "x"], [{}], ours),
    /'hooks.x' is not a list/,
  );
});

Deno.test("syncMember replaces a differing value and leaves an equal one alone", () => {
  const text = '{"mcpServers": {"a": {}, "rgraph": {"command": "old"}}}';
  const same = '{"mcpServers": {"a": {}, "rgraph": {"command": "new"}}}';
  assert.equal(syncMember(same, false, ["mcpServers"], "rgraph", { command: "new" }), same);
  const updated = syncMember(text, false, ["mcpServers"], "rgraph", { command: "new" });
  assert.deepEqual(JSON.parse(updated), JSON.parse(same));
});
