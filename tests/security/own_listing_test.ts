/**
 * A free-text Listing is its asker's own (issue 26, finding 3): on a team's
 * graph store, a search's key carried the words
 * (`github:lumendb/lumen/issues?q=codename-falcon-layoffs&state=all`) and its
 * `fetched_at`, and another user's `rgraph view`, `stats` and plain Cypher
 * showed them. Now Alice's searches stay on her machine: her reads find
 * them; Bob's reads, his machine's files and every node of the server but
 * Alice's own Touches hold none of her words; the members (public
 * Resources) are shared as before; Bob asking the same words fetches his own.
 * A free-text Listing an earlier rgraph put on the server is taken away by
 * the schema upgrade.
 *
 * Runs on the real Neo4j (`RGRAPH_TEST_NEO4J_URL`) and the GitHub emulator.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  bashPayload,
  holdServer,
  ok,
  read,
  SERVERS,
  teammate,
  touchesOf,
  wipe,
  write,
} from "../graph_helpers.ts";
import { startEmulator } from "../emulator/mod.ts";
import { FACTS } from "../emulator/facts.ts";
import type { Sandbox } from "../helpers.ts";

const NEO4J = SERVERS.find((s) => s.name === "neo4j")!.url;
const REPO = `${FACTS.big.owner}/${FACTS.big.name}`;
/** Alice's words: matching nothing, so no Resource holds them either. */
const SECRET = "codename falcon layoffs";
/** Words that match issues, so the search has members. */
const PHRASE = FACTS.big.searchPhrase.text;
/** How a key or URL may carry the secret words. */
const SECRET_FORMS = ["falcon", "layoffs"];

/** Every property of every node but Touches (a user's own) and every relationship, as text. */
async function sharedGraphText(): Promise<string> {
  const nodes = await read(
    NEO4J,
    "MATCH (n) WHERE NOT n:Touch RETURN labels(n) AS l, properties(n) AS p",
  );
  const edges = await read(NEO4J, "MATCH ()-[e]->() RETURN type(e) AS t, properties(e) AS p");
  return JSON.stringify([nodes, edges]);
}

/** Every file in the sandbox's data directory as text (its database included). */
function dataText(sb: Sandbox): string {
  let out = "";
  const visit = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) visit(p);
      else if (e.isFile) out += new TextDecoder().decode(Deno.readFileSync(p));
    }
  };
  visit(`${sb.dir}/data`);
  return out;
}

function assertNoSecret(text: string, what: string): void {
  for (const s of SECRET_FORMS) assert.ok(!text.toLowerCase().includes(s), `${what} shows '${s}'`);
}

async function search(sb: Sandbox, words: string): Promise<void> {
  const r = await sb.rgraph(["hook", "claude-code"], {
    stdin: bashPayload(`gh issue list -R ${REPO} --search "${words}" --limit 50`),
  });
  assert.equal(r.code, 0, r.stderr);
}

async function keyOf(sb: Sandbox, word: string): Promise<string> {
  const t = (await touchesOf(sb)).find((t) => String(t.address).includes(word));
  assert.ok(t, `no Touch for ${word}`);
  return String(t.address);
}

Deno.test({
  name:
    "a free-text Listing is its asker's own on a team store: a teammate reads none of the words, through rgraph or plain Cypher; members are shared",
  ignore: !NEO4J,
  fn: async () => {
    const release = await holdServer(NEO4J);
    const gh = await startEmulator();
    const alice = await teammate("alice", NEO4J, gh);
    const bob = await teammate("bob", NEO4J, gh);
    try {
      await wipe(NEO4J);
      // What an earlier rgraph shared: the schema upgrade the next command runs takes it away.
      await write(
        NEO4J,
        "CREATE (:Listing {key: $key, owner: 'lumendb', repo: 'lumen', listing: 'issues', fetched_at: '2026-01-01T00:00:00Z'})",
        { key: `github:${REPO}/issues?q=old-falcon-plan&state=all` },
      );
      await search(alice, SECRET);
      await search(alice, PHRASE);
      // A listing without free text, shared as before.
      const label = FACTS.big.goodFirstIssue.label;
      await ok(
        alice.rgraph(["hook", "claude-code"], {
          stdin: bashPayload(`gh issue list -R ${REPO} --label "${label}" --limit 100`),
        }),
        "hook",
      );
      await ok(alice.rgraph(["sweep"]), "alice's sweep");
      const secretKey = await keyOf(alice, "falcon");
      const phraseKey = await keyOf(alice, "handshake");
      assert.ok((await touchesOf(alice)).every((t) => t.status === "resolved"));

      // Her own reads find both searches.
      for (const key of [secretKey, phraseKey]) {
        const r = await ok(alice.rgraph(["lookup", key]), "alice's lookup");
        assert.match(r.stdout, /^rgraph: hit /, r.stdout);
      }

      // The server: no free-text Listing, and none of her words outside her own Touches.
      const listings = await read(NEO4J, "MATCH (l:Listing) RETURN l.key AS key");
      assert.ok(listings.length >= 1, "the label listing is shared");
      assert.ok(listings.every((l) => !String(l.key).includes("q=")), JSON.stringify(listings));
      assertNoSecret(await sharedGraphText(), "the server's shared nodes");

      // Bob: his reads, and the files on his machine, hold none of them.
      await ok(bob.rgraph(["sweep"]), "bob's sweep (syncs his local index)");
      // Even asking the same words, Alice's search is not his to read.
      const miss = await ok(bob.rgraph(["lookup", phraseKey]), "bob's lookup");
      assert.match(miss.stdout, /^rgraph: miss /);
      for (
        const args of [["stats"], ["stats", "--json"], ["status", "--json"], ["touches", "--all"]]
      ) {
        const r = await bob.rgraph(args);
        assertNoSecret(r.stdout + r.stderr, `bob's rgraph ${args.join(" ")}`);
      }
      assertNoSecret(dataText(bob), "bob's data directory");

      // The members are public Resources: shared as before.
      const members = await read(
        NEO4J,
        "MATCH (r:Resource) WHERE r.title CONTAINS 'handshake' OR r.body CONTAINS 'handshake' RETURN r.address AS a",
      );
      assert.ok(members.length >= 1, "the search's members are on the server");
      const shared = await ok(bob.rgraph(["lookup", String(members[0].a)]), "bob's member lookup");
      assert.match(shared.stdout, /^rgraph: hit /);

      // Bob asking the same words fetches his own.
      await search(bob, PHRASE);
      await ok(bob.rgraph(["sweep"]), "bob's own search");
      const his = await ok(bob.rgraph(["lookup", phraseKey]), "bob's lookup of his own search");
      assert.match(his.stdout, /^rgraph: hit /);
      assertNoSecret(await sharedGraphText(), "the server after bob's search");
    } finally {
      await alice.cleanup();
      await bob.cleanup();
      await gh.close();
      await wipe(NEO4J).catch(() => {});
      release();
    }
  },
});
