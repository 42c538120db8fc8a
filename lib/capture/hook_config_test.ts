import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../config/load.ts";
import { hookConfigCachePath, loadHookConfig, RACY_MS } from "./hook_config.ts";

/** A hook running once the config file is old enough to be cached. */
const later = () => Date.now() + RACY_MS + 1;

/** Longer than any file system's timestamp tick: the next write gets other times. */
const tick = () => new Promise((r) => setTimeout(r, 50));

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
    assert.deepEqual(await loadHookConfig(file, later()), expected);
    const cache = await Deno.readTextFile(hookConfigCachePath(dataDir));
    assert.deepEqual(await loadHookConfig(file, later()), expected);
    assert.ok(!cache.includes("secret"), "no token or password is copied into the cache");
    assert.equal((await Deno.stat(hookConfigCachePath(dataDir))).mode! & 0o777, 0o600);
  });
});

Deno.test("an edited config file is read afresh", async () => {
  await withHome(async (_dir, file) => {
    await Deno.writeTextFile(file, FULL);
    assert.equal((await loadHookConfig(file, later())).identity.user_id, "alice");
    await tick();
    // The same size, in place (the same inode).
    await Deno.writeTextFile(file, FULL.replace('"alice"', '"bob__"'));
    assert.equal((await loadHookConfig(file, later())).identity.user_id, "bob__");
    await Deno.remove(file);
    assert.equal((await loadHookConfig(file, later())).identity.user_id, null, "no file: defaults");
  });
});

Deno.test("a corrupt or foreign cache never changes the answer", async () => {
  await withHome(async (_dir, file, dataDir) => {
    await Deno.writeTextFile(file, FULL);
    await loadHookConfig(file, later());
    const cachePath = hookConfigCachePath(dataDir);
    await Deno.writeTextFile(cachePath, "{not json");
    assert.equal((await loadHookConfig(file, later())).identity.user_id, "alice");
    const forged = JSON.parse(await Deno.readTextFile(cachePath));
    forged.config.identity.user_id = "mallory";
    forged.key = "0".repeat(64);
    await Deno.writeTextFile(cachePath, JSON.stringify(forged));
    assert.equal((await loadHookConfig(file, later())).identity.user_id, "alice");
  });
});

Deno.test("a malformed config file is a ConfigError every time, never cached", async () => {
  await withHome(async (_dir, file) => {
    await Deno.writeTextFile(file, '[identity]\nuser_id = "alice\n');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(loadHookConfig(file, later()), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /not valid TOML/);
        return true;
      });
    }
  });
});

Deno.test("the cache holds no hash of the config text: nothing in it changes with a secret", async () => {
  await withHome(async (_dir, file, dataDir) => {
    const caches = [];
    for (const secret of ["ghp_first", "ghp_other"]) {
      await Deno.writeTextFile(file, FULL.replace("ghp_secret", secret));
      await Deno.utime(file, 1_700_000_000, 1_700_000_000);
      await loadHookConfig(file, later());
      const cache = JSON.parse(await Deno.readTextFile(hookConfigCachePath(dataDir)));
      // The key names the file's stat; only the change time (the edit itself) differs.
      caches.push(JSON.stringify(cache).replace(/,\d+\]\]"/, ']]"'));
      await tick();
    }
    assert.equal(caches[0], caches[1]);
    assert.ok(!/[0-9a-f]{40,}/.test(caches[0]), "no digest anywhere in the cache");
  });
});

Deno.test("a file changed a moment ago is parsed, not cached, so a second edit is never missed", async () => {
  await withHome(async (_dir, file, dataDir) => {
    await Deno.writeTextFile(file, FULL);
    assert.equal((await loadHookConfig(file)).identity.user_id, "alice");
    await assert.rejects(Deno.stat(hookConfigCachePath(dataDir)), Deno.errors.NotFound);
  });
});

Deno.test("a cache in a data directory others may write is neither read nor written", async () => {
  await withHome(async (_dir, file, dataDir) => {
    await Deno.writeTextFile(file, FULL);
    await loadHookConfig(file, later());
    const cachePath = hookConfigCachePath(dataDir);
    const forged = JSON.parse(await Deno.readTextFile(cachePath));
    forged.config.identity.user_id = "mallory";
    await Deno.writeTextFile(cachePath, JSON.stringify(forged));
    await Deno.chmod(dataDir, 0o777);
    assert.equal((await loadHookConfig(file, later())).identity.user_id, "alice");
    assert.match(await Deno.readTextFile(cachePath), /mallory/, "not rewritten either");
  });
});
