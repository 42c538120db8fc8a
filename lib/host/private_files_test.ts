import assert from "node:assert/strict";
import {
  appendPrivateFile,
  checkPrivateDir,
  checkPrivateFile,
  createPrivateFile,
  openPrivateFile,
  privateDir,
  UnsafePathError,
  writePrivateFile,
} from "./private_files.ts";

/** The refusal `body` throws (failing when it throws nothing else). */
function refused(body: () => unknown): UnsafePathError {
  try {
    body();
  } catch (e) {
    if (e instanceof UnsafePathError) return e;
    throw e;
  }
  throw new assert.AssertionError({ message: "not refused" });
}

const modeOf = (path: string) => Deno.lstatSync(path).mode! & 0o7777;

/** Runs `body` in a fresh folder with the process umask set to `umask`. */
function withUmask(umask: number, body: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "rgraph-private-" });
  const before = Deno.umask(umask);
  try {
    body(dir);
  } finally {
    Deno.umask(before);
    Deno.removeSync(dir, { recursive: true });
  }
}

// Another user's file needs root to make (chown); elsewhere the uid check is not reachable.
const root = Deno.uid() === 0;
const NOBODY = 65534;

for (const umask of [0o022, 0o002, 0o000]) {
  Deno.test(`umask ${umask.toString(8)}: folders are 0700 and files 0600`, () => {
    withUmask(umask, (dir) => {
      const data = privateDir(`${dir}/xdg/rgraph`);
      assert.equal(modeOf(data), 0o700);
      assert.equal(modeOf(`${dir}/xdg`), 0o700, "a missing parent is made owner-only too");
      appendPrivateFile(`${data}/hook.log`, "a\n");
      appendPrivateFile(`${data}/hook.log`, "b\n");
      writePrivateFile(`${data}/hook-config.json`, "{}");
      openPrivateFile(`${data}/sweep.lock`).close();
      createPrivateFile(`${data}/config.toml`, "[identity]\n");
      for (const name of ["hook.log", "hook-config.json", "sweep.lock", "config.toml"]) {
        assert.equal(modeOf(`${data}/${name}`), 0o600, name);
      }
      assert.equal(Deno.readTextFileSync(`${data}/hook.log`), "a\nb\n");
      assert.equal([...Deno.readDirSync(data)].length, 4, "no temporary file left");
    });
  });
}

Deno.test("a folder group or others may write is refused with the chmod that fixes it", () => {
  withUmask(0o022, (dir) => {
    Deno.mkdirSync(`${dir}/rgraph`);
    Deno.chmodSync(`${dir}/rgraph`, 0o777);
    const e = refused(() => privateDir(`${dir}/rgraph`));
    assert(e.message.includes("writable by group or others (mode 0777)"), e.message);
    assert(e.message.endsWith(`chmod go-w ${dir}/rgraph; else move it away`), e.message);
    assert.equal(modeOf(`${dir}/rgraph`), 0o777, "refused, not changed");
    Deno.chmodSync(`${dir}/rgraph`, 0o1777);
    const shared = refused(() => privateDir(`${dir}/rgraph`));
    assert(shared.message.includes("it is a shared folder (like /tmp)"), shared.message);
    assert(!e.message.includes("\n"));
  });
});

Deno.test("a folder others may only read is narrowed when rgraph owns it, kept otherwise", () => {
  withUmask(0o022, (dir) => {
    Deno.mkdirSync(`${dir}/mine`, { mode: 0o755 });
    Deno.mkdirSync(`${dir}/rgraph`, { mode: 0o755 });
    privateDir(`${dir}/mine`);
    assert.equal(modeOf(`${dir}/mine`), 0o755);
    privateDir(`${dir}/rgraph`, { narrow: true });
    assert.equal(modeOf(`${dir}/rgraph`), 0o700);
    assert.equal(checkPrivateDir(`${dir}/absent`), false);
  });
});

Deno.test({
  name: "a folder or file another user owns is refused",
  ignore: !root,
  fn() {
    withUmask(0o022, (dir) => {
      Deno.mkdirSync(`${dir}/theirs`, { mode: 0o700 });
      Deno.chownSync(`${dir}/theirs`, NOBODY, NOBODY);
      const e = refused(() => privateDir(`${dir}/theirs`));
      assert(e.message.includes(`is owned by another user (uid ${NOBODY})`), e.message);
      Deno.writeTextFileSync(`${dir}/hook.log`, "theirs\n", { mode: 0o600 });
      Deno.chownSync(`${dir}/hook.log`, NOBODY, NOBODY);
      refused(() => appendPrivateFile(`${dir}/hook.log`, "mine\n"));
      assert.equal(Deno.readTextFileSync(`${dir}/hook.log`), "theirs\n");
    });
  },
});

