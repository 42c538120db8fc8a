#!/usr/bin/env bash
# The whole test job (`deno task test`; CI's `.ci/run` only adds Deno itself), as it runs on a
# fresh machine:
#   1. checks the package: type check, lint, format, bundle, and `deno publish --dry-run`;
#   2. installs what the tests drive, once (later runs reuse the cache in
#      ${XDG_CACHE_HOME:-~/.cache}/rgraph-ci and are offline): Chromium from Debian where
#      /usr/bin/chromium is missing (root or `sudo -n`, for that alone), the pinned harness CLIs
#      (npm), actionlint (go install), the Neo4j test server (Maven) and the interop
#      virtualenv (PyPI);
#   3. starts the Neo4j test server and runs every Deno test under the tests' own config
#      (tests/deno.tests.json: the test-only packages stay out of rgraph's deno.json and
#      lockfile, so an install downloads only what rgraph runs). Arguments go to `deno test`,
#      e.g. a few files.
# A step that cannot be done stops the run with the command that fixes it: no test is skipped
# for a missing tool. The last line is always `N passed, N failed, N skipped` (CI reads it).
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/rgraph-ci"

# Stops the job: what could not be done, the one command that fixes it, the summary line.
stop() {
  echo "$1"
  [ -z "${2:-}" ] || echo "  fix: $2"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
}

# Runs a step with its output kept aside, shown (the end of it) only when the step fails.
quietly() {
  local log status
  log=$(mktemp)
  "$@" >"$log" 2>&1
  status=$?
  [ "$status" -eq 0 ] || tail -n 40 "$log"
  rm -f "$log"
  return "$status"
}

# A program a step needs, or the stop that names its install.
need() {
  command -v "$1" >/dev/null || stop "$1 is not installed: $3 need it" "$2"
}

# --- 1. The package -------------------------------------------------------------------------

