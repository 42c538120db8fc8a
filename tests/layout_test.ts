/**
 * The layout's rules, checked on the real module graph (`deno info`): a
 * folder of `lib/` with a `mod.ts` is entered only through that face (a
 * subfolder may use its parent's modules), no import runs in a circle, each
 * room imports only the rooms `ROOMS` grants it (docs/ARCHITECTURE.md says
 * why), and at most eight loose files sit at the top of `lib/`.
 *
 * @module
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const ROOT_PATH = ROOT.pathname;

/** Every module of rgraph itself (not tests), relative to the root. */
async function sources(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT_PATH}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|js)$/.test(e.name) && !e.name.endsWith("_test.ts")) out.push(path);
    }
  };
  await walk("lib");
  await walk("commands");
  return [...out, "main.ts", "mod.ts"].sort();
}

/** Local import edges (code and type imports) among `files`, from one `deno info` of each. */
async function edges(files: string[]): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  const root = ROOT.href;
  // `deno info` takes one root: a throwaway module that imports every file is that root.
  const entry = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    entry,
    files.map((f) => `import ${JSON.stringify(new URL(f, ROOT).href)};\n`).join(""),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${ROOT_PATH}deno.json`, entry],
    cwd: ROOT_PATH,
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(entry);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const docs = [JSON.parse(new TextDecoder().decode(out.stdout))];
  for (const doc of docs) {
    for (const m of doc.modules as { specifier: string; dependencies?: unknown[] }[]) {
      if (!m.specifier.startsWith(root)) continue;
      const from = m.specifier.slice(root.length);
      for (const d of (m.dependencies ?? []) as Record<string, { specifier?: string }>[]) {
        for (const to of [d.code?.specifier, d.type?.specifier]) {
          if (!to?.startsWith(root) || to.endsWith(".json")) continue;
          const set = graph.get(from) ?? new Set<string>();
          set.add(to.slice(root.length));
          graph.set(from, set);
        }
      }
    }
  }
  return graph;
}

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/** The deepest folder with a `mod.ts` that holds `path`, if any. */
function faceFolder(path: string, faces: Set<string>): string | null {
  for (let d = dirOf(path); d.startsWith("lib/"); d = dirOf(d)) if (faces.has(d)) return d;
  return null;
}

const files = await sources();
const graph = await edges(files);

Deno.test("other folders reach a lib/ folder only through its mod.ts", () => {
  const faces = new Set(files.filter((f) => f.endsWith("/mod.ts")).map(dirOf));
  const wrong: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const face = faceFolder(to, faces);
      if (face === null || to === `${face}/mod.ts`) continue;
      const own = faceFolder(from, faces);
      if (own !== null && `${own}/`.startsWith(`${face}/`)) continue;
      wrong.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(wrong, []);
  // The check can fail: it sees imports into folders (the hook imports capture's face).
  assert.ok(graph.get("commands/hook.ts")?.has("lib/capture/mod.ts"));
});

Deno.test("no import runs in a circle", () => {
  // Depth-first search for a back edge.
  const state = new Map<string, "open" | "done">();
  const circles: string[][] = [];
  const visit = (node: string, path: string[]) => {
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") circles.push([...path, node, next]);
      else if (!state.has(next)) visit(next, [...path, node]);
    }
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, []);
  assert.deepEqual(circles, []);
  assert.ok(graph.size > 50, "the graph was read");
});

/**
 * The rooms of `lib/`, in the order data flows through them, and the rooms each may import
 * (loose `lib/*.ts` files — types, errors, CLI plumbing, times, hashing, untrusted text — are
 * everyone's). docs/ARCHITECTURE.md describes the same house in prose.
 */
const ROOMS: Record<string, string[]> = {
  host: [],
  config: ["host"],
  address: [],
  capture: ["address", "config", "host", "store"],
  store: ["address", "config", "host"],
  github: ["address", "host"],
  sweep: ["address", "capture", "config", "github", "host", "store"],
  serve: ["address", "capture", "config", "store", "sweep"],
  view: ["config", "host", "serve", "store", "sweep", "user_data"],
  user_data: ["address", "capture", "config", "host", "serve", "store", "sweep"],
  install: ["capture", "config", "host"],
  doctor: ["capture", "config", "host", "install", "store", "sweep"],
};

/** The room of a module under `lib/`, or null for a loose file (or a module elsewhere). */
function roomOf(path: string): string | null {
  return path.match(/^lib\/([^/]+)\//)?.[1] ?? null;
}

Deno.test("each room imports only the rooms it is granted", () => {
  const wrong: string[] = [];
  for (const [from, tos] of graph) {
    const room = roomOf(from);
    if (room === null) continue;
    assert.ok(room in ROOMS, `${from}: lib/${room}/ is a room ROOMS does not name`);
    for (const to of tos) {
      const other = roomOf(to);
      if (other !== null && other !== room && !ROOMS[room].includes(other)) {
        wrong.push(`${from} -> ${to}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
  // The check can fail: capture imports the store (the hook's spool), which is granted.
  assert.ok([...graph.get("lib/capture/hook.ts") ?? []].some((to) => roomOf(to) === "store"));
});

Deno.test("every room of lib/ has a mod.ts face, and at most eight files are loose", () => {
  const rooms = [...Deno.readDirSync(`${ROOT_PATH}lib`)].filter((e) => e.isDirectory).map((e) =>
    e.name
  );
  assert.deepEqual(rooms.sort(), Object.keys(ROOMS).sort());
  for (const room of rooms) assert.ok(files.includes(`lib/${room}/mod.ts`), `lib/${room}/mod.ts`);
  const loose = files.filter((f) => /^lib\/[^/]+$/.test(f));
  assert.ok(loose.length <= 8, `loose files at the top of lib/: ${loose.join(", ")}`);
});
