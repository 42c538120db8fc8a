import assert from "node:assert/strict";
import { UsageError } from "../../errors.ts";

/** A fresh copy of this room's mod.ts: `--config` is process state, so each case imports its own. */
async function fresh() {
  return await import(
    `./mod.ts?case=${crypto.randomUUID()}`
  ) as typeof import("./mod.ts");
}

Deno.test("--config PATH names the config file, absolute, over RGRAPH_CONFIG", async () => {
  const before = Deno.env.get("RGRAPH_CONFIG");
  Deno.env.set("RGRAPH_CONFIG", "/from/env.toml");
  try {
    const m = await fresh();
    assert.equal(m.configPath(), "/from/env.toml");
    assert.deepEqual(m.takeConfigOption(["--config", "/etc/rgraph.toml", "hook", "codex"]), [
      "hook",
      "codex",
    ]);
    assert.equal(m.configPath(), "/etc/rgraph.toml");
    const n = await fresh();
    assert.deepEqual(n.takeConfigOption(["--config=rel/c.toml", "touches"]), ["touches"]);
    assert.equal(n.configPath(), `${Deno.cwd()}/rel/c.toml`);
    // Without the option, nothing is taken.
    assert.deepEqual((await fresh()).takeConfigOption(["touches", "--config", "x"]), [
      "touches",
      "--config",
      "x",
    ]);
    assert.throws(() => n.takeConfigOption(["--config"]), UsageError);
    assert.throws(() => n.takeConfigOption(["--config="]), UsageError);
  } finally {
    if (before === undefined) Deno.env.delete("RGRAPH_CONFIG");
    else Deno.env.set("RGRAPH_CONFIG", before);
  }
});
