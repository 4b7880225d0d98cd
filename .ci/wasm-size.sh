#!/usr/bin/env bash
# Measures what a phone downloads: the release WASM + JS of the app, beside an empty
# Leptos 0.8 app built with the same profile (the #2 baseline later issues are held to).
# The app is built as it ships, split (cargo leptos build --release --split with the
# app's `split` feature, app/src/on_demand.rs): the officer's pages are the main
# WASM; each desk, court, admin and account page is fetched when first opened.
#
#   bash .ci/wasm-size.sh            # prints Markdown tables
#
# Both builds use the workspace's `wasm-release` profile (opt-level "z", LTO, one codegen
# unit, panic=abort), `--cfg erase_components` (without it the app's view types overflow
# the compiler's query depth), wasm-bindgen --target web, then wasm-opt -Oz from npm
# binaryen@132 (Debian's binaryen 108 produces WASM that fails in the browser, see
# TOOLCHAIN.md). Sizes: raw bytes and gzip -9 bytes, as served with compression.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/target/wasm-size"
mkdir -p "$work"
export CARGO_TARGET_DIR="$work/target"
export RUSTFLAGS="--cfg erase_components"

# The app's release site first: it installs npm's binaryen, which the empty app's
# build below runs too.
site=$(bash .ci/release-site.sh --precompress)
pkg="$site/pkg"
wasm_opt="$root/target/binaryen/node_modules/.bin/wasm-opt"

# The empty app: one component, hydrated, on the same Leptos version as the workspace.
empty="$work/empty-app"
mkdir -p "$empty/src"
leptos_version=$(sed -n 's/^leptos = { version = "\([^"]*\)".*/\1/p' Cargo.toml)
cat >"$empty/Cargo.toml" <<EOF
[package]
name = "empty"
version = "0.1.0"
edition = "2021"
[lib]
crate-type = ["cdylib"]
[dependencies]
leptos = { version = "$leptos_version", features = ["hydrate"] }
wasm-bindgen = "=0.2.130"
[profile.wasm-release]
inherits = "release"
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
[workspace]
EOF
cat >"$empty/src/lib.rs" <<'EOF'
use leptos::prelude::*;

#[component]
fn App() -> impl IntoView {
    let count = RwSignal::new(0);
    view! { <button on:click=move |_| count.update(|n| *n += 1)>{count}</button> }
}

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    leptos::mount::hydrate_body(App);
}
EOF
cp Cargo.lock "$empty/Cargo.lock"

build() { # name manifest crate-file features
  local name=$1 manifest=$2 crate=$3
  shift 3
  cargo build --quiet --profile wasm-release --target wasm32-unknown-unknown --lib \
    --manifest-path "$manifest" "$@"
  local out="$work/$name"
  rm -rf "$out" && mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name "$name" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/$crate.wasm"
  "$wasm_opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    "$out/${name}_bg.wasm" -o "$out/${name}_bg.wasm"
}
build empty "$empty/Cargo.toml" empty

size() { stat -c %s "$1"; }
gz() { gzip -9 -c "$1" | wc -c; }
row() { # label file
  printf '| %s | %s | %s |\n' "$1" "$(size "$2")" "$(gz "$2")"
}
echo "| file | raw bytes | gzip -9 bytes |"
echo "|---|---:|---:|"
row "empty Leptos app: WASM" "$work/empty/empty_bg.wasm"
row "empty Leptos app: JS" "$work/empty/empty.js"
row "Wells app, main: WASM" "$pkg/wells.wasm"
row "Wells app, main: JS" "$pkg/wells.js"
row "Wells app, split loader: JS" "$pkg/__wasm_split.______________________.js"
row "Wells app: CSS (minified)" "$pkg/wells.css"

# What a fresh load of an officer's page (the field form) runs, gzipped, beside the
# empty app: issue #15's target is at most 200 KB (204 800 bytes), 1.5 x the empty
# app the stretch.
empty_gz=$(( $(gz "$work/empty/empty_bg.wasm") + $(gz "$work/empty/empty.js") ))
main_gz=$(( $(gz "$pkg/wells.wasm") + $(gz "$pkg/wells.js") + $(gz "$pkg/__wasm_split.______________________.js") ))
echo
echo "| JS + WASM, gzip -9 | bytes | × the empty app |"
echo "|---|---:|---:|"
echo "| empty Leptos app | $empty_gz | 1.0 |"
echo "| Wells app, fresh load of /field/new (main WASM, JS, split loader; target ≤ 204800) | $main_gz | $(python3 -c "print(f'{$main_gz / $empty_gz:.1f}')") |"
# What the server sends: the brotli files the release build wrote (make release).
main_br=$(( $(size "$pkg/wells.wasm.br") + $(size "$pkg/wells.js.br") + $(size "$pkg/__wasm_split.______________________.js.br") ))
echo "| the same as served (cargo-leptos --precompress brotli) | $main_br | $(python3 -c "print(f'{$main_br / $empty_gz:.1f}')") |"

# Each on-demand page: the files its first opening fetches (its own WASM and the
# chunks it shares with others, from the split manifest), gzipped.
echo
echo "| on-demand page (first opening) | files | gzip -9 bytes |"
echo "|---|---:|---:|"
python3 - "$pkg" <<'PY'
import gzip, json, os, sys
pkg = sys.argv[1]
manifest = json.load(open(os.path.join(pkg, "__wasm_split_manifest.json")))
gz = lambda f: len(gzip.compress(open(os.path.join(pkg, f + ".wasm"), "rb").read(), 9))
for split, files in sorted(manifest.items()):
    name = split.strip("_").rsplit("_view_", 1)[0].replace("_route", "").replace("_", " ")
    print(f"| {name} | {len(files)} | {sum(gz(f) for f in files)} |")
PY
