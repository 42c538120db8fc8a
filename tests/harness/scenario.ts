/**
 * The one scenario every real-harness test runs, and what it asserts.
 *
 * Each test: a fresh {@link World} (temp HOME and git project, rgraph config
 * where the variant's user keeps it, memory seeded by a real Sweep), a real
 * `rgraph install <harness> --scope project`, the harness's own setup as its
 * user does it (provider config, trust), then one headless session of the
 * harness's own npm binary against the scripted {@link startModelServer}:
 * the prompt links issue #8, the scripted model runs `gh issue view 5 …` in
 * the harness's shell tool, then asks rgraph's `resource` tool for #8 under
 * the name the harness presents it, then answers.
 *
 * Every assertion is one `t.step`, so a run lists exactly which behaviour
 * holds. Assertions marked "issue 11:" check what issue 11 requires of rgraph
 * and are expected to fail until it is done; they are never weakened to pass.
 *
 * A harness binary that is missing is an ignored test, unless `CI=true`: then
 * it fails loudly (`deno task test` installs them).
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  type Api,
  type ModelServer,
  type RecordedRequest,
  startModelServer,
  type Step,
} from "./model_server.ts";
import {
  FETCHED_ISSUE,
  harnessBinDir,
  LINKED_ISSUE,
  locate,
  makeWorld,
  type Pin,
  REPO,
  type Run,
  run,
  type TouchJson,
  type Variant,
  waitFor,
  type World,
} from "./world.ts";

const IN_CI = Deno.env.get("CI") === "true";
/** Keep each world (and write the requests the model received into it) for a post-mortem. */
const KEEP = Deno.env.get("RGRAPH_HARNESS_KEEP") === "1";

/** The prompt of every session: a GitHub link, as a person pastes one. */
export const PROMPT = `look at https://github.com/${REPO}/issues/${LINKED_ISSUE}`;
/** What marks the scripted conversation in a request. */
const MARKER = `${REPO}/issues/${LINKED_ISSUE}`;
/** The scripted shell command: a FETCHED Touch of #5, which memory holds (so it earns a Nudge). */
export const GH_COMMAND = `gh issue view ${FETCHED_ISSUE} -R ${REPO} --comments`;
/** The scripted `resource` argument. */
export const RESOURCE_ADDRESS = `${REPO}#${LINKED_ISSUE}`;
/** The scripted final answer. */
export const FINAL_TEXT = "Done: issue 8 is about a Bolt server memory leak.";

/** The session hint's opening words (the one line rgraph adds at session start). */
const HINT = /rgraph: before fetching a GitHub issue/;
/** The Nudge for #5, which memory holds. */
const NUDGE = new RegExp(`${REPO}#${FETCHED_ISSUE} is in memory`);
/** How every `resource` answer of an item in memory starts. */
const HIT = `rgraph: hit github:${REPO}#${LINKED_ISSUE}`;

/** One way of running a harness's test: where the user keeps rgraph's config, plus extra env. */
export interface VariantSpec {
  variant: Variant;
  /** Shown in the test name. */
  label: string;
  /** Extra environment of the harness process (e.g. a CI-like `GITHUB_SHA`). */
  env?: Record<string, string>;
  /**
   * `plugin`: rgraph installed through the harness's own plugin command from
   * this checkout ({@link HarnessSpec.plugin}) instead of `rgraph install`.
   */
  via?: "plugin";
  /**
   * A new user (with `via: "plugin"`): the world's config is taken away before the first session,
   * so the plugin writes it (identity from the login name) while the harness starts its hooks and
   * MCP server; memory stays the world's, seeded before.
   */
  firstRun?: true;
}

/** A new user's first plugin session: the same in every suite that has a plugin. */
export const FIRST_PLUGIN_SESSION: VariantSpec = {
  variant: "default",
  label: "a new user's first session through its plugin (no rgraph config yet)",
  via: "plugin",
  firstRun: true,
};

