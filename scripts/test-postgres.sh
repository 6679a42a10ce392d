#!/usr/bin/env bash
# A PostgreSQL server for the assert_sql tests: installs the Debian package when it is missing
# (root only), starts the default cluster, creates the `flowproof` role and the `flowproof_test`
# database, and prints the connection URL on stdout. Safe to run again. Used by .ci/run, and by
# `npm test` when FLOWPROOF_TEST_PG_URL is not set.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
log() { echo "test-postgres: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then log "PostgreSQL is not installed: apt-get install postgresql (as root), or set FLOWPROOF_TEST_PG_URL"; exit 1; fi
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >/dev/null
fi
if [ "$(id -u)" != 0 ]; then log "starting the test database needs root (it runs as the postgres user); or set FLOWPROOF_TEST_PG_URL"; exit 1; fi
PG_VERSION=$(ls /usr/lib/postgresql | sort -V | tail -1)
pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$PG_VERSION main" || pg_createcluster "$PG_VERSION" main >/dev/null
pg_ctlcluster "$PG_VERSION" main status >/dev/null 2>&1 || pg_ctlcluster "$PG_VERSION" main start >&2
PG_PORT=$(pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" { print $3 }')
pg_sql() { su postgres -c "psql -p $PG_PORT -v ON_ERROR_STOP=1 -tAc \"$1\""; }
pg_sql "SELECT 1 FROM pg_roles WHERE rolname = 'flowproof'" | grep -q 1 || pg_sql "CREATE ROLE flowproof LOGIN PASSWORD 'flowproof'" >/dev/null
pg_sql "SELECT 1 FROM pg_database WHERE datname = 'flowproof_test'" | grep -q 1 || su postgres -c "createdb -p $PG_PORT -O flowproof flowproof_test"
echo "postgres://flowproof:flowproof@127.0.0.1:$PG_PORT/flowproof_test"
