# The two commands of the README: `make run` and `make test`. Every install step
# checks first and skips when the tool is already there, so a second run installs
# nothing. Versions: ../shared/TOOLCHAIN.md.
SHELL := /usr/bin/env
.SHELLFLAGS := bash -euo pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)

CARGO_LEPTOS_VERSION := 0.3.10
CARGO_DENY_VERSION := 0.20.2
CARGO_DEB_VERSION := 3.8.0
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

.PHONY: run test build front release binaryen tools wasm-target cargo-leptos wasm-bindgen browser e2e-deps \
        test-rust lint seed-check e2e clean-data bench crash-test cargo-deny deny postgres \
        budget e2e-secure pebble nss-tools systemd-analyze cargo-deb deb deb-test

## make run: build the app and serve it on http://127.0.0.1:3000 (database data/wells.db)
run: build
	target/debug/server serve

## make test: every test (Rust, lints, Playwright in Chromium)
# Each step is timed (target/make-test-times.txt). The server the Playwright suite
# drives is the one `cargo test` builds: the Rust tests, the server and clippy's
# host pass then compile one dependency tree, with the same features and flags,
# instead of cargo-leptos building the server a second time with others.
test: tools browser e2e-deps cargo-deny postgres pebble nss-tools systemd-analyze
	@: > target/make-test-times.txt 2>/dev/null || { mkdir -p target && : > target/make-test-times.txt; }
	$(call timed,fmt,cargo fmt --all -- --check)
	$(call timed,deny,$(MAKE) deny)
	$(call timed,front,$(MAKE) front)
	$(call timed,budget,$(MAKE) budget)
	$(call timed,test-rust,$(MAKE) test-rust)
	$(call timed,lint,$(MAKE) lint)
	$(call timed,e2e,$(MAKE) e2e)
	$(call timed,e2e-secure,$(MAKE) e2e-secure)
	@cat target/make-test-times.txt

# $(call timed,NAME,COMMAND): runs COMMAND and appends "NAME <seconds> s" to
# target/make-test-times.txt.
timed = @start=$$(date +%s); $(2); echo "$(1) $$(( $$(date +%s) - start )) s" | tee -a target/make-test-times.txt

# --split with the app's `split` feature: the officer's pages are the main WASM,
# the desk's, court's, admin and account pages load on demand (app/src/on_demand.rs).
# The debug server carries `server seed` (the demo's and the tests' data);
# `make release` does not.
build: tools
	cargo leptos build $(SPLIT) --bin-features seed

# The browser's files only (WASM, JS, CSS, public/) into target/site: `make test`
# builds the server with its tests.
front: tools
	cargo leptos build --frontend-only $(SPLIT)

# The officer's first load of /field/new, as the release build ships it, against
# the budget in .ci/phone-budget (issue #36): fails with the figure, the budget and
# the difference, and proves a WASM 20 KB larger fails. Builds the release WASM in
# target/front (about 4 minutes on a fresh clone, 1 when only the app changed).
budget: tools
	bash .ci/phone-budget.sh

# `make test-rust T=lockout` runs only the tests whose names contain "lockout".
# Every test on SQLite, then the server's suites again on PostgreSQL (issue #21),
# each test app on a database of its own, in a throwaway cluster: pg_virtualenv
# starts one in a temporary folder on a free loopback port, names it in PG*
# variables for the command, and removes it afterwards.
# The ACME test (tests/acme.rs) must find Debian's pebble, which `make test`
# installs; the unit checks (tests/unit_files.rs) systemd-analyze.
test-rust: postgres pebble systemd-analyze
	WELLS_REQUIRE_POSTGRES=1 WELLS_REQUIRE_PEBBLE=1 pg_virtualenv -t -o fsync=off -- sh -c '\
	  cargo test --workspace $(TEST_FEATURES) $(if $(T),-- $(T),) \
	  && WELLS_TEST_BACKEND=postgres cargo test -p server $(TEST_FEATURES) $(if $(T),-- $(T),)'

# The server with `server seed`, which the Playwright suite's set-up runs.
TEST_FEATURES := --features server/seed

