// rgraph view: the page's only script. It builds every element itself and
// sets what the store holds as text (textContent), never as markup: the
// Content-Security-Policy requires Trusted Types and allows no policy, so
// no string can become HTML here even by mistake. Links go only to other
// views of this page or to https://github.com/.
"use strict";

const TOKEN = document.querySelector('meta[name="rgraph-token"]').content;
const main = document.getElementById("main");
const live = document.getElementById("live");
const SVG = "http://www.w3.org/2000/svg";
/** How often the page asks whether anything changed (the server answers from a cache). */
const POLL_MS = 1500;
/**
 * The least time between two redraws a change starts: while an agent works,
 * Touches arrive every second, and redrawing (the server reading, the
 * browser laying out) on each would take CPU from the hooks themselves.
 */
const REDRAW_MS = 5000;

/** The only hrefs the page ever writes: its own views, and GitHub's pages. */
function safeHref(href) {
  return href.startsWith("#/") || /^https:\/\/github\.com\/[^\s]*$/.test(href) ? href : "#/";
}

/** An element with attributes (literal names only) and children (strings become text). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** The same in SVG. */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick" || k === "oninput" || k === "ontoggle") el.addEventListener(k.slice(2), v);
    else if (k === "href") el.setAttribute("href", safeHref(String(v)));
    else el.setAttribute(k, String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

async function api(path) {
  const res = await fetch(path, { headers: { "X-Rgraph-Token": TOKEN }, cache: "no-store" });
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

/** A time as a person reads it, UTC to the second. */
function clock(iso) {
  return iso ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : "—";
}

function resourceHref(address) {
  return `#/resource/${encodeURIComponent(address)}`;
}

/** `github:owner/repo#12` as `owner/repo#12`: what a person calls it. */
function shortName(address) {
  return address.replace(/^github:/, "");
}

function statusClass(label) {
  return "status " + label.replace(/[^a-z_:]/g, "").replace(":", " ");
}

// --- Sessions -------------------------------------------------------------------

function touchRow(t) {
  // The words `rgraph touches` prints, computed by the server (lib/user_data/touches.ts).
  const label = t.status_text;
  const target = t.target ?? (t.status === "resolved" ? t.address : null);
  return h(
    "tr",
    { "data-touch": t.id },
    h("td", { class: "time" }, clock(t.recorded_at)),
    h(
      "td",
      { class: "provenance" },
      t.read,
    ),
    h("td", {}, h("span", { class: statusClass(label), "data-status": label }, label)),
    h(
      "td",
      { class: "address" },
      // A search's address is its query, no page of memory's.
      (target || t.status === "served") && t.kind !== "search"
        ? h("a", { href: resourceHref(target ?? t.address) }, shortName(t.address))
        : shortName(t.address),
      t.limit === null ? null : h("span", { class: "muted" }, ` (limit ${t.limit})`),
    ),
    h("td", {}, t.tool_name ?? "—"),
    h("td", { class: "detail" }, t.detail ?? ""),
  );
}

function countChips(counts) {
  return Object.entries(counts).sort().map(([k, n]) =>
    h("span", { class: statusClass(k) }, `${k} ${n}`)
  );
}

const openSessions = new Set();

function sessionBlock(g, index) {
  const key = JSON.stringify([g.harness, g.session_id]);
  const open = openSessions.has(key) || (openSessions.size === 0 && index === 0);
  const details = h(
    "details",
    {
      class: "session",
      open,
      "data-session": g.session_id ?? "",
      ontoggle: () => details.open ? openSessions.add(key) : openSessions.delete(key),
    },
    h(
      "summary",
      {},
      h("span", { class: "harness" }, g.harness ?? "rgraph lookup"),
      h("span", { class: "session-id" }, g.session_id ?? "no session"),
      h("span", { class: "muted" }, `${clock(g.first)} → ${clock(g.last)}`),
      h("span", { class: "chips" }, countChips(g.counts)),
    ),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["recorded", "read", "status", "address", "tool", "detail"].map((c) => h("th", {}, c)),
        ),
      ),
      h("tbody", {}, g.touches.map(touchRow)),
    ),
    g.earlier > 0
      ? h("p", { class: "muted earlier" }, `${g.earlier} earlier Touches of this session not shown`)
      : null,
  );
  return details;
}

