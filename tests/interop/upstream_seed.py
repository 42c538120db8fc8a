"""Seeds a graph server with what the upstream Python implementation writes.

Test setup for rgraph's interop suite: a team member running the upstream
``resources-graph`` package (PyPI, 0.3.0) shares the server with rgraph users.
This script plays that team member, with the upstream package's own code:

1. the upstream schema, translated to Neo4j 5 DDL (upstream only speaks
   Memgraph's ``CREATE CONSTRAINT ON … ASSERT`` / ``CREATE INDEX ON :L(p)``),
   or as it is on Memgraph; the statements are read from the installed
   package, not restated here;
2. hook events through upstream's ``ResourcesGraphConnector`` (FETCHED and
   PROMPTED Touches), exactly as its agent hooks deliver them;
3. upstream's own Sweep (``resources_graph.sweep.sweep``) with upstream's own
   ``GitHubSource``, whose GraphQL transport is a canned, in-process fake of
   GitHub (no network: the only socket is Bolt to the given server);
4. a Cache Read (the ``resource`` tool's answer seen by the post-tool hook),
   and Touches left pending after the Sweep;
5. optionally, sessions-graph's ``(:User)-[:HAD_SESSION]->(:Session)`` for the
   seeded sessions (sessions-graph itself is not on PyPI's default install;
   upstream reads a user's Touches through that link).

The canned GitHub holds ``lumendb/lumen`` with the same node ids the rgraph
GitHub emulator (tests/emulator) gives those items, so a later rgraph Sweep
against the emulator re-fetches the same node ids and addresses, plus an
upstream-only repository ``acme/anvil``.

Deterministic: every timestamp upstream takes from the clock is pinned with
``--now`` (default 2026-11-01T12:00:00+00:00), so two runs write the same graph.

Usage (the venv python must have resources-graph installed; see upstream_seed.sh):

    python tests/interop/upstream_seed.py --url bolt://127.0.0.1:7687 [--database neo4j]
        [--memgraph] [--wipe] [--no-user] [--now ISO] [--schema-only] [--json]

With ``--memgraph`` the server is Memgraph: upstream's schema goes as it is (and the
database defaults to ``memgraph``, as upstream's does).

Prints a JSON summary of what it wrote with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from typing import Any

import neo4j
from memgraph_context_graph import session as session_node
from memgraph_context_graph.events import MessageEvent, ToolEndEvent, ToolStartEvent
from memgraph_toolbox.api.memgraph import Memgraph
from resources_graph import core
from resources_graph.connector import ResourcesGraphConnector
from resources_graph.core import ResourcesGraph
from resources_graph.github import GitHubSource
from resources_graph.sweep import sweep

# --- The schema, from the installed package, in Neo4j syntax -----------------------


class _Recorder:
    """A stand-in client that records the statements upstream's setup() would send."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def query(self, query: str, params: dict | None = None) -> list[dict[str, Any]]:
        self.statements.append(query.strip())
        return []


def upstream_ddl() -> list[str]:
    """The statements ``ResourcesGraph.setup()`` sends (Memgraph syntax), in order."""
    recorder = _Recorder()
    ResourcesGraph(memgraph=recorder).setup()  # type: ignore[arg-type]
    return recorder.statements


_CONSTRAINT = re.compile(r"^CREATE CONSTRAINT ON \((\w+):(\w+)\) ASSERT \1\.(\w+) IS UNIQUE;?$")
_INDEX = re.compile(r"^CREATE INDEX ON :(\w+)\((\w+)\);?$")


