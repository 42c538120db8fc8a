/**
 * `deno task screenshots`: the README's pictures of `rgraph view`, taken in
 * headless chromium of the browser tests' scenario (`view_scenario.ts`),
 * written to `docs/view-*.png`.
 *
 * @module
 */

import { launchChromium, startView } from "./view_helpers.ts";
import { HOSTILE, viewScenario } from "./view_scenario.ts";

const DOCS = new URL("../docs/", import.meta.url).pathname;

const SHOTS: { name: string; hash: string; ready: string }[] = [
  { name: "sessions", hash: "#/sessions", ready: "[data-touch]" },
  { name: "memory", hash: "#/memory", ready: "[data-address]" },
  {
    name: "resource",
    hash: `#/resource/${encodeURIComponent("github:lumendb/lumen#610")}`,
    ready: "svg.graph",
  },
  {
    name: "untrusted",
    hash: `#/resource/${encodeURIComponent(`github:lumendb/lumen#${HOSTILE.number}`)}`,
    ready: "section.untrusted",
  },
  { name: "value", hash: "#/value", ready: "svg.chart" },
];

const w = await viewScenario();
const view = await startView(w.sb);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 760 });
  await Deno.mkdir(DOCS, { recursive: true });
  for (const shot of SHOTS) {
    await page.goto(`${view.url}${shot.hash}`, { waitUntil: "domcontentloaded" });
    await page.waitForSelector(shot.ready, { timeout: 10_000 });
    // Every session unfolded, as a person reading them would leave it.
    await page.$$eval("details", (all) => all.forEach((d) => d.setAttribute("open", "")));
    const path = `${DOCS}view-${shot.name}.png`;
    await page.screenshot({ path: path as `${string}.png` });
    console.log(`wrote ${path}`);
  }
} finally {
  await browser.close();
  await view.stop();
  await w.close();
}