async function sessionsView(params) {
  const offset = Number(params.get("offset") ?? 0) || 0;
  const data = await api(`/api/sessions?offset=${offset}`);
  const pager = [];
  if (offset > 0) {
    pager.push(
      h("a", { href: `#/sessions?offset=${Math.max(0, offset - 10)}` }, "← newer sessions"),
    );
  }
  if (offset + data.sessions.length < data.total) {
    pager.push(
      h("a", { href: `#/sessions?offset=${offset + data.sessions.length}` }, "older sessions →"),
    );
  }
  return [
    h(
      "h1",
      {},
      "Sessions",
      h(
        "span",
        { class: "muted" },
        data.read < data.touches
          ? ` — ${data.user_id}: ${data.total} sessions of the newest ${data.read} of ${data.touches} Touches`
          : ` — ${data.user_id}: ${data.touches} Touches in ${data.total} sessions`,
      ),
    ),
    data.total === 0
      ? h("p", { class: "muted" }, "No Touches yet: what your agents read appears here.")
      : data.sessions.map((g, i) => sessionBlock(g, offset + i)),
    data.total > data.sessions.length
      ? h(
        "p",
        { class: "pager" },
        `sessions ${offset + 1}–${offset + data.sessions.length} of ${data.total} `,
        pager,
      )
      : null,
  ];
}

// --- Memory ---------------------------------------------------------------------

let memoryText = "";

/**
 * The search box, one element for the page's life: a redraw (live, or of a
 * newer query) moves it rather than replacing it, so no keystroke is lost.
 */
const searchInput = h("input", {
  type: "search",
  id: "search",
  placeholder: 'Search what memory holds: words, "phrases"',
  autocomplete: "off",
  oninput: () => {
    memoryText = searchInput.value;
    clearTimeout(memoryView.timer);
    memoryView.timer = setTimeout(() => render({ keepFocus: true }), 200);
  },
});

async function memoryView(params) {
  const offset = Number(params.get("offset") ?? 0) || 0;
  const query = memoryText;
  const data = await api(`/api/memory?q=${encodeURIComponent(query)}&offset=${offset}`);
  const input = searchInput;
  const pager = [];
  if (offset > 0) {
    pager.push(
      h("a", { href: `#/memory?offset=${Math.max(0, offset - data.entries.length)}` }, "← newer"),
    );
  }
  if (offset + data.entries.length < data.total) {
    pager.push(h("a", { href: `#/memory?offset=${offset + data.entries.length}` }, "older →"));
  }
  const found = data.searched
    ? data.error ? h("p", { class: "error" }, data.error) : h(
      "p",
      { class: "muted" },
      `${data.total} of ${data.in_scope} stored Resources match — memory only, not GitHub`,
    )
    : null;
  return [
    h(
      "h1",
      {},
      "Memory",
      h("span", { class: "muted" }, data.searched ? " — search" : ` — ${data.total} stored`),
    ),
    input,
    found,
    h(
      "table",
      { class: "memory", "data-query": query },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["address", "kind", "title", "state", "fetched", "updated"].map((c) => h("th", {}, c)),
        ),
      ),
      h(
        "tbody",
        {},
        data.entries.map((e) =>
          h(
            "tr",
            { "data-address": e.address },
            h(
              "td",
              { class: "address" },
              h("a", { href: resourceHref(e.address) }, shortName(e.address)),
            ),
            h("td", {}, e.kind.replace("_", " ")),
            h(
              "td",
              { class: "title" },
              e.title ?? "",
              e.matched
                ? h(
                  "div",
                  { class: "match" },
                  h("span", { class: "muted" }, `matched in ${e.matched}: `),
                  h("span", { class: "snippet" }, e.snippet ?? ""),
                )
                : null,
            ),
            h("td", {}, e.state ? h("span", { class: `state ${e.state}` }, e.state) : ""),
            h("td", { class: "time" }, clock(e.fetched_at)),
            h("td", { class: "time" }, clock(e.updated_at)),
          )
        ),
      ),
    ),
    h(
      "p",
      { class: "pager" },
      `${data.total === 0 ? 0 : offset + 1}–${offset + data.entries.length} of ${data.total} `,
      pager,
    ),
  ];
}

