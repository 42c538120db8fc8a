/**
 * Vocabulary for the emulator's generated dataset: a graph database project's
 * issue tracker. Written for rgraph's tests; the sentences are combined by a
 * seeded PRNG in `dataset.ts`, so every run sees the same text.
 *
 * @module
 */

/** A seeded PRNG (mulberry32): same seed, same sequence, on every platform. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** One element. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `n` distinct elements, in a random order. */
  sample<T>(xs: readonly T[], n: number): T[] {
    return this.shuffle(xs).slice(0, n);
  }
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(xs: readonly T[]): T[] {
    const out = xs.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

/** Human contributors of the project. */
export const LOGINS = [
  "mara-okafor",
  "jkowalski",
  "tanvir-h",
  "lin-yuxi",
  "pdelacroix",
  "sofia-marchetti",
  "owen-brandt",
  "ayumi-t",
  "rkrishnan",
  "ekaterina-v",
  "diego-arce",
  "hannah-lund",
  "bjornstad",
  "nkemdirim",
  "wei-zhang-dev",
  "camille-roux",
  "thomas-quist",
  "priya-nair",
  "greta-holm",
  "amir-sadeghi",
  "lucas-ferreira",
  "noor-elmasry",
  "ivan-petrenko",
  "julia-sanz",
  "kofi-mensah",
  "sven-aalto",
  "mei-ling-ho",
  "rafael-costa",
  "zoe-whitfield",
  "arjun-mehta",
  "elena-popescu",
  "felix-braun",
] as const;

/** Maintainers: they assign, review and close. */
export const MAINTAINERS = [
  "mara-okafor",
  "jkowalski",
  "lin-yuxi",
  "pdelacroix",
  "rkrishnan",
] as const;

/** The project's bot account (GraphQL `Bot`, REST login with `[bot]`). */
export const BOT = "lumen-ci";

/** An area label and the components an issue in it talks about. */
export interface Area {
  label: string;
  components: readonly string[];
  crate: string;
}

/** Areas of the codebase. "Bolt handshake" is reserved for FACTS.big.searchPhrase. */
export const AREAS: readonly Area[] = [
  {
    label: "area/query-planner",
    components: ["query planner", "cost model", "join reordering", "predicate pushdown"],
    crate: "planner",
  },
  {
    label: "area/storage",
    components: ["storage engine", "page cache", "write-ahead log", "compaction"],
    crate: "storage",
  },
  {
    label: "area/replication",
    components: ["Raft log", "follower reads", "leader election", "snapshot transfer"],
    crate: "raft",
  },
  {
    label: "area/bolt",
    components: ["Bolt server", "connection pool", "TLS listener", "routing table"],
    crate: "bolt",
  },
  {
    label: "area/cypher",
    components: ["Cypher parser", "OPTIONAL MATCH", "MERGE", "UNWIND", "list comprehensions"],
    crate: "cypher",
  },
  {
    label: "area/indexing",
    components: ["full-text index", "range index", "vector index", "index population"],
    crate: "index",
  },
  {
    label: "area/cli",
    components: ["lumen-admin", "lumen-shell", "bulk import tool"],
    crate: "cli",
  },
  {
    label: "area/drivers",
    components: ["JavaScript driver", "Go driver", "JDBC bridge"],
    crate: "drivers",
  },
];

const CONDITIONS = [
  "on graphs with more than 10M edges",
  "when the transaction is rolled back",
  "after a leader change",
  "with NULL properties",
  "under concurrent writes",
  "for variable-length paths",
  "with composite keys",
  "on ARM64",
  "after upgrading from 0.8",
  "when the disk is almost full",
  "with unicode property names",
  "inside an explicit transaction",
  "when the page cache is cold",
  "with more than 64 labels on a node",
];

const FEATURES = [
  "parameterised LIMIT",
  "CALL subqueries",
  "temporal range scans",
  "per-database quotas",
  "online schema changes",
  "streaming results",
  "EXISTS subqueries",
  "Point distance filters",
  "read replicas",
];

const OPTIONS = [
  "--dry-run",
  "max_open_files",
  "query timeout",
  "checkpoint interval",
  "log rotation",
  "--batch-size",
];

/** The kind of an issue, which decides its title and body template. */
export type IssueKind = "bug" | "enhancement" | "performance" | "documentation" | "question";

const VERSIONS = ["0.8.4", "0.9.0", "0.9.2", "1.0.0-rc1", "1.0.0", "1.0.3"];
const PLATFORMS = ["Ubuntu 22.04", "macOS 14", "Debian 12", "Windows 11 (WSL2)", "Alpine 3.19"];

/** A title for an issue of `kind` about `component`. */
export function title(rng: Rng, kind: IssueKind, component: string): string {
  const cond = rng.pick(CONDITIONS);
  const c = component[0].toUpperCase() + component.slice(1);
  switch (kind) {
    case "bug":
      return rng.pick([
        `${c} panics ${cond}`,
        `Wrong results from ${component} ${cond}`,
        `${c} leaks memory ${cond}`,
        `${c} returns stale data ${cond}`,
        `Deadlock in ${component} ${cond}`,
        `${c}: assertion failure ${cond}`,
      ]);
    case "enhancement":
      return rng.pick([
        `Support ${rng.pick(FEATURES)} in ${component}`,
        `Add a ${rng.pick(OPTIONS)} option to ${component}`,
        `Expose metrics for ${component}`,
        `Make ${component} configurable per database`,
      ]);
    case "performance":
      return rng.pick([
        `${c} is slow ${cond}`,
        `High CPU usage in ${component} ${cond}`,
        `Reduce allocations in ${component}`,
        `${c} regressed 30% between 0.9 and 1.0`,
      ]);
    case "documentation":
      return rng.pick([
        `Document how ${component} behaves ${cond}`,
        `Docs: ${component} example is out of date`,
        `Clarify ${component} limits in the operations guide`,
      ]);
    case "question":
      return rng.pick([
        `How do I tune ${component} for a write-heavy workload?`,
        `Is ${component} safe to use ${cond}?`,
        `Expected behaviour of ${component} ${cond}?`,
      ]);
  }
}

const QUERIES = [
  "MATCH (p:Person)-[:KNOWS*1..3]->(f) WHERE p.name = $name RETURN count(DISTINCT f)",
  "MERGE (a:Account {id: $id}) ON CREATE SET a.created = timestamp() RETURN a",
  "UNWIND $rows AS row CREATE (:Event {at: row.at, kind: row.kind})",
  "MATCH (n:Order) WHERE n.total > 100 AND n.placed >= date('2024-01-01') RETURN n ORDER BY n.total DESC LIMIT 25",
  "OPTIONAL MATCH (u:User {id: $id})-[:OWNS]->(d:Device) RETURN u, collect(d)",
];

/** A markdown body for an issue of `kind`. */
export function issueBody(rng: Rng, kind: IssueKind, component: string): string {
  const version = rng.pick(VERSIONS);
  const platform = rng.pick(PLATFORMS);
  switch (kind) {
    case "bug":
    case "performance":
      return [
        "### What happened",
        `Running the query below against ${component} ${rng.pick(CONDITIONS)} ${
          kind === "bug"
            ? "fails with an internal error."
            : `takes ${rng.int(4, 90)} s instead of well under a second.`
        }`,
        "",
        "```cypher",
        rng.pick(QUERIES),
        "```",
        "",
        "### Steps to reproduce",
        `1. Start lumen ${version} with the default config`,
        `2. Load the ${rng.pick(["LDBC SF1", "movies", "northwind", "synthetic 1M-node"])} dataset`,
        "3. Run the query above twice",
        "",
        "### Environment",
        `- lumen ${version}`,
        `- ${platform}`,
      ].join("\n");
    case "enhancement":
      return [
        "### Motivation",
        `We use ${component} in production and currently work around this with a nightly job.`,
        "",
        "### Proposal",
        `Teach ${component} to handle ${
          rng.pick(FEATURES)
        } natively, behind a setting that defaults off.`,
        "",
        "### Alternatives",
        "A plugin would work, but it cannot see the transaction state.",
      ].join("\n");
    case "documentation":
      return `The page on ${component} does not say what happens ${
        rng.pick(CONDITIONS)
      }. The example in the operations guide also still uses the 0.8 syntax.`;
    case "question":
      return `We run lumen ${version} on ${platform}. ${
        rng.pick([
          "The docs were not clear to me.",
          "I searched the forum first.",
          "Any pointer appreciated!",
        ])
      }`;
  }
}

const REMARKS = [
  "I can reproduce this on {v}.",
  "Thanks for the report! Could you share the plan from `EXPLAIN`?",
  "+1, we hit this in production last week.",
  "Bisected to {sha}; looking into it.",
  "This should be fixed on main, can you try a nightly build?",
  "Still happening with {v}.",
  "Workaround: set `dbms.memory.pagecache.size` explicitly.",
  "I would like to work on this one.",
  "Assigned, thanks for volunteering!",
  "Closing as the fix shipped in {v}; please reopen if you still see it.",
  "Here is a smaller repro:\n\n```cypher\nMATCH (a)-[r]->(b) WHERE r.weight IS NULL RETURN count(*)\n```",
  "We discussed this in the community call: the planner should not pick the label scan here.",
  "The flame graph shows most time in `BTreeCursor::seek`.",
  "Is there a timeline for this? It blocks our upgrade.",
  "LGTM, the benchmark numbers look good.",
  "Could this be the same root cause as the page cache eviction bug?",
];

/** One comment's body. */
export function remark(rng: Rng): string {
  const sha = Array.from({ length: 7 }, () => "0123456789abcdef"[rng.int(0, 15)]).join("");
  return rng.pick(REMARKS).replace("{v}", rng.pick(VERSIONS)).replace("{sha}", sha);
}

const MODULES = [
  "mod",
  "cost",
  "rules",
  "cursor",
  "page",
  "wal",
  "log",
  "snapshot",
  "codec",
  "session",
  "lexer",
  "parser",
  "ast",
  "eval",
  "btree",
  "fulltext",
  "vector",
  "config",
  "metrics",
  "error",
  "tests",
];

/** Source paths of the repository tree (crates × modules, plus docs). */
export function sourcePaths(): string[] {
  const out: string[] = [];
  for (const area of AREAS) {
    for (const m of MODULES) out.push(`crates/${area.crate}/src/${m}.rs`);
  }
  for (const area of AREAS) out.push(`docs/${area.crate}.md`);
  return out;
}

/** README text for a repository. */
export function readmeText(name: string, description: string): string {
  return `# ${name}\n\n${description}\n\n## Getting started\n\n` +
    "```sh\ncargo install lumen-cli\nlumen-admin init ./data\nlumen serve\n```\n\n" +
    "## License\n\nApache-2.0\n";
}
