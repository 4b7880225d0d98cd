#!/usr/bin/env bash
# Lighthouse (npm lighthouse 12.2.3 — 13 wants Node 22 — with Debian's Chromium via
# CHROME_PATH, its default mobile emulation and throttling) on the sign-in page and
# the officer's new-incident form, served by the release server with the release
# split site of .ci/wasm-size.sh (run that first). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/target/lighthouse"
mkdir -p "$work"
export RUSTFLAGS="--cfg erase_components"

if [ ! -x "$work/node/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$work/node"
  (cd "$work/node" && npm install --no-audit --no-fund --silent -E lighthouse@12.2.3 >/dev/null)
fi
release_pkg="$root/target/wasm-size/site/pkg"
[ -f "$release_pkg/wells.wasm" ] || { echo "lighthouse: run .ci/wasm-size.sh first" >&2; exit 1; }
[ -d "$root/target/site/pkg" ] || { echo "lighthouse: run make build first (CSS and assets)" >&2; exit 1; }

cargo build --quiet --release -p server
# The debug site's assets (icons, manifest), with the release build's files.
site="$work/site"
rm -rf "$site" && cp -r "$root/target/site" "$site"
rm -rf "$site/pkg" && cp -r "$release_pkg" "$site/pkg"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
export WELLS_DATABASE="$work/wells.db" WELLS_LISTEN="127.0.0.1:$port" WELLS_SITE_ROOT="$site" \
  WELLS_PUBLIC_ORIGIN="http://127.0.0.1:$port" WELLS_LOG=warn
rm -f "$WELLS_DATABASE"*
server="$root/target/release/server"
printf 'lighthouse pass phrase 2026\n' | "$server" user add lh-officer --role officer \
  --name "Lighthouse Officer" --badge 777 >/dev/null
# The audit measures pages, not the second factor (#18): password sign-in.
"$server" sign-in-policy --second-factor optional >/dev/null
"$server" serve >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fsS "$WELLS_PUBLIC_ORIGIN/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
cookie=$(curl -fsS -D - -o /dev/null -H "Origin: $WELLS_PUBLIC_ORIGIN" -H 'Content-Type: application/json' \
  -d '{"username":"lh-officer","password":"lighthouse pass phrase 2026"}' \
  "$WELLS_PUBLIC_ORIGIN/api/session/sign-in" | sed -n 's/^[Ss]et-[Cc]ookie: \(wells_session=[^;]*\).*/\1/p')

export CHROME_PATH=/usr/bin/chromium
flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
audit() { # name path [cookie]
  local headers='{}'
  [ -n "${3:-}" ] && headers="{\"Cookie\": \"$3\"}"
  "$work/node/node_modules/.bin/lighthouse" "$WELLS_PUBLIC_ORIGIN$2" --quiet \
    --only-categories=performance,accessibility --output=json --output-path="$work/$1.json" \
    --chrome-flags="$flags" --extra-headers="$headers" >/dev/null 2>"$work/$1.log"
  node -e '
    const r = require(process.argv[1]);
    const a = r.audits;
    const s = (c) => Math.round(r.categories[c].score * 100);
    const ms = (k) => (a[k].numericValue / 1000).toFixed(2) + " s";
    const whole = (k) => Math.round(a[k].numericValue) + " ms";
    const marks = Object.fromEntries(((a["user-timings"].details || {}).items || []).map((m) => [m.name, m.startTime]));
    const span = (from, to) => (marks[from] !== undefined && marks[to] !== undefined) ? Math.round(marks[to] - marks[from]) + " ms" : "–";
    require("fs").writeFileSync(process.argv[3], `| ${process.argv[2]} | ${span("wells:fetch", "wells:instantiated")} | ${span("wells:instantiated", "wells:ready")} |\n`, { flag: "a" });
    console.log(`| ${process.argv[2]} | ${s("performance")} | ${s("accessibility")} | ${ms("first-contentful-paint")} | ${ms("largest-contentful-paint")} | ${ms("interactive")} | ${whole("total-blocking-time")} | ${whole("mainthread-work-breakdown")} | ${Math.round(a["total-byte-weight"].numericValue / 1024)} KiB |`);
  ' "$work/$1.json" "$1 ($2)" "$work/timings.md"
}
rm -f "$work/timings.md"
echo "| page | performance | accessibility | FCP | LCP | TTI | TBT | main thread | transferred |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
audit sign-in /sign-in
audit new-incident /field/new "$cookie"
# The app's own marks (app/src/lib.rs StartApp, app/src/on_demand.rs), as observed
# in the unthrottled run Lighthouse simulates from.
echo
echo "| page | WASM fetched and started | page taken over |"
echo "|---|---:|---:|"
cat "$work/timings.md"
