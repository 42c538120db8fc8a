/**
 * Credentials never shown: a Bolt URL's user and password (any characters,
 * `@` and `/` included: `bolt://neo4j:Xq@zz/Kv9@host`) reach no output of real `rgraph` processes — doctor's
 * check and fix lines, command errors — and `migrate` takes its password from
 * standard input or the environment, never the process arguments `ps` lists.
 *
 * The password's arrival is observed where it matters: a listener speaking
 * the first step of Bolt (the version handshake, answered 4.4, after which
 * the driver's HELLO carries the credentials) records what the driver sent.
 */

import assert from "node:assert/strict";
import { rgraphCommand, type Sandbox, sandbox } from "../helpers.ts";

const URL_PASSWORD = "Xq@zz/Kv9";
/** What of the URL's credentials must never be printed, in any slice of it. */
const URL_PARTS = ["neo4j:", "Xq", "zz/Kv9", "Kv9"];

function assertNone(text: string, parts: string[], what: string) {
  for (const p of parts) assert.ok(!text.includes(p), `${what} shows '${p}':\n${text}`);
}

/** Records a Touch, so migrate has an embedded store to copy and gets as far as connecting. */
async function somethingToCopy(sb: Sandbox): Promise<void> {
  const r = await sb.rgraph(["hook", "claude-code"], {
    stdin: JSON.stringify({
      session_id: "s",
      hook_event_name: "UserPromptSubmit",
      prompt: "see memgraph/memgraph#1",
    }),
  });
  assert.equal(r.code, 0, r.stderr);
}

/** A TCP listener that answers Bolt's handshake with 4.4 and keeps what the driver sends next. */
function boltListener() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: Uint8Array[] = [];
  const served = (async () => {
    for await (const conn of listener) {
      (async () => {
        const hello = new Uint8Array(20);
        let got = 0;
        try {
          while (got < 20) {
            const n = await conn.read(hello.subarray(got));
            if (n === null) return;
            got += n;
          }
          await conn.write(new Uint8Array([0, 0, 4, 4]));
          const buf = new Uint8Array(4096);
          const timer = setTimeout(() => conn.close(), 3_000);
          for (;;) {
            const n = await conn.read(buf);
            if (n === null) break;
            received.push(buf.slice(0, n));
          }
          clearTimeout(timer);
        } catch {
          // closed
        } finally {
          try {
            conn.close();
          } catch {
            // already closed
          }
        }
      })();
    }
  })();
  return {
    url: `bolt://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    /** Everything the driver sent after the handshake, as text (PackStream strings are UTF-8). */
    text: () => new TextDecoder().decode(new Uint8Array(received.flatMap((c) => [...c]))),
    close: async () => {
      listener.close();
      await served.catch(() => {});
    },
  };
}

Deno.test("doctor and every store command print the graph store's URL without any part of its credentials", async () => {
  const sb = await sandbox({
    extra: `url = "bolt://neo4j:${URL_PASSWORD}@127.0.0.1:1"\npassword = "Cfg-Secret-77"\n`,
  });
  try {
    const doctor = await sb.rgraph(["doctor", "--dir", sb.dir]);
    assert.equal(doctor.code, 1);
    assert.match(
      doctor.stdout,
      /^FAIL store: bolt:\/\/127\.0\.0\.1:1: .* — fix: start the graph store at bolt:\/\/127\.0\.0\.1:1 or fix/m,
    );
    const json = await sb.rgraph(["doctor", "--json", "--dir", sb.dir]);
    for (const r of [doctor, json]) {
      assertNone(r.stdout + r.stderr, [...URL_PARTS, "Cfg-Secret-77"], "doctor");
    }
    for (const args of [["status"], ["touches"], ["lookup", "a/b#1"], ["sweep"], ["stats"]]) {
      const r = await sb.rgraph(args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /bolt:\/\/127\.0\.0\.1:1/, args[0]);
      assertNone(r.stdout + r.stderr, [...URL_PARTS, "Cfg-Secret-77"], args[0]);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("migrate refuses a password in its arguments, saying what to use, and never echoes it", async () => {
  const sb = await sandbox();
  try {
    await somethingToCopy(sb);
    for (const args of [["--password", "Argv-Secret-1"], ["--password=Argv-Secret-1"]]) {
      const r = await sb.rgraph(["migrate", "--to", "bolt://127.0.0.1:1", ...args]);
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /^rgraph migrate: --password would show the password to every local user \(ps lists process arguments\): pipe it to --password-stdin, set RGRAPH_STORE_PASSWORD, or set \[store\] password in the config file\n$/,
      );
      assertNone(r.stdout + r.stderr, ["Argv-Secret-1"], "migrate --password");
    }
    const embedded = await sb.rgraph([
      "migrate",
      "--to",
      `bolt://neo4j:${URL_PASSWORD}@127.0.0.1:1`,
    ]);
    assert.equal(embedded.code, 2);
    assert.match(
      embedded.stderr,
      /^rgraph migrate: --to must not hold credentials \(ps lists process arguments\): give bolt:\/\/127\.0\.0\.1:1, the user with --user, and the password: pipe it/,
    );
    assertNone(embedded.stdout + embedded.stderr, URL_PARTS, "migrate --to with credentials");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("migrate --password-stdin: the password reaches the server, not the process arguments or the output", async () => {
  const sb = await sandbox();
  const server = boltListener();
  try {
    await somethingToCopy(sb);
    const secret = "Stdin-Secret-9/@x";
    const { command, args } = rgraphCommand();
    const child = new Deno.Command(command, {
      args: [...args, "migrate", "--to", server.url, "--user", "neo4j", "--password-stdin"],
      env: sb.env,
      cwd: sb.dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // What every local user sees of the running process.
    const ps = await new Deno.Command("ps", { args: ["-o", "args=", "-p", String(child.pid)] })
      .output();
    const listed = new TextDecoder().decode(ps.stdout);
    assert.match(listed, /migrate --to bolt:\/\/127\.0\.0\.1:\d+ --user neo4j --password-stdin/);
    assertNone(listed, [secret], "ps");
    assertNone(Deno.readTextFileSync(`/proc/${child.pid}/cmdline`), [secret], "/proc cmdline");
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(`${secret}\n`));
    await w.close();
    const out = await child.output();
    const printed = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, printed);
    assert.ok(server.text().includes(secret), "the driver sent the password read from stdin");
    assert.ok(!server.text().includes(`${secret}\n`), "without the line end");
    assertNone(printed, [secret], "migrate's output");
  } finally {
    await server.close();
    await sb.cleanup();
  }
});

Deno.test("migrate takes the password from RGRAPH_STORE_PASSWORD before [store] password", async () => {
  const sb = await sandbox({ extra: `user = "neo4j"\npassword = "Config-Secret-3"\n` });
  const server = boltListener();
  try {
    await somethingToCopy(sb);
    const r = await sb.rgraph(["migrate", "--to", server.url], {
      env: { RGRAPH_STORE_PASSWORD: "Env-Secret-5" },
    });
    assert.equal(r.code, 1);
    assert.ok(server.text().includes("Env-Secret-5"));
    assert.ok(!server.text().includes("Config-Secret-3"));
    assertNone(r.stdout + r.stderr, ["Env-Secret-5", "Config-Secret-3"], "migrate");
  } finally {
    await server.close();
    await sb.cleanup();
  }
});
