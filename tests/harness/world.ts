/**
 * The world a real-harness test runs in: a temp HOME, a temp git project
 * whose `origin` is a GitHub repository, an rgraph config file where a user
 * would keep one, memory seeded by a real `rgraph sweep` against the GitHub
 * emulator, and rgraph installed into the project by a real `rgraph install`.
 *
 * rgraph is only ever run as a process, the way `rgraph install` writes
 * harness commands (`deno run <permissions> <checkout>/main.ts …`); nothing
 * here imports rgraph's modules.
 *
 * @module
 */

import { startEmulator } from "../emulator/mod.ts";

/** This checkout (with a trailing slash). */
export const ROOT = new URL("../../", import.meta.url).pathname;
/** This checkout, as the harnesses' plugin commands take it (no trailing slash). */
export const CHECKOUT = ROOT.replace(/\/$/, "");
/** The checkout's entry point, as `rgraph install` names it. */
export const MAIN = `${ROOT}main.ts`;

/** The permissions of `deno task rgraph` (deno.json), plus `--quiet` as installed commands have. */
function rgraphFlags(): string[] {
  const task: string = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).tasks.rgraph;
  const words = task.split(/\s+/);
  return [...words.slice(words.indexOf("run") + 1, words.indexOf("main.ts")), "--quiet"];
}

/** The argv that runs rgraph from this checkout. */
export const RGRAPH_ARGV = [Deno.execPath(), "run", ...rgraphFlags(), MAIN];

