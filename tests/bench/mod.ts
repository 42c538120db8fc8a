/**
 * `deno task bench`: runs every benchmark script in this folder, one after
 * another in its own process (so one benchmark's heap and caches never colour
 * the next), and prints each one's figures. `deno task bench hook serve` runs
 * only the named ones.
 *
 * Benchmarks report ratios against a reference measured in the same run,
 * because absolute timings on a shared 2-core machine are noisy.
 *
 * @module
 */

const here = new URL(".", import.meta.url).pathname;
const names = [...Deno.readDirSync(here)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".ts") && n !== "mod.ts" && !n.startsWith("_"))
  .map((n) => n.slice(0, -3))
  .sort();
const wanted = Deno.args.length ? names.filter((n) => Deno.args.includes(n)) : names;

let failures = 0;
for (const name of wanted) {
  console.log(`\n== bench ${name} ==`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    // The tests' config: benchmarks share the suite's helpers and their test-only packages.
    args: ["run", "--config", `${here}../deno.tests.json`, "--allow-all", `${here}${name}.ts`],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    failures++;
    console.log(`bench ${name} exited with ${code}`);
  }
}
Deno.exit(failures ? 1 : 0);
