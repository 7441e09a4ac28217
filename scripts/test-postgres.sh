#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: `start` makes a cluster in a temporary folder, starts it
# on a free local port and prints the URL for ATLAS_TEST_POSTGRES_URL; `standby` (after `start`)
# makes a streaming standby of it (pg_basebackup -R) in the same folder, starts it on another
# free port and prints its URL for ATLAS_TEST_POSTGRES_STANDBY_URL; `stop` stops both and deletes
# the folder. Run as root, the servers run as the `postgres` user (initdb refuses root).
#
#   export ATLAS_TEST_POSTGRES_URL=$(scripts/test-postgres.sh start)
#   export ATLAS_TEST_POSTGRES_STANDBY_URL=$(scripts/test-postgres.sh standby)
#   npm test
#   scripts/test-postgres.sh stop
#
# ATLAS_PG_DIR (default /tmp/atlas-test-postgres-$UID) holds the cluster and its state.
set -euo pipefail

dir="${ATLAS_PG_DIR:-/tmp/atlas-test-postgres-$(id -u)}"

find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    # The folder pg_ctl really lives in (a symlink on the PATH may stand alone; pg_basebackup is beside the real one).
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$found" ]; then
    echo "test-postgres: no PostgreSQL found (initdb, pg_ctl). Install it: apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "$found"
}

# Runs a command as the server's user: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

start() {
  local bin port
  bin=$(find_bin)
  if [ -f "$dir/url" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    cat "$dir/url"
    return
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then useradd --system --no-create-home postgres; fi
    chown postgres "$dir"
  fi
  as_owner "$bin/initdb" -D "$dir/data" -U atlas --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  port=$(free_port)
  # Sockets in the cluster folder (the default /var/run/postgresql may not exist or be writable).
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgres://atlas@127.0.0.1:$port/postgres" >"$dir/url"
  cat "$dir/url"
}

# A hot standby of the running primary: a base backup with -R (standby.signal and the
# primary_conninfo to stream from), started read-only on its own port.
standby() {
  local bin port primary
  bin=$(find_bin)
  if [ ! -f "$dir/url" ]; then
    echo "test-postgres: no primary in $dir: run scripts/test-postgres.sh start first" >&2
    exit 1
  fi
  if [ -f "$dir/standby-url" ] && as_owner "$bin/pg_ctl" -D "$dir/standby" status >/dev/null 2>&1; then
    cat "$dir/standby-url"
    return
  fi
  primary=$(sed -E 's#^postgres://atlas@127\.0\.0\.1:([0-9]+)/.*#\1#' "$dir/url")
  rm -rf "$dir/standby"
  as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary" -U atlas -D "$dir/standby" -R -X stream >"$dir/basebackup.log" 2>&1 \
    || { cat "$dir/basebackup.log" >&2; exit 1; }
  port=$(free_port)
  as_owner "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c hot_standby=on -c max_connections=200" start >/dev/null \
    || { cat "$dir/standby.log" >&2; exit 1; }
  echo "postgres://atlas@127.0.0.1:$port/postgres" >"$dir/standby-url"
  cat "$dir/standby-url"
}

stop() {
  local bin
  bin=$(find_bin)
  if [ -d "$dir/standby" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/standby" -m fast -w stop >/dev/null 2>&1 || true
  fi
  if [ -d "$dir/data" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  standby) standby ;;
  stop) stop ;;
  *) echo "usage: scripts/test-postgres.sh start|standby|stop" >&2; exit 2 ;;
esac
