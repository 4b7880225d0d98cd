#!/usr/bin/env bash
# Runs the Playwright suite against the built server: a free port, a fresh database
# in a temporary folder, a readiness wait on /healthz, and the server stopped
# whatever happens. Usage: end2end/run-suite.sh [playwright args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
server="$root/target/debug/server"
[ -x "$server" ] || { echo "run-suite: $server is missing: run 'make build' first" >&2; exit 1; }

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
export WELLS_DATABASE="$work/wells.db"
export WELLS_LISTEN="127.0.0.1:$port"
# The browser reaches the server by name: passkeys (WebAuthn) need a host name,
# not an address (second-factor.phone.spec.ts). The server still listens on
# 127.0.0.1, which is what localhost is here.
export WELLS_PUBLIC_ORIGIN="http://localhost:$port"
export WELLS_SITE_ROOT="$root/target/site"
export WELLS_LOG="${WELLS_LOG:-warn}"
# Every spec signs in from 127.0.0.1; the per-address limit is tested in Rust.
export WELLS_SIGN_IN_PER_MINUTE=10000
export WELLS_SERVER_BIN="$server"
export BASE_URL="http://localhost:$port"

"$server" serve >"$work/server.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "${keep_log:-0}" = 1 ]; then
    echo "run-suite: server log follows" >&2
    tail -n 200 "$work/server.log" >&2 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  if curl -fsS "$BASE_URL/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then keep_log=1; echo "run-suite: server exited early" >&2; exit 1; fi
  sleep 0.1
done
curl -fsS "$BASE_URL/healthz" >/dev/null || { keep_log=1; echo "run-suite: server not ready" >&2; exit 1; }

cd "$root/end2end"
if ! npx playwright test "$@"; then keep_log=1; exit 1; fi