// --- One Resource ---------------------------------------------------------------

/** Untrusted text from GitHub, fenced and shown as text. */
function fenced(label, text) {
  return h(
    "section",
    { class: "untrusted" },
    h("div", { class: "fence" }, `${label} — from GitHub, untrusted, shown as text`),
    h("pre", {}, text ?? ""),
  );
}

/** The references as a small graph: this Resource in the middle, each other end around it. */
function referenceGraph(page) {
  const me = page.resource.address;
  const others = page.nodes.filter((n) => n.address !== me);
  const width = 720, height = others.length > 6 ? 440 : 300;
  const cx = width / 2, cy = height / 2;
  const rx = width / 2 - 110, ry = height / 2 - 45;
  const at = new Map([[me, [cx, cy]]]);
  // Around an ellipse, starting on the left, so two neighbours sit left and right.
  others.forEach((n, i) => {
    const a = Math.PI + (2 * Math.PI * i) / others.length + (others.length > 2 ? Math.PI / 8 : 0);
    at.set(n.address, [cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  });
  const svg = s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "graph", role: "img", "aria-label": "references" },
    s(
      "defs",
      {},
      ["REFERENCES", "CLOSES"].map((k) =>
        s(
          "marker",
          {
            id: `arrow-${k}`,
            viewBox: "0 0 10 10",
            refX: 10,
            refY: 5,
            markerWidth: 7,
            markerHeight: 7,
            orient: "auto-start-reverse",
          },
          s("path", { d: "M0,0 L10,5 L0,10 z", class: `arrow ${k}` }),
        )
      ),
    ),
    s("text", { x: 12, y: 20, class: "legend-text" }, "→ REFERENCES"),
    s("text", { x: 12, y: 36, class: "legend-text CLOSES" }, "⇢ CLOSES"),
  );
  // Edges between the same two Resources fan out as curves, so none hides another.
  const pairs = new Map();
  for (const e of page.edges) {
    const key = [e.from, e.to].sort().join(" ");
    pairs.set(key, [...(pairs.get(key) ?? []), e]);
  }
  for (const group of pairs.values()) {
    group.forEach((e, k) => {
      const [x1, y1] = at.get(e.from), [x2, y2] = at.get(e.to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      // The same side for the same direction: perpendicular of the pair's sorted order.
      const [ax, ay] = at.get([e.from, e.to].sort()[0]),
        [bx, by] = at.get([e.from, e.to].sort()[1]);
      const nx = -(by - ay) / len, ny = (bx - ax) / len;
      const bend = (k - (group.length - 1) / 2) * 34;
      const qx = (x1 + x2) / 2 + nx * bend, qy = (y1 + y2) / 2 + ny * bend;
      // Stop short of the target's circle, along the curve's last direction, so the arrow shows.
      const tl = Math.hypot(x2 - qx, y2 - qy) || 1, stop = e.to === me ? 18 : 14;
      const ex = x2 - ((x2 - qx) * stop) / tl, ey = y2 - ((y2 - qy) * stop) / tl;
      svg.append(
        s(
          "path",
          {
            d: `M${x1},${y1} Q${qx},${qy} ${ex},${ey}`,
            class: `edge ${e.kind}`,
            "marker-end": `url(#arrow-${e.kind})`,
          },
          s("title", {}, `${shortName(e.from)} ${e.kind} ${shortName(e.to)}`),
        ),
      );
    });
  }
  for (const n of page.nodes) {
    const [x, y] = at.get(n.address);
    const below = y >= cy;
    const node = s(
      "g",
      {
        class: n.address === me ? "node me" : n.kind ? "node" : "node absent",
        "data-node": n.address,
      },
      s("circle", { cx: x, cy: y, r: n.address === me ? 14 : 10 }),
      s(
        "text",
        { x, y: n.address === me ? y + 32 : below ? y + 26 : y - 17, "text-anchor": "middle" },
        shortName(n.address),
      ),
      s("title", {}, n.title ? `${shortName(n.address)}: ${n.title}` : shortName(n.address)),
    );
    svg.append(n.address === me ? node : s("a", { href: resourceHref(n.address) }, node));
  }
  return svg;
}

function meta(rows) {
  return h(
    "dl",
    { class: "meta" },
    rows.filter(([, v]) => v !== null && v !== undefined && v !== "").map(([k, v]) => [
      h("dt", {}, k),
      h("dd", {}, v),
    ]),
  );
}

function resourceBody(page) {
  const r = page.resource;
  const github = /^https:\/\/github\.com\//.test(r.url ?? "")
    ? h("a", { href: r.url, rel: "noopener noreferrer", target: "_blank" }, "on GitHub")
    : null;
  const head = [
    h("h1", {}, shortName(r.address), " ", h("span", { class: "muted" }, r.kind.replace("_", " "))),
    r.title ? h("p", { class: "title" }, r.title) : null,
    meta([
      ["state", r.state ? h("span", { class: `state ${r.state}` }, r.state) : null],
      ["author", r.author],
      ["labels", (r.labels ?? []).join(", ")],
      ["fetched", clock(r.fetched_at)],
      ["updated on GitHub", clock(r.updated_at)],
      ["stars", r.kind === "repository" ? String(r.stars) : null],
      ["link", github],
    ]),
  ];
  const refs = [
    h("h2", {}, `References (${page.edges.length})`),
    page.edges.length === 0
      ? h("p", { class: "muted" }, "No references to or from other stored Resources.")
      : [
        referenceGraph(page),
        h(
          "ul",
          { class: "edges" },
          page.edges.map((e) =>
            h(
              "li",
              { "data-edge": `${e.from} ${e.kind} ${e.to}` },
              e.from === r.address
                ? shortName(e.from)
                : h("a", { href: resourceHref(e.from) }, shortName(e.from)),
              h("span", { class: `kind ${e.kind}` }, ` ${e.kind} `),
              e.to === r.address
                ? shortName(e.to)
                : h("a", { href: resourceHref(e.to) }, shortName(e.to)),
            )
          ),
        ),
      ],
  ];
  const content = r.kind === "repository"
    ? [
      r.description ? fenced("description", r.description) : null,
      r.readme ? fenced(r.readme_path ?? "README", r.readme) : null,
    ]
    : [
      fenced("body", r.body),
      (r.comments ?? []).map((c) =>
        fenced(`comment by ${c.author ?? "ghost"}, ${clock(c.created_at)}`, c.body)
      ),
      (r.review_comments ?? []).map((c) =>
        fenced(`review comment by ${c.author ?? "ghost"} on ${c.path ?? "?"}`, c.body)
      ),
    ];
  return [head, refs, h("h2", {}, "Stored content"), content];
}

function listingBody(page) {
  const l = page.listing;
  return [
    h("h1", {}, shortName(l.key), " ", h("span", { class: "muted" }, "listing")),
    meta([
      [
        "members",
        `${l.member_count} of ${l.total_count}${l.fully_expanded ? " (fully expanded)" : ""}`,
      ],
      ["asked limit", l.limit === null ? "all" : String(l.limit)],
      ["fetched", clock(l.fetched_at)],
    ]),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ["#", "address", "title", "state"].map((c) => h("th", {}, c)))),
      h(
        "tbody",
        {},
        page.members.map((m) =>
          h(
            "tr",
            { "data-member": m.address },
            h("td", {}, String(m.position + 1)),
            h(
              "td",
              { class: "address" },
              h("a", { href: resourceHref(m.address) }, shortName(m.address)),
            ),
            h("td", { class: "title" }, m.title),
            h("td", {}, h("span", { class: `state ${m.state}` }, m.state)),
          )
        ),
      ),
    ),
  ];
}

