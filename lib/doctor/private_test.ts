import assert from "node:assert/strict";
import { parseConfig } from "../config/load.ts";
import { dataDirCheck } from "./private.ts";

/** A data directory named by `[store] path` in a folder of the person's own, with their files in it. */
function withFolder(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "rgraph-doctor-private-" });
  try {
    Deno.chmodSync(dir, 0o755);
    Deno.writeTextFileSync(`${dir}/notes.txt`, "theirs, shared on purpose\n", { mode: 0o666 });
    Deno.chmodSync(`${dir}/notes.txt`, 0o666);
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const configIn = (dir: string) =>
  parseConfig(`[store]\npath = "${dir}/memory.db"\n`, `${dir}/config.toml`);

Deno.test("a folder of the person's own holding the store: only rgraph's files are judged", () => {
  withFolder((dir) => {
    Deno.writeTextFileSync(`${dir}/memory.db`, "", { mode: 0o600 });
    Deno.writeTextFileSync(`${dir}/hook.log`, "", { mode: 0o600 });
    const c = dataDirCheck(configIn(dir));
    assert.deepEqual([c.ok, c.warning, c.detail], [true, undefined, `${dir} (owner-only)`]);
  });
});

Deno.test("a file of rgraph's others may write FAILs with its fix; one they may read is a warning", () => {
  withFolder((dir) => {
    Deno.writeTextFileSync(`${dir}/memory.db-wal`, "", { mode: 0o644 });
    Deno.chmodSync(`${dir}/memory.db-wal`, 0o644);
    const readable = dataDirCheck(configIn(dir));
    assert.equal(readable.warning, true);
    assert.equal(readable.fix, `chmod go-rwx ${dir}/memory.db-wal`);
    Deno.chmodSync(`${dir}/memory.db-wal`, 0o664);
    const writable = dataDirCheck(configIn(dir));
    assert.equal(writable.ok, false);
    assert.equal(
      writable.detail,
      `rgraph refuses ${dir}/memory.db-wal: it is writable by group or others (mode 0664)`,
    );
    assert.equal(writable.fix, `if it is yours, chmod 600 ${dir}/memory.db-wal; else remove it`);
  });
});

Deno.test("a link planted in one of rgraph's folders FAILs", () => {
  withFolder((dir) => {
    Deno.mkdirSync(`${dir}/memory-reads`, { mode: 0o700 });
    Deno.symlinkSync(`${dir}/notes.txt`, `${dir}/memory-reads/1-x.json`);
    const c = dataDirCheck(configIn(dir));
    assert.equal(c.ok, false);
    assert.match(c.detail, /memory-reads\/1-x\.json: it is a symbolic link/);
  });
});