def to_neo4j(statements: list[str]) -> list[str]:
    """Memgraph DDL as Neo4j 5 DDL.

    Neo4j backs a uniqueness constraint with an index of its own, and refuses a
    second index on the same label and property, so upstream's index next to a
    constraint is dropped. Anything not recognised stops the seed: a changed
    upstream schema must be looked at, not guessed.
    """
    unique = set()
    for s in statements:
        m = _CONSTRAINT.match(s)
        if m:
            unique.add((m[2], m[3]))
    out = []
    for s in statements:
        if m := _CONSTRAINT.match(s):
            var, label, prop = m.groups()
            out.append(
                f"CREATE CONSTRAINT upstream_{label.lower()}_{prop} IF NOT EXISTS "
                f"FOR ({var}:{label}) REQUIRE {var}.{prop} IS UNIQUE"
            )
        elif m := _INDEX.match(s):
            label, prop = m.groups()
            if (label, prop) in unique:
                continue
            out.append(f"CREATE INDEX upstream_{label.lower()}_{prop} IF NOT EXISTS FOR (n:{label}) ON (n.{prop})")
        else:
            raise SystemExit(f"upstream_seed: no Neo4j translation for upstream DDL: {s!r}")
    return out


# --- A canned GitHub (GraphQL), in process -----------------------------------------

REPOS: dict[str, dict[str, Any]] = {
    "lumendb/lumen": {
        "id": "R_kgDOKbknAA",  # = the rgraph emulator's lumendb/lumen
        "nameWithOwner": "lumendb/lumen",
        "url": "https://github.com/lumendb/lumen",
        "description": "A distributed property-graph database with a Cypher query engine, written in Rust.",
        "visibility": "PUBLIC",
        "updatedAt": "2026-10-31T18:00:00Z",
        "pushedAt": "2026-10-31T16:00:00Z",
        "stargazerCount": 4821,
        "readme": {"text": "# lumen\n\nA distributed property-graph database.\n"},
        # What GitHub would count for the open-issues listing (the emulator's 720);
        # only the first page is ever asked for here.
        "open_issues_total": 720,
    },
    "acme/anvil": {
        "id": "R_kgDOUpStRm",
        "nameWithOwner": "acme/anvil",
        "url": "https://github.com/acme/anvil",
        "description": "Upstream-only repository: rgraph's emulator has no such repository.",
        "visibility": "PUBLIC",
        "updatedAt": "2026-09-01T10:00:00Z",
        "pushedAt": "2026-09-01T09:00:00Z",
        "stargazerCount": 12,
        "readme": None,
    },
}


def _url(repo: str, number: int, pull: bool) -> str:
    return f"https://github.com/{repo}/{'pull' if pull else 'issues'}/{number}"


def _comment(cid: str, repo: str, number: int, i: int, author: str, body: str, at: str) -> dict[str, Any]:
    return {
        "id": cid,
        "url": f"{_url(repo, number, False)}#issuecomment-{1000 * number + i}",
        "body": body,
        "createdAt": at,
        "updatedAt": at,
        "author": {"login": author},
    }


def _item(
    repo: str,
    number: int,
    node_id: str,
    title: str,
    *,
    state: str = "OPEN",
    created: str,
    updated: str,
    closed: str | None = None,
    author: str = "octo-dev",
    labels: tuple[str, ...] = (),
    assignees: tuple[str, ...] = (),
    milestone: str | None = None,
    comments: int = 0,
    referenced_by: tuple[int, ...] = (),
) -> dict[str, Any]:
    nodes = [
        _comment(
            f"IC_up_{node_id[-6:]}_{i:03d}",
            repo,
            number,
            i,
            ("reviewer-a", "octo-dev", "bot-ci[bot]")[i % 3],
            f"Comment {i} on #{number}: details about {title.lower()}.",
            f"{created[:8]}{10 + i:02d}T09:00:00Z",
        )
        for i in range(1, comments + 1)
    ]
    return {
        "__typename": "Issue",
        "id": node_id,
        "number": number,
        "url": _url(repo, number, False),
        "title": title,
        "body": f"{title}.\n\nSteps to reproduce are in the thread.",
        "state": state,
        "createdAt": created,
        "updatedAt": updated,
        "closedAt": closed,
        "author": {"login": author},
        "repository": {"id": REPOS[repo]["id"], "nameWithOwner": repo, "visibility": "PUBLIC"},
        "labels": {"nodes": [{"name": n} for n in labels]},
        "assignees": {"nodes": [{"login": n} for n in assignees]},
        "milestone": {"title": milestone} if milestone else None,
        "comments": {
            "totalCount": comments,
            "pageInfo": {"hasNextPage": False, "endCursor": None},
            "nodes": nodes,
        },
        "_referenced_by": referenced_by,  # resolved to timeline sources below
    }


