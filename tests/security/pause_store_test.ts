/**
 * `rgraph pause` wherever the store is: with the config file named by
 * `RGRAPH_CONFIG` and a `[store] path` outside the default data directory,
 * `pause`, `resume`, `status`, `doctor` and the hook all use the store's
 * folder — after `rgraph pause` a real hook records no Touch (the bug: the
 * pause file went to the default data directory, which the hook never reads).
 */

import assert from "node:assert/strict";
import { bashCallPayload, configToml, exists, sandbox } from "../helpers.ts";
import { pauseFilePath } from "../../lib/capture/mod.ts";

Deno.test("pause: a store outside the default data directory is paused and resumed where the hook looks", async () => {
  const sb = await sandbox();
  try {
    // The config lives elsewhere too, reached through RGRAPH_CONFIG only.
    const config = `${sb.dir}/elsewhere/rgraph.toml`;
    const storeDir = `${sb.dir}/team-disk/rgraph-store`;
    await Deno.mkdir(`${sb.dir}/elsewhere`, { recursive: true });
    await Deno.writeTextFile(config, configToml(`${storeDir}/memory.db`));
    const env = { RGRAPH_CONFIG: config };
    const run = (args: string[], stdin?: string) => sb.rgraph(args, { env, stdin });
    const read = (n: number) =>
      run(
        ["hook", "claude-code"],
        bashCallPayload(`gh issue view ${n} -R memgraph/memgraph`, {
          session: "s1",
          toolUse: `t${n}`,
        }),
      );
    const touches = async () => {
      const r = await run(["touches", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { address: string }[]).map((t) => t.address);
    };
    const doctorCapture = async () => {
      const r = await run(["doctor", "--json", "--dir", sb.dir]);
      return (JSON.parse(r.stdout) as { check: string; detail: string }[])
        .find((c) => c.check === "capture")!.detail;
    };

    assert.equal((await read(1)).code, 0);
    assert.deepEqual(await touches(), ["github:memgraph/memgraph#1"], "recording before the pause");

    const paused = await run(["pause"]);
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal(
      paused.stdout.trim(),
      "capture is paused until 'rgraph resume': hooks record nothing",
    );

    const hook = await read(2);
    assert.equal(hook.code, 0, hook.stderr);
    assert.equal(hook.stdout, "");
    assert.deepEqual(
      await touches(),
      ["github:memgraph/memgraph#1"],
      "the paused hook recorded nothing",
    );
    assert.match((await run(["status"])).stdout, /^capture is paused until 'rgraph resume'/m);
    assert.match(await doctorCapture(), /^paused until 'rgraph resume': hooks record nothing/);
    assert.ok(exists(pauseFilePath(storeDir)), "the pause file is beside the store");
    assert.ok(
      !exists(pauseFilePath(`${sb.dir}/data/rgraph`)),
      "none in the default data directory",
    );

    const resumed = await run(["resume"]);
    assert.equal(resumed.stdout.trim(), "capture resumed: hooks record again");
    assert.equal((await read(3)).code, 0);
    assert.deepEqual((await touches()).sort(), [
      "github:memgraph/memgraph#1",
      "github:memgraph/memgraph#3",
    ]);
    assert.ok(!(await run(["status"])).stdout.includes("paused"));
    assert.equal(await doctorCapture(), "recording");
  } finally {
    await sb.cleanup();
  }
});
