import assert from "node:assert/strict";
import { absoluteProgram, which } from "./which.ts";

Deno.test("which finds programs only in absolute PATH entries", async () => {
  const dir = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  try {
    await Deno.mkdir(`${dir}/bin`);
    for (const f of [`${dir}/gh`, `${dir}/bin/gh`]) {
      await Deno.writeTextFile(f, "#!/bin/sh\n");
      await Deno.chmod(f, 0o755);
    }
    Deno.chdir(dir);
    for (const path of [".", "", "::", "bin", "./bin", `.:bin:`]) {
      assert.equal(which("gh", path), null, path);
    }
    assert.equal(which("gh", `.:${dir}/bin`), `${dir}/bin/gh`);
    assert.equal(which("./gh", dir), null);
    assert.equal(absoluteProgram("./gh", dir), null);
    assert.equal(absoluteProgram("gh", `.:${dir}/bin/`), `${dir}/bin/gh`);
    assert.equal(absoluteProgram(`${dir}/gh`, ""), `${dir}/gh`);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
});
