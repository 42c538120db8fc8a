/**
 * The team store promises only what it keeps (issue 17, item 5):
 *
 * - a Sweep or a `forget` without an identity refuses, as reads do, and a
 *   graph store opened with no user leases nobody's Touches (a Sweep with
 *   no `user_id` used to lease every user's and print their addresses);
 * - where the server names the connection's login (`SHOW CURRENT USER`), a
 *   config posing as another user with its own login is refused in one
 *   line, unless it says the team shares the login;
 * - a `bolt+s` server with a self-signed certificate is refused with a line
 *   naming the certificate problem (it said only "Failed to connect to
 *   server"), and is used with `+ssc`; doctor says who the store login is
 *   and how the connection travels.
 *
 * The TLS server is the second one `tests/neo4j/start.sh` starts (auth on,
 * logins alice and bob); without it those tests are skipped, and fail in CI.
 */

import assert from "node:assert/strict";
import { configToml, sandbox } from "../helpers.ts";
import { freshGraphStore, graphStore, holdServer, SERVERS, wipe } from "../graph_helpers.ts";
import { touch } from "../store_contract.ts";
import neo4j from "neo4j-driver";
import { SHARED_LOGIN_STEP } from "../../lib/store/login.ts";

const NEO4J = SERVERS.find((s) => s.name === "neo4j")!.url;
const TLS_URL = Deno.env.get("RGRAPH_TEST_NEO4J_TLS_URL") ?? "";

/** One line on stderr, naming no stack. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.doesNotMatch(lines[0], /\bat .*\.ts:\d+/);
  return lines[0];
}

Deno.test("sweep and forget without an identity refuse, as reads do", async () => {
  const sb = await sandbox({ userId: null });
  try {
    for (const args of [["sweep"], ["sweep", "--auto"], ["forget", "--all"]]) {
      const r = await sb.rgraph(args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      assert.match(oneLine(r.stderr), /no identity configured: set \[identity\] user_id/);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test({
  name: "graph store opened without a user leases no one's Touches",
  ignore: NEO4J === "",
  fn: async () => {
    const release = await holdServer(NEO4J);
    try {
      const alice = await freshGraphStore(NEO4J, "alice");
      const nobody = await graphStore(NEO4J, null);
      try {
        await alice.recordTouches([touch("alice", "github:acme/rocket#1")]);
        assert.deepEqual(await nobody.leasePending("no-identity", 10, 60_000), []);
        const mine = await alice.leasePending("alices-sweep", 10, 60_000);
        assert.deepEqual(mine.map((t) => t.address), ["github:acme/rocket#1"], "still hers");
      } finally {
        await nobody.close();
        await alice.close();
        await wipe(NEO4J);
      }
    } finally {
      release();
    }
  },
});

/** A sandbox whose store is the TLS server at `url`, logged in as `login`. */
async function teamMember(
  userId: string,
  url: string,
  login: string,
  extra = "",
) {
  const sb = await sandbox({ userId });
  await sb.writeConfig(
    configToml(sb.dbPath, { userId }) +
      `url = ${JSON.stringify(url)}\nuser = ${JSON.stringify(login)}\n` +
      `password = ${JSON.stringify(`${login}-password`)}\n${extra}`,
  );
  return sb;
}

const ssc = (url: string) => url.replace("bolt+s://", "bolt+ssc://");

function tlsTest(name: string, fn: () => Promise<void>) {
  Deno.test({
    name,
    // In CI the TLS server must be there: a green run must have used it.
    ignore: TLS_URL === "" && Deno.env.get("CI") !== "true",
    fn: async () => {
      assert.ok(TLS_URL, "RGRAPH_TEST_NEO4J_TLS_URL is not set: start tests/neo4j/start.sh");
      const release = await holdServer(TLS_URL);
      try {
        await fn();
      } finally {
        release();
      }
    },
  });
}