/** rgraph as the harness's plugin, installed from this checkout as a user installs it. */
export interface PluginSpec {
  /** The scripted turns, with rgraph's tool named as the harness presents a plugin's. */
  steps: Step[];
  presentedTool: string;
  /** The harness's own commands that add the plugin (offline, from the local checkout). */
  install(ctx: Ctx): Promise<void>;
  /** The harness's own commands that remove it (and its marketplace). */
  uninstall(ctx: Ctx): Promise<void>;
  /** The harness's files and folders (relative to HOME) where nothing of rgraph's may stay. */
  harnessFiles: string[];
}

/** What a test knows while it runs. */
export interface Ctx {
  world: World;
  model: ModelServer;
  /** The harness binary. */
  bin: string;
  pin: Pin;
  variant: VariantSpec;
  /** The harness's environment: the world's, the variant's, and what the harness spec adds. */
  env: Record<string, string>;
}

/** What one session produced. */
export interface Session {
  run: Run;
  /** The harness's own session id, read from its output. */
  sessionId: string | null;
}

/** How to drive one harness, and what it offers rgraph. */
export interface HarnessSpec {
  /** rgraph's name for it (`rgraph install <name>`) and its pin in pins.txt. */
  name: string;
  label: string;
  variants: VariantSpec[];
  /** The scripted turns, in the names this harness presents its tools under. */
  steps: Step[];
  /** Index in `steps` of the shell call and of the `resource` call. */
  shellStep: number;
  resourceStep: number;
  /** Whether its hooks carry the model's tool-call id (then Touches must carry it). */
  callIds: boolean;
  /**
   * Whether a hook can put text before the model at session start / before a
   * tool; `"issue 11"` where issue 11 found the channel and rgraph does not use it yet.
   */
  hintChannel: boolean | "issue 11";
  nudgeChannel: boolean | "issue 11";
  /** How the model sees rgraph's tool (issue 11: the hint names it so). */
  presentedTool: string;
  /** Environment the harness needs (model server URL, keys, telemetry off). */
  env(ctx: Omit<Ctx, "env">): Record<string, string>;
  /** The harness's own setup a user does, short of trusting the project. */
  configure(ctx: Ctx): Promise<void>;
  /** Trusting the project (and hooks) as its user does; null when the harness has no such step. */
  trust: ((ctx: Ctx) => Promise<void>) | null;
  /**
   * A harness fact checked before trust (default variant only): e.g. that an
   * untrusted project silently skips rgraph. Throws when it does not hold.
   */
  untrusted?: { name: string; check(ctx: Ctx): Promise<void> };
  /** One headless session with `prompt`. */
  session(ctx: Ctx, prompt: string): Promise<Session>;
  /**
   * The harness's own warning and error items of a session, one text each
   * (Codex's `error` items, Claude Code's `[WARN]`/`[ERROR]` debug lines,
   * stderr blocks that start with a warning or an error).
   */
  problems(ctx: Ctx, session: Session): string[];
  /**
   * Items of {@link problems} that name rgraph and are no fault of its files
   * (Gemini's notice listing every project-level hook), each with why.
   */
  expectedProblems?: { pattern: RegExp; why: string }[];
  /** rgraph as this harness's plugin, for variants `via: "plugin"`. */
  plugin?: PluginSpec;
  /** Assertions of this harness alone, after the common ones. */
  extra?(t: Deno.TestContext, ctx: Ctx, session: Session, touches: TouchJson[]): Promise<void>;
}

/** Every string of every scripted request, for "did the model see X". */
function scriptedStrings(model: ModelServer, fromStep = 0): string[] {
  return model.requests.filter((r) => r.scripted && (r.step ?? 0) >= fromStep).flatMap((r) =>
    r.strings
  );
}