lint: seed-check
	cargo clippy --workspace --all-targets $(TEST_FEATURES) -- -D warnings
	env -u RUSTFLAGS cargo clippy -p app --lib --target wasm32-unknown-unknown \
	  --no-default-features --features hydrate,split -- -D warnings

# The server `make release` builds (no default features, as cargo-leptos builds
# the bin) does not link the demo data generator (store's `seed` feature), and the
# check can see it when it is there.
SEED_IN = cargo tree -p server --no-default-features $(1) -e normal,build,features -i store | grep -q 'store feature "seed"'
seed-check:
	@if $(call SEED_IN,); then echo 'seed-check: the release server links store/seed' >&2; exit 1; fi
	@$(call SEED_IN,--features seed) || { echo 'seed-check: cannot see the seed feature' >&2; exit 1; }
	@echo 'seed-check: the release server carries no seed code'

e2e:
	end2end/run-suite.sh

# The phone on https://wells.test (issue #38): the server's own HTTPS with a
# test authority Chromium trusts through an NSS database (certutil).
e2e-secure: nss-tools
	end2end/run-suite.sh --secure

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

## make deb: the Debian package (target/debian/wells_<version>_<arch>.deb) of
## the release build: /usr/bin/wells, the site, wells.service, the backup timer
deb: release cargo-deb
	cargo deb -p server --no-build --output target/debian/

## make deb-test: installs the package into a throwaway root (dpkg -x) and checks
## its files, its units (systemd-analyze verify against the packaged binary,
## security ≤ 2.0), its timer, the packaged server serving the packaged site,
## and a restore drill. Not part of make test: it needs the release build.
deb-test: deb systemd-analyze
	bash .ci/deb-test.sh

## make bench: the performance figures (target/bench/report.md); not part of make test
bench: tools browser e2e-deps build postgres
	bash .ci/bench.sh

# ---- installs (idempotent) ----
# The build tools are installed unoptimised (`cargo install --debug`): measured on
# 2 cores, cargo-leptos installs in 6 min instead of 12.5 (24.5 on a shared
# machine), wasm-bindgen-cli and cargo-deny in about 1 min each instead of 4; what
# they then do per build costs seconds more (wasm-bindgen 13 s, WASM splitting 8 s
# on the debug WASM; cargo-deny's check a few seconds).
tools: wasm-target cargo-leptos wasm-bindgen

wasm-target:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
	  || rustup target add wasm32-unknown-unknown

cargo-leptos:
	@cargo leptos --version 2>/dev/null | grep -q ' $(CARGO_LEPTOS_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install --debug --locked cargo-leptos --version $(CARGO_LEPTOS_VERSION)

cargo-deny:
	@cargo deny --version 2>/dev/null | grep -q ' $(CARGO_DENY_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install --debug --locked cargo-deny --version $(CARGO_DENY_VERSION)

# Not --locked: the locked build wants a webpki-roots the registry here lacks.
wasm-bindgen:
	@wasm-bindgen --version 2>/dev/null | grep -q ' $(WASM_BINDGEN_VERSION)$$' \
	  || env -u RUSTFLAGS cargo install --debug wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)

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

# Debian's test ACME authority for tests/acme.rs.
pebble:
	@command -v pebble >/dev/null && command -v pebble-challtestsrv >/dev/null \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq pebble; }

# certutil, for the NSS database the secure Playwright project trusts its test authority in.
nss-tools:
	@command -v certutil >/dev/null && command -v openssl >/dev/null \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libnss3-tools openssl; }

systemd-analyze:
	@command -v systemd-analyze >/dev/null \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq systemd; }

cargo-deb:
	@cargo deb --version 2>/dev/null | grep -q '$(CARGO_DEB_VERSION)' \
	  || env -u RUSTFLAGS cargo install --debug --locked cargo-deb --version $(CARGO_DEB_VERSION)

browser:
	@command -v chromium >/dev/null \
	  || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

# npm ci only when node_modules is missing or older than the lock file.
e2e-deps: end2end/node_modules/.installed
end2end/node_modules/.installed: end2end/package-lock.json
	cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	touch $@