/** Where the harness binaries are: `RGRAPH_HARNESS_BIN_DIR`, else where `deno task test` caches them. */
export function harnessBinDir(): string {
  const explicit = Deno.env.get("RGRAPH_HARNESS_BIN_DIR");
  if (explicit) return explicit;
  const cache = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "/"}/.cache`;
  return `${cache}/rgraph-ci/harness/bin`;
}

/** One pinned harness (tests/harness/pins.txt, which `deno task test` installs). */
export interface Pin {
  harness: string;
  pkg: string;
  version: string;
  bin: string;
}

/** The pinned harnesses. */
export function pins(): Pin[] {
  const text = Deno.readTextFileSync(new URL("./pins.txt", import.meta.url));
  return text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#")).map((l) => {
    const [harness, pkg, version, bin] = l.trim().split(/\s+/);
    return { harness, pkg, version, bin };
  });
}

/** A harness's pin and the path of its binary, or null when it is not installed. */
export function locate(harness: string): { pin: Pin; path: string | null } {
  const pin = pins().find((p) => p.harness === harness);
  if (!pin) throw new Error(`no pin for ${harness} in tests/harness/pins.txt`);
  const path = `${harnessBinDir()}/${pin.bin}`;
  try {
    Deno.statSync(path);
    return { pin, path };
  } catch {
    return { pin, path: null };
  }
}

/** The Deno module cache of this process, so hooks under a temp HOME do not download rgraph's npm deps. */
function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? "/";
  if (Deno.build.os === "darwin") return `${home}/Library/Caches/deno`;
  return `${Deno.env.get("XDG_CACHE_HOME") || `${home}/.cache`}/deno`;
}

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/** The `node` on this process's PATH (the harness packages are node programs). */
function nodeDir(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      Deno.statSync(`${dir}/node`);
      return dir;
    } catch {
      // not here
    }
  }
  return null;
}

/** The output of one process. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

const dec = new TextDecoder();

/**
 * Runs `argv` in its own process group (setsid), bounded by `timeoutMs`: on
 * timeout the whole group is killed. Whatever it left running in its group
 * (MCP servers, hooks) is killed when it exits.
 */
export async function run(
  argv: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number; stdin?: string },
): Promise<Run> {
  const started = Date.now();
  const child = new Deno.Command("setsid", {
    args: argv,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const killGroup = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin)).catch(() => {});
    await w.close().catch(() => {});
  }
  try {
    const out = await child.output();
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      ms: Date.now() - started,
      timedOut,
    };
  } finally {
    clearTimeout(timer);
    killGroup();
  }
}

/** One Touch as `rgraph touches --json` prints it. */
export interface TouchJson {
  address: string;
  kind: string;
  provenance: string;
  status: string;
  session_id: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  recorded_at: string;
  harness: string | null;
  tool_name: string | null;
  reason: string | null;
  outcome: string | null;
}

/**
 * Where the user keeps rgraph's config and data — three kinds of user:
 * - `default`: `$HOME/.config/rgraph/config.toml`, no rgraph or XDG variables;
 * - `RGRAPH_CONFIG`: a config file elsewhere, named by `RGRAPH_CONFIG`;
 * - `XDG_DATA_HOME`: the default config file naming its store, with
 *   `XDG_DATA_HOME` set (so the data directory is not under HOME).
 */
export type Variant = "default" | "RGRAPH_CONFIG" | "XDG_DATA_HOME";

/** Options of {@link makeWorld}. */
export interface WorldOptions {
  harness: string;
  variant: Variant;
}

/** A prepared world. */
export interface World {
  root: string;
  home: string;
  project: string;
  configPath: string;
  /** The data directories a process might use: `$XDG_DATA_HOME/rgraph` (when set) and the HOME default. */
  dataDirs: string[];
  /** The environment of the harness (and of rgraph commands run as the user). */
  env: Record<string, string>;
  /** Runs `rgraph ARGS` in the project as the user. */
  rgraph(args: string[], options?: { stdin?: string; env?: Record<string, string> }): Promise<Run>;
  /** The user's Touches. */
  touches(): Promise<TouchJson[]>;
  /** Every `hook.log` line in the data directories. */
  hookLog(): string;
  cleanup(): Promise<void>;
}

/** The GitHub repository the project's `origin` names, and the items memory holds. */
export const REPO = "lumendb/lumen";
/** An issue in memory that the scripted shell command fetches (so the hook has a Nudge for it). */
export const FETCHED_ISSUE = 5;
/** An issue in memory that the prompt links and the scripted `resource` call asks for. */
export const LINKED_ISSUE = 8;

/** Makes the world: HOME, project, config, seeded memory; rgraph is not installed yet. */
export async function makeWorld(options: WorldOptions): Promise<World> {
  const root = await Deno.makeTempDir({ prefix: `rgraph-harness-${options.harness}-` });
  try {
    return await build(root, options);
  } catch (e) {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    throw e;
  }
}

async function build(root: string, options: WorldOptions): Promise<World> {
  const home = `${root}/home`;
  const project = `${root}/project`;
  await Deno.mkdir(`${home}/.cache`, { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  // Harnesses that pass their MCP servers only an allow-listed environment (Codex) drop DENO_DIR:
  // the temp HOME's default Deno cache must be this run's cache too.
  await Deno.symlink(denoDir(), `${home}/.cache/deno`);
  await Deno.mkdir(`${root}/tmp`);
  const v = options.variant;
  const configPath = v === "RGRAPH_CONFIG"
    ? `${root}/etc/rgraph.toml`
    : `${home}/.config/rgraph/config.toml`;
  const xdgData = `${root}/xdg-data`;
  const dataDirs = v === "XDG_DATA_HOME"
    ? [`${xdgData}/rgraph`, `${home}/.local/share/rgraph`]
    : [`${home}/.local/share/rgraph`];
  const bin = harnessBinDir();
  const path = [
    dirname(Deno.execPath()),
    ...(nodeDir() ? [nodeDir()!] : []),
    bin,
    "/usr/local/bin",
    "/usr/bin",
    "/bin",
  ];
  const env: Record<string, string> = {
    HOME: home,
    PATH: [...new Set(path)].join(":"),
    // HOME moves: keep Deno's module cache where this run has it, or every hook downloads npm packages.
    DENO_DIR: denoDir(),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    USER: "rgraph-tester",
    // Harnesses' own scratch files (sockets, notes) land in this world and go with it.
    TMPDIR: `${root}/tmp`,
    ...(v === "RGRAPH_CONFIG" ? { RGRAPH_CONFIG: configPath } : {}),
    ...(v === "XDG_DATA_HOME" ? { XDG_DATA_HOME: xdgData } : {}),
  };

  const rgraph: World["rgraph"] = (args, o = {}) =>
    run([...RGRAPH_ARGV, ...args], {
      cwd: project,
      env: { ...env, ...o.env },
      timeoutMs: 120_000,
      stdin: o.stdin,
    });

  await mustRun(["git", "init", "-q", "-b", "main"], project, env);
  await mustRun(["git", "remote", "add", "origin", `https://github.com/${REPO}.git`], project, env);

  // Memory: a PROMPTED Touch of both issues, then a real Sweep against the GitHub emulator.
  const gh = await startEmulator();
  try {
    await Deno.mkdir(dirname(configPath), { recursive: true });
    // XDG_DATA_HOME: the config names the store, so only the data directory (hook notes, logs) moves.
    const store = v === "XDG_DATA_HOME"
      ? `[store]\npath = ${JSON.stringify(`${root}/store/rgraph.db`)}\n\n`
      : "";
    await Deno.writeTextFile(
      configPath,
      `[identity]\nuser_id = "alice"\n\n${store}[github]\ntoken = "${gh.token}"\n` +
        `api_url = "${gh.apiUrl}"\ngraphql_url = "${gh.graphqlUrl}"\n`,
      // It holds a token: owner-only, as rgraph writes it (doctor fails a config others can read).
      { mode: 0o600 },
    );
    const seed = await rgraph(["hook", "claude-code"], {
      stdin: JSON.stringify({
        session_id: "seed-session",
        transcript_path: `${home}/seed.jsonl`,
        cwd: project,
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: `Remember https://github.com/${REPO}/issues/${FETCHED_ISSUE} and ` +
          `https://github.com/${REPO}/issues/${LINKED_ISSUE}`,
      }),
    });
    if (seed.code !== 0) throw new Error(`seed hook failed: ${seed.stderr}`);
    const sweep = await rgraph(["sweep", "--json"]);
    if (sweep.code !== 0) throw new Error(`seed sweep failed: ${sweep.stdout}${sweep.stderr}`);
  } catch (e) {
    await gh.close();
    throw e;
  }

  const world: World = {
    root,
    home,
    project,
    configPath,
    dataDirs,
    env,
    rgraph,
    touches: async () => {
      const r = await rgraph(["touches", "--json"]);
      if (r.code !== 0) throw new Error(`rgraph touches failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as TouchJson[];
    },
    hookLog: () =>
      dataDirs.map((d) => {
        try {
          return Deno.readTextFileSync(`${d}/hook.log`);
        } catch {
          return "";
        }
      }).join(""),
    // GitHub stays up for the world's life: the Sweeps a session's end starts fetch from it.
    cleanup: async () => {
      await gh.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  const seeded = (await world.touches()).filter((t) => t.session_id === "seed-session");
  if (seeded.length !== 2 || seeded.some((t) => t.status !== "resolved")) {
    throw new Error(`memory was not seeded: ${JSON.stringify(seeded)}`);
  }
  return world;
}

async function mustRun(argv: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const r = await run(argv, { cwd, env, timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
}

/** Polls `f` until `ok` or `ms` pass; returns the last value. */
export async function waitFor<T>(
  f: () => Promise<T>,
  ok: (t: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await f();
    if (ok(t) || Date.now() > deadline) return t;
    await new Promise((r) => setTimeout(r, 250));
  }
}