async function resourceView(address) {
  let page;
  try {
    page = await api(`/api/resource?address=${encodeURIComponent(address)}`);
  } catch (e) {
    return [h("h1", {}, shortName(address)), h("p", { class: "muted" }, String(e.message))];
  }
  return page.resource ? resourceBody(page.resource) : listingBody(page.listing);
}

// --- Value ----------------------------------------------------------------------

function card(label, value, note, id) {
  return h(
    "div",
    { class: "card", "data-card": id },
    h("div", { class: String(value).length > 7 ? "value long" : "value" }, String(value)),
    h("div", { class: "label" }, label),
    note ? h("div", { class: "muted" }, note) : null,
  );
}

/** Cache Reads per day as bars (hit, subsumed, miss stacked) with the hit rate on top. */
function readsChart(days) {
  const shown = days.slice(-30);
  const width = 720, height = 220, pad = 28;
  const max = Math.max(1, ...shown.map((d) => d.hit + d.subsumed + d.miss));
  const bw = Math.min(64, (width - 2 * pad) / Math.max(shown.length, 1));
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-label": "hit rate by day",
  });
  svg.append(
    s("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
  );
  shown.forEach((d, i) => {
    const total = d.hit + d.subsumed + d.miss;
    let y = height - pad;
    const x = pad + i * bw + bw * 0.15;
    for (const k of ["hit", "subsumed", "miss"]) {
      const bh = ((height - 2 * pad - 14) * d[k]) / max;
      y -= bh;
      svg.append(s("rect", { x, y, width: bw * 0.7, height: bh, class: `bar ${k}` }));
    }
    const rate = Math.round((100 * (d.hit + d.subsumed)) / total);
    svg.append(
      s("text", { x: x + bw * 0.35, y: y - 4, "text-anchor": "middle", class: "rate" }, `${rate}%`),
    );
    svg.append(
      s(
        "text",
        { x: x + bw * 0.35, y: height - pad + 14, "text-anchor": "middle", class: "day" },
        d.day.slice(5),
      ),
    );
    svg.append(s("title", {}, `${d.day}: hit ${d.hit}, subsumed ${d.subsumed}, miss ${d.miss}`));
  });
  return svg;
}

