#!/usr/bin/env bash
# The real Neo4j server the graph-store tests run against (see Launcher.java).
#
#   start.sh fetch                  download Neo4j from Maven Central and build the launcher
#                                   (once; later runs use the local Maven cache, offline)
#   start.sh start [--watch-pid P]  start it in the background, wait for Bolt, print
#                                   `export RGRAPH_TEST_NEO4J_URL=bolt://127.0.0.1:PORT`
#                                   (with --watch-pid the server also exits by itself
#                                   once process P has exited); with openssl, a second
#                                   server in the same process takes TLS only, with a
#                                   self-signed certificate for localhost, auth and a login
#                                   per user (alice/alice-password, bob/bob-password), printed as
#                                   `export RGRAPH_TEST_NEO4J_TLS_URL=bolt+s://127.0.0.1:PORT`
#                                   and `export RGRAPH_TEST_NEO4J_TLS_CA=<its certificate>`
#   start.sh stop                   stop the server this script started
#   start.sh PIDFILE                start it, write its pid to PIDFILE, print only the URL
#
# In CI:  bash tests/neo4j/start.sh fetch && eval "$(bash tests/neo4j/start.sh start --watch-pid $$)"
# Timings on the 2-core machine: first download and build ~35 s, start ~8 s.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${RGRAPH_NEO4J_STATE:-$here/target/run}"
cp_file="$here/target/classpath.txt"

say() { echo "neo4j: $*" >&2; }

built() {
  [ -f "$cp_file" ] && [ -f "$here/target/classes/Launcher.class" ] || return 1
  # A launcher older than its source is rebuilt (offline: the jars are already cached).
  [ "$here/target/classes/Launcher.class" -nt "$here/src/main/java/Launcher.java" ] || return 1
  local jar
  # A classpath naming a jar the Maven cache no longer has is stale.
  for jar in $(tr ':' ' ' < "$cp_file"); do [ -f "$jar" ] || return 1; done
}

fetch() {
  if built; then return 0; fi
  local tool
  for tool in java mvn; do
    command -v "$tool" >/dev/null || { say "$tool not found: the Neo4j test server needs Java 17+ and Maven"; return 1; }
  done
  cd "$here"
  if mvn -B -q -o package >/dev/null 2>&1; then return 0; fi
  say "downloading Neo4j and its dependencies from Maven Central (first run only)"
  local t0=$SECONDS
  # Bounded: a stalled download must fail CI in minutes, not hours.
  if ! timeout 900 mvn -B -q -Dmaven.wagon.rto=60000 -Dmaven.wagon.http.retryHandler.count=3 \
    package >"$here/target-mvn.log" 2>&1; then
    say "maven build failed; see $here/target-mvn.log"
    tail -n 20 "$here/target-mvn.log" >&2
    return 1
  fi
  rm -f "$here/target-mvn.log"
  say "built in $((SECONDS - t0)) s"
}

start() {
  local watch=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --watch-pid) watch="$2"; shift 2 ;;
      *) say "unknown option $1"; return 2 ;;
    esac
  done
  fetch
  stop_server 2>/dev/null || true
  mkdir -p "$state"
  : >"$state/out"
  local t0=$SECONDS
  local args=()
  [ -n "$watch" ] && args=(--watch-pid "$watch")
  local tls=""
  if command -v openssl >/dev/null; then
    tls="$state/tls"
    mkdir -p "$tls"
    # A fresh self-signed certificate a run trusts only when it says so (bolt+ssc, or the CA file).
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$tls/private.key" -out "$tls/public.crt" >/dev/null 2>&1 || tls=""
    [ -n "$tls" ] && args+=(--tls "$tls")
  fi
  nohup java -Xmx1g -XX:+UseSerialGC -cp "$here/target/classes:$(cat "$cp_file")" \
    Launcher "${args[@]}" >"$state/out" 2>"$state/log" </dev/null &
  echo $! >"$state/pid"
  local url="" tls_url=""
  for _ in $(seq 1 360); do
    url="$(sed -n 's/^BOLT //p' "$state/out" | head -n1)"
    tls_url="$(sed -n 's/^BOLT_TLS //p' "$state/out" | head -n1)"
    [ -n "$url" ] && { [ -z "$tls" ] || [ -n "$tls_url" ]; } && break
    if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then
      say "the server exited before opening Bolt; its log:"
      tail -n 30 "$state/log" >&2
      return 1
    fi
    sleep 0.5
  done
  if [ -z "$url" ] || { [ -n "$tls" ] && [ -z "$tls_url" ]; }; then
    say "no Bolt URL (or no TLS one) after 180 s; its log:"
    tail -n 30 "$state/log" >&2
    stop_server
    return 1
  fi
  echo "$url" >"$state/url"
  say "started at $url in $((SECONDS - t0)) s (pid $(cat "$state/pid"))"
  echo "export RGRAPH_TEST_NEO4J_URL=$url"
  if [ -n "$tls_url" ]; then
    echo "export RGRAPH_TEST_NEO4J_TLS_URL=$tls_url"
    echo "export RGRAPH_TEST_NEO4J_TLS_CA=$tls/public.crt"
  fi
}

stop_server() {
  [ -f "$state/pid" ] || return 0
  local pid
  pid="$(cat "$state/pid")"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  rm -f "$state/pid" "$state/url"
}

case "${1:-}" in
  fetch) fetch ;;
  start) shift; start "$@" ;;
  stop) stop_server ;;
  /*)
    pidfile="$1"
    url="$(start | sed -n 's/^export RGRAPH_TEST_NEO4J_URL=//p')"
    [ -n "$url" ] || exit 1
    cp "$state/pid" "$pidfile"
    echo "$url"
    ;;
  *) echo "usage: $0 fetch | start [--watch-pid PID] | stop | /PIDFILE" >&2; exit 2 ;;
esac
