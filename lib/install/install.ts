/**
 * `rgraph install` / `rgraph uninstall`: plans every file change for one
 * harness (reading the files, changing nothing), then applies the plan. A
 * file that cannot be parsed stops the whole plan before anything is written.
 *
 * @example
 * ```ts
 * import { applyPlan, makePlan } from "./install.ts";
 * const plan = await makePlan("install", "claude-code", { scope: "project", dir: "/repo" });
 * await applyPlan(plan); // writes .claude/settings.json and .mcp.json
 * ```
 * @module
 */

import { userInfo } from "node:os";
import pluginSource from "./opencode_plugin.js" with { type: "text" };
import { configPath, loadConfig } from "../config/mod.ts";
import { UserError } from "../errors.ts";
import {
  createPrivateFile,
  PRIVATE_FILE_MODE,
  privateDir,
  replaceFile,
  UnsafePathError,
} from "../host/mod.ts";
import { type HookBundleRef, type Invocation, invocation } from "./command.ts";
import {
  buildHookBundle,
  BUNDLE_ENTRY,
  bundleDir,
  type BundleSpec,
  cacheDependencies,
  type Checkout,
} from "./hook_bundle.ts";
import { unifiedDiff } from "./diff.ts";
import {
  type Context,
  type HarnessId,
  resolveAlternates,
  type Scope,
  type Target,
  targetsFor,
} from "./harnesses.ts";
import { ensureKey, parseToml } from "./formats/mod.ts";

export { HARNESS_IDS, type HarnessId, HOOK_EVENTS, type Scope } from "./harnesses.ts";

/** One file's change. `null` means the file is (or becomes) absent. */
export interface Change {
  path: string;
  before: string | null;
  after: string | null;
  what: (Target["what"] | "config")[];
}

/** Every change one install or uninstall makes, and what the user should know. */
export interface Plan {
  action: "install" | "uninstall";
  harness: HarnessId;
  scope: Scope;
  /** The directory the plan works under (project dir or home): emptied directories below it are removed. */
  root: string;
  changes: Change[];
  notes: string[];
  /** The hook bundle to build before the files are written, when the hooks run one. */
  bundle: BundleSpec | null;
  /** The checkout harnesses will run (`deno run … main.ts`), whose dependencies install caches. */
  checkout: Checkout | null;
}

/** Where and how: defaults are the current directory, `$HOME` and this process's own rgraph. */
export interface PlanOptions {
  scope: Scope;
  dir?: string;
  home?: string;
  env?: Record<string, string | undefined>;
  /** `--command`: the command line harnesses run instead of this rgraph. */
  command?: string;
}

function envOf(): Record<string, string | undefined> {
  const pick = [
    "HOME",
    "CODEX_HOME",
    "COPILOT_HOME",
    "GROK_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "USER",
    "LOGNAME",
  ];
  return Object.fromEntries(pick.map((k) => [k, Deno.env.get(k)]));
}

/**
 * The hook bundle of this rgraph, when there can be one: a checkout run by
 * `deno run` on a system whose harnesses run hooks through a POSIX shell,
 * with no `--command`, and a config that says where the data directory is.
 */
function bundleRef(argv: string[], command: string | undefined): HookBundleRef | undefined {
  const main = argv.at(-1);
  if (command !== undefined || Deno.build.os === "windows" || argv[1] !== "run" || !main) {
    return undefined;
  }
  let dataDir: string;
  try {
    dataDir = loadConfig(configPath()).data_dir;
  } catch {
    return undefined; // the config problem is reported on its own
  }
  return { deno: argv[0], entry: `${bundleDir(dataDir, main)}/${BUNDLE_ENTRY}` };
}

/** The invocation harnesses run: `--command`, else this binary or this checkout's main.ts. */
function ownInvocation(command?: string): Invocation {
  const inv = invocation({
    execPath: Deno.execPath(),
    // The entry this process was started from: main.ts in a checkout, or the
    // module a `deno install -g` shim runs.
    mainUrl: Deno.mainModule,
    override: command,
    config: configPath(),
  });
  const bundle = bundleRef(inv.argv, command);
  return bundle ? { ...inv, bundle } : inv;
}

/** The context of a plan: resolved directories, environment and invocation. */
export function contextFor(options: PlanOptions): Context {
  const env = options.env ?? envOf();
  const home = options.home ?? env.HOME ?? Deno.env.get("HOME");
  if (!home) throw new UserError("HOME is not set: cannot find the user's config directory");
  return {
    scope: options.scope,
    dir: absolute(options.dir ?? Deno.cwd()),
    home: absolute(home),
    env,
    invocation: ownInvocation(options.command),
    pluginSource,
  };
}

