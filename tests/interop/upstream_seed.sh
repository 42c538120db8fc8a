#!/usr/bin/env bash
# Installs the upstream Python implementation (PyPI resources-graph, pinned) into a
# cached virtualenv once, then runs upstream_seed.py with it:
#
#   bash tests/interop/upstream_seed.sh --url "$RGRAPH_TEST_NEO4J_URL" --wipe [--json]
#   bash tests/interop/upstream_seed.sh --install     # only make sure the venv is there (CI)
#
# The venv lives in ${XDG_CACHE_HOME:-$HOME/.cache}/rgraph-ci/upstream-venv (override
# with RGRAPH_UPSTREAM_VENV); later runs reuse it offline. It is built aside and moved
# into place whole, so an interrupted install is never used.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="${RGRAPH_UPSTREAM_VERSION:-0.3.0}"
# A test runner may have HOME unset: the account's home directory is the same place.
home="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
venv="${RGRAPH_UPSTREAM_VENV:-${XDG_CACHE_HOME:-$home/.cache}/rgraph-ci/upstream-venv}"
py="$venv/bin/python"
if ! "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('resources-graph') != '$version')" 2>/dev/null; then
  echo "upstream_seed: installing resources-graph==$version into $venv" >&2
  rm -rf "$venv" "$venv.partial"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv.partial"
  timeout 600 "$venv.partial/bin/python" -m pip install -q --disable-pip-version-check \
    "resources-graph==$version" >&2
  mv "$venv.partial" "$venv"
fi
if [ "${1:-}" = "--install" ]; then exit 0; fi
exec "$py" "$here/upstream_seed.py" "$@"
