#!/usr/bin/env bash
# Starts a PostgreSQL server for bao's tests on 127.0.0.1 and prints its URL on the last line.
# Idempotent: installs Debian's postgresql if it is missing, creates the cluster once, starts
# it if it is not running, creates the user and database if they are missing.
#
#   scripts/start-postgres.sh            # port 55432, data in /var/tmp/bao-postgres-55432
#   BAO_PG_PORT=5432 scripts/start-postgres.sh
#   export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)
#   scripts/start-postgres.sh status     # prints "running" or "stopped", changes nothing
#   scripts/start-postgres.sh stop       # stops the cluster (the data stays for next time)
#
# The cluster trusts connections from 127.0.0.1 only: it is for tests, not for production.
set -euo pipefail

PORT="${BAO_PG_PORT:-55432}"
DIR="${BAO_PG_DIR:-/var/tmp/bao-postgres-$PORT}"
DB_USER="${BAO_PG_USER:-bao}"
DB_PASS="${BAO_PG_PASSWORD:-bao}"
DB_NAME="${BAO_PG_DB:-bao}"

log() { echo "start-postgres: $*" >&2; }

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

BIN="$(find_bin || true)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
    log "installing postgresql with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql postgresql-client >&2
    BIN="$(find_bin)"
fi
[ -x "$BIN/initdb" ] || { log "no initdb found under /usr/lib/postgresql"; exit 1; }

# PostgreSQL refuses to run as root: run it as the postgres user (Debian's package makes it).
RUN_AS=()
if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    RUN_AS=(runuser -u postgres --)
fi

case "${1:-start}" in
start) ;;
status | stop)
    if [ -f "$DIR/PG_VERSION" ] && "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
        if [ "$1" = stop ]; then
            log "stopping postgres on 127.0.0.1:$PORT"
            "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR" -m fast -w stop >&2
        else
            echo running
        fi
    elif [ "$1" = status ]; then
        echo stopped
    fi
    exit 0
    ;;
*)
    log "unknown command '$1' (start, status or stop)"
    exit 2
    ;;
esac

mkdir -p "$DIR"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
chmod 700 "$DIR"

if [ ! -f "$DIR/PG_VERSION" ]; then
    log "creating a cluster in $DIR"
    "${RUN_AS[@]}" "$BIN/initdb" -D "$DIR" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >&2 \
      || "${RUN_AS[@]}" "$BIN/initdb" -D "$DIR" -U postgres --auth=trust --encoding=UTF8 --no-locale >&2
fi

if ! "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
    log "starting postgres on 127.0.0.1:$PORT"
    "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on" start >&2
fi

for _ in $(seq 1 60); do
    if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then break; fi
    sleep 0.5
done
"$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" || { log "postgres did not start; see $DIR/server.log"; exit 1; }

PSQL=("$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -tAq)
if [ "$("${PSQL[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
    "${PSQL[@]}" -c "CREATE ROLE \"$DB_USER\" LOGIN PASSWORD '$DB_PASS'"
fi
if [ "$("${PSQL[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
    "${PSQL[@]}" -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$DB_USER\""
fi

echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:$PORT/$DB_NAME"
