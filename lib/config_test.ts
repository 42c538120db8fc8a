import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseConfig, requireUserId } from "./config.ts";
import { UserError } from "./errors.ts";

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
