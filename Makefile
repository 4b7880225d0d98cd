# The two commands of the README: `make run` and `make test`. Every install step
# checks first and skips when the tool is already there, so a second run installs
# nothing. Versions: ../shared/TOOLCHAIN.md.
SHELL := /usr/bin/env
.SHELLFLAGS := bash -euo pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)

CARGO_LEPTOS_VERSION := 0.3.10
CARGO_DENY_VERSION := 0.20.2
WASM_BINDGEN_VERSION := 0.2.130
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# cargo-leptos builds the debug server with these flags; cargo test and clippy use
# the same ones so they reuse its compiled dependencies instead of building twice.
export RUSTFLAGS := --cfg erase_components
export LEPTOS_OUTPUT_NAME := wells
export LEPTOS_SITE_ROOT := target/site
export LEPTOS_SITE_PKG_DIR := pkg
export LEPTOS_SITE_ADDR := 127.0.0.1:3000
export LEPTOS_RELOAD_PORT := 3001
export LEPTOS_LIB_DIR := app
export LEPTOS_BIN_DIR := server
export LEPTOS_JS_MINIFY := false
export LEPTOS_HASH_FILES := false
# The two go together: the feature marks the on-demand pages, --split moves them out.
SPLIT := --split --lib-features hydrate,split

.PHONY: run test build release binaryen tools wasm-target cargo-leptos wasm-bindgen browser e2e-deps \
        test-rust lint e2e clean-data bench crash-test cargo-deny deny postgres

## make run: build the app and serve it on http://127.0.0.1:3000 (database data/wells.db)
run: build
	target/debug/server serve

## make test: every test (Rust, lints, Playwright in Chromium)
test: tools browser e2e-deps cargo-deny postgres
	cargo fmt --all -- --check
	$(MAKE) deny
	$(MAKE) build
	$(MAKE) test-rust
	$(MAKE) lint
	$(MAKE) e2e

# --split with the app's `split` feature: the officer's pages are the main WASM,
# the desk's, court's, admin and account pages load on demand (app/src/on_demand.rs).
# The debug server carries `server seed` (the demo's and the tests' data);
# `make release` does not.
build: tools
	cargo leptos build $(SPLIT) --bin-features seed

# `make test-rust T=lockout` runs only the tests whose names contain "lockout".
# Every test on SQLite, then the server's suites again on PostgreSQL (issue #21),
# each test app on a database of its own, in a throwaway cluster: pg_virtualenv
# starts one in a temporary folder on a free loopback port, names it in PG*
# variables for the command, and removes it afterwards.
test-rust: postgres
	WELLS_REQUIRE_POSTGRES=1 pg_virtualenv -t -o fsync=off -- sh -c '\
	  cargo test --workspace $(if $(T),-- $(T),) \
	  && WELLS_TEST_BACKEND=postgres cargo test -p server $(if $(T),-- $(T),)'

lint:
	cargo clippy --workspace --all-targets -- -D warnings
	env -u RUSTFLAGS cargo clippy -p app --lib --target wasm32-unknown-unknown \
	  --no-default-features --features hydrate,split -- -D warnings

e2e:
	end2end/run-suite.sh

# Licences, bans and sources of every dependency (deny.toml). The advisories check
# needs the RustSec database from GitHub, which this network does not reach; where
# it does, run `cargo deny check advisories`.
deny:
	cargo deny check licenses bans sources

## make crash-test: 200 kill -9 cycles of the real server under load (CYCLES=n to change);
## the report goes to target/crash-test.md. `make test` runs 10 of them.
crash-test:
	WELLS_CRASH_CYCLES=$(or $(CYCLES),200) WELLS_CRASH_REPORT=$(CURDIR)/target/crash-test.md \
	  cargo test -p server --test crash -- --nocapture

## make release: the build to deploy: target/release/server and the optimised site
## in target/site (split, wasm-opt -Oz, each file also brotli- and gzip-compressed)
release: tools binaryen
	PATH="$(CURDIR)/$(BINARYEN):$$PATH" cargo leptos build --release --precompress $(SPLIT)

## make bench: the performance figures (target/bench/report.md); not part of make test
bench: tools browser e2e-deps build postgres
	bash .ci/bench.sh

# ---- installs (idempotent) ----
tools: wasm-target cargo-leptos wasm-bindgen

wasm-target:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
	  || rustup target add wasm32-unknown-unknown

cargo-leptos:
	@cargo leptos --version 2>/dev/null | grep -q ' $(CARGO_LEPTOS_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install --locked cargo-leptos --version $(CARGO_LEPTOS_VERSION)

cargo-deny:
	@cargo deny --version 2>/dev/null | grep -q ' $(CARGO_DENY_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install --locked cargo-deny --version $(CARGO_DENY_VERSION)

# Not --locked: the locked build wants a webpki-roots the registry here lacks.
wasm-bindgen:
	@wasm-bindgen --version 2>/dev/null | grep -q ' $(WASM_BINDGEN_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)

# wasm-opt for release builds: npm's binaryen 132 (Debian's 108 breaks the WASM,
# ../shared/TOOLCHAIN.md).
BINARYEN := target/binaryen/node_modules/.bin
binaryen:
	@[ -x $(BINARYEN)/wasm-opt ] || { mkdir -p target/binaryen && cd target/binaryen \
	  && npm install --no-audit --no-fund --silent binaryen@132 >/dev/null; }

# PostgreSQL for the tests only (make run never needs it): Debian's server and
# pg_virtualenv (postgresql-common).
postgres:
	@command -v pg_virtualenv >/dev/null && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql; }

browser:
	@command -v chromium >/dev/null \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

# npm ci only when node_modules is missing or older than the lock file.
e2e-deps: end2end/node_modules/.installed
end2end/node_modules/.installed: end2end/package-lock.json
	cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	touch $@
