#!/usr/bin/env bash
# Runs the Playwright suite against the built server: a free port, a fresh database
# in a temporary folder, a readiness wait on /healthz, and the server stopped
# whatever happens. Usage: end2end/run-suite.sh [playwright args...]
#
# `end2end/run-suite.sh --secure [args...]` runs the phone on a true secure
# context instead (issue #38): the server speaks HTTPS as https://wells.test:<port>
# with a certificate from a test authority made here, trusted by Chromium
# through an NSS database in a throwaway HOME (not ignoreHTTPSErrors, under
# which Chromium refuses service workers), and Chromium maps wells.test (and
# other.test, for the certificate that must fail) to 127.0.0.1. Only the
# `secure` project (*.secure.spec.ts) runs.
set -euo pipefail
secure=0
if [ "${1:-}" = --secure ]; then secure=1; shift; fi
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
curl_tls=()
if [ "$secure" = 1 ]; then
  # The test authority and the server's certificate for wells.test (two days).
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
    -subj '/CN=Wells test authority' -addext 'basicConstraints=critical,CA:TRUE' \
    -addext 'keyUsage=critical,keyCertSign,cRLSign' \
    -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=wells.test' \
    -keyout "$work/key.pem" -out "$work/cert.csr" 2>/dev/null
  printf 'subjectAltName=DNS:wells.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$work/ext"
  openssl x509 -req -in "$work/cert.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
    -days 2 -extfile "$work/ext" -out "$work/cert.pem" 2>/dev/null
  # Chromium on Linux trusts the roots in $HOME/.pki/nssdb.
  export WELLS_NSS_HOME="$work/home"
  mkdir -p "$WELLS_NSS_HOME/.pki/nssdb"
  certutil -d "sql:$WELLS_NSS_HOME/.pki/nssdb" -N --empty-password
  certutil -d "sql:$WELLS_NSS_HOME/.pki/nssdb" -A -t 'C,,' -n 'Wells test authority' -i "$work/ca.pem"
  export WELLS_TLS_CERT="$work/cert.pem" WELLS_TLS_KEY="$work/key.pem"
  export WELLS_PUBLIC_ORIGIN="https://wells.test:$port"
  export BASE_URL="$WELLS_PUBLIC_ORIGIN" SECURE_BASE_URL="$WELLS_PUBLIC_ORIGIN"
  curl_tls=(--cacert "$work/ca.pem" --resolve "wells.test:$port:127.0.0.1")
  set -- --project secure "$@"
fi

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
  if curl -fsS "${curl_tls[@]}" "$BASE_URL/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then keep_log=1; echo "run-suite: server exited early" >&2; exit 1; fi
  sleep 0.1
done
curl -fsS "${curl_tls[@]}" "$BASE_URL/healthz" >/dev/null || { keep_log=1; echo "run-suite: server not ready" >&2; exit 1; }

cd "$root/end2end"
if ! npx playwright test "$@"; then keep_log=1; exit 1; fi