function absolute(path: string): string {
  const p = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  return p.replace(/\/+$/, "") || "/";
}

function isSymlink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

/** Whether a path exists (any kind of file). */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function read(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new UserError(
      `cannot read ${path}: ${(e as Error).message.split("\n")[0]}; nothing was changed`,
    );
  }
}

/** The targets of one harness in a context, alternates resolved against the disk. */
export function resolvedTargets(harness: HarnessId, ctx: Context): Target[] {
  return targetsFor(harness, ctx).map((t) => resolveAlternates(t, exists));
}

/** `path` resolved through every link, or through its nearest existing folder when it is not there yet. */
function realLocation(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    const up = dirname(path);
    const base = path.slice(up.length + 1);
    return up === path ? path : `${realLocation(up)}/${base}`;
  }
}

/**
 * Refuses a project file whose path leads outside the project through a
 * link (a cloned repository's `.mcp.json` → `~/.bashrc`, a `.claude` folder
 * linked elsewhere): a project install writes only inside the project. A
 * user-scope file keeps its link (dotfiles), as the person made it.
 */
function insideProject(project: string, path: string): void {
  const root = realLocation(project);
  const real = realLocation(path);
  if (real === root || real.startsWith(`${root}/`)) return;
  throw new UserError(
    `${path} leads outside the project (to ${real}) through a symbolic link: a project install ` +
      `writes only inside the project; remove the link, or install with --scope user; no file was changed`,
  );
}

/** Plans an install or uninstall; reads files, writes nothing. */
export function makePlan(action: Plan["action"], harness: HarnessId, options: PlanOptions): Plan {
  const ctx = contextFor(options);
  const byPath = new Map<string, Target[]>();
  for (const t of resolvedTargets(harness, ctx)) {
    byPath.set(t.path, [...byPath.get(t.path) ?? [], t]);
  }
  const changes: Change[] = [];
  for (const [path, targets] of byPath) {
    if (ctx.scope === "project") insideProject(ctx.dir, path);
    const before = read(path);
    let after = before;
    try {
      for (const t of targets) {
        if (action === "install") after = t.install(after);
        else if (after !== null) after = t.uninstall(after);
      }
      // A file left with only rgraph's scaffolding is one rgraph created: it
      // goes — unless it is a symlink, which only a person makes.
      if (
        action === "uninstall" && after !== null && after !== before &&
        targets.every((t) => t.leftover(after!)) && !isSymlink(path)
      ) after = null;
    } catch (e) {
      const why = String((e as Error).message ?? e).split("\n")[0];
      throw new UserError(`cannot ${action} ${harness}: ${path}: ${why}; no file was changed`);
    }
    if (after !== before) changes.push({ path, before, after, what: targets.map((t) => t.what) });
  }
  const notes = action === "install" ? notesFor(harness, ctx, byPath) : [];
  const ref = ctx.invocation.bundle;
  // OpenCode's plugin runs the normal command: it does not wait for most hooks.
  const bundle: BundleSpec | null = action === "install" && harness !== "opencode" && ref
    ? {
      deno: ref.deno,
      checkout: dirname(ctx.invocation.argv.at(-1)!),
      dir: dirname(ref.entry),
      fallback: ctx.invocation.argv,
    }
    : null;
  const argv = ctx.invocation.argv;
  const main = argv.at(-1);
  const checkout = action === "install" && argv[1] === "run" && main?.endsWith("/main.ts")
    ? { deno: argv[0], checkout: dirname(main) }
    : null;
  if (action === "install") {
    const config = configChange(ctx);
    if (config.change) changes.push(config.change);
    if (config.note) notes.unshift(config.note);
  }
  return {
    action,
    harness,
    scope: ctx.scope,
    root: ctx.scope === "project" ? ctx.dir : ctx.home,
    changes,
    notes,
    bundle,
    checkout,
  };
}

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/**
 * rgraph's own config, so that one install leaves a working setup: created
 * with an identity (the login name) when there is no config file; a note when
 * the file exists without one, or when there is no login name to write.
 * Where `XDG_DATA_HOME` moves the default store, the file is made to name it
 * (`[store] path`): Codex and Gemini CLI under CI do not pass that variable
 * to hooks and MCP servers, which would otherwise use another store.
 * Uninstall leaves it: every harness shares it.
 */
