/**
 * The view's HTTP server: 127.0.0.1 only, one HTML page and a few JSON
 * answers, every request checked by `guard.ts` first (token, `Host`,
 * `Origin`, `Sec-Fetch-Site`), only `GET` and `HEAD`. Nothing is cached,
 * nothing is framed, no referrer leaves the page.
 *
 * Routes: `/?token=T` the page; with the token in the `X-Rgraph-Token`
 * header, `/api/change` (the change mark the page polls),
 * `/api/sessions?offset=`, `/api/memory?q=&offset=`, `/api/resource?address=` and
 * `/api/value`.
 *
 * @example
 * ```ts
 * import { startView } from "./server.ts";
 * const view = await startView({ port: 0, data, assets });
 * console.log(view.url); // http://127.0.0.1:PORT/?token=…
 * await view.close();
 * ```
 * @module
 */

import { firstLine, UserError } from "../errors.ts";
import { StoreUnavailableError } from "../store/mod.ts";
import type { ViewData } from "./data.ts";
import { admit, newToken, refusalResponse } from "./guard.ts";
import { type Assets, pageHtml, policyFor } from "./page.ts";

/** The port `rgraph view` tries first when none is asked for. */
export const DEFAULT_PORT = 4747;

/** How the server is started. */
export interface ViewOptions {
  /** The port to listen on; 0 for any free one; null for {@link DEFAULT_PORT}, else any free one. */
  port: number | null;
  data: ViewData;
  assets: Assets;
  /** The token to require (tests); a new random one by default. */
  token?: string;
}

/** A running view. */
export interface ViewServer {
  /** The URL to open, with the token. */
  url: string;
  port: number;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  close(): Promise<void>;
}

/** Headers of every answer, refusals included. */
const COMMON_HEADERS: Record<string, string> = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

function respond(status: number, body: string, type: string, extra: Record<string, string> = {}) {
  return new Response(body, {
    status,
    headers: { ...COMMON_HEADERS, "content-type": `${type}; charset=utf-8`, ...extra },
  });
}

function json(status: number, value: unknown): Response {
  return respond(status, JSON.stringify(value), "application/json");
}

/** Starts the view; throws a {@link UserError} when the asked port is taken. */
export async function startView(options: ViewOptions): Promise<ViewServer> {
  const token = options.token ?? newToken();
  const csp = await policyFor(options.assets);
  const page = pageHtml(options.assets, token);
  let port = 0;
  const handler = (req: Request) => handle(req, { port, token, csp, page, data: options.data });
  const listen = (p: number) =>
    Deno.serve({ hostname: "127.0.0.1", port: p, onListen: () => {} }, handler);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen(options.port ?? DEFAULT_PORT);
  } catch (e) {
    if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    if (options.port !== null) {
      throw new UserError(`port ${options.port} is in use (choose another with --port N)`);
    }
    server = listen(0);
  }
  port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    finished: server.finished,
    close: () => server.shutdown(),
  };
}

interface Context {
  port: number;
  token: string;
  csp: string;
  page: string;
  data: ViewData;
}

async function handle(req: Request, ctx: Context): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return respond(405, "rgraph view is read-only", "text/plain", { allow: "GET, HEAD" });
  }
  const url = new URL(req.url);
  const api = url.pathname.startsWith("/api/");
  const verdict = admit({
    host: req.headers.get("host"),
    origin: req.headers.get("origin"),
    fetchSite: req.headers.get("sec-fetch-site"),
    // The page's own fetches send it as a header: a cross-site page cannot
    // send one without asking first, and this server answers no such preflight.
    token: api ? req.headers.get("x-rgraph-token") : url.searchParams.get("token"),
  }, { port: ctx.port, token: ctx.token });
  if (!verdict.ok) {
    const r = refusalResponse(verdict.refusal);
    return respond(r.status, `${r.text}\n`, "text/plain");
  }
  if (!api) {
    return url.pathname === "/"
      ? respond(200, ctx.page, "text/html", { "content-security-policy": ctx.csp })
      : respond(404, "not found\n", "text/plain");
  }
  try {
    return await answer(url, ctx.data);
  } catch (e) {
    const status = e instanceof StoreUnavailableError ? 503 : 500;
    return json(status, { error: firstLine(e) });
  }
}

/** The `offset` parameter: a whole number, 0 when absent or anything else. */
function offsetOf(q: URLSearchParams): number {
  const n = Number(q.get("offset") ?? 0);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

async function answer(url: URL, data: ViewData): Promise<Response> {
  const q = url.searchParams;
  switch (url.pathname) {
    case "/api/change":
      return json(200, { mark: await data.change() });
    case "/api/sessions":
      return json(200, await data.sessions(offsetOf(q)));
    case "/api/memory":
      return json(200, await data.memory(q.get("q") ?? "", offsetOf(q)));
    case "/api/resource": {
      const page = await data.resource(q.get("address") ?? "");
      return page === null ? json(404, { error: "not in memory" }) : json(200, page);
    }
    case "/api/value":
      return json(200, await data.value(new Date()));
    default:
      return json(404, { error: "no such answer" });
  }
}
