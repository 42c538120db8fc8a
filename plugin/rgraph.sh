#!/bin/sh
# rgraph as a harness plugin: every hook and the MCP server of the plugin
# manifests in this repository run this script, from the plugin's installed
# folder (the folder above this one), with the harness and what to run:
#
#   rgraph.sh <harness> session-start   session start: first-run work, then the hook
#   rgraph.sh <harness> hook [ARGS]     any other hook event
#   rgraph.sh <harness> tool-hook [ARGS] a tool call: the hook, when the call can read GitHub
#   rgraph.sh <harness> session-end     the automatic Sweep at a session's end
#   rgraph.sh <harness> serve-mcp       the MCP server (which writes the first config too:
#                                       a harness may start it before the session start)
#
# Hooks run the bundle `rgraph plugin-start` builds once it exists, else
# main.ts. Without Deno the session start says so once, in the
# harness's own output, and everything else does nothing. The flags mirror
# DENO_FLAGS and BUNDLE_FLAGS (lib/install/command.ts; tests/plugin_test.ts
# keeps them equal).
harness=$1
what=$2
shift 2

# A tool hook (tool-hook) starts Deno only for a call that can read GitHub (lib/install/dispatch.ts;
# tests/plugin_test.ts keeps these patterns equal to READ_PATTERNS and COPILOT_TOOLS): the payload
# must name gh as a word, github or rgraph's resource tool, and Copilot CLI's, whose hooks have no matcher, must
# be of a tool that can fetch (its toolName cut out with parameter expansions). A Read, an Edit or
# an ls costs this shell and starts nothing.
if [ "$what" = tool-hook ]; then
  payload=$(/bin/cat) # never a cat found on PATH (see below)
  if [ "$harness" = copilot ]; then
    tool=${payload#*'"toolName"'}
    tool=${tool#*'"'}
    case $payload in *'"toolName"'*)
      case ${tool%%'"'*} in bash | powershell | web_fetch | *-*) ;; *) exit 0 ;; esac
      ;;
    esac
  fi
  case $payload in *[!A-Za-z0-9_-]gh[!A-Za-z0-9_-]* | *[Gg][Ii][Tt][Hh][Uu][Bb]* | *rgraph[_:-]resource* | *rgraph__resource*) ;; *) exit 0 ;; esac
  what=hook
  exec <<EOF
$payload
EOF
fi

# Shell built-ins only until deno is found: a program looked up on PATH here runs in the harness's
# folder, a cloned repository, where an empty or relative PATH entry would find the repository's own.
case "$0" in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
root=$(CDPATH='' cd -- "$here/.." && pwd)

# Deno from PATH's absolute folders only (as lib/host/which.ts finds programs): an empty entry
# (`::`), `.` or `bin` names the current folder, whose `deno` the repository supplies.
deno=
set -f
saved_ifs=$IFS
IFS=:
for dir in $PATH; do
  case "$dir" in
  /*) if [ -f "$dir/deno" ] && [ -x "$dir/deno" ]; then
    deno=${dir%/}/deno
    break
  fi ;;
  esac
done
IFS=$saved_ifs
set +f
fallback=${DENO_INSTALL:-$HOME/.deno}/bin/deno
case "$fallback" in
/*) if [ -z "$deno" ] && [ -f "$fallback" ] && [ -x "$fallback" ]; then deno=$fallback; fi ;;
esac
if [ -z "$deno" ]; then
  message="rgraph: Deno is not installed (https://deno.com), so the rgraph plugin does nothing; install Deno and start a new session."
  case "$what" in
  session-start)
    case "$harness" in
    claude-code | codex | gemini) printf '{"systemMessage":"%s"}\n' "$message" ;;
    *) printf '%s\n' "$message" >&2 ;;
    esac
    ;;
  serve-mcp)
    printf '%s\n' "$message" >&2
    exit 1
    ;;
  esac
  exit 0
fi

# Word-split on purpose: flags have no spaces; paths are quoted on their own.
flags="--allow-read --allow-write --allow-env --allow-net --allow-run --allow-sys --quiet"
bundle_flags="--no-config --no-lock --v8-flags=--no-lazy --allow-read --allow-write --allow-env --allow-run --quiet"
# The hook bundle lives in the plugin's folder, which uninstalling takes away; but Codex trusts a
# plugin's hooks by a fingerprint of every file in that folder (a bundle built there makes it
# skip them as modified), and keeps a plugin's data folder after uninstalling it: for Codex the
# bundle lives in rgraph's default data folder.
case "$harness" in
codex) bundle_dir="${XDG_DATA_HOME:-$HOME/.local/share}/rgraph/hook-bundle/codex-plugin" ;;
*) bundle_dir="$root/dist/hook-bundle" ;;
esac
bundle="$bundle_dir/hook_bundled.js"
case "$what" in
session-start) "$deno" run $flags "$root/main.ts" plugin-start --bundle-dir "$bundle_dir" </dev/null >/dev/null 2>&1 ;;
hook) ;;
session-end) exec "$deno" run $flags "$root/main.ts" sweep --background ;;
serve-mcp) exec "$deno" run $flags "$root/main.ts" serve-mcp --plugin ;;
*) exit 0 ;;
esac
if [ -f "$bundle" ]; then
  exec "$deno" run $bundle_flags "$bundle" hook "$harness" --plugin "$@"
fi
exec "$deno" run $flags "$root/main.ts" hook "$harness" --plugin "$@"
