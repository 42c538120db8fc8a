/**
 * Test helpers shared by the end-to-end suites: a throwaway home with its own
 * config file, and real `rgraph` processes run against it.
 *
 * @module
 */

import { DENO_FLAGS } from "../lib/install/mod.ts";
import { narrowTree } from "../lib/host/mod.ts";

/** Whether anything exists at a path (a marker file, a pause file). */
export { exists } from "../lib/install/install.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;

/** The output of one `rgraph` process. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A throwaway rgraph home: config file, data directory and environment. */
export interface Sandbox {
  dir: string;
  configPath: string;
  dbPath: string;
  env: Record<string, string>;
  /** Rewrites the config file (TOML text). */
  writeConfig(toml: string): Promise<void>;
  /** Runs `rgraph ARGS` as a real process, optionally feeding stdin. */
  rgraph(args: string[], options?: RunOptions): Promise<RunResult>;
  /** Removes the sandbox. */
  cleanup(): Promise<void>;
}

/** Options for {@link sandbox}. */
export interface SandboxOptions {
  /** `[identity] user_id`; `null` writes no identity. Default `"alice"`. */
  userId?: string | null;
  /** Extra TOML appended to the config file. */
  extra?: string;
}

/** The TOML of a sandbox config. */
export function configToml(dbPath: string, options: SandboxOptions = {}): string {
  const userId = options.userId === undefined ? "alice" : options.userId;
  const lines = [];
  if (userId !== null) lines.push(`[identity]\nuser_id = ${JSON.stringify(userId)}\n`);
  lines.push(`[store]\npath = ${JSON.stringify(dbPath)}\n`);
  if (options.extra) lines.push(options.extra);
  return lines.join("\n");
}

/** The Deno cache directory of this process (where its npm packages already are). */
function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? "/";
  if (Deno.build.os === "darwin") return `${home}/Library/Caches/deno`;
  return `${Deno.env.get("XDG_CACHE_HOME") ?? `${home}/.cache`}/deno`;
}

let cacheNarrowed = false;

/** Creates a sandbox with a config file naming its own database. */
export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // The Deno cache as `rgraph install` leaves it: Deno unpacks some npm packages with their
  // tarballs' 0666 modes, which doctor FAILs (code other users could rewrite).
  if (!cacheNarrowed) {
    cacheNarrowed = true;
    try {
      narrowTree(denoDir());
    } catch {
      // A cache this user may not change (read-only, another's): doctor's tests say so.
    }
  }
  const dir = await Deno.makeTempDir({ prefix: "rgraph-test-" });
  const configPath = `${dir}/config.toml`;
  // The default data directory under XDG_DATA_HOME, so a hook logs to one place whether or not it
  // could read the config (the data directory is the store's folder).
  const dbPath = `${dir}/data/rgraph/rgraph.db`;
  // 0600, as install makes it: it may hold a token, and doctor fails one others can read.
  await Deno.writeTextFile(configPath, configToml(dbPath, options), { mode: 0o600 });
  // Doctor runs installed commands with the emptied environment a harness gives them (no
  // DENO_DIR): the home's default Deno cache must be this run's cache too.
  const cacheHome = Deno.build.os === "darwin" ? `${dir}/Library/Caches` : `${dir}/.cache`;
  await Deno.mkdir(cacheHome, { recursive: true });
  await Deno.symlink(denoDir(), `${cacheHome}/deno`);
  const env: Record<string, string> = {
    RGRAPH_CONFIG: configPath,
    HOME: dir,
    XDG_CONFIG_HOME: `${dir}/xdg-config`,
    XDG_DATA_HOME: `${dir}/data`,
    NO_COLOR: "1",
    // HOME moves, so keep Deno's module cache where it is: otherwise every child re-downloads the npm packages.
    DENO_DIR: denoDir(),
  };
  return {
    dir,
    configPath,
    dbPath,
    env,
    writeConfig: (toml) => Deno.writeTextFile(configPath, toml, { mode: 0o600 }),
    rgraph: (args, o = {}) => runRgraph(args, { ...o, env: { ...env, ...o.env }, cwd: dir }),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * What Claude Code hands its PreToolUse hook for a Bash call of `command`:
 * recorded through `rgraph hook claude-code` it is one FETCHED Touch per
 * tool-call id.
 */
export function bashCallPayload(
  command: string,
  ids: { session: string; toolUse: string; cwd?: string },
): string {
  return JSON.stringify({
    session_id: ids.session,
    cwd: ids.cwd ?? "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: ids.toolUse,
  });
}

/** The permissions rgraph runs with from a checkout, so tests run it as harnesses do. */
export const RGRAPH_FLAGS = DENO_FLAGS;

/** How {@link runRgraph} runs a process. */
export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Subject the process to file permissions (read-only files and
   * directories), as a user's would be: as root it runs without the
   * capabilities that override them. See {@link permissionsEnforceable}.
   */
  unprivileged?: boolean;
}

