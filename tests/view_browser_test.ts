/**
 * `rgraph view` in a real browser: Debian's chromium, headless, driven by
 * puppeteer-core (no browser download). One scenario (`view_scenario.ts`:
 * two Claude Code sessions recorded by real hooks, a real Sweep against the
 * GitHub emulator, Cache Reads by `rgraph lookup`) is opened as a person
 * would open it, and what the page shows is compared with what `rgraph
 * touches`, `lookup`, `stats` and `status` print for the same store.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { FACTS } from "./emulator/facts.ts";
import { type RunningView, startView } from "./view_helpers.ts";
import { CHROMIUM, haveChromium, launchChromium } from "./view_helpers.ts";
import { bash, HOSTILE, viewScenario } from "./view_scenario.ts";
import type { World } from "./sweep_world.ts";

// The page's own global inside `page.evaluate` callbacks (which run in the browser).
declare const document: any;

/** The rows of a terminal table as `rgraph touches` prints it, cut at its header's columns. */
function tableRows(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trimEnd().split("\n");
  const names = [...head.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index! }));
  return lines.map((line) =>
    Object.fromEntries(
      names.map((c, i) => [c.name, line.slice(c.at, names[i + 1]?.at ?? line.length).trim()]),
    )
  );
}

/** `rgraph status` with its relative times made comparable ("just now", "5m ago"). */
function withoutAges(text: string): string {
  return text.replace(/just now|\d+(m|h|d|mo|y) ago/g, "<ago>");
}

/**
 * Clicks `selector` as a user would, again if the page redrew it between
 * finding and clicking (it redraws by itself as the store changes, which
 * detaches the node puppeteer found).
 */
async function click(page: Page, selector: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      await page.waitForSelector(selector);
      return await page.click(selector);
    } catch (e) {
      if (attempt >= 5 || !/detached|not clickable/i.test(String(e))) throw e;
    }
  }
}

