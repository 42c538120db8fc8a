/**
 * A replay server for recorded api.github.com exchanges (npm
 * `@octokit/fixtures`, real GitHub answers): it answers rgraph's REST
 * requests with the recorded status, headers and body, so rgraph's REST
 * side is tried against what GitHub really said, not what the emulator was
 * written to say.
 *
 * How a request meets a recording: same method and path, and the same
 * `page` (none is page 1). Other query parameters are the recorder's own
 * (`per_page=3`, its search words) and are not compared — GitHub's answer
 * to rgraph's equivalent request has the recorded shape. `https://api.github.com`
 * in headers and bodies (`Link`, `Location`, URLs) is rewritten to this
 * server, so `Link` pages and the 301 of a renamed repository lead back
 * here. A request carrying the recorded `ETag` in `If-None-Match` is
 * answered `304 Not Modified`, as GitHub does. Anything not recorded is
 * GitHub's 404, and is logged.
 *
 * @example
 * ```ts
 * import { startReplay } from "./tests/replay/server.ts";
 * const replay = await startReplay(["get-repository"]);
 * await fetch(`${replay.apiUrl}/repos/octokit-fixture-org/hello-world`);
 * replay.log(); // ["GET /repos/octokit-fixture-org/hello-world 200"]
 * await replay.close();
 * ```
 * @module
 */

/** One recorded exchange, as `normalized-fixture.json` holds it. */
interface Recording {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string | number>;
}

/** A running replay server. */
export interface Replay {
  apiUrl: string;
  /** Each request answered: `METHOD path-and-query status`, in order. */
  log(): string[];
  close(): Promise<void>;
}

const GITHUB = "https://api.github.com";

/** The recordings of `scenario` (a folder of `@octokit/fixtures`' `scenarios/api.github.com`). */
async function recordings(scenario: string): Promise<Recording[]> {
  const name = `@octokit/fixtures/scenarios/api.github.com/${scenario}/normalized-fixture.json`;
  return (await import(name, { with: { type: "json" } })).default as Recording[];
}

function pageOf(url: URL): string {
  return url.searchParams.get("page") ?? "1";
}

/** Starts a server replaying the GET exchanges of `scenarios`. */
export async function startReplay(scenarios: string[]): Promise<Replay> {
  const recorded = (await Promise.all(scenarios.map(recordings))).flat()
    .filter((r) => r.method.toLowerCase() === "get");
  const log: string[] = [];
  let origin = "";
  const rewrite = (text: string) => text.split(GITHUB).join(origin);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    const found = recorded.find((r) => {
      const at = new URL(r.path, GITHUB);
      return req.method === "GET" && at.pathname === url.pathname && pageOf(at) === pageOf(url);
    });
    const answer = (status: number, body: string | null, headers: Headers) => {
      log.push(`${req.method} ${url.pathname}${url.search} ${status}`);
      return new Response(body, { status, headers });
    };
    if (!found) {
      return answer(
        404,
        JSON.stringify({ message: "Not Found", documentation_url: "https://docs.github.com/rest" }),
        new Headers({ "content-type": "application/json; charset=utf-8" }),
      );
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(found.headers)) {
      // Lengths and encodings of the recorded wire are not this body's.
      if (["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) {
        continue;
      }
      headers.set(k, rewrite(String(v)));
    }
    const etag = headers.get("etag");
    if (etag !== null && req.headers.get("if-none-match") === etag) {
      headers.delete("content-type");
      return answer(304, null, headers);
    }
    const body = typeof found.response === "string"
      ? found.response
      : JSON.stringify(found.response);
    return answer(found.status, rewrite(body), headers);
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return { apiUrl: origin, log: () => [...log], close: () => server.shutdown() };
}
