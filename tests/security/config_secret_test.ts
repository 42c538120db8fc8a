/**
 * Secrets in the config file (issue 17): `doctor` FAILs a config holding a
 * GitHub token, a store password or a store URL with a password when group
 * or others can read it (a hand-written 0644 file was reported ok), naming
 * the key but never its value; and the hook's config cache keeps no copy and
 * no hash of the config text, so holding the cache tells nothing about a
 * secret.
 *
 * @module
 */

import assert from "node:assert/strict";
import { bashCallPayload, type Sandbox, sandbox } from "../helpers.ts";

const TOKEN = "ghp_4Sup3rS3cr3tT0k3nValue000000000000";
const PASSWORD = "p@ss/w0rd-S3cret";

async function doctorLine(sb: Sandbox, check: string): Promise<{ code: number; line?: string }> {
  const r = await sb.rgraph(["doctor", "--dir", sb.dir]);
  const line = r.stdout.split("\n").find((l) => l.slice(5).startsWith(`${check}:`));
  assert.ok(!line?.includes(TOKEN) && !line?.includes(PASSWORD), "the check names no secret");
  return { code: r.code, line };
}

for (
  const [what, toml] of [
    ["[github] token", `[github]\ntoken = "${TOKEN}"\n`],
    ["[store] password", `[store]\nurl = "bolt://localhost:7687"\npassword = "${PASSWORD}"\n`],
    [
      "[store] url (a password in it)",
      `[store]\nurl = "bolt://neo4j:${PASSWORD}@localhost:7687"\n`,
    ],
  ]
) {
  Deno.test(`doctor FAILs a config holding ${what} that others can read, and passes it at 0600`, async () => {
    const sb = await sandbox();
    try {
      await sb.writeConfig(`[identity]\nuser_id = "alice"\n${toml}`);
      await Deno.chmod(sb.configPath, 0o644);
      const open = await doctorLine(sb, "config file secrets");
      assert.notEqual(open.code, 0);
      assert.equal(
        open.line,
        `FAIL config file secrets: ${sb.configPath} holds ${what} and group or others can read it (mode 0644) — fix: chmod 600 ${sb.configPath}`,
      );
      await Deno.chmod(sb.configPath, 0o600);
      const closed = await doctorLine(sb, "config file secrets");
      assert.equal(closed.line, `ok   config file secrets: ${what} readable by you only`);
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("a config without a secret may be readable by others: no secrets line", async () => {
  const sb = await sandbox();
  try {
    await Deno.chmod(sb.configPath, 0o644);
    assert.equal((await doctorLine(sb, "config file secrets")).line, undefined);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the hook's config cache holds no copy and no hash of the config text", async () => {
  const sb = await sandbox({ extra: `[github]\ntoken = "${TOKEN}"\n` });
  try {
    // Older than the cache's racy window, so the hook caches it.
    await Deno.utime(sb.configPath, Date.now() / 1000 - 60, Date.now() / 1000 - 60);
    await new Promise((r) => setTimeout(r, 2_100));
    const r = await sb.rgraph(["hook", "claude-code"], {
      stdin: bashCallPayload("gh issue view 1 -R octo/widgets", { session: "s", toolUse: "t" }),
    });
    assert.equal(r.code, 0, r.stderr);
    const cache = await Deno.readTextFile(`${sb.dir}/data/rgraph/hook-config.json`);
    assert.ok(!cache.includes(TOKEN));
    assert.ok(!/[0-9a-f]{32,}/i.test(cache), `no digest in the cache: ${cache}`);
    assert.match(JSON.parse(cache).key, /config\.toml/, "keyed on the file itself");
  } finally {
    await sb.cleanup();
  }
});