tlsTest(
  "bolt+s with a self-signed certificate is refused naming the certificate; +ssc is used",
  async () => {
    const sb = await teamMember("alice", TLS_URL, "alice");
    try {
      const refused = await sb.rgraph(["sweep"]);
      assert.notEqual(refused.code, 0);
      const line = oneLine(refused.stderr);
      assert.match(line, /TLS certificate was refused: .*UnknownIssuer \(self-signed/, line);
      assert.ok(line.includes(ssc(TLS_URL)), `names the way out: ${line}`);
      assert.ok(!line.includes("alice-password"), "no password on screen");

      await sb.writeConfig(
        (await Deno.readTextFile(sb.configPath)).replace(TLS_URL, ssc(TLS_URL)),
      );
      const swept = await sb.rgraph(["sweep"]);
      assert.equal(swept.code, 0, swept.stderr);
      const doctor = await sb.rgraph(["doctor", "--json", "--dir", sb.dir]);
      const checks = JSON.parse(doctor.stdout) as { check: string; ok: boolean; detail: string }[];
      const byName = (n: string) => checks.find((c) => c.check === n);
      assert.match(
        byName("store login")?.detail ?? "",
        /'alice', the same as \[identity\] user_id/,
      );
      assert.match(
        byName("store transport")?.detail ?? "",
        /TLS without verifying the certificate/,
      );
    } finally {
      await sb.cleanup();
    }
  },
);

/** Runs `statement` on the TLS server as `login` (the team's admin step, or undoing it). */
async function asAdmin(statement: string, login = "alice"): Promise<void> {
  const driver = neo4j.driver(ssc(TLS_URL), neo4j.auth.basic(login, `${login}-password`));
  try {
    await driver.executeQuery(statement);
  } finally {
    await driver.close();
  }
}

const UNSHARE = "MATCH (t:RgraphSetting) DETACH DELETE t";

tlsTest(
  "a config posing as another user with its own login is refused, shared_login = true in it or not, until the server says the team shares one login",
  async () => {
    // Alice's Touch, on the server.
    const alice = await teamMember("alice", ssc(TLS_URL), "alice");
    // Bob writes user_id = "alice" to read and forget Alice's Touches, logging in as himself —
    // and adds shared_login = true to his own config (issue 26, finding 5).
    const posing = await teamMember("alice", ssc(TLS_URL), "bob");
    const shared = await teamMember("alice", ssc(TLS_URL), "bob", "shared_login = true\n");
    await asAdmin(UNSHARE);
    try {
      const hook = await alice.rgraph(["hook", "claude-code"], {
        stdin: JSON.stringify({
          session_id: "s",
          hook_event_name: "UserPromptSubmit",
          prompt: "see acme/codename-falcon#1",
        }),
      });
      assert.equal(hook.code, 0);
      assert.equal((await alice.rgraph(["touches"])).code, 0, "alice's Touch sent on");
      for (const args of [["touches"], ["forget", "--all"], ["sweep"]]) {
        const r = await posing.rgraph(args);
        assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
        assert.match(
          oneLine(r.stderr),
          /the store login 'bob' is not \[identity\] user_id 'alice' \(Touches belong to user_id\): connect with your own login \(\[store\] user = "alice"\)$/,
        );
        const s = await shared.rgraph(args);
        assert.equal(s.code, 1, `${args[0]}: ${s.stdout}`);
        assert.match(
          oneLine(s.stderr),
          /\[store\] shared_login = true, but the server does not say its team shares one login .*: connect with your own login .* and remove \[store\] shared_login$/,
        );
        assert.doesNotMatch(s.stdout, /codename-falcon/, "none of Alice's Touches shown");
      }
      for (const sb of [posing, shared]) {
        const doctor = await sb.rgraph(["doctor", "--json", "--dir", sb.dir]);
        const login = (JSON.parse(doctor.stdout) as { check: string; ok: boolean }[])
          .find((c) => c.check === "store login");
        assert.equal(login?.ok, false, doctor.stdout);
      }

      // Whoever set the server up says the team shares one login (SECURITY.md's step).
      await asAdmin(SHARED_LOGIN_STEP);
      const r = await shared.rgraph(["touches"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /codename-falcon/,
        "a shared login is the team's: private by convention only",
      );
      const unacknowledged = await posing.rgraph(["touches"]);
      assert.equal(unacknowledged.code, 1);
      assert.match(
        oneLine(unacknowledged.stderr),
        /the server says its team shares the login 'bob': add \[store\] shared_login = true$/,
      );
    } finally {
      await asAdmin(UNSHARE).catch(() => {});
      await alice.cleanup();
      await posing.cleanup();
      await shared.cleanup();
    }
  },
);
