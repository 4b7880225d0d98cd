#!/usr/bin/env bash
# Issue #21's figures, part of `make bench`: the write path and the read path
# (register, dashboard, "My reports", export) on PostgreSQL beside SQLite on this
# machine, into target/bench/postgres.md. PostgreSQL runs in a throwaway cluster
# (pg_virtualenv, fsync on: a real server's commits), so its database is seeded
# anew each run: the read path is compared at WELLS_BENCH_PG_INCIDENTS (default
# 100 000) incidents on both engines.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(pwd)/target/bench"
mkdir -p "$out"
export RUSTFLAGS="--cfg erase_components"
n=${WELLS_BENCH_PG_INCIDENTS:-100000}

WELLS_BENCH_DB="$out/wells-$n.db" WELLS_BENCH_INCIDENTS=$n WELLS_BENCH_NAME="sqlite-$n" \
  cargo bench -p server --bench read_path
N=$n pg_virtualenv -t -- sh -c '
  set -e
  url="postgres://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT"
  createdb wells_write
  createdb wells_read
  psql -At -c "SELECT version()" >"$0/postgres-version.txt"
  WELLS_BENCH_POSTGRES="$url/wells_write" cargo bench -p server --bench write_path
  WELLS_BENCH_DB="$url/wells_read" WELLS_BENCH_INCIDENTS=$N WELLS_BENCH_NAME="postgres-$N" \
    cargo bench -p server --bench read_path
' "$out"

{
  echo "# PostgreSQL beside SQLite (issue #21)"
  echo
  echo "Same machine; PostgreSQL $(cut -d' ' -f2 "$out/postgres-version.txt") in a throwaway cluster on loopback (fsync on, synchronous_commit on, no standby), default settings otherwise."
  echo
  cat "$out/write-path-postgres.md"
  echo
  sed 's/^# /## /' "$out/read-path-sqlite-$n.md"
  echo
  sed 's/^# /## /' "$out/read-path-postgres-$n.md"
} >"$out/postgres.md"
echo "bench: PostgreSQL beside SQLite written to $out/postgres.md"
