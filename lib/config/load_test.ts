import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseConfig, requireUserId } from "./load.ts";
import { UserError } from "../errors.ts";
import { normalPath } from "./paths/mod.ts";

Deno.test("a missing file means defaults", () => {
  const c = loadConfig("/nonexistent/rgraph/config.toml");
  assert.equal(c.exists, false);
  assert.equal(c.identity.user_id, null);
  assert.equal(c.github.api_url, "https://api.github.com");
  assert.equal(c.github.graphql_url, "https://api.github.com/graphql");
  assert.match(c.store.path, /rgraph\/rgraph\.db$/);
});

Deno.test("values come from the file", () => {
  const c = parseConfig(
    `[identity]\nuser_id = "alice"\ngithub_login = "alice-gh"\n[store]\npath = "/tmp/x.db"\nurl = "bolt://127.0.0.1:7687"\n[github]\napi_url = "https://ghe.example/api/v3/"\n`,
    "/c.toml",
  );
  assert.equal(c.identity.user_id, "alice");
  assert.equal(c.identity.github_login, "alice-gh");
  assert.equal(c.store.path, "/tmp/x.db");
  assert.equal(c.store.url, "bolt://127.0.0.1:7687");
  assert.equal(c.github.api_url, "https://ghe.example/api/v3");
  assert.equal(
    c.github.graphql_url,
    "https://ghe.example/api/v3/graphql",
    "GHES needs both; default derives",
  );
});

Deno.test("a malformed file is a one-line error naming the file", () => {
  for (const text of ["[identity\nuser_id=1", "identity = 3", "[identity]\nuser_id = 3"]) {
    assert.throws(() => parseConfig(text, "/c.toml"), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /^config \/c\.toml: /);
      assert.ok(!e.message.includes("\n"));
      return true;
    });
  }
});

Deno.test("reads of Touches fail closed without an identity", () => {
  assert.throws(() => requireUserId(parseConfig("", "/c.toml")), UserError);
  assert.equal(requireUserId(parseConfig(`[identity]\nuser_id = "bob"`, "/c.toml")), "bob");
});

Deno.test("[store] path: ~/ is the home directory; a relative path is refused", () => {
  const home = Deno.env.get("HOME") ?? "/";
  const c = parseConfig(`[store]\npath = "~/mem/rgraph.db"`, "/c.toml");
  assert.equal(c.store.path, `${home}/mem/rgraph.db`);
  assert.throws(
    () => parseConfig(`[store]\npath = "data/rgraph.db"`, "/c.toml"),
    /\[store\] path must be absolute or start with ~\//,
  );
});

Deno.test("a config saved with a byte-order mark reads like any other", () => {
  assert.equal(parseConfig(`\uFEFF[identity]\nuser_id = "win"`, "/c.toml").identity.user_id, "win");
});

Deno.test("[capture]: defaults record everything; values are normalised once, here", () => {
  assert.deepEqual(parseConfig("", "/c.toml").capture, {
    exclude_paths: [],
    exclude_harnesses: [],
    exclude_tools: [],
    prompts: true,
  });
  const home = Deno.env.get("HOME") ?? "/";
  const c = parseConfig(
    `[capture]
exclude_paths = ["~/work/client-x/", "/srv//acme/./app/../", "~", "/srv/acme"]
exclude_harnesses = ["Claude-Code", "gemini"]
exclude_tools = [" WebFetch ", "webfetch", "mcp__github__get_issue"]
prompts = false
`,
    "/c.toml",
  ).capture;
  assert.deepEqual(c.exclude_paths, [
    normalPath(`${home}/work/client-x`),
    "/srv/acme",
    normalPath(home),
  ]);
  assert.deepEqual(c.exclude_harnesses, ["claude-code", "gemini"]);
  assert.deepEqual(c.exclude_tools, ["webfetch", "mcp__github__get_issue"]);
  assert.equal(c.prompts, false);
});

Deno.test("[sweep]: automatic Sweeps are on by default; auto and the debounce come from the file", () => {
  const d = parseConfig("", "/c.toml");
  assert.equal(d.sweep.auto, true);
  assert.equal(d.sweep.debounce_ms, 15_000);
  const c = parseConfig(`[sweep]\nauto = false\ndebounce_seconds = 0.5`, "/c.toml");
  assert.equal(c.sweep.auto, false);
  assert.equal(c.sweep.debounce_ms, 500);
  for (const bad of [`auto = "no"`, `debounce_seconds = 0`, `debounce_seconds = "5"`]) {
    assert.throws(() => parseConfig(`[sweep]\n${bad}`, "/c.toml"), /config \/c\.toml: sweep\./);
  }
});

Deno.test("a file that is not UTF-8 is refused, naming the line, never read as U+FFFD", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/config.toml`;
    const head = new TextEncoder().encode('[identity]\nuser_id = "al');
    const tail = new TextEncoder().encode('ice"\n');
    // 0xff never occurs in UTF-8; 0xc3 alone starts a sequence the next byte does not finish.
    for (const bad of [[0xff], [0xc3, 0x28]]) {
      await Deno.writeFile(file, new Uint8Array([...head, ...bad, ...tail]));
      assert.throws(() => loadConfig(file), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.message, `config ${file}: not valid UTF-8 (line 2): save it as UTF-8 text`);
        return true;
      });
    }
    // A sequence cut off by the end of the file is refused as well.
    await Deno.writeFile(file, new Uint8Array([...head, 0xe2, 0x82]));
    assert.throws(() => loadConfig(file), /not valid UTF-8 \(line 2\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the data directory is the store's folder, whatever the environment says", () => {
  const c = parseConfig(`[store]\npath = "/srv/rgraph/memory.db"`, "/c.toml");
  assert.equal(c.data_dir, "/srv/rgraph");
  const before = Deno.env.get("XDG_DATA_HOME");
  Deno.env.set("XDG_DATA_HOME", "/somewhere/else");
  try {
    assert.equal(
      parseConfig(`[store]\npath = "/srv/rgraph/memory.db"`, "/c.toml").data_dir,
      "/srv/rgraph",
    );
    // Without a store path, the default store and its folder follow XDG_DATA_HOME.
    assert.equal(parseConfig("", "/c.toml").data_dir, "/somewhere/else/rgraph");
  } finally {
    if (before === undefined) Deno.env.delete("XDG_DATA_HOME");
    else Deno.env.set("XDG_DATA_HOME", before);
  }
});
