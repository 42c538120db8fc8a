import assert from "node:assert/strict";
import {
  ensureKey,
  headerKey,
  MARK,
  parseToml,
  removeMarked,
  removeTable,
  syncTable,
} from "./toml_edit.ts";

const SERVER = { command: "/usr/local/bin/rgraph", args: ["serve-mcp"] };

Deno.test("headerKey reads table headers in every spelling, and nothing else", () => {
  assert.equal(headerKey("[mcp_servers.rgraph]"), "mcp_servers.rgraph");
  assert.equal(headerKey('  [ mcp_servers . "rgraph" ]  # ours'), "mcp_servers.rgraph");
  assert.equal(headerKey("[[hooks.PreToolUse]]"), "[[hooks.PreToolUse]]");
  assert.equal(headerKey('args = ["[x]"]'), null);
  assert.equal(headerKey("# [not.a.table]"), null);
});

Deno.test("syncTable appends rgraph's table after the user's text and removeTable takes exactly it away", () => {
  const text = '# mine\nmodel = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
  const added = syncTable(text, "mcp_servers.rgraph", SERVER);
  assert.equal(
    added,
    text + '\n[mcp_servers.rgraph]\ncommand = "/usr/local/bin/rgraph"\nargs = ["serve-mcp"]\n',
  );
  assert.deepEqual((parseToml(added).mcp_servers as any).rgraph, SERVER);
  assert.equal(syncTable(added, "mcp_servers.rgraph", SERVER), added);
  assert.equal(removeTable(added, "mcp_servers.rgraph"), text);
  assert.equal(
    syncTable("", "mcp_servers.rgraph", SERVER).startsWith("[mcp_servers.rgraph]\n"),
    true,
  );
});

Deno.test("a changed rgraph table is rewritten once, its sub-tables with it; a table in the middle keeps its neighbours", () => {
  const text =
    '[mcp_servers.rgraph]\ncommand = "old"\n\n[mcp_servers.rgraph.env]\nX = "1"\n\n[profiles.a]\nmodel = "m"\n';
  const updated = syncTable(text, "mcp_servers.rgraph", SERVER);
  const doc = parseToml(updated) as any;
  assert.deepEqual(doc.mcp_servers.rgraph, SERVER);
  assert.deepEqual(doc.profiles, { a: { model: "m" } });
  assert.equal(updated.match(/\[mcp_servers\.rgraph/g)?.length, 1);
  assert.throws(
    () => syncTable('mcp_servers = { rgraph = { command = "x" } }\n', "mcp_servers.rgraph", SERVER),
    /inline/,
  );
});

Deno.test("ensureKey adds a marked line, respects the user's own setting or alias, and removeMarked undoes only its lines", () => {
  const text = "[features]\n# search\nweb_search_request = true\n";
  const { text: added } = ensureKey(text, "features", "hooks", true, ["codex_hooks"]);
  assert.equal(added, `[features]\nhooks = true  ${MARK}\n# search\nweb_search_request = true\n`);
  assert.equal(removeMarked(added), text);
  for (const own of ["hooks = false", "codex_hooks = true"]) {
    const t = `[features]\n${own}\n`;
    const r = ensureKey(t, "features", "hooks", true, ["codex_hooks"]);
    assert.equal(r.text, t);
    assert.notEqual(r.existing, undefined);
  }
  const created = ensureKey('model = "o3"', "features", "hooks", true).text;
  assert.deepEqual(parseToml(created).features, { hooks: true });
  assert.equal(removeMarked(created), 'model = "o3"\n');
  assert.throws(() => ensureKey("features = { x = 1 }\n", "features", "hooks", true), /inline/);
});
