#!/usr/bin/env bash
# Holds the officer's first load to the budget in .ci/phone-budget (issue #36): the
# main WASM, its JS and the split loader of the release site, brotli-compressed as
# the server sends them (quality 11, as cargo-leptos --precompress writes them;
# Node's brotli comes within 0.02 % of its files). Fails with the figure, the
# budget and the difference. Then proves the check can fail: the same on a copy
# whose WASM carries 20 KB more (an incompressible custom section) is refused.
#
#   bash .ci/phone-budget.sh         # builds the release site's main WASM
#                                    # (.ci/release-site.sh --main-only) and checks
#   bash .ci/phone-budget.sh PKG     # checks a built site's pkg folder
set -euo pipefail
cd "$(dirname "$0")/.."
budget=$(sed -n 's/^field_new_brotli_bytes=//p' .ci/phone-budget)
[ -n "$budget" ] || { echo "phone-budget: no field_new_brotli_bytes in .ci/phone-budget" >&2; exit 2; }

# The files a fresh load of /field/new fetches besides the page and the CSS.
FIRST_LOAD=(wells.wasm wells.js "__wasm_split.______________________.js")

# brotli FILE: its size compressed as the server sends it.
brotli() {
  node -e '
    const fs = require("fs"), zlib = require("zlib");
    const src = fs.readFileSync(process.argv[1]);
    const z = zlib.constants;
    process.stdout.write(String(zlib.brotliCompressSync(src, { params: {
      [z.BROTLI_PARAM_QUALITY]: 11, [z.BROTLI_PARAM_SIZE_HINT]: src.length } }).length));
  ' "$1"
}

# check PKG: prints the figure; returns 1 past the budget.
check() {
  local pkg=$1 total=0 f
  for f in "${FIRST_LOAD[@]}"; do
    [ -f "$pkg/$f" ] || { echo "phone-budget: $pkg/$f is missing" >&2; exit 2; }
    total=$(( total + $(brotli "$pkg/$f") ))
  done
  if (( total > budget )); then
    echo "phone-budget: FAIL — the officer's first load of /field/new is $total B as served (brotli), over the budget of $budget B by $(( total - budget )) B (.ci/phone-budget; raising it is a commit that says why)" >&2
    return 1
  fi
  echo "phone-budget: the officer's first load of /field/new is $total B as served (brotli), within the budget of $budget B ($(( budget - total )) B to spare)"
}

# grown PKG OUT: a copy of PKG's first-load files whose main WASM carries 20,480
# random bytes more in a custom section (the browser ignores it; brotli cannot
# shrink it).
grown() {
  local pkg=$1 out=$2 f
  mkdir -p "$out"
  for f in "${FIRST_LOAD[@]}"; do cp "$pkg/$f" "$out/$f"; done
  python3 - "$out/wells.wasm" <<'PY'
import os, sys
name = b"budget-self-test"
payload = bytes([len(name)]) + name + os.urandom(20 * 1024)
size, leb = len(payload), bytearray()
while True:
    byte, size = size & 0x7F, size >> 7
    leb.append(byte | (0x80 if size else 0))
    if not size:
        break
with open(sys.argv[1], "ab") as f:
    f.write(b"\x00" + bytes(leb) + payload)
PY
}

pkg=${1:-}
[ -n "$pkg" ] || pkg="$(bash .ci/release-site.sh --main-only)/pkg"
check "$pkg"
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
grown "$pkg" "$copy/pkg"
if check "$copy/pkg" 2>"$copy/refused"; then
  echo "phone-budget: the check let a WASM 20 KB larger pass: the budget leaves 20 KB or more of room" >&2
  exit 1
fi
echo "phone-budget: and a WASM 20 KB larger is refused: $(cat "$copy/refused")"
