#!/usr/bin/env bash
# Builds the browser's files as they ship (issue #36): the split release site —
# cargo leptos build --release --frontend-only --split with the app's `split`
# feature, the workspace's `wasm-release` profile (opt-level "z", LTO, one codegen
# unit, panic=abort) and wasm-opt -Oz from npm binaryen@132 (Debian's 108 breaks the
# WASM, ../shared/TOOLCHAIN.md). Prints the site's folder.
#
#   bash .ci/release-site.sh --precompress   # target/wasm-size/site: every file
#       optimised and also brotli- and gzip-compressed, as `make release` writes them
#       (.ci/wasm-size.sh and .ci/lighthouse.sh); about 4.5 minutes past the compile
#   bash .ci/release-site.sh --main-only     # target/wasm-size/main-only: only the
#       main WASM optimised (.ci/phone-budget.sh); under a minute past the compile
#
# Why --main-only is exact: cargo-leptos runs wasm-opt once per file, each file on
# its own, so the main WASM comes out byte for byte as in the full build. npm's
# wasm-opt is binaryen compiled to WASM under Node: it takes 40 s on the main file
# and about 0.4 s to start on each of the 240-odd on-demand pieces, which are what
# the full build spends its minutes on. A --main-only site is for measuring, never
# for serving: its on-demand pieces are not optimised.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Its own target folder (target/front), whatever the caller set.
unset CARGO_TARGET_DIR
mode=${1:?release-site: --precompress or --main-only}
binaryen="$root/target/binaryen/node_modules/.bin"
if [ ! -x "$binaryen/wasm-opt" ]; then
  mkdir -p target/binaryen
  (cd target/binaryen && npm install --no-audit --no-fund --silent binaryen@132 >/dev/null)
fi
work="$root/target/wasm-size"
mkdir -p "$work"
case "$mode" in
  --precompress)
    site="$work/site" flags=--precompress opt="$binaryen"
    ;;
  --main-only)
    site="$work/main-only" flags="" opt="$work/opt-main"
    # A wasm-opt first on PATH that optimises the main WASM (cargo-leptos names
    # it after the site, wells.wasm, and optimises each file in place) and leaves
    # every other file as it is.
    mkdir -p "$opt"
    cat >"$opt/wasm-opt" <<EOF
#!/usr/bin/env bash
for arg in "\$@"; do
  [ "\$(basename -- "\$arg")" = wells.wasm ] && exec "$binaryen/wasm-opt" "\$@"
done
exit 0
EOF
    chmod +x "$opt/wasm-opt"
    ;;
  *)
    echo "release-site: --precompress or --main-only, not $mode" >&2
    exit 2
    ;;
esac
log="$work/leptos-build${mode#-}.log"
rm -rf "$site"
# cargo-leptos builds the WASM in target/front, beside the debug one `make front`
# keeps there: the two profiles do not rebuild each other. The variables are
# `make release`'s (the Makefile exports them), so this is the WASM it ships.
# shellcheck disable=SC2086 # $flags is empty or one flag
RUSTFLAGS="--cfg erase_components" PATH="$opt:$PATH" LEPTOS_SITE_ROOT="$site" \
  LEPTOS_HASH_FILES=false LEPTOS_JS_MINIFY=false \
  cargo leptos build --release --frontend-only $flags --split --lib-features hydrate,split \
  >"$log" 2>&1 || { tail -n 40 "$log" >&2; exit 1; }
echo "$site"
