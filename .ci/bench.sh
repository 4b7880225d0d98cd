#!/usr/bin/env bash
# `make bench`: the figures of issue #8 in one Markdown report,
# target/bench/report.md — the machine, the write path beside the disk's raw commit
# rate, the read path and the export at 1 000 000 seeded incidents, PostgreSQL
# beside SQLite (issue #21, .ci/bench-postgres.sh), publishing a month of the
# transparency tables at 1 000 000-incident scale (issue #40), what a phone downloads beside
# an empty Leptos app, and Lighthouse. Not part of `make test`:
# the first run seeds 1 000 000 incidents (about 19 minutes) and builds release.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/target/bench"
mkdir -p "$out"
export RUSTFLAGS="--cfg erase_components"

{
  echo "# Wells enforcement log: benchmark report"
  echo
  echo "$(date -u +%FT%TZ) · commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo
  echo "## Machine"
  echo
  echo "- CPU: $(nproc) × $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  echo "- Memory: $(free -g | awk '/^Mem:/ {print $2}') GiB"
  echo "- Disk of target/: $(df -h "$out" | awk 'NR==2 {print $1 ", " $2 " (" $4 " free)"}')"
  echo "- $(uname -sr); $(rustc --version); SQLite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo '(CLI missing)')"
  echo
} >"$out/machine.md"

cargo bench -p server --bench write_path
cargo bench -p server --bench read_path
cargo bench -p server --bench mixed_load
cargo bench -p server --bench tls_handshake
# Publishing a month at 1 000 000-incident scale (issue #40): the rollup's counts
# filled as such a month makes them, then published, corrected and read.
cargo bench -p server --bench transparency
# The hang harness for ten minutes (issue #39): concurrent renders on a
# multi-threaded server, every page given 20 s.
{
  echo "## Render hang harness (issue #39)"
  echo
  echo '`WELLS_HANG_SECONDS=600 cargo test -p server --features seed --test render_hang` (debug server, 12 clients, 4 request threads, 2 render threads):'
  echo
  WELLS_HANG_SECONDS=600 cargo test -p server --features seed --test render_hang -- --nocapture 2>&1 \
    | sed -n 's/^render hang harness/- render hang harness/p'
  echo
} >"$out/render-hang.md"
bash .ci/bench-postgres.sh
{
  echo "## Phone: what the browser downloads"
  echo
  echo '`bash .ci/wasm-size.sh` (release, split: opt-level "z", LTO, one codegen unit, wasm-opt -Oz on every file). The officer'"'"'s pages load the main WASM, its JS, the split loader and the CSS; a desk, court, admin or account page fetches its own WASM and shared chunks when first opened.'
  echo
  bash .ci/wasm-size.sh
  echo
  echo '`bash .ci/lighthouse.sh` (Lighthouse 12.2.3, default mobile emulation and throttling, Debian Chromium):'
  echo
  bash .ci/lighthouse.sh
} >"$out/phone.md"

# Issue #17's benchmark of effort: the standard incidents through the real form
# at 390 × 844 (end2end/tests/effort.phone.spec.ts), on the debug build make
# bench has just made.
EFFORT_REPORT="$out/effort.json" end2end/run-suite.sh tests/effort.phone.spec.ts
{
  echo "## Officer's effort on a phone (390 × 844)"
  echo
  echo 'Taps (clicks, checks, choices) and typed fields through the form, and the distance scrolled in screen heights up to the last input (`end2end/tests/effort.phone.spec.ts`). Goal: at most 20 inputs for the one-person citation; issue #20 aims at 12 for one scanned person.'
  echo
  echo "| incident | inputs | taps | typed | screens scrolled |"
  echo "|---|---:|---:|---:|---:|"
  python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["flows"]:
    print("| %s | %s | %s | %s | %s |" % (f["flow"], f["inputs"], f["taps"], f["typed"], f["screens"]))' "$out/effort.json"
  echo
} >"$out/effort.md"

cat "$out/machine.md" "$out/write-path.md" <(echo) "$out/read-path.md" <(echo) "$out/postgres.md" <(echo) \
  "$out/mixed-load.md" <(echo) "$out/tls.md" <(echo) "$out/transparency.md" <(echo) "$out/render-hang.md" <(echo) \
  "$out/phone.md" <(echo) "$out/effort.md" >"$out/report.md"
echo "bench: report written to $out/report.md"
