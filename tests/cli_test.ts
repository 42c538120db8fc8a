/**
 * rgraph's global options, through real `rgraph` processes: `--config PATH`
 * before the command names the config file, over `RGRAPH_CONFIG`.
 */

import assert from "node:assert/strict";
import { configToml, sandbox } from "./helpers.ts";

Deno.test("rgraph --config PATH <command> reads that file, not RGRAPH_CONFIG's; without a value it is a one-line usage error", async () => {
  const sb = await sandbox({ userId: null });
  try {
    const other = `${sb.dir}/other.toml`;
    await Deno.writeTextFile(other, configToml(sb.dbPath, { userId: "carol" }));
    const refused = await sb.rgraph(["touches", "--json"]);
    assert.equal(refused.code, 1, "RGRAPH_CONFIG's file has no identity");
    const named = await sb.rgraph(["--config", other, "touches", "--json"]);
    assert.deepEqual([named.code, named.stdout.trim()], [0, "[]"], named.stderr);
    const equals = await sb.rgraph([`--config=${other}`, "touches", "--json"]);
    assert.equal(equals.code, 0, equals.stderr);
    const missing = await sb.rgraph(["--config"]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, "rgraph: --config needs the path of a config file\n");
  } finally {
    await sb.cleanup();
  }
});
