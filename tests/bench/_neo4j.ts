/**
 * A Neo4j test server of a benchmark's own (`tests/neo4j/start.sh` with a
 * state directory of its own), so its figures are a fresh server's and no
 * test's data is touched.
 *
 * @module
 */

/** A freshly started Neo4j test server of this run's own. */
export async function freshServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = new URL("../neo4j/start.sh", import.meta.url).pathname;
  const env = { ...Deno.env.toObject(), RGRAPH_NEO4J_STATE: await Deno.makeTempDir() };
  const out = await new Deno.Command("bash", { args: [script, "start"], env, stderr: "inherit" })
    .output();
  const url = /RGRAPH_TEST_NEO4J_URL=(\S+)/.exec(new TextDecoder().decode(out.stdout))?.[1];
  if (!url) throw new Error("could not start the Neo4j test server");
  return {
    url,
    stop: async () => {
      await new Deno.Command("bash", { args: [script, "stop"], env }).output();
    },
  };
}