/** The format the harness spoke (from its scripted requests). */
function apiOf(model: ModelServer): Api | null {
  return model.requests.find((r) => r.scripted)?.api ?? null;
}

/** The first scripted request that carries step `i`'s tool result, and that result's text. */
export function resultOf(
  model: ModelServer,
  steps: Step[],
  i: number,
): { request: RecordedRequest; text: string } | null {
  const api = apiOf(model);
  const step = steps[i];
  if (api === null || !("tool" in step)) return null;
  const id = model.callId(api, i);
  for (const request of model.requests) {
    if (!request.scripted) continue;
    const r = request.toolResults.find((x) =>
      x.callId === id || (x.callId === null && x.name === step.tool)
    );
    if (r) return { request, text: r.text };
  }
  return null;
}

/** The model's call id for step `i` (what hooks should report as the tool-call id). */
export function callIdOf(model: ModelServer, i: number): string | null {
  const api = apiOf(model);
  return api === null ? null : model.callId(api, i);
}

const short = (v: unknown, n = 1500) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

/** The hook's notes of `resource` calls left unclaimed, per data directory (they tie a Cache Read to its call). */
function memoryReadNotes(world: World): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const dir of world.dataDirs) {
    try {
      out[dir] = [...Deno.readDirSync(`${dir}/memory-reads`)].map((e) =>
        Deno.readTextFileSync(`${dir}/memory-reads/${e.name}`)
      );
    } catch {
      // no notes there
    }
  }
  return out;
}

/** Every file `rgraph install` may have written for the harness, relative to the project. */
const INSTALLED_FILES: Record<string, string[]> = {
  "claude-code": [".claude/settings.json", ".mcp.json"],
  codex: [".codex/hooks.json", ".codex/config.toml"],
  gemini: [".gemini/settings.json"],
  copilot: [".github/hooks/rgraph.json", ".github/mcp.json"],
  opencode: [".opencode/plugins/rgraph.js", "opencode.json"],
};

/**
 * Whether a harness's warning names rgraph or one of its files. The world's
 * own temp folder is named after rgraph, so its path is taken out first.
 */
function namesRgraph(text: string, world: World, files: string[]): boolean {
  // CI's cache of the harness binaries is `…/rgraph-ci/…`: a stack trace through it is not rgraph's.
  const plain = text.replaceAll(world.root, "<world>").replaceAll("/rgraph-ci/", "/<ci-cache>/");
  // A word of its own: the scripted model's call ids (`toolu_01RgraphScripted01`) are not rgraph's.
  return /\brgraph\b/i.test(plain) || files.some((f) => plain.includes(f));
}

/**
 * The warnings and errors of a stream (`Warning: …`, `ERROR …`, `[WARN] …`),
 * each with the indented lines that follow it (Gemini lists hooks so).
 */
export function warningBlocks(text: string): string[] {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\[?(warn(ing)?|error)\b/i.test(lines[i])) continue;
    let j = i + 1;
    while (j < lines.length && /^\s+\S/.test(lines[j])) j++;
    out.push(lines.slice(i, j).join("\n"));
    i = j - 1;
  }
  return out;
}

/** The spec a variant runs: through the plugin, its steps and tool name are the plugin's. */
function viaPlugin(spec: HarnessSpec, variant: VariantSpec): HarnessSpec {
  if (variant.via !== "plugin") return spec;
  if (!spec.plugin) throw new Error(`${spec.label} has no plugin spec`);
  return { ...spec, steps: spec.plugin.steps, presentedTool: spec.plugin.presentedTool };
}

/**
 * Files under `root` (a file or folder) whose path or text names rgraph. A
 * folder the harness marked for its own deletion (Claude Code's
 * `.orphaned_at`: an uninstalled plugin's cached copy, removed later) is
 * the harness's, not left behind.
 */
