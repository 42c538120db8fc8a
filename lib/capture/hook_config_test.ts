import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../config.ts";
import { hookConfigCachePath, loadHookConfig } from "./hook_config.ts";

/** A temp config file and data directory; `XDG_DATA_HOME` points at it while `fn` runs. */
async function withHome(fn: (dir: string, file: string, dataDir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rgraph-hook-config-" });
  const before = Deno.env.get("XDG_DATA_HOME");
  Deno.env.set("XDG_DATA_HOME", `${dir}/data`);
  try {
    await fn(dir, `${dir}/config.toml`, `${dir}/data/rgraph`);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_DATA_HOME");
    else Deno.env.set("XDG_DATA_HOME", before);
    await Deno.remove(dir, { recursive: true });
  }
}

const FULL = `[identity]
user_id = "alice"
github_login = "alice-gh"
[store]
path = "/tmp/alice.db"
password = "store-secret"
[github]
token = "ghp_secret"
`;

Deno.test("the hook sees what loadConfig sees, first from the file, then from the cache", async () => {
  await withHome(async (_dir, file, dataDir) => {
    await Deno.writeTextFile(file, FULL);
    const full = loadConfig(file);
    const expected = {
      file,
      data_dir: full.data_dir,
      identity: full.identity,
      store: { path: full.store.path },
      capture: full.capture,
    };
    assert.deepEqual(await loadHookConfig(file), expected);
    const cache = await Deno.readTextFile(hookConfigCachePath(dataDir));
    assert.deepEqual(await loadHookConfig(file), expected);
    assert.ok(!cache.includes("secret"), "no token or password is copied into the cache");
  });
});

Deno.test("an edited config file is read afresh", async () => {
  await withHome(async (_dir, file) => {
    await Deno.writeTextFile(file, FULL);
    assert.equal((await loadHookConfig(file)).identity.user_id, "alice");
    await Deno.writeTextFile(file, FULL.replace('"alice"', '"bob"'));
    assert.equal((await loadHookConfig(file)).identity.user_id, "bob");
    await Deno.remove(file);
    assert.equal((await loadHookConfig(file)).identity.user_id, null, "no file: defaults");
  });
});

Deno.test("a corrupt or foreign cache never changes the answer", async () => {
  await withHome(async (_dir, file, dataDir) => {
    await Deno.writeTextFile(file, FULL);
    await loadHookConfig(file);
    const cachePath = hookConfigCachePath(dataDir);
    await Deno.writeTextFile(cachePath, "{not json");
    assert.equal((await loadHookConfig(file)).identity.user_id, "alice");
    const forged = JSON.parse(await Deno.readTextFile(cachePath));
    forged.config.identity.user_id = "mallory";
    forged.key = "0".repeat(64);
    await Deno.writeTextFile(cachePath, JSON.stringify(forged));
    assert.equal((await loadHookConfig(file)).identity.user_id, "alice");
  });
});

Deno.test("a malformed config file is a ConfigError every time, never cached", async () => {
  await withHome(async (_dir, file) => {
    await Deno.writeTextFile(file, '[identity]\nuser_id = "alice\n');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(loadHookConfig(file), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /not valid TOML/);
        return true;
      });
    }
  });
});
