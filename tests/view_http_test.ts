/**
 * `rgraph view` as its HTTP server answers: a real process on a sandbox,
 * asked over raw sockets so each test writes the `Host`, `Origin` and
 * `Sec-Fetch-Site` a browser on another site (or a rebound domain) would
 * send. Only the token-bearing requests of its own page get data.
 *
 * @module
 */

import assert from "node:assert/strict";
import { sandbox } from "./helpers.ts";
import { rawGet, rawRequest, startView } from "./view_helpers.ts";

async function withView(
  fn: (v: Awaited<ReturnType<typeof startView>>, host: string) => Promise<void>,
) {
  const sb = await sandbox();
  const view = await startView(sb);
  try {
    await fn(view, `127.0.0.1:${view.port}`);
  } finally {
    await view.stop();
    await sb.cleanup();
  }
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(d)));
}

Deno.test("view: the page with the token comes with a CSP allowing only its own script and style", async () => {
  await withView(async (view, host) => {
    const r = await rawGet(view.port, `/?token=${view.token}`, { host });
    assert.equal(r.status, 200);
    const csp = r.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]),
    );
    assert.deepEqual(directives.get("default-src"), ["'none'"]);
    assert.deepEqual(directives.get("connect-src"), ["'self'"]);
    assert.deepEqual(directives.get("frame-ancestors"), ["'none'"]);
    assert.deepEqual(directives.get("require-trusted-types-for"), ["'script'"]);
    assert.deepEqual(directives.get("trusted-types"), ["'none'"]);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/);
    // Exactly the page's one inline script and one style, each by its hash.
    const scripts = [...r.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const styles = [...r.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1);
    assert.equal(styles.length, 1);
    assert.deepEqual(directives.get("script-src"), [`'sha256-${await sha256(scripts[0])}'`]);
    assert.deepEqual(directives.get("style-src"), [`'sha256-${await sha256(styles[0])}'`]);
    // Nothing is loaded from anywhere else.
    assert.doesNotMatch(r.body, /<(script|link|img|iframe)[^>]*\s(src|href)="(?!data:)/);
    assert.equal(r.headers.get("referrer-policy"), "no-referrer");
    assert.equal(r.headers.get("cache-control"), "no-store");
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    // localhost is this machine too.
    const local = await rawGet(view.port, `/?token=${view.token}`, {
      host: `localhost:${view.port}`,
    });
    assert.equal(local.status, 200);
  });
});

Deno.test("view: without the token, or with a wrong one, nothing is served", async () => {
  await withView(async (view, host) => {
    const wrong = view.token.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    for (const path of ["/", "/?token=", `/?token=${wrong}`, `/?token=${view.token.slice(1)}`]) {
      const r = await rawGet(view.port, path, { host });
      assert.equal(r.status, 403, path);
      assert.match(r.body, /needs the token/);
      assert.doesNotMatch(r.body, /<script|alice/);
    }
    // The JSON answers want the token in the header only: a link cannot carry it there.
    for (const path of ["/api/sessions", `/api/sessions?token=${view.token}`, "/api/change"]) {
      const r = await rawGet(view.port, path, { host });
      assert.equal(r.status, 403, path);
    }
    const ok = await rawGet(view.port, "/api/sessions", { host, "x-rgraph-token": view.token });
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.body).user_id, "alice");
  });
});

Deno.test("view: another Host (a rebound domain), Origin or cross-site fetch is refused even with the token", async () => {
  await withView(async (view, host) => {
    const api = { "x-rgraph-token": view.token };
    const cases: [Record<string, string>, number][] = [
      [{ host: `evil.example:${view.port}`, ...api }, 421],
      [{ host: `127.0.0.1.evil.example:${view.port}`, ...api }, 421],
      [{ host: `127.0.0.1:${view.port + 1}`, ...api }, 421],
      [{ host, origin: "https://evil.example", ...api }, 403],
      [{ host, origin: "null", ...api }, 403],
      [{ host, origin: `http://127.0.0.1:${view.port + 1}`, ...api }, 403],
      [{ host, "sec-fetch-site": "cross-site", ...api }, 403],
      [{ host, "sec-fetch-site": "same-site", ...api }, 403],
    ];
    for (const [headers, status] of cases) {
      const r = await rawGet(view.port, "/api/sessions", headers);
      assert.equal(r.status, status, JSON.stringify(headers));
      assert.doesNotMatch(r.body, /alice|user_id/);
    }
    const page = await rawGet(view.port, `/?token=${view.token}`, {
      host: `evil.example:${view.port}`,
    });
    assert.equal(page.status, 421);
    // Its own page's fetches pass.
    const own = await rawGet(view.port, "/api/change", {
      host,
      origin: `http://${host}`,
      "sec-fetch-site": "same-origin",
      ...api,
    });
    assert.equal(own.status, 200);
  });
});

Deno.test("view: read-only — every method but GET and HEAD is refused", async () => {
  await withView(async (view, host) => {
    for (const method of ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]) {
      const r = await rawRequest(view.port, method, "/api/sessions", {
        host,
        "x-rgraph-token": view.token,
        "content-length": "0",
      });
      assert.equal(r.status, 405, method);
    }
  });
});