/** Drops root's power to override file permissions for the command that follows. */
const SETPRIV = ["--bounding-set=-dac_override,-dac_read_search", "--"];

function onPath(command: string): boolean {
  const dirs = (Deno.env.get("PATH") ?? "").split(":").filter((d) => d !== "");
  return dirs.some((d) => {
    try {
      return Deno.statSync(`${d}/${command}`).isFile;
    } catch {
      return false;
    }
  });
}

/**
 * Whether `unprivileged` processes see file permissions: always for an
 * ordinary user; for root only through util-linux's `setpriv`.
 */
export function permissionsEnforceable(): boolean {
  return Deno.uid() !== 0 || onPath("setpriv");
}

/** Runs `rgraph ARGS` as a real process. */
export async function runRgraph(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const deno = [Deno.execPath(), "run", ...RGRAPH_FLAGS, MAIN, ...args];
  const [command, ...commandArgs] = options.unprivileged && Deno.uid() === 0
    ? ["setpriv", ...SETPRIV, ...deno]
    : deno;
  const child = new Deno.Command(command, {
    args: commandArgs,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: options.env,
    cwd: options.cwd,
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin)).catch(() => {});
    await w.close().catch(() => {});
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The command line that starts `rgraph` from this checkout (for MCP clients and harness configs). */
export function rgraphCommand(): { command: string; args: string[] } {
  return { command: Deno.execPath(), args: ["run", ...RGRAPH_FLAGS, MAIN] };
}

const ROOT_DIR = ROOT.replace(/\/$/, "");
const dec = new TextDecoder();

/** The checkout's files as a harness copies them into its plugin folder (tracked and new, not ignored). */
export async function pluginCopy(root: string): Promise<string> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: ROOT_DIR,
    stdout: "piped",
  }).output();
  for (const rel of dec.decode(listed.stdout).split("\0").filter((p) => p !== "")) {
    const to = `${root}/${rel}`;
    try {
      await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(`${ROOT_DIR}/${rel}`, to);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e; // deleted but still listed
    }
  }
  return root;
}

/**
 * Runs a plugin's launcher (`<root>/plugin/rgraph.sh ARGS`) as a harness's
 * hook or server command does: `/bin/sh`, only `env`, in `cwd` when given.
 */
export async function launcher(
  root: string,
  args: string[],
  env: Record<string, string>,
  stdin = "",
  cwd?: string,
): Promise<RunResult> {
  const child = new Deno.Command("/bin/sh", {
    args: [`${root}/plugin/rgraph.sh`, ...args],
    env,
    clearEnv: true,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * rgraph as a Claude Code plugin of `home`, enabled, as Claude Code leaves it
 * after installing it from a marketplace: the checkout copied into its
 * plugin cache, and recorded there and in the user's settings. Returns the
 * plugin's folder.
 */
export async function claudePluginInstalled(home: string): Promise<string> {
  const root = await pluginCopy(`${home}/.claude/plugins/cache/rgraph/rgraph/0.1.0`);
  await Deno.writeTextFile(
    `${home}/.claude/plugins/installed_plugins.json`,
    JSON.stringify({
      version: 2,
      plugins: { "rgraph@rgraph": [{ scope: "user", installPath: root, version: "0.1.0" }] },
    }),
  );
  await Deno.writeTextFile(
    `${home}/.claude/settings.json`,
    JSON.stringify({ enabledPlugins: { "rgraph@rgraph": true } }),
  );
  return root;
}