async function visit(page: Page, view: RunningView, hash: string, ready: string) {
  await page.goto(`${view.url}${hash}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(ready, { timeout: 30_000 });
}

const texts = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => e.textContent ?? ""));

Deno.test({
  name: "view in chromium: the page shows the scenario as the CLI does, refuses strangers, " +
    "renders hostile GitHub text inert and updates by itself",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    assert.ok(haveChromium(), `no browser at ${CHROMIUM}: apt-get install -y chromium`);
    const w: World = await viewScenario();
    const view = await startView(w.sb);
    const browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`page error: ${(e as Error).message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("dialog", (d) => {
      problems.push(`dialog: ${d.message()}`);
      d.dismiss();
    });
    const cli = async (args: string[]) => {
      const r = await w.sb.rgraph(args);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    try {
      await t.step("without the token the browser gets a refusal, no page", async () => {
        const res = await page.goto(`http://127.0.0.1:${view.port}/#/sessions`);
        assert.equal(res?.status(), 403);
        assert.match(await page.content(), /needs the token/);
        assert.equal(await page.$("meta[name=rgraph-token]"), null);
        // The refusal's own "403" console line reaches the test asynchronously (over the
        // DevTools protocol), at times after the next step began: wait for it, then forget it.
        for (let i = 0; i < 100 && !problems.some((p) => p.includes("403")); i++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        problems.length = 0;
      });

      await t.step("another site's page cannot read it, even knowing the token", async () => {
        // A page on another origin (another port of this machine) tries, as any site could.
        const evil = Deno.serve(
          { hostname: "127.0.0.1", port: 0, onListen() {} },
          () =>
            new Response(
              `<!doctype html><script>
            fetch("http://127.0.0.1:${view.port}/api/sessions",
                  { headers: { "X-Rgraph-Token": "${view.token}" } })
              .then((r) => r.text()).then((t) => { document.title = "read:" + t; },
                                          (e) => { document.title = "refused"; });
            </script>`,
              { headers: { "content-type": "text/html" } },
            ),
        );
        const other = await browser.newPage();
        try {
          await other.goto(`http://localhost:${evil.addr.port}/`);
          await other.waitForFunction(() => document.title !== "", { timeout: 30_000 });
          assert.equal(await other.title(), "refused");
        } finally {
          await other.close();
          await evil.shutdown();
        }
      });

      await t.step(
        "Sessions: every Touch in time order, with the status `rgraph touches` prints",
        async () => {
          await visit(page, view, "#/sessions", "[data-touch]");
          const json = JSON.parse(await cli(["touches", "--json"])) as {
            id: string;
            session_id: string | null;
            address: string;
          }[];
          const table = tableRows(await cli(["touches"]));
          assert.equal(table.length, json.length);
          const shown = await page.$$eval("[data-touch]", (rows) =>
            rows.map((r) => ({
              id: r.getAttribute("data-touch"),
              session: r.closest("details")?.getAttribute("data-session"),
              status: r.querySelector("[data-status]")?.textContent,
              address: r.querySelector(".address")?.textContent,
            })));
          assert.equal(shown.length, json.length);
          for (const [i, t] of json.entries()) {
            const row = shown.find((r) => r.id === t.id);
            assert.ok(row, `no row for ${t.address}`);
            assert.equal(row.status, table[i].status, t.address);
            assert.ok(row.address?.startsWith(t.address.replace(/^github:/, "")), t.address);
            assert.equal(row.session, t.session_id ?? "");
          }
          // Within a session in time order, oldest first (the CLI lists the newest first).
          const planner = json.filter((t) => t.session_id === "s-planner").map((t) => t.id)
            .reverse();
          assert.deepEqual(
            shown.filter((r) => r.session === "s-planner").map((r) => r.id),
            planner,
          );
          assert.ok(shown.some((r) => r.status === "unresolved:not_found"));
          // A hostile session id is shown as text.
          const ids = await texts(page, ".session-id");
          assert.ok(ids.includes(HOSTILE.session), JSON.stringify(ids));
          assert.equal(await page.$("main img"), null);
          assert.equal(
            await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
            undefined,
          );
          assert.ok(shown.some((r) => r.status === "served:subsumed"));
        },
      );

      await t.step(
        "Memory: what is stored, searchable, each row as lookup answers it",
        async () => {
          const stats = JSON.parse(await cli(["stats", "--json"]));
          await visit(page, view, "#/memory", "[data-address]");
          const heading = await page.$eval("h1", (h) => h.textContent ?? "");
          assert.match(
            heading,
            new RegExp(`${stats.memory.resources.total + stats.memory.listings} stored`),
          );
          const pr = JSON.parse(await cli(["lookup", "--json", "github:lumendb/lumen#610"]));
          const row = await page.$eval(
            '[data-address="github:lumendb/lumen#610"]',
            (r) => [...r.querySelectorAll("td")].map((td) => td.textContent),
          );
          assert.equal(row[2], pr.resource.title);
          assert.equal(row[3], pr.resource.state);
          await page.type("#search", "planner");
          await page.waitForSelector('table.memory[data-query="planner"]', { timeout: 30_000 });
          const found = await page.$$eval(
            "[data-address]",
            (rows) =>
              rows.map((r) => [r.getAttribute("data-address"), r.textContent?.toLowerCase() ?? ""]),
          );
          assert.ok(found.length > 0);
          for (const [address, text] of found) {
            assert.ok(text.includes("planner"), address!);
          }
          assert.ok(found.some(([a]) => a === "github:lumendb/lumen#610"));
        },
      );

      await t.step("a Listing's page lists its members as stored", async () => {
        const key = `github:${FACTS.big.nameWithOwner}/issues?label=${
          encodeURIComponent(FACTS.big.goodFirstIssue.label)
        }&state=open`;
        await visit(page, view, "#/memory", "[data-address]");
        await page.$eval("#search", (e) => (e.value = ""));
        await page.type("#search", "issues?");
        await page.waitForSelector('table.memory[data-query="issues?"]', { timeout: 30_000 });
        await click(page, `[data-address="${key}"] a`);
        await page.waitForSelector("[data-member]");
        const members = await w.read((store) => store.listingMembers(key));
        assert.equal(members.length, FACTS.big.goodFirstIssue.open);
        assert.deepEqual(
          await page.$$eval(
            "[data-member]",
            (rows) => rows.map((r) => r.getAttribute("data-member")),
          ),
          members.map((m) => m.address),
        );
        await visit(page, view, "#/memory", "[data-address]");
        await page.$eval("#search", (e) => (e.value = ""));
        await page.type("#search", "planner");
        await page.waitForSelector('table.memory[data-query="planner"]', { timeout: 30_000 });
      });

      await t.step("a Resource's references are followed by clicking the graph", async () => {
        await click(page, '[data-address="github:lumendb/lumen#610"] a');
        await page.waitForSelector("svg.graph");
        const edges = await w.read((store) => store.edges("github:lumendb/lumen#610"));
        const listed = await page.$$eval(
          "[data-edge]",
          (li) => li.map((l) => l.getAttribute("data-edge")),
        );
        assert.deepEqual(listed.sort(), edges.map((e) => `${e.from} ${e.kind} ${e.to}`).sort());
        for (const n of FACTS.detailedPull.closes) {
          assert.ok(listed.includes(`github:lumendb/lumen#610 CLOSES github:lumendb/lumen#${n}`));
        }
        await click(page, `svg.graph a [data-node="github:lumendb/lumen#${HOSTILE.number}"]`);
        await page.waitForFunction(
          (n) => document.querySelector("h1")?.textContent?.includes(`#${n}`),
          { timeout: 30_000 },
          HOSTILE.number,
        );
        assert.equal(
          new URL(page.url()).hash,
          `#/resource/${encodeURIComponent(`github:lumendb/lumen#${HOSTILE.number}`)}`,
        );
      });

      await t.step("hostile GitHub text renders inert, as text", async () => {
        await page.waitForSelector("section.untrusted pre");
        const state = await page.evaluate(() => ({
          pwned: (globalThis as { __pwned?: unknown }).__pwned ?? null,
          scripts: document.scripts.length,
          jsLinks: [...document.querySelectorAll("[href], [src], [action]")]
            .map((e) => e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action"))
            .filter((v) => /^\s*javascript:/i.test(v ?? "")),
          embedded:
            document.querySelectorAll("main img, main iframe, main object, main embed, main script")
              .length,
          text: document.body.innerText,
        }));
        assert.equal(state.pwned, null);
        assert.equal(state.scripts, 1);
        assert.deepEqual(state.jsLinks, []);
        assert.equal(state.embedded, 0);
        // Shown literally, the bidi controls visible as [U+XXXX] and never raw.
        assert.ok(state.text.includes("<script>window.__pwned = 'title'</script>"));
        assert.ok(state.text.includes("[click me](javascript:window.__pwned='md')"));
        assert.ok(state.text.includes("[U+202E]gnp.exe"));
        assert.ok(state.text.includes("[U+2066]isolate[U+2069]"));
        assert.doesNotMatch(state.text, /[\u202A-\u202E\u2066-\u2069]/);
        const fences = await texts(page, ".fence");
        assert.ok(fences.every((f) => /untrusted/i.test(f)));
        assert.ok(fences.some((f) => f.includes("mallory")));
      });

      await t.step("Value: the numbers `rgraph stats` and `rgraph status` print", async () => {
        await visit(page, view, "#/value", "[data-card]");
        const stats = JSON.parse(await cli(["stats", "--json"]));
        const status = JSON.parse(await cli(["status", "--json"]));
        const card = async (id: string) =>
          await page.$eval(`[data-card="${id}"] .value`, (e) => e.textContent);
        assert.equal(await card("requests_avoided"), String(stats.requests_avoided));
        assert.equal(await card("cache_reads"), String(stats.cache_reads.total));
        assert.equal(await card("pending"), String(status.pending.count));
        assert.equal(await card("resources"), String(stats.memory.resources.total));
        assert.equal(
          await card("budget"),
          `${status.budget.remaining} / ${status.budget.limit}`,
        );
        // Every other budget status names (the Sweep spent REST and GraphQL) has a card of its own.
        const main = status.budget.source === "graphql" ? "graphql" : "core";
        const others = Object.keys(status.budget.budgets).filter((r) => r !== main);
        assert.ok(others.length > 0, `the scenario's Sweep saw only ${main}`);
        for (const r of others) {
          const b = status.budget.budgets[r];
          assert.equal(await card(`budget-${r}`), `${b.remaining} / ${b.limit}`, r);
        }
        assert.equal(
          await page.$eval("#stats-text", (e) => e.textContent),
          (await cli(["stats"])).trimEnd(),
        );
        assert.equal(
          withoutAges((await page.$eval("#status-text", (e) => e.textContent))!),
          withoutAges((await cli(["status"])).trimEnd()),
        );
        // One bar per day with Cache Reads, hit and subsumed over all.
        const rates = await texts(page, "svg.chart text.rate");
        const c = stats.cache_reads;
        assert.deepEqual(rates, [`${Math.round((100 * (c.hit + c.subsumed)) / c.total)}%`]);
      });

      await t.step("a new Touch appears without a reload while the page is open", async () => {
        await visit(page, view, "#/sessions", "[data-touch]");
        await page.evaluate(() => ((globalThis as { __stayed?: number }).__stayed = 1));
        await bash(w, "s-live", `gh issue view 3 -R ${FACTS.big.nameWithOwner}`);
        await page.waitForSelector('[data-session="s-live"] [data-touch]', { timeout: 30_000 });
        assert.equal(await page.evaluate(() => (globalThis as { __stayed?: number }).__stayed), 1);
        const status = await page.$eval(
          '[data-session="s-live"] [data-status]',
          (e) => e.textContent,
        );
        assert.equal(status, "pending");
      });

      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await view.stop();
      await w.close();
    }
  },
});
