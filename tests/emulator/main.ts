/**
 * Runs the GitHub emulator by hand, e.g. to point a real `rgraph sweep` at it:
 *
 * ```sh
 * deno run -A tests/emulator/main.ts --port 8787 --latency 300
 * # [github] api_url = "http://127.0.0.1:8787", token = "test-token"
 * ```
 *
 * Prints the API URL, the GraphQL URL and the token, then serves until Ctrl-C.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startEmulator } from "./mod.ts";

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      port: { type: "string", default: "0" },
      latency: { type: "string", default: "0" },
      "anonymous-limit": { type: "string", default: "60" },
      token: { type: "string" },
    },
  });
  const number = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) {
      console.error(`emulator: --${name} must be a non-negative integer, got '${v}'`);
      Deno.exit(2);
    }
    return n;
  };
  const gh = await startEmulator({
    port: number("port", values.port),
    latencyMs: number("latency", values.latency),
    anonymousLimit: number("anonymous-limit", values["anonymous-limit"]),
    token: values.token,
  });
  console.log(
    `api_url     = ${gh.apiUrl}\ngraphql_url = ${gh.graphqlUrl}\ntoken       = ${gh.token}`,
  );
  Deno.addSignalListener("SIGINT", async () => {
    await gh.close();
    Deno.exit(0);
  });
}
