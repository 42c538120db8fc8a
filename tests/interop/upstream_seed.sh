#!/usr/bin/env bash
# Installs the upstream Python implementation (PyPI resources-graph, pinned) into a
# cached virtualenv once, then runs upstream_seed.py with it:
#
#   bash tests/interop/upstream_seed.sh --url "$RGRAPH_TEST_NEO4J_URL" --wipe [--json]
#
# The venv lives in ${XDG_CACHE_HOME:-$HOME/.cache}/rgraph-ci/upstream-venv (override
# with RGRAPH_UPSTREAM_VENV); later runs reuse it offline.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="${RGRAPH_UPSTREAM_VERSION:-0.3.0}"
venv="${RGRAPH_UPSTREAM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/rgraph-ci/upstream-venv}"
py="$venv/bin/python"
if ! "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('resources-graph') != '$version')" 2>/dev/null; then
  echo "upstream_seed: installing resources-graph==$version into $venv" >&2
  python3 -m venv "$venv"
  timeout 600 "$venv/bin/pip" install -q --disable-pip-version-check "resources-graph==$version" >&2
fi
exec "$py" "$here/upstream_seed.py" "$@"
