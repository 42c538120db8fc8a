import assert from "node:assert/strict";
import { storeLog } from "./store_log.ts";

Deno.test("store.log: a line per node and reason, once across processes; a full log starts afresh", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/store.log`;
    const lines = () => Deno.readTextFileSync(path).trimEnd().split("\n");
    const first = storeLog(dir);
    first("Resource github:o/r#5 (node I_x)", "no title");
    first("Resource github:o/r#5 (node I_x)", "no title");
    first("Resource github:o/r#6 (node I_y)", "no  title\nat all");
    // The next command reads the log first and adds only what is not in it.
    storeLog(dir)("Resource github:o/r#5 (node I_x)", "no title");
    storeLog(dir)("Listing github:o/r/issues?labels=x", "key is no rgraph Listing key");
    assert.deepEqual(lines().map((l) => l.replace(/^\S+ /, "")), [
      "skipped Resource github:o/r#5 (node I_x): no title",
      "skipped Resource github:o/r#6 (node I_y): no title at all",
      "skipped Listing github:o/r/issues?labels=x: key is no rgraph Listing key",
    ]);
    assert.ok(
      Number.isFinite(Date.parse(lines()[0].split(" ")[0])),
      "each line starts with its time",
    );

    await Deno.writeTextFile(path, "x".repeat((1 << 20) + 1));
    storeLog(dir)("Resource github:o/r#5 (node I_x)", "no title");
    assert.equal(lines().length, 1);
    assert.equal(Deno.statSync(`${path}.old`).size, (1 << 20) + 1);

    // A log that cannot be written never fails the caller.
    storeLog(`${dir}/store.log/not-a-dir`)("Resource x", "y");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