L = "lumendb/lumen"
ITEMS: dict[tuple[str, int], dict[str, Any]] = {}


def _add(item: dict[str, Any]) -> None:
    ITEMS[(item["repository"]["nameWithOwner"], item["number"])] = item


# Node ids as the rgraph emulator gives these numbers (same GitHub, two writers).
_add(_item(L, 3, "I_kwDOKbknAAzgAA9ClA", "Add a --batch-size option to connection pool",
           created="2023-03-05T00:01:19Z", updated="2023-03-06T16:01:19Z", labels=("enhancement",)))
_add(_item(L, 7, "I_kwDOKbknAAzgAA9Cpg", "Make Bolt server configurable per database",
           created="2023-03-10T08:17:47Z", updated="2026-10-24T11:18:50Z", labels=("area/bolt", "enhancement"),
           comments=3, referenced_by=(42,)))
_add(_item(L, 42, "I_kwDOKbknAAzgAA9D1g", "Vector index leaks memory under concurrent writes",
           created="2023-04-24T23:28:14Z", updated="2026-10-31T15:23:52Z", labels=("bug", "area/indexing"),
           assignees=("octo-dev",), milestone="v1.1", comments=5))
_add(_item(L, 118, "I_kwDOKbknAAzgAA9GUA", "Clarify storage engine limits in the operations guide",
           state="CLOSED", created="2023-08-03T22:04:51Z", updated="2025-05-14T21:58:04Z",
           closed="2025-05-14T21:58:04Z", labels=("documentation",), comments=2, referenced_by=(610,)))
_add(_item(L, 245, "I_kwDOKbknAAzgAA9ISQ", "Range index: assertion failure inside an explicit transaction",
           state="CLOSED", created="2024-01-17T23:00:51Z", updated="2024-02-26T23:00:51Z",
           closed="2024-02-26T23:00:51Z", labels=("bug",), comments=2))
for n, nid, created, label in [
    (1000, "I_kwDOKbknAAzgAA9T5Q", "2026-10-11T03:25:29Z", "good first issue"),
    (999, "I_kwDOKbknAAzgAA9T5A", "2026-10-09T08:58:01Z", "bug"),
    (997, "I_kwDOKbknAAzgAA9T4g", "2026-10-06T15:51:09Z", "good first issue"),
    (996, "I_kwDOKbknAAzgAA9T4Q", "2026-10-05T15:18:23Z", "performance"),
    (994, "I_kwDOKbknAAzgAA9T0w", "2026-10-03T15:48:34Z", "good first issue"),
]:
    _add(_item(L, n, nid, f"Issue {n}: follow-up from the {label} triage", created=created,
               updated=created, labels=(label,), comments=n % 3))

_pr = _item(L, 610, "PR_kwDOKbknAAzgAA9ODA", "Planner: cost model v2 with histogram-based selectivity",
            state="MERGED", created="2025-05-14T13:49:23Z", updated="2025-09-02T13:49:23Z",
            closed="2025-05-14T21:58:04Z", labels=("area/query-planner", "performance"), comments=3,
            referenced_by=(118,))
