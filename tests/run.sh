#!/usr/bin/env bash
# The whole test suite: starts the Neo4j test server (the graph-store contract
# runs against a real Bolt server), runs every Deno test, and ends with the
# plain summary line `N passed, N failed` that CI reads.
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1

# A state directory of this run's own, so concurrent runs never stop each
# other's server; --watch-pid ends the server even if this script is killed.
export RGRAPH_NEO4J_STATE="${RGRAPH_NEO4J_STATE:-$(mktemp -d)}"
started_neo4j=""
cleanup() {
  if [ -n "$started_neo4j" ]; then
    bash tests/neo4j/start.sh stop
    rm -rf "$RGRAPH_NEO4J_STATE"
  fi
}
trap cleanup EXIT

if [ -z "${RGRAPH_TEST_NEO4J_URL:-}" ]; then
  if exports=$(bash tests/neo4j/start.sh start --watch-pid $$); then
    eval "$exports"
    started_neo4j=1
    echo "neo4j test server: $RGRAPH_TEST_NEO4J_URL"
  else
    echo "neo4j test server did not start; graph-store tests will fail" >&2
  fi
fi

# The real-harness tests (tests/harness/) run each pinned harness CLI from
# $RGRAPH_HARNESS_BIN_DIR (.ci/run installs them there); without a binary its
# tests are skipped, and fail under CI=true.
echo "harness CLIs: ${RGRAPH_HARNESS_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rgraph-ci/harness/bin}"

log=$(mktemp)
# Bounded, so a hung test cannot outlive CI's budget.
timeout 50m deno test --allow-all --parallel "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Deno's closing line looks like `ok | 120 passed (4 steps) | 0 failed | 2 ignored (9s)`.
summary=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1)
passed=$(sed -E 's/.*\| ([0-9]+) passed.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*\| ([0-9]+) failed.*/\1/' <<<"$summary")
ignored=$(grep -oE '[0-9]+ ignored' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
rm -f "$log"
if [ -z "$summary" ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "${passed:-0} passed, ${failed:-0} failed, ${ignored:-0} skipped"
exit "$status"