async function valueView() {
  const v = await api("/api/value");
  const reads = v.stats.cache_reads;
  const rate = reads.total === 0
    ? "—"
    : `${Math.round((100 * (reads.hit + reads.subsumed)) / reads.total)}%`;
  const unresolved = Object.values(v.stats.touches.unresolved).reduce((a, n) => a + n, 0);
  const budget = v.status.budget;
  return [
    h("h1", {}, "Value", h("span", { class: "muted" }, ` — ${v.stats.user_id}`)),
    h(
      "div",
      { class: "cards" },
      card("GitHub requests avoided", v.stats.requests_avoided, null, "requests_avoided"),
      card(
        "Cache Reads",
        reads.total,
        `hit ${reads.hit}, subsumed ${reads.subsumed}, miss ${reads.miss}`,
        "cache_reads",
      ),
      card("hit rate", rate, "hit and subsumed of all Cache Reads", "hit_rate"),
      card(
        "pending",
        v.status.pending.count,
        v.status.pending.oldest ? `oldest ${clock(v.status.pending.oldest)}` : null,
        "pending",
      ),
      card(
        "unresolved",
        unresolved,
        Object.entries(v.stats.touches.unresolved).map(([k, n]) => `${k} ${n}`).join(", "),
        "unresolved",
      ),
      card(
        "Resources stored",
        v.stats.memory.resources.total,
        `${v.stats.memory.listings} Listings, ${v.stats.memory.comments} comments`,
        "resources",
      ),
      card(
        "GitHub budget",
        budget ? `${budget.remaining ?? "?"} / ${budget.limit ?? "?"}` : "—",
        budget
          ? (budget.source === "graphql" ? "GraphQL points left" : "REST requests left")
          : "not known yet",
        "budget",
      ),
      // The other budgets the last Sweep heard of (search, say), one card each, as
      // `rgraph status` prints one line each.
      Object.entries(budget?.budgets ?? {})
        .filter(([resource]) => resource !== (budget.source === "graphql" ? "graphql" : "core"))
        .map(([resource, b]) =>
          card(
            `GitHub ${resource} budget`,
            `${b.remaining ?? "?"} / ${b.limit ?? "?"}`,
            { core: "REST requests left", search: "REST searches left" }[resource] ??
              "GraphQL points left",
            `budget-${resource}`,
          )
        ),
    ),
    h("h2", {}, "Hit rate over time"),
    v.reads_by_day.length === 0 ? h("p", { class: "muted" }, "No Cache Reads yet.") : [
      readsChart(v.reads_by_day),
      h(
        "p",
        { class: "legend" },
        ["hit", "subsumed", "miss"].map((k) => h("span", { class: `key ${k}` }, k)),
      ),
    ],
    h("h2", {}, "Automatic Sweeps — as rgraph status prints it"),
    h("pre", { class: "cli", id: "status-text" }, v.status_lines.join("\n")),
    h("h2", {}, "As rgraph stats prints it"),
    h("pre", { class: "cli", id: "stats-text" }, v.stats_text),
  ];
}