function rgraphLeftovers(root: string, world: World): string[] {
  const out: string[] = [];
  const visit = (path: string) => {
    let info;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return;
    }
    if (info.isDirectory) {
      const names = [...Deno.readDirSync(path)].map((e) => e.name);
      if (names.includes(".orphaned_at")) return;
      for (const name of names) visit(`${path}/${name}`);
      return;
    }
    if (!info.isFile) return;
    const rel = path.replaceAll(world.root, "<world>");
    let text = "";
    try {
      text = Deno.readTextFileSync(path).replaceAll(world.root, "<world>");
    } catch {
      // not text
    }
    if (/\brgraph\b/i.test(rel) || /\brgraph\b/i.test(text)) out.push(rel);
  };
  visit(root);
  return out;
}

/** Runs the harness binary with `args` as its user does (a plugin command); throws with its output when it fails. */
export async function harnessCommand(ctx: Ctx, args: string[], timeoutMs = 60_000): Promise<void> {
  const r = await run([ctx.bin, ...args], { cwd: ctx.world.project, env: ctx.env, timeoutMs });
  if (r.code !== 0) {
    throw new Error(`${ctx.pin.bin} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  }
}

/** Registers the tests of one harness. */
export function harnessTests(spec: HarnessSpec): void {
  const { pin, path } = locate(spec.name);
  if (path === null) {
    const what = `${pin.pkg}@${pin.version}`;
    if (IN_CI) {
      Deno.test(`${spec.label}: ${what} is installed (CI=true)`, () => {
        assert.fail(
          `${harnessBinDir()}/${pin.bin} does not exist: deno task test installs ${what} and sets RGRAPH_HARNESS_BIN_DIR`,
        );
      });
    } else {
      Deno.test({
        name:
          `${spec.label} ${pin.version}: real-harness session (${pin.bin} not installed; deno task test installs ${what})`,
        ignore: true,
        fn() {},
      });
    }
    return;
  }
  for (const variant of spec.variants) {
    Deno.test({
      name: `${spec.label} ${pin.version}, ${variant.label}: a real session`,
      // Harness processes leave their own children (MCP servers, detached hooks) to exit on their own.
      sanitizeOps: false,
      sanitizeResources: false,
      fn: (t) => scenario(t, viaPlugin(spec, variant), variant, pin, path),
    });
  }
}

async function scenario(
  t: Deno.TestContext,
  spec: HarnessSpec,
  variant: VariantSpec,
  pin: Pin,
  bin: string,
): Promise<void> {
  const world = await makeWorld({ harness: spec.name, variant: variant.variant });
  const model = await startModelServer({ marker: MARKER, steps: spec.steps });
  const base = { world, model, bin, pin, variant };
  const ctx: Ctx = { ...base, env: { ...world.env, ...spec.env(base), ...variant.env } };
  // The trust facts and doctor's version line are checked once per harness, on the rgraph install run.
  const isDefault = variant.variant === "default" && !variant.env && variant.via !== "plugin";
  // Each assertion is a step: a failed step fails the test, the next steps still run, so one run
  // lists every gap.
  try {
    if (variant.firstRun) await Deno.remove(world.configPath);
    if (variant.via === "plugin") await spec.plugin!.install(ctx);
    else {
      const install = await world.rgraph(["install", spec.name, "--scope", "project"]);
      assert.equal(
        install.code,
        0,
        `rgraph install ${spec.name}: ${install.stdout}${install.stderr}`,
      );
    }

    // issue 11 (fix 2): every command `rgraph install` writes names the config file as an
    // absolute path, so no harness environment decides which config (and data) a process uses.
    if (variant.via !== "plugin") {
      await t.step(
        "issue 11: every command rgraph install wrote names the config file by absolute path",
        async () => {
          const missing: string[] = [];
          for (const rel of INSTALLED_FILES[spec.name]) {
            const text = await Deno.readTextFile(`${world.project}/${rel}`);
            if (!text.includes(world.configPath)) missing.push(rel);
          }
          assert.deepEqual(missing, [], `these files never name ${world.configPath}`);
        },
      );
    }

    await spec.configure(ctx);

    await t.step(`${pin.pkg}@${pin.version} is the binary that runs`, async () => {
      const r = await run([bin, "--version"], {
        cwd: world.project,
        env: ctx.env,
        timeoutMs: 60_000,
      });
      assert.ok(r.stdout.includes(pin.version), `${bin} --version: ${r.stdout}${r.stderr}`);
    });

    if (isDefault && spec.trust) {
      // issue 11 (fix 2): doctor detects the silent skips — Codex hooks not trusted,
      // Copilot/Gemini folder not trusted — each with the one command or setting that fixes it.
      await t.step(
        "issue 11: before the project is trusted, rgraph doctor fails and says how to trust it",
        async () => {
          const d = await world.rgraph(["doctor", "--dir", world.project]);
          assert.notEqual(d.code, 0, `doctor said all is well:\n${d.stdout}${d.stderr}`);
          assert.match(d.stdout + d.stderr, /trust/i);
        },
      );
      if (spec.untrusted) {
        const u = spec.untrusted;
        await t.step(`harness fact: ${u.name}`, () => u.check(ctx));
      }
    }

    if (spec.trust) await spec.trust(ctx);
    const askDoctor = () => world.rgraph(["doctor", "--dir", world.project]);
    // A new user has no config until the session writes it: doctor is asked after that session.
    const before = variant.firstRun ? null : await askDoctor();

    const session = await spec.session(ctx, PROMPT);
    const doctor = before ?? await askDoctor();
    const { sessionId } = session;
    const shellId = spec.callIds ? callIdOf(model, spec.shellStep) : null;
    const resourceId = spec.callIds ? callIdOf(model, spec.resourceStep) : null;

    // Hooks may still be finishing (OpenCode's plugin does not wait for them): wait for the Touches.
    const touches = await waitFor(
      () => world.touches(),
      (ts) =>
        ts.some((x) => x.status === "served") &&
        ts.some((x) => x.provenance === "FETCHED"),
      8_000,
    );
    const mine = touches.filter((x) => sessionId !== null && x.session_id === sessionId);
    const evidence = () =>
      `\ntouches: ${short(touches.filter((x) => x.session_id !== "seed-session"), 3000)}` +
      `\nhook.log: ${short(world.hookLog(), 1500)}` +
      `\nunclaimed memory-read notes: ${short(memoryReadNotes(world), 1500)}`;

    if (KEEP) {
      await Deno.writeTextFile(
        `${world.root}/requests.json`,
        JSON.stringify(model.requests, null, 1),
      );
      await Deno.writeTextFile(`${world.root}/stdout.txt`, session.run.stdout);
      await Deno.writeTextFile(`${world.root}/stderr.txt`, session.run.stderr);
      console.log(`kept ${world.root}`);
    }

    if (variant.firstRun) {
      // issue 20: the plugin's first session writes the config, as rgraph install does.
      await t.step("the first session wrote the config: 0600, user_id the login name", async () => {
        const text = await Deno.readTextFile(world.configPath);
        assert.match(text, new RegExp(`^user_id = "${world.env.USER}"$`, "m"), text);
        assert.equal((await Deno.stat(world.configPath)).mode! & 0o777, 0o600);
      });
    }

    await t.step("the session ran to the end of its script", () => {
      assert.ok(
        !session.run.timedOut,
        `timed out after ${session.run.ms} ms:\n${short(session.run.stderr, 3000)}`,
      );
      assert.equal(session.run.code, 0, short(session.run.stderr, 3000));
      assert.ok(sessionId, `no session id in the harness output: ${short(session.run.stdout)}`);
      const last = spec.steps.length - 1;
      assert.ok(
        model.requests.some((r) => r.scripted && r.step === last),
        `the model was never asked for the final answer; requests: ${
          short(model.requests.map((r) => [r.path, r.scripted, r.step]))
        }`,
      );
    });

    // issue 20: memory fills itself: the Sweep the session's end starts (or the automatic one
    // Touches start) fetches what the session read, with nothing typed. Not for a new user: the
    // config their plugin wrote names GitHub itself, which tests never reach.
    if (!variant.firstRun) {
      await t.step(
        "the session's read reaches memory with nothing typed (an automatic Sweep)",
        async () => {
          const after = await waitFor(
            () => world.touches(),
            (ts) =>
              ts.some((x) =>
                x.session_id === sessionId && x.provenance === "FETCHED" && x.status === "resolved"
              ),
            45_000,
          );
          const fetched = after.filter((x) =>
            x.session_id === sessionId && x.provenance === "FETCHED"
          );
          assert.ok(
            fetched.some((x) => x.status === "resolved"),
            `${evidence()}\nstatus: ${(await world.rgraph(["status"])).stdout}`,
          );
        },
      );
    }

    await t.step(
      `a FETCHED Touch of the gh command, with the session id${
        spec.callIds ? " and tool-call id" : ""
      }`,
      () => {
        const fetched = mine.filter((x) =>
          x.provenance === "FETCHED" && x.address === `github:${REPO}#${FETCHED_ISSUE}`
        );
        assert.equal(fetched.length, 1, `session ${sessionId}: ${evidence()}`);
        // Pending until the session's end Sweeps it (checked below), which may have happened already.
        assert.ok(["pending", "resolved"].includes(fetched[0].status), fetched[0].status);
        assert.equal(fetched[0].harness, spec.name);
        assert.ok(fetched[0].tool_name, "the Touch names the tool");
        if (spec.callIds) assert.equal(fetched[0].tool_use_id, shellId);
      },
    );

    // Also issue 11 (fix 5): rgraph ignores its own hint text when a harness (Gemini's BeforeAgent
    // `<hook_context>`) hands it back inside the prompt.
    await t.step(
      "a PROMPTED Touch of the prompt's link, with the session id, and nothing else from the prompt",
      () => {
        const prompted = mine.filter((x) => x.provenance === "PROMPTED").map((x) => x.address);
        assert.deepEqual(prompted, [`github:${REPO}#${LINKED_ISSUE}`], evidence());
      },
    );

    if (spec.hintChannel) {
      // issue 11 (fix 3) for Copilot (flat additionalContext) and OpenCode (system transform).
      await t.step(
        `${spec.hintChannel === true ? "" : "issue 11: "}the session hint reaches the model`,
        () => {
          assert.ok(
            scriptedStrings(model).some((s) => HINT.test(s)),
            `no request of the session carries the hint; hook.log: ${short(world.hookLog())}`,
          );
        },
      );
      // issue 11 (fix 6): the hint names the tool as this harness presents it.
      await t.step(
        `issue 11: the session hint names the tool as ${spec.label} presents it (${spec.presentedTool})`,
        () => {
          // The hint is one line; a harness may put it inside a longer text.
          const hints = scriptedStrings(model).flatMap((s) => s.split("\n")).filter((l) =>
            HINT.test(l)
          );
          assert.ok(hints.length > 0, "the hint never reached the model");
          assert.ok(
            hints.some((s) => s.includes(spec.presentedTool)),
            `hint as the model saw it: ${short(hints[0], 600)}`,
          );
        },
      );
    }

    if (spec.nudgeChannel) {
      // issue 11 (fix 3) for Copilot: a flat additionalContext on preToolUse.
      await t.step(
        `${
          spec.nudgeChannel === true ? "" : "issue 11: "
        }the Nudge for the gh command reaches the model`,
        () => {
          assert.ok(
            scriptedStrings(model, spec.shellStep + 1).some((s) => NUDGE.test(s)),
            `no request after the gh call carries the Nudge; hook.log: ${short(world.hookLog())}`,
          );
        },
      );
    }

    // issue 11 (fix 2): fails where the harness does not pass the environment that names the config
    // (Codex's MCP servers never get RGRAPH_CONFIG; Gemini strips it under GITHUB_SHA).
    await t.step("the resource answer reaches the model", () => {
      const r = resultOf(model, spec.steps, spec.resourceStep);
      assert.ok(r, "the model never received a result of the resource call");
      assert.ok(r.text.includes(HIT), `tool result the model got: ${short(r.text, 800)}`);
    });

    // issue 11 (fix 2): the Cache Read is claimed by the ids the harness sends (Codex
    // `_meta.callId`/`sessionId`, Claude Code's tool-use id), by address only when there is none,
    // never across sessions; OpenCode's plugin waits for the hook on `resource`.
    await t.step(
      `the Cache Read is recorded once, tied to the session${
        spec.callIds ? " and the tool call" : ""
      }`,
      () => {
        const served = touches.filter((x) =>
          x.status === "served" && x.address === `github:${REPO}#${LINKED_ISSUE}`
        );
        assert.equal(served.length, 1, `Cache Reads of #${LINKED_ISSUE}: ${evidence()}`);
        assert.equal(served[0].outcome, "hit");
        assert.equal(served[0].session_id, sessionId, `harness session ${sessionId}${evidence()}`);
        assert.equal(served[0].harness, spec.name);
        if (spec.callIds) assert.equal(served[0].tool_use_id, resourceId, evidence());
      },
    );

    // issue 11 (fix 2): doctor runs each installed command as a harness would, so it says
    // "ok" only when the harness can actually use rgraph.
    await t.step(
      "issue 11: rgraph doctor tells the truth (ok exactly when the resource answer reached the model)",
      () => {
        const reached = resultOf(model, spec.steps, spec.resourceStep)?.text.includes(HIT) ===
          true;
        assert.equal(
          doctor.code === 0,
          reached,
          `doctor exit ${doctor.code}, resource answer reached the model: ${reached}\n${doctor.stdout}${doctor.stderr}`,
        );
      },
    );

    if (isDefault) {
      // issue 11 (fix 4): doctor prints each installed harness's version and the pinned one.
      await t.step(
        `issue 11: rgraph doctor names ${spec.label}'s installed version and the pinned ${pin.version}`,
        () => {
          const out = doctor.stdout + doctor.stderr;
          const lines = out.split("\n").filter((l) => l.includes(spec.name));
          assert.ok(
            lines.some((l) => l.includes(pin.version) && /version/i.test(l)),
            `doctor:\n${out}`,
          );
        },
      );
    }

    // issue 20: Codex printed "clamping SessionEnd hook timeout to 3s in …/.codex/hooks.json" as an
    // error item in every session; no harness may warn about, or fail on, anything of rgraph's.
    await t.step(`no ${spec.label} warning or error item names rgraph's files`, () => {
      const named = spec.problems(ctx, session).filter((p) =>
        namesRgraph(p, world, INSTALLED_FILES[spec.name]) &&
        !(spec.expectedProblems ?? []).some((e) => e.pattern.test(p))
      );
      assert.deepEqual(named, []);
    });

    if (spec.extra) await spec.extra(t, ctx, session, touches);

    if (variant.via === "plugin") {
      const plugin = spec.plugin!;
      // issue 20: the harness owns the plugin's lifecycle; its uninstall takes all of rgraph with it.
      await t.step(
        `uninstalling the plugin through ${spec.label} leaves nothing of rgraph's in its files`,
        async () => {
          await plugin.uninstall(ctx);
          const left = plugin.harnessFiles.flatMap((f) =>
            rgraphLeftovers(`${world.home}/${f}`, world)
          );
          assert.deepEqual(left, []);
        },
      );
    }
  } finally {
    await model.close();
    if (!KEEP) await world.cleanup();
  }
}