_pr["__typename"] = "PullRequest"
_pr["url"] = _url(L, 610, True)
_pr["merged"] = True
_pr["baseRefName"] = "main"
_pr["closingIssuesReferences"] = {"nodes": [
    {"id": ITEMS[(L, 118)]["id"], "url": ITEMS[(L, 118)]["url"]},
    {"id": ITEMS[(L, 245)]["id"], "url": ITEMS[(L, 245)]["url"]},
]}
_pr["files"] = {
    "totalCount": 3,
    "pageInfo": {"hasNextPage": False, "endCursor": None},
    "nodes": [{"path": p} for p in ("src/planner/cost.rs", "src/planner/histogram.rs", "docs/planner.md")],
}
_pr["reviewThreads"] = {
    "pageInfo": {"hasNextPage": False, "endCursor": None},
    "nodes": [
        {"path": "src/planner/cost.rs", "comments": {
            "pageInfo": {"hasNextPage": False, "endCursor": None},
            "nodes": [
                _comment("PRRC_up_610_001", L, 610, 1, "reviewer-a", "Could this overflow for huge tables?",
                         "2025-05-15T09:00:00Z"),
                _comment("PRRC_up_610_002", L, 610, 2, "octo-dev", "Saturating now, see the next commit.",
                         "2025-05-15T10:00:00Z"),
            ]}},
    ],
}
_add(_pr)
_add(_item("acme/anvil", 5, "I_kwDOUpStRmzgAAAABQ", "Upstream-only issue: anvil drops frames", created="2026-08-01T10:00:00Z",
           updated="2026-08-20T10:00:00Z", labels=("bug",), comments=2))

for _it in ITEMS.values():
    repo = _it["repository"]["nameWithOwner"]
    sources = [ITEMS[(repo, n)] for n in _it.pop("_referenced_by")]
    _it["timelineItems"] = {
        "pageInfo": {"hasNextPage": False, "endCursor": None},
        "nodes": [{"source": {"id": s["id"], "url": s["url"]}} for s in sources],
    }


def _not_found(what: str) -> dict[str, Any]:
    return {"data": {"repository": None}, "errors": [{"type": "NOT_FOUND", "message": f"Could not resolve {what}"}]}