// --- Routing and live updates ---------------------------------------------------

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, query] = hash.split("?");
  const [view, ...rest] = path.split("/");
  return {
    view: view || "sessions",
    arg: decodeURIComponent(rest.join("/")),
    params: new URLSearchParams(query ?? ""),
  };
}

let rendering = null;

async function render(options = {}) {
  const r = route();
  for (const a of document.querySelectorAll("nav a")) {
    a.classList.toggle(
      "active",
      a.dataset.view === r.view || (r.view === "resource" && a.dataset.view === "memory"),
    );
  }
  const job = (async () => {
    try {
      switch (r.view) {
        case "memory":
          return await memoryView(r.params);
        case "resource":
          return await resourceView(r.arg);
        case "value":
          return await valueView();
        default:
          return await sessionsView(r.params);
      }
    } catch (e) {
      return [h("p", { class: "error" }, `Could not read memory: ${e.message}`)];
    }
  })();
  rendering = job;
  const nodes = await job;
  if (rendering !== job) return; // A newer render started meanwhile.
  const focused = options.keepFocus && document.activeElement?.id === "search";
  const caret = focused ? document.activeElement.selectionStart : null;
  const scroll = globalThis.scrollY;
  main.replaceChildren(...[nodes].flat(Infinity).filter((n) => n));
  if (options.keepScroll) globalThis.scrollTo(0, scroll);
  if (focused) {
    const input = document.getElementById("search");
    input.focus();
    input.setSelectionRange(caret, caret);
  }
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
}

let lastMark = null;
let lastRedraw = 0;

async function poll() {
  if (document.visibilityState === "visible") {
    try {
      const { mark } = await api("/api/change");
      live.classList.remove("offline");
      if (lastMark !== null && mark !== lastMark) {
        // Too soon after the last redraw: keep the old mark, so a later poll redraws.
        if (Date.now() - lastRedraw < REDRAW_MS) return setTimeout(poll, POLL_MS);
        lastRedraw = Date.now();
        live.classList.add("pulse");
        setTimeout(() => live.classList.remove("pulse"), 600);
        await render({ keepFocus: true, keepScroll: true });
      }
      lastMark = mark;
    } catch {
      live.classList.add("offline");
    }
  }
  setTimeout(poll, POLL_MS);
}

globalThis.addEventListener("hashchange", () => render());
render().then(poll);
