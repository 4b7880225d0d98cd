#!/usr/bin/env bash
# make deb-test (issue #38): the Debian package `make deb` built, installed into
# a throwaway root with `dpkg -x` (no system change), then checked: its files
# and their modes, its control data, its units with `systemd-analyze verify`
# pointed at the packaged binary and `security --offline=yes` at most 2.0, its
# timer, the packaged server serving the packaged site in the packaged layout,
# and a backup → restore → audit-verify drill there. Prints the package's size.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -t target/debian/wells_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "deb-test: no package in target/debian: run make deb" >&2; exit 1; }
root=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT
passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" >"$root/check.log" 2>&1; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    sed 's/^/     /' "$root/check.log"
    failed=$((failed + 1))
  fi
}

dpkg -x "$deb" "$root/fs"
fs="$root/fs"
# cargo-deb puts the units in /usr/lib/systemd/system (older versions: /lib);
# a failing `ls` of the absent one would stop the script under pipefail.
units=""
for dir in usr/lib/systemd/system lib/systemd/system; do
  if [ -d "$fs/$dir" ]; then units=$dir && break; fi
done

check "the package is named wells and depends on systemd and ssl-cert" \
  sh -c "dpkg-deb -f '$deb' Package | grep -qx wells && dpkg-deb -f '$deb' Depends | grep -q ssl-cert && dpkg-deb -f '$deb' Depends | grep -q systemd"
check "/etc/wells/wells.env is a conffile, owner-only" \
  sh -c "dpkg-deb -e '$deb' '$root/control' && grep -qx /etc/wells/wells.env '$root/control/conffiles' && [ \$(stat -c %a '$fs/etc/wells/wells.env') = 600 ]"
check "the server is /usr/bin/wells and runs" sh -c "[ -x '$fs/usr/bin/wells' ] && '$fs/usr/bin/wells' --version | grep -q '^server '"
check "wells-admin is installed" test -x "$fs/usr/sbin/wells-admin"
check "the site is in /usr/share/wells/site" \
  sh -c "ls '$fs/usr/share/wells/site/pkg/' | grep -q '\.wasm$' && [ -f '$fs/usr/share/wells/site/sw.js' ]"
check "the units and the timer are installed" \
  sh -c "[ -n '$units' ] && for u in wells.service wells-backup.service wells-backup.timer; do [ -f '$fs/$units/'\$u ] || exit 1; done"
check "postinst enables the units and names the journal for the setup link" \
  sh -c "grep -q 'deb-systemd-helper' '$root/control/postinst' && grep -q 'journalctl -u wells' '$root/control/postinst'"

mkdir -p "$root/verify"
for u in wells.service wells-backup.service wells-backup.timer; do
  sed "s#/usr/bin/wells#$fs/usr/bin/wells#" "$fs/$units/$u" >"$root/verify/$u"
done
check "systemd-analyze verify: the units and the timer, against the packaged binary" \
  sh -c "out=\$(systemd-analyze verify --man=no '$root/verify/wells.service' '$root/verify/wells-backup.service' '$root/verify/wells-backup.timer' 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
for u in wells.service wells-backup.service; do
  check "systemd-analyze security: $u at most 2.0" \
    sh -c "score=\$(systemd-analyze security --offline=yes --no-pager '$root/verify/$u' | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'); echo \"exposure \$score\"; awk -v s=\"\$score\" 'BEGIN { exit !(s != \"\" && s <= 2.0) }'"
done
check "the timer runs nightly and catches up a missed night" \
  sh -c "grep -q '^OnCalendar=' '$fs/$units/wells-backup.timer' && grep -qx 'Persistent=true' '$fs/$units/wells-backup.timer'"

# The packaged server in the packaged layout (under the throwaway root).
state="$root/var/lib/wells"
mkdir -p "$state"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
(
  set -a
  # shellcheck disable=SC1091
  . "$fs/etc/wells/wells.env"
  set +a
  export WELLS_DATABASE="$state/wells.db" WELLS_SITE_ROOT="$fs/usr/share/wells/site" WELLS_LISTEN="127.0.0.1:$port" WELLS_LOG=warn
  exec "$fs/usr/bin/wells" serve
) >"$root/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
check "the packaged server answers /healthz and /readyz" \
  sh -c "curl -fsS http://127.0.0.1:$port/healthz && curl -fsS http://127.0.0.1:$port/readyz"
check "it serves the packaged site's pages and files" \
  sh -c "page=\$(curl -fsS http://127.0.0.1:$port/sign-in) && file=\$(printf '%s' \"\$page\" | grep -o '/pkg/[0-9a-f]*/wells\.js' | head -n 1) && [ -n \"\$file\" ] && curl -fsS -o /dev/null http://127.0.0.1:$port\$file"
check "the first start prints the one-time setup link" grep -q '/setup?token=' "$root/server.log"
check "the nightly backup writes into /var/lib/wells/backups" \
  sh -c "WELLS_DATABASE='$state/wells.db' WELLS_LOG=warn '$fs/usr/bin/wells' backup --keep 3 && ls '$state/backups/' | grep -q '^wells-.*\.db$'"
kill "$pid" && wait "$pid" 2>/dev/null || true
pid=""
check "restore drill: the backup restored into a new folder, its audit chain verified" \
  sh -c "b=\$(ls '$state/backups/'wells-*.db | head -n 1) && mkdir -p '$root/drill' && '$fs/usr/bin/wells' --database '$root/drill/wells.db' restore \"\$b\" && '$fs/usr/bin/wells' --database '$root/drill/wells.db' audit verify"

size=$(stat -c %s "$deb")
echo "package: $deb, $size bytes ($((size / 1024)) KiB); installed: $(du -sk "$fs" | cut -f1) KiB"
echo "deb-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