def canned_github(query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """GitHub's GraphQL answers for the queries upstream's GitHubSource sends."""
    op = re.search(r"query\s+(\w+)", query)
    name = op[1] if op else ""
    repo = f"{variables.get('owner', '')}/{variables.get('repo', '')}".lower()
    if name == "Repository":
        r = REPOS.get(repo)
        if r is None:
            return _not_found(repo)
        return {"data": {"repository": {k: v for k, v in r.items() if not k.endswith("_total")}}}
    if name in ("Item", "Freshness"):
        if repo not in REPOS:
            return _not_found(repo)
        item = ITEMS.get((repo, variables["number"]))
        if item is None:
            return {
                "data": {"repository": {"visibility": "PUBLIC", "issueOrPullRequest": None}},
                "errors": [{"type": "NOT_FOUND", "message": f"Could not resolve to an issue or pull request "
                                                            f"with the number of {variables['number']}."}],
            }
        if name == "Freshness":
            item = {k: item[k] for k in ("__typename", "id", "number", "updatedAt", "repository")}
        return {"data": {"repository": {"visibility": "PUBLIC", "issueOrPullRequest": item}}}
    if name in ("Issues", "Pulls", "IndexIssues", "IndexPulls"):
        if repo not in REPOS:
            return _not_found(repo)
        pulls = "Pulls" in name
        states = variables.get("states")
        labels = variables.get("labels")
        matching = [
            it for (r, _), it in ITEMS.items()
            if r == repo
            and (it["__typename"] == "PullRequest") == pulls
            and (states is None or it["state"] in states)
            and (not labels or any(lb["name"] in labels for lb in it["labels"]["nodes"]))
        ]
        matching.sort(key=lambda it: it["createdAt"], reverse=True)
        start = int(variables.get("after") or 0)
        page = matching[start:start + variables["first"]]
        total = len(matching)
        if not pulls and states == ["OPEN"] and not labels and not variables.get("filterBy"):
            total = REPOS[repo].get("open_issues_total", total)
        if name.startswith("Index"):
            page = [{k: it[k] for k in ("__typename", "id", "number", "updatedAt", "repository")} for it in page]
        end = start + len(page)
        return {"data": {"repository": {
            "visibility": "PUBLIC",
            "nameWithOwner": repo,
            "members": {
                "totalCount": total,
                "pageInfo": {"hasNextPage": end < total, "endCursor": str(end)},
                "nodes": page,
            },
        }}}
    return {"errors": [{"type": "UNSUPPORTED", "message": f"the canned GitHub has no answer for {name}"}]}


# --- The team member's session --------------------------------------------------------

SESSION = "up-sess-1"
LATER = "up-sess-2"


def _bash(command: str, n: int, at: str, agent: str | None = None) -> ToolStartEvent:
    return ToolStartEvent(session_id=SESSION, timestamp=at, tool_name="Bash", tool_input={"command": command},
                          tool_use_id=f"toolu_up_{n:02d}", agent_name=agent)


def run(url: str, database: str, *, wipe: bool, user: str | None, now: str, schema_only: bool,
        memgraph: bool = False) -> dict[str, Any]:
    driver = neo4j.GraphDatabase.driver(url, auth=None)
    try:
        if wipe:
            driver.execute_query("MATCH (n) DETACH DELETE n", database_=database)
        # Memgraph takes upstream's DDL as it is, outside transactions (it refuses DDL inside
        # one); an index or constraint it has already is a notification there, not an error.
        ddl = upstream_ddl() if memgraph else to_neo4j(upstream_ddl())
        refused = []
        for statement in ddl:
            try:
                if memgraph:
                    with driver.session(database=database) as session:
                        session.run(statement).consume()
                else:
                    driver.execute_query(statement, database_=database)
            except neo4j.exceptions.ClientError as e:
                # E.g. rgraph's plain index on :Session(session_id) came first: Neo4j then refuses
                # the family's uniqueness constraint on the same property. Reported, not fatal.
                if e.code not in ("Neo.ClientError.Schema.IndexAlreadyExists",
                                  "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
                                  "Neo.ClientError.Schema.ConstraintAlreadyExists"):
                    raise
                refused.append({"statement": statement, "code": e.code, "message": e.message})
                print(f"upstream_seed: warn: Neo4j refused {statement!r}: {e.code}: {e.message}", file=sys.stderr)
        if not memgraph:
            driver.execute_query("CALL db.awaitIndexes(60)", database_=database)
    finally:
        driver.close()
    summary: dict[str, Any] = {"ddl": ddl, "ddl_refused": refused}
    if schema_only:
        return summary

    # Every timestamp upstream takes from the clock, pinned.
    core.now = lambda: now  # type: ignore[assignment]

    db = Memgraph(url=url, username="", password="", database=database, user_agent="resources-graph-seed")
    graph = ResourcesGraph(memgraph=db)
    hooks = ResourcesGraphConnector(graph)
    events = [
        _bash("gh issue view 42 -R lumendb/lumen", 1, "2026-11-01T09:00:00+00:00"),
        _bash("gh pr view 610 -R lumendb/lumen", 2, "2026-11-01T09:01:00+00:00", agent="reviewer"),
        _bash("gh repo view lumendb/lumen", 3, "2026-11-01T09:02:00+00:00"),
        _bash("gh issue list -R lumendb/lumen --limit 5", 4, "2026-11-01T09:03:00+00:00"),
        _bash('gh issue list -R lumendb/lumen --label "good first issue" --limit 3', 5, "2026-11-01T09:04:00+00:00"),
        MessageEvent(session_id=SESSION, timestamp="2026-11-01T09:05:00+00:00", role="user",
                     content="Compare https://github.com/acme/anvil/issues/5 with lumendb/lumen#7 please."),
        ToolStartEvent(session_id=SESSION, timestamp="2026-11-01T09:06:00+00:00", tool_name="WebFetch",
                       tool_input={"url": "https://github.com/lumendb/lumen/issues/118"}, tool_use_id="toolu_up_07"),
        _bash("gh issue view 9999 -R lumendb/lumen", 8, "2026-11-01T09:07:00+00:00"),
    ]
    for event in events:
        hooks.on_event(event)
    report = sweep(graph, GitHubSource(canned_github))
    # After the Sweep: a Cache Read of the resource tool, and Touches left for the next Sweep.
    hooks.on_event(ToolEndEvent(
        session_id=SESSION, timestamp="2026-11-01T10:00:00+00:00", tool_name="mcp__context-graph__resource",
        tool_use_id="toolu_up_09", result="[resource hit] github:lumendb/lumen#42\n{...}"))
    hooks.on_event(ToolEndEvent(
        session_id=SESSION, timestamp="2026-11-01T10:01:00+00:00", tool_name="mcp__context-graph__resource",
        tool_use_id="toolu_up_10",
        result="[resource subsumed] github:lumendb/lumen/issues?state=open from github:lumendb/lumen/issues?state=open"))
    hooks.on_event(ToolStartEvent(
        session_id=LATER, timestamp="2026-11-01T11:00:00+00:00", tool_name="Bash",
        tool_input={"command": "gh issue view 245 -R lumendb/lumen"}, tool_use_id="toolu_up_11"))
    if user is not None:
        # sessions-graph's part of the family model (upstream reads Touches through it).
        db.query(
            "UNWIND $sessions AS sid MATCH (s:Session {session_id: sid}) "
            "MERGE (u:User {user_id: $user}) MERGE (u)-[:HAD_SESSION]->(s)",
            params={"sessions": [SESSION, LATER], "user": user},
        )
    counts = db.query(
        "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n ORDER BY label"
    )
    rels = db.query("MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n ORDER BY type")
    db.close()
    summary.update({
        "sweep": {"resolved": report.resolved, "unresolved": report.unresolved, "fetched": report.fetched,
                  "linked": report.linked},
        "labels": {r["label"]: r["n"] for r in counts},
        "relationships": {r["type"]: r["n"] for r in rels},
    })
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", required=True, help="Bolt URL of a throwaway Neo4j test server")
    p.add_argument("--database", help="the database (default neo4j; memgraph with --memgraph)")
    p.add_argument("--memgraph", action="store_true", help="the server is Memgraph: upstream's DDL as it is")
    p.add_argument("--wipe", action="store_true", help="delete everything on the server first")
    p.add_argument("--user", default="carol", help="sessions-graph user owning the seeded sessions")
    p.add_argument("--no-user", action="store_true", help="write no (:User)-[:HAD_SESSION]->(:Session)")
    p.add_argument("--now", default="2026-11-01T12:00:00+00:00", help="the clock upstream reads")
    p.add_argument("--schema-only", action="store_true", help="apply the translated upstream schema only")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    a = p.parse_args(argv)
    # Neo4j's notifications about property keys upstream reads before any node has them.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    if not re.match(r"^(bolt|neo4j)://(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?/?$", a.url):
        print(f"upstream_seed: refusing {a.url}: only a loopback test server", file=sys.stderr)
        return 2
    database = a.database or ("memgraph" if a.memgraph else "neo4j")
    summary = run(a.url, database, wipe=a.wipe, user=None if a.no_user else a.user, now=a.now,
                  schema_only=a.schema_only, memgraph=a.memgraph)
    if a.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        s = summary.get("sweep")
        print(f"upstream_seed: {len(summary['ddl'])} schema statements" + (
            f"; sweep resolved {s['resolved']}, unresolved {s['unresolved']}, fetched {s['fetched']}" if s else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