Deno.test("view: listens on 127.0.0.1 only", async () => {
  await withView(async (view) => {
    const others = Deno.networkInterfaces().filter((i) =>
      i.family === "IPv4" && !i.address.startsWith("127.")
    );
    for (const i of others) {
      await assert.rejects(
        Deno.connect({ hostname: i.address, port: view.port }),
        Deno.errors.ConnectionRefused,
        i.address,
      );
    }
    await assert.rejects(Deno.connect({ hostname: "::1", port: view.port }));
  });
});

Deno.test("view: refuses without an identity, a bad port and a taken one, in one line", async () => {
  const none = await sandbox({ userId: null });
  try {
    const r = await none.rgraph(["view", "--no-open"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^rgraph view: no identity configured/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  } finally {
    await none.cleanup();
  }
  const sb = await sandbox();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    for (const bad of ["-1", "65536", "http", "1.5"]) {
      const r = await sb.rgraph(["view", "--no-open", `--port=${bad}`]);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /^rgraph view: --port takes a port number/);
    }
    const r = await sb.rgraph(["view", "--no-open", "--port", String(taken.addr.port)]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      `rgraph view: port ${taken.addr.port} is in use (choose another with --port N)`,
    );
  } finally {
    taken.close();
    await sb.cleanup();
  }
});

Deno.test("view: the browser is handed a private file, never the token on a command line", async () => {
  if (Deno.build.os !== "linux") return;
  const sb = await sandbox();
  // A stand-in xdg-open that records what it was given.
  const bin = `${sb.dir}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/xdg-open`,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${sb.dir}/opened"\ncp "$1" "${sb.dir}/launcher-copy"\n`,
    { mode: 0o755 },
  );
  const view = await startView(sb, ["--port", "0"], {
    PATH: `${bin}:${Deno.env.get("PATH")}`,
  });
  try {
    let opened = "";
    for (let i = 0; i < 100 && opened === ""; i++) {
      await new Promise((r) => setTimeout(r, 50));
      opened = await Deno.readTextFile(`${sb.dir}/opened`).catch(() => "");
    }
    const file = opened.trim();
    assert.ok(!opened.includes(view.token), "the token is on the opener's command line");
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(file.slice(0, file.lastIndexOf("/")))).mode! & 0o777, 0o700);
    assert.ok((await Deno.readTextFile(`${sb.dir}/launcher-copy`)).includes(view.url));
    const done = await view.stop();
    assert.equal(done.code, 0, done.stderr);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  } finally {
    await view.stop();
    await sb.cleanup();
  }
});

Deno.test("view: its numbers and words are the terminal's — whole requests avoided, sizes and Touch labels as stats and touches print them", async () => {
  const { viewScenario } = await import("./view_scenario.ts");
  const w = await viewScenario();
  const view = await startView(w.sb);
  try {
    const api = { host: `127.0.0.1:${view.port}`, "x-rgraph-token": view.token };
    const value = JSON.parse((await rawGet(view.port, "/api/value", api)).body);
    const avoided = value.stats.requests_avoided;
    // The scenario's subsumed Listing avoids a fraction of a page: the estimate is summed, then rounded.
    assert.ok(Number.isInteger(avoided) && avoided > 0, `requests avoided: ${avoided}`);
    const stats = await w.sb.rgraph(["stats", "--json"]);
    assert.equal(JSON.parse(stats.stdout).requests_avoided, avoided, "stats --json says the same");
    const text = (await w.sb.rgraph(["stats"])).stdout;
    assert.match(text, new RegExp(`^GitHub requests avoided +${avoided}$`, "m"));
    assert.equal(value.stats_text, text.trimEnd(), "the view shows stats' own text");
    assert.match(text, /^Store size +\d+\.\d (KB|MB)$/m);
    const doctor = JSON.parse((await w.sb.rgraph(["doctor", "--json"])).stdout) as {
      check: string;
      detail: string;
    }[];
    const store = doctor.find((c) => c.check === "store")?.detail ?? "";
    const size = /Store size +(.+)$/m.exec(text)?.[1];
    assert.ok(size && store.includes(`; ${size})`), `doctor's store line "${store}" has ${size}`);

    // Each Touch's read and status, in the words `rgraph touches` prints.
    const sessions = JSON.parse((await rawGet(view.port, "/api/sessions", api)).body);
    const shown = sessions.sessions.flatMap((s: { touches: unknown[] }) => s.touches) as {
      id: string;
      read: string;
      status_text: string;
    }[];
    const table = (await w.sb.rgraph(["touches", "--all"])).stdout.split("\n");
    assert.match(table[0], /^recorded\s+read\s+status\s+address/);
    const rows = table.slice(1).filter((l) => l.trim() !== "").map((l) => l.split(/\s{2,}/));
    const seen = (t: { read: string; status_text: string }) => `${t.read} ${t.status_text}`;
    assert.deepEqual(
      shown.map(seen).sort(),
      rows.map((r) => `${r[1]} ${r[2]}`).sort(),
      "the same reads and statuses, Touch for Touch",
    );
    assert.ok(shown.some((t) => seen(t) === "CACHE READ served:subsumed"));
    assert.ok(shown.some((t) => seen(t) === "PROMPTED resolved"));
  } finally {
    await view.stop();
    await w.close();
  }
});
