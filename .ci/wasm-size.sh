#!/usr/bin/env bash
# Measures what a phone downloads: the release WASM + JS of the app, beside an empty
# Leptos 0.8 app built with the same profile (the #2 baseline later issues are held to).
#
#   bash .ci/wasm-size.sh            # prints a Markdown table
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

if [ ! -x "$work/node/node_modules/.bin/wasm-opt" ]; then
  mkdir -p "$work/node"
  (cd "$work/node" && npm install --no-audit --no-fund --silent binaryen@132 >/dev/null)
fi
wasm_opt="$work/node/node_modules/.bin/wasm-opt"

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
build wells "$root/app/Cargo.toml" app --no-default-features --features hydrate

size() { stat -c %s "$1"; }
gz() { gzip -9 -c "$1" | wc -c; }
row() { # label file
  printf '| %s | %s | %s |\n' "$1" "$(size "$2")" "$(gz "$2")"
}
echo "| file | raw bytes | gzip -9 bytes |"
echo "|---|---:|---:|"
row "empty Leptos app: WASM" "$work/empty/empty_bg.wasm"
row "empty Leptos app: JS" "$work/empty/empty.js"
row "Wells app: WASM" "$work/wells/wells_bg.wasm"
row "Wells app: JS" "$work/wells/wells.js"
row "Wells app: CSS (unminified)" "$root/style/main.css"

# What a fresh load of any page (the field form included) runs, gzipped, beside the
# empty app: issue #15's target is at most 200 KB (204 800 bytes), 1.5 x the empty
# app the stretch.
empty_gz=$(( $(gz "$work/empty/empty_bg.wasm") + $(gz "$work/empty/empty.js") ))
wells_gz=$(( $(gz "$work/wells/wells_bg.wasm") + $(gz "$work/wells/wells.js") ))
echo
echo "| JS + WASM, gzip -9 | bytes | × the empty app |"
echo "|---|---:|---:|"
echo "| empty Leptos app | $empty_gz | 1.0 |"
echo "| Wells app (every page, /field/new included; target ≤ 204800) | $wells_gz | $(python3 -c "print(f'{$wells_gz / $empty_gz:.1f}')") |"