function configChange(ctx: Pick<Context, "env" | "home">): { change?: Change; note?: string } {
  const path = configPath();
  let config;
  try {
    config = loadConfig(path);
  } catch (e) {
    return {
      note: `${(e as Error).message.split("\n")[0]}: hooks record nothing until it is fixed.`,
    };
  }
  const unset =
    `set [identity] user_id in ${path} to a name unique on your team — hooks record nothing until then.`;
  const pin = ctx.env.XDG_DATA_HOME ? storePin(config.store.path, ctx.home) : null;
  const pinNote =
    `${path} names its store now ([store] path): XDG_DATA_HOME is set here, and Codex and Gemini CLI do not pass it to hooks and MCP servers.`;
  if (!config.exists) {
    const user = loginName(ctx);
    const header = "# rgraph's config (see the README for every key).\n";
    const store = pin === null ? "" : `\n[store]\npath = ${JSON.stringify(pin)}\n`;
    // No placeholder identity: a name two people share would merge their private Touches on a team store.
    if (user === null) {
      return {
        change: {
          path,
          before: null,
          after: `${header}[identity]\n# user_id = "<your name>"\n${store}`,
          what: ["config"],
        },
        note:
          `no login name found (USER and LOGNAME are unset and the system account could not be read): ${unset}`,
      };
    }
    return {
      change: {
        path,
        before: null,
        after: `${header}[identity]\nuser_id = ${JSON.stringify(user)}\n${store}`,
        what: ["config"],
      },
      ...(pin === null ? {} : { note: pinNote }),
    };
  }
  const idNote = config.identity.user_id ? undefined : `no identity configured: ${unset}`;
  const before = read(path);
  if (pin === null || before === null) return idNote ? { note: idNote } : {};
  let edit;
  try {
    edit = ensureKey(before, "store", "path", pin);
  } catch (e) {
    const why = `${(e as Error).message.split("\n")[0]}: set [store] path = ${
      JSON.stringify(pin)
    } by hand`;
    return { note: idNote ? `${idNote} ${why}` : why };
  }
  const { text, existing } = edit;
  if (existing !== undefined) return idNote ? { note: idNote } : {};
  return {
    change: { path, before, after: text, what: ["config"] },
    note: idNote ? `${idNote} ${pinNote}` : pinNote,
  };
}

/**
 * A plugin's first run: writes rgraph's config, with the login name as
 * identity, when there is none (what `rgraph install` writes); returns its
 * path, or null when there was one already. Both the plugin's session start
 * (`rgraph plugin-start`) and its MCP server (`rgraph serve-mcp --plugin`)
 * call it, whichever the harness starts first.
 */
export function writeFirstConfig(): string | null {
  const env = envOf();
  const { change } = configChange({ env, home: env.HOME ?? "/" });
  if (!change || change.before !== null || change.after === null) return null;
  privateDir(dirname(change.path));
  // A plugin's session start and its MCP server (or a second session) race to write it: the first
  // one stands, and the other never reads it half written.
  return createPrivateFile(change.path, change.after) ? change.path : null;
}

/** The store path to write into the config (`~/…` under the home), as the default resolves it here. */
function storePin(storePath: string, home: string): string {
  return storePath.startsWith(`${home}/`) ? `~/${storePath.slice(home.length + 1)}` : storePath;
}

/** The user's login name: USER, LOGNAME, then the system account; null when none is known. */
function loginName(ctx: Pick<Context, "env">): string | null {
  const fromEnv = ctx.env.USER || ctx.env.LOGNAME;
  if (fromEnv) return fromEnv;
  try {
    return userInfo().username || null;
  } catch {
    // No passwd entry for this uid, or no permission to ask.
    return null;
  }
}

/** What a user must do or know after installing into this harness. */
function notesFor(harness: HarnessId, ctx: Context, byPath: Map<string, Target[]>): string[] {
  const notes: string[] = [];
  const project = ctx.scope === "project";
  if (harness === "claude-code" && project) {
    notes.push(
      "Claude Code asks you to approve the project's MCP servers (.mcp.json) the first time.",
    );
  }
  if (harness === "codex") {
    notes.push(
      "Codex runs new hooks only after you trust them (/hooks in Codex)" +
        (project ? " and reads .codex/ only in a trusted project." : "."),
    );
    for (const path of byPath.keys()) {
      const text = path.endsWith(".toml") ? read(path) : null;
      const features = text === null
        ? undefined
        : parseToml(text).features as Record<string, unknown> | undefined;
      if (features && (features.hooks === false || features.codex_hooks === false)) {
        notes.push(
          `${path} switches hooks off ([features]): Codex will not run rgraph's hooks until you set hooks = true.`,
        );
      }
    }
  }
  if (harness === "gemini" && project) {
    notes.push("Gemini CLI applies project settings only in a trusted folder.");
  }
  if (harness === "grok" && project) {
    notes.push("Grok Build runs project hooks after /hooks-trust (or --trust).");
  }
  // Grok reads Claude Code's and Cursor's hook files too, and Cursor can read
  // Claude Code's: the same tool call then reaches rgraph twice.
  const alsoRuns: Partial<Record<HarnessId, HarnessId[]>> = {
    grok: ["claude-code", "cursor"],
    cursor: ["claude-code"],
  };
  for (const other of alsoRuns[harness] ?? []) {
    if (hasRgraphHooks(other, ctx)) {
      notes.push(
        `${harness} also runs ${other}'s hooks, where rgraph is installed too: ` +
          `its tool calls may be recorded twice (uninstall one if you see doubles in 'rgraph touches').`,
      );
    }
  }
  if (harness === "opencode") notes.push("Restart OpenCode to load the plugin.");
  return notes;
}