# main.ts loads commands/ by computed specifier, so they are bundled as entries too (deno
# compile needs a runtime download this network cannot reach; the bundle checks the same graph).
quietly deno task check || stop "type check failed" "deno task check"
deno lint --quiet || stop "lint failed" "deno lint"
deno fmt --check --quiet || stop "files are not formatted" "deno fmt"
deno bundle --quiet --outdir "$(mktemp -d)" main.ts commands/*.ts || stop "bundle of main.ts failed"
# What JSR would refuse (license, slow types, unresolvable imports); the dry run needs no network.
quietly deno publish --dry-run --allow-dirty ||
  stop "deno publish --dry-run failed: JSR would refuse the package" "deno publish --dry-run --allow-dirty"

# --- 2. The tools the tests drive -----------------------------------------------------------

# The view's browser tests drive Debian's chromium headless through puppeteer-core, which
# downloads no browser.
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    stop "/usr/bin/chromium is missing (the view's browser tests drive it), and installing it needs root" \
      "sudo apt-get update && sudo apt-get install -y chromium"
  fi
  echo "installing chromium from Debian's packages (apt-get, as root): the view's browser tests drive it"
  apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
  quietly "${apt[@]}" install -y chromium || { quietly "${apt[@]}" update && quietly "${apt[@]}" install -y chromium; } ||
    stop "could not install chromium from Debian's packages" "sudo apt-get update && sudo apt-get install -y chromium"
fi

# The real-harness tests (tests/harness/) drive each harness's own npm binary: every pinned
# package is installed once into the cache (a version is never reinstalled; a half-done install
# is never used), and the tests are pointed at it.
need npm "apt-get install -y npm" "the real-harness tests"
HARNESS_CACHE="$CACHE/harness"
export RGRAPH_HARNESS_BIN_DIR="$HARNESS_CACHE/bin"
mkdir -p "$RGRAPH_HARNESS_BIN_DIR"
while read -r harness pkg version bin; do
  case "$harness" in '' | '#'*) continue ;; esac
  dir="$HARNESS_CACHE/$pkg@$version"
  if [ ! -x "$dir/node_modules/.bin/$bin" ]; then
    echo "installing $pkg@$version (the $harness harness) from npm into $dir"
    rm -rf "$dir" "$dir.partial"
    mkdir -p "$(dirname "$dir")"
    install=(npm install --prefix "$dir.partial" --no-audit --no-fund --loglevel=error "$pkg@$version")
    quietly "${install[@]}" && mv "$dir.partial" "$dir" ||
      stop "could not install $pkg@$version (the $harness harness) from npm" "${install[*]}"
  fi
  ln -sfn "$dir/node_modules/.bin/$bin" "$RGRAPH_HARNESS_BIN_DIR/$bin"
done <tests/harness/pins.txt

# The release workflow is linted with actionlint (a Go module, built once into the cache).
ACTIONLINT_VERSION=v1.7.12
ACTIONLINT_DIR="$CACHE/actionlint-$ACTIONLINT_VERSION"
if [ ! -x "$ACTIONLINT_DIR/actionlint" ]; then
  need go "apt-get install -y golang-go" "actionlint's build"
  echo "building actionlint $ACTIONLINT_VERSION (go install) into $ACTIONLINT_DIR"
  module="github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
  quietly env GOBIN="$ACTIONLINT_DIR.partial" go install "$module" && mv "$ACTIONLINT_DIR.partial" "$ACTIONLINT_DIR" ||
    stop "could not build actionlint $ACTIONLINT_VERSION" "GOBIN=$ACTIONLINT_DIR go install $module"
fi
"$ACTIONLINT_DIR/actionlint" .github/workflows/*.yml || stop "actionlint found problems in .github/workflows/"

# The graph-store tests run against a real Neo4j server (Maven Central, built once).
need java "apt-get install -y default-jdk-headless" "the Neo4j test server"
need mvn "apt-get install -y maven" "the Neo4j test server"
bash tests/neo4j/start.sh fetch || stop "could not fetch the Neo4j test server" "bash tests/neo4j/start.sh fetch"

# The interop suite runs the upstream Python implementation (PyPI resources-graph, pinned)
# against that server, from a virtualenv in the cache.
need python3 "apt-get install -y python3 python3-venv" "the interop suite"
bash tests/interop/upstream_seed.sh --install ||
  stop "could not install the upstream package resources-graph from PyPI" "bash tests/interop/upstream_seed.sh --install"

# --- 3. The tests ---------------------------------------------------------------------------

# A state directory of this run's own, so concurrent runs never stop each other's server;
# --watch-pid ends the server even if this script is killed.
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
  exports=$(bash tests/neo4j/start.sh start --watch-pid $$) ||
    stop "the Neo4j test server did not start (the graph-store tests need it)" "bash tests/neo4j/start.sh start"
  eval "$exports"
  started_neo4j=1
  echo "neo4j test server: $RGRAPH_TEST_NEO4J_URL"
fi
# No package installs Memgraph: its suites exist only when a server is named (not as skips).
[ -n "${RGRAPH_TEST_MEMGRAPH_URL:-}" ] ||
  echo "memgraph suites: not run (set RGRAPH_TEST_MEMGRAPH_URL=bolt://HOST:PORT to run them against a server)"

log=$(mktemp)
# Bounded, so a hung test cannot outlive CI's budget.
timeout 50m deno test --config tests/deno.tests.json --allow-all --parallel "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Deno's closing line looks like `ok | 120 passed (4 steps) | 0 failed | 2 ignored (9s)`.
summary=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1)
passed=$(sed -E 's/.*\| ([0-9]+) passed.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*\| ([0-9]+) failed.*/\1/' <<<"$summary")
ignored=$(grep -oE '[0-9]+ ignored' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
rm -f "$log"
if [ -z "$summary" ]; then
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
echo "${passed:-0} passed, ${failed:-0} failed, ${ignored:-0} skipped"
exit "$status"
