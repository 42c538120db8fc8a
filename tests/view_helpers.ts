/**
 * Helpers of the `rgraph view` tests: a real `rgraph view` process on a
 * sandbox, raw HTTP requests (whose `Host` a test chooses, as a rebinding
 * page's browser would send it), and headless Debian chromium driven by
 * puppeteer-core (no browser download).
 *
 * @example
 * ```ts
 * const view = await startView(sb);
 * const r = await rawGet(view.port, "/", { host: `127.0.0.1:${view.port}` });
 * await view.stop();
 * ```
 * @module
 */

import puppeteer, { type Browser } from "puppeteer-core";
import type { Sandbox } from "./helpers.ts";
import { RGRAPH_FLAGS } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A running `rgraph view`. */
export interface RunningView {
  url: string;
  port: number;
  token: string;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, then its exit code and the rest of its output. */
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `rgraph view --no-open --port 0 ARGS` on `sb` and waits for its URL. */
export async function startView(
  sb: Sandbox,
  args: string[] = ["--no-open", "--port", "0"],
  env: Record<string, string> = {},
): Promise<RunningView> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RGRAPH_FLAGS, MAIN, "view", ...args],
    env: { ...sb.env, ...env },
    cwd: sb.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "", stderr = "";
  const pump = async (stream: ReadableStream<Uint8Array>, to: (s: string) => void) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) to(dec.decode(chunk, { stream: true }));
  };
  const pumped = Promise.all([
    pump(child.stdout, (s) => (stdout += s)),
    pump(child.stderr, (s) => (stderr += s)),
  ]);
  const deadline = Date.now() + 30_000;
  let match: RegExpMatchArray | null = null;
  while ((match = stdout.match(/http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/)) === null) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`rgraph view printed no URL:\n${stdout}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: match[0],
    port: Number(match[1]),
    token: match[2],
    output: () => stdout + stderr,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already exited.
      }
      const status = await child.status;
      await pumped;
      return { code: status.code, stdout, stderr };
    },
  };
}

/** An HTTP answer as read off the socket. */
export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * One `METHOD path` request to 127.0.0.1:`port` with exactly `headers`
 * (`Host` included, as the test writes it), over a fresh connection.
 */
export async function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = [`${method} ${path} HTTP/1.1`, "connection: close"];
  for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
  await conn.write(new TextEncoder().encode(head.join("\r\n") + "\r\n\r\n"));
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(65536);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) break;
    chunks.push(buf.slice(0, n));
  }
  conn.close();
  const text = new TextDecoder().decode(
    chunks.reduce((a, c) => {
      const out = new Uint8Array(a.length + c.length);
      out.set(a);
      out.set(c, a.length);
      return out;
    }, new Uint8Array()),
  );
  const [top, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = top.split("\r\n");
  const map = new Map<string, string>();
  for (const l of lines) {
    const i = l.indexOf(":");
    map.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
  }
  let body = rest.join("\r\n\r\n");
  if (map.get("transfer-encoding") === "chunked") body = unchunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers: map, body };
}

function unchunk(body: string): string {
  let out = "", rest = body;
  for (;;) {
    const i = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, i), 16);
    if (!size) return out;
    out += rest.slice(i + 2, i + 2 + size);
    rest = rest.slice(i + 2 + size + 2);
  }
}

/** A GET with `headers`. */
export function rawGet(port: number, path: string, headers: Record<string, string>) {
  return rawRequest(port, "GET", path, headers);
}

/** Debian's chromium, where `deno task test` installs it when missing. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether the system browser is installed (the browser tests need it). */
export function haveChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/** Launches the system chromium headless (as root it needs --no-sandbox). */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...(Deno.uid() === 0 ? ["--no-sandbox"] : []), "--no-first-run", "--disable-gpu"],
  });
}