Deno.test("a planted link is refused: its target is neither written nor truncated", () => {
  withUmask(0o022, (dir) => {
    const victim = `${dir}/victim`;
    Deno.writeTextFileSync(victim, "precious\n");
    for (const name of ["hook.log", "sweep.lock", "hook-config.json"]) {
      Deno.symlinkSync(victim, `${dir}/${name}`);
    }
    refused(() => appendPrivateFile(`${dir}/hook.log`, "line\n"));
    const e = refused(() => openPrivateFile(`${dir}/sweep.lock`, { truncate: true }));
    assert(e.message.endsWith(`remove the link (rm ${dir}/sweep.lock)`), e.message);
    refused(() => writePrivateFile(`${dir}/hook-config.json`, "{}"));
    refused(() => checkPrivateFile(`${dir}/hook.log`));
    assert.equal(Deno.readTextFileSync(victim), "precious\n");
    assert.equal(Deno.lstatSync(`${dir}/hook-config.json`).isSymlink, true, "not replaced");
  });
});

Deno.test("createPrivateFile creates a file once: what is there already, a link included, stays as it was", () => {
  withUmask(0o022, (dir) => {
    assert.equal(createPrivateFile(`${dir}/config.toml`, "first\n"), true);
    assert.equal(createPrivateFile(`${dir}/config.toml`, "second\n"), false);
    assert.equal(Deno.readTextFileSync(`${dir}/config.toml`), "first\n");
    assert.equal(Deno.lstatSync(`${dir}/config.toml`).nlink, 1, "no second name left");
    Deno.symlinkSync(`${dir}/nowhere`, `${dir}/dangling.toml`);
    assert.equal(createPrivateFile(`${dir}/dangling.toml`, "x\n"), false);
    assert.throws(() => Deno.lstatSync(`${dir}/nowhere`), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "config.toml",
      "dangling.toml",
    ]);
  });
});

Deno.test("a dangling link is refused, and nothing is created where it points", () => {
  withUmask(0o022, (dir) => {
    Deno.symlinkSync(`${dir}/made-by-rgraph`, `${dir}/hook.log`);
    refused(() => appendPrivateFile(`${dir}/hook.log`, "line\n"));
    assert.throws(() => Deno.lstatSync(`${dir}/made-by-rgraph`), Deno.errors.NotFound);
  });
});

Deno.test("a hard link to another file is refused", () => {
  withUmask(0o022, (dir) => {
    Deno.writeTextFileSync(`${dir}/other`, "other\n", { mode: 0o600 });
    Deno.linkSync(`${dir}/other`, `${dir}/sweep.log`);
    refused(() => appendPrivateFile(`${dir}/sweep.log`, "line\n"));
    assert.equal(Deno.readTextFileSync(`${dir}/other`), "other\n");
  });
});

Deno.test("an existing file of ours is narrowed to 0600, one others may write is refused", () => {
  withUmask(0o000, (dir) => {
    Deno.writeTextFileSync(`${dir}/rgraph.db`, "", { mode: 0o644 });
    assert.equal(checkPrivateFile(`${dir}/rgraph.db`), true);
    assert.equal(modeOf(`${dir}/rgraph.db`), 0o600);
    Deno.writeTextFileSync(`${dir}/error.log`, "kept\n", { mode: 0o664 });
    const e = refused(() => appendPrivateFile(`${dir}/error.log`, "x\n"));
    assert(e.message.includes("(mode 0664)"), e.message);
    assert.equal(Deno.readTextFileSync(`${dir}/error.log`), "kept\n");
    assert.equal(checkPrivateFile(`${dir}/absent`), false);
  });
});

Deno.test("truncate empties a file of ours only once it is known to be ours", () => {
  withUmask(0o022, (dir) => {
    Deno.writeTextFileSync(`${dir}/sweep.lock`, "1234\n", { mode: 0o600 });
    const file = openPrivateFile(`${dir}/sweep.lock`, { truncate: true });
    file.writeSync(new TextEncoder().encode("99\n"));
    file.close();
    assert.equal(Deno.readTextFileSync(`${dir}/sweep.lock`), "99\n");
  });
});

Deno.test("a name that is a file where a folder belongs is refused", () => {
  withUmask(0o022, (dir) => {
    Deno.writeTextFileSync(`${dir}/rgraph`, "");
    const e = refused(() => privateDir(`${dir}/rgraph`));
    assert(e.message.includes("is not a folder"), e.message);
  });
});

Deno.test("without --allow-sys (the bundled hook) the user id still comes out right", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "rgraph-private-" });
  const script = `${dir}/uid.ts`;
  const module = new URL("./private_files.ts", import.meta.url).href;
  Deno.writeTextFileSync(
    script,
    `import { currentUid } from ${JSON.stringify(module)};\nconsole.log(currentUid());\n`,
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "--no-lock",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), String(Deno.uid()));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