/** Whether rgraph's hooks are installed for `harness` in this context. */
function hasRgraphHooks(harness: HarnessId, ctx: Context): boolean {
  return resolvedTargets(harness, ctx).some((t) => {
    const text = t.what === "hooks" ? read(t.path) : null;
    try {
      return text !== null && Object.values(t.inspect(text).hooks ?? {}).some((c) => c !== null);
    } catch {
      return false;
    }
  });
}

/** The unified diff of every change in a plan. */
export function planDiff(plan: Plan): string {
  return plan.changes.map((c) => unifiedDiff(relative(plan.root, c.path), c.before, c.after)).join(
    "",
  );
}

/** `path` relative to `root` when inside it. */
export function relative(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/**
 * Writes a plan: the hook bundle first (its hooks need it) and the
 * checkout's dependencies in the Deno caches, then the files
 * atomically (a fresh, exclusively created name beside each, then renamed), removed files' emptied directories
 * pruned. Returns what the user should know about the bundle: a bundle that
 * cannot be built leaves the hooks on the normal command, which they run
 * whenever the bundle's file is missing.
 */
export async function applyPlan(plan: Plan): Promise<string[]> {
  const notes: string[] = [];
  if (plan.bundle) {
    try {
      const done = await buildHookBundle(plan.bundle);
      if (done === "built") notes.push(`built the hook bundle in ${plan.bundle.dir}`);
    } catch (e) {
      // A bundle folder others may write could hold their code, which hooks would go on running
      // (they run the bundle whenever its file is there): nothing is installed until it is fixed.
      if (e instanceof UnsafePathError) throw e;
      notes.push(
        `the hook bundle could not be built (${
          (e as Error).message.split("\n")[0]
        }): hooks run the normal, slower command`,
      );
    }
  }
  if (plan.checkout) {
    try {
      await cacheDependencies(plan.checkout);
    } catch (e) {
      notes.push(
        `rgraph's dependencies could not be cached (${
          (e as Error).message.split("\n")[0]
        }): the first start of its MCP server downloads them`,
      );
    }
  }
  for (const c of plan.changes) {
    // Checked again: a link made since the plan must not take the write outside either.
    if (plan.scope === "project" && !c.what.includes("config")) insideProject(plan.root, c.path);
    const dir = c.path.slice(0, c.path.lastIndexOf("/"));
    if (c.after === null) {
      await Deno.remove(c.path).catch((e) => {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      });
      await pruneEmpty(dir, plan.root);
      continue;
    }
    // rgraph's config folder (and any parent it makes) is its owner's alone, whatever the umask: a
    // folder group may write lets another user swap the config; harness folders take the umask's.
    if (c.what.includes("config")) privateDir(dir);
    else await Deno.mkdir(dir, { recursive: true });
    // A symlinked config (dotfiles) keeps its link: the file it points at is replaced.
    const path = c.before === null ? c.path : await Deno.realPath(c.path);
    // rgraph's config will hold a GitHub token: readable by its owner only. An existing file keeps
    // its own mode; a new harness file takes the umask's.
    const mode = c.before !== null
      ? ((await Deno.stat(path)).mode ?? 0o644) & 0o7777
      : c.what.includes("config")
      ? PRIVATE_FILE_MODE
      : undefined;
    // Never at a name a cloned repository could have planted a link at (issue 26).
    replaceFile(path, c.after, mode);
  }
  return notes;
}

/** Removes `dir` and its parents while empty, stopping at `root`. */
async function pruneEmpty(dir: string, root: string): Promise<void> {
  while (dir.startsWith(`${root}/`)) {
    try {
      await Deno.remove(dir);
    } catch {
      return;
    }
    dir = dir.slice(0, dir.lastIndexOf("/"));
  }
}
