/**
 * Credentials never pass through a message (issue 26, finding 4): a
 * password in `[store] url`'s user-info or `[store] password`, and the
 * `[github] token`, reach no output when the driver or GitHub fails — even
 * when the failure's own message quotes them (neo4j-driver's "Parameters are
 * not supported with none routed scheme … Given URL: 'bolt://alice:…@…'",
 * GitHub echoing the token). Each failure is checked against every place a
 * message goes: command errors, `status --json`, doctor's FAIL line, the
 * Sweep's output and `sweep-status.json`, every log and file of the data
 * directory (the store included), and the `resource` answer the model reads.
 *
 * @module
 */

import assert from "node:assert/strict";
import { bashCallPayload, type Sandbox, sandbox } from "../helpers.ts";
import { ask, connect } from "../mcp_client.ts";
import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";

/** A password holding what breaks naive redaction (`@`, `/`, `:`). */
const URL_PASSWORD = "Url@Pw/Secret:77";
const STORE_PASSWORD = "StorePwSecret-9f3";
const TOKEN = "ghp_TokenSecret0123456789abcdef";
const SECRETS = [
  URL_PASSWORD,
  encodeURIComponent(URL_PASSWORD),
  "Secret:77",
  STORE_PASSWORD,
  TOKEN,
];

function assertClean(text: string, what: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${what} shows '${s}':\n${text}`);
}

/** Every file under `dir` as text (the store's bytes included). */
function filesUnder(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const visit = (d: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) visit(p);
      else if (e.isFile) out.push([p, new TextDecoder().decode(Deno.readFileSync(p))]);
    }
  };
  visit(dir);
  return out;
}

/**
 * Runs everything that shows a message after a failure and checks none of
 * it holds a secret; returns the command errors, so the test can see the
 * failure did happen.
 */
async function everyOutput(sb: Sandbox, address: string): Promise<string> {
  const hook = await sb.rgraph(["hook", "claude-code"], {
    stdin: bashCallPayload(
      `gh issue view ${address.split("#")[1]} -R ${address.slice(7).split("#")[0]}`,
      {
        session: "s",
        toolUse: `toolu_${crypto.randomUUID()}`,
      },
    ),
  });
  assert.equal(hook.code, 0);
  let seen = "";
  for (
    const args of [
      ["sweep"],
      ["sweep", "--json"],
      ["status"],
      ["status", "--json"],
      ["touches", "--json"],
      ["lookup", address],
      ["doctor"],
      ["stats"],
    ]
  ) {
    const r = await sb.rgraph(args);
    assertClean(r.stdout + r.stderr, `rgraph ${args.join(" ")}`);
    seen += r.stdout + r.stderr;
  }
  const client = await connect(sb);
  try {
    const answer = await ask(client, address);
    assertClean(answer.text, "the resource answer");
    seen += answer.text;
  } finally {
    await client.close();
  }
  for (const [path, text] of filesUnder(`${sb.dir}/data`)) assertClean(text, path);
  return seen;
}

const ADDRESS = `github:${FACTS.big.owner}/${FACTS.big.name}#${FACTS.big.noComments.number}`;

/** A store URL with the URL password, on `hostPort`, with `scheme` and a query when given. */
function storeUrl(scheme: string, hostPort: string, query = ""): string {
  return `${scheme}://alice:${encodeURIComponent(URL_PASSWORD)}@${hostPort}${query}`;
}

async function withStore(url: string, extra = ""): Promise<Sandbox> {
  return await sandbox({
    extra:
      `[store]\nurl = ${JSON.stringify(url)}\nuser = "alice"\npassword = "${STORE_PASSWORD}"\n` +
      `${extra}[github]\ntoken = "${TOKEN}"\napi_url = "http://127.0.0.1:9"\n`,
  }).then(async (sb) => {
    // One [store] table: the sandbox's path joins the graph store's.
    const text = Deno.readTextFileSync(sb.configPath).replace(
      /\[store\]\npath = (.*)\n([\s\S]*)\[store\]\n/,
      "$2[store]\npath = $1\n",
    );
    await sb.writeConfig(text);
    return sb;
  });
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("the driver quoting the URL (a query on a bolt:// URL): no output, file or answer holds the password", async () => {
  const sb = await withStore(storeUrl("bolt", `127.0.0.1:${freePort()}`, "?policy=x"));
  try {
    const seen = await everyOutput(sb, ADDRESS);
    assert.match(seen, /Parameters are not supported/, "the driver's failure was met");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("connection refused: no output, file or answer holds the password", async () => {
  const sb = await withStore(storeUrl("bolt", `127.0.0.1:${freePort()}`));
  try {
    const seen = await everyOutput(sb, ADDRESS);
    assert.match(seen, /unreachable/);
  } finally {
    await sb.cleanup();
  }
});

const NEO4J = Deno.env.get("RGRAPH_TEST_NEO4J_URL");
const NEO4J_TLS = Deno.env.get("RGRAPH_TEST_NEO4J_TLS_URL");

Deno.test({
  name:
    "an authentication failure on the real Neo4j: no output, file or answer holds either password",
  ignore: !NEO4J,
  fn: async () => {
    const sb = await withStore(storeUrl("bolt", NEO4J!.replace(/^bolt:\/\//, "")));
    try {
      const seen = await everyOutput(sb, ADDRESS);
      assert.match(seen, /unauthori[sz]ed|authentication/i);
    } finally {
      await sb.cleanup();
    }
  },
});

Deno.test({
  name:
    "a refused TLS certificate (the real Neo4j's, self-signed): no output, file or answer holds the password",
  ignore: !NEO4J_TLS,
  fn: async () => {
    const sb = await withStore(storeUrl("bolt+s", NEO4J_TLS!.replace(/^bolt\+s:\/\//, "")));
    try {
      const seen = await everyOutput(sb, ADDRESS);
      assert.match(seen, /certificate/i);
    } finally {
      await sb.cleanup();
    }
  },
});

Deno.test("GitHub failing, and quoting the token back: no output, file or answer holds it", async () => {
  const gh = await startEmulator({ token: TOKEN });
  const sb = await sandbox({
    extra:
      `[github]\ntoken = "${TOKEN}"\napi_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`,
  });
  try {
    const { owner, name } = FACTS.big;
    const n = FACTS.big.noComments.number;
    gh.faultItem(owner, name, n, {
      kind: "node",
      type: "INTERNAL",
      message: `token ${TOKEN} may not read this (Authorization: bearer ${TOKEN})`,
    });
    let seen = await everyOutput(sb, ADDRESS);
    assert.match(seen, /may not read this/, "GitHub's failure was met");
    gh.faultItem(owner, name, n, { kind: "request", failure: 502 });
    seen = await everyOutput(sb, ADDRESS);
    // A token GitHub refuses: its 401 answer.
    await sb.writeConfig(
      Deno.readTextFileSync(sb.configPath).replace(TOKEN, `${TOKEN}x`),
    );
    seen = await everyOutput(sb, ADDRESS);
    assert.match(seen, /401|credentials|token/i);
  } finally {
    await gh.close();
    await sb.cleanup();
  }
});
