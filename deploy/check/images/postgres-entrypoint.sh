#!/bin/sh
# The part of the postgres image's entrypoint that deploy/compose.yaml relies on: on an empty
# data folder, a cluster whose superuser POSTGRES_USER has POSTGRES_PASSWORD, the database
# POSTGRES_DB, and password logins from the container network; then the server as `postgres`.
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}"
user="${POSTGRES_USER:-postgres}"
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" > /run/postgresql/pwfile
    chown postgres /run/postgresql/pwfile
    as_postgres initdb --username="$user" --pwfile=/run/postgresql/pwfile \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --no-sync -D "$PGDATA"
    rm /run/postgresql/pwfile
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=" -w start
    if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != postgres ]; then
        as_postgres createdb --username="$user" --owner="$user" "$POSTGRES_DB"
    fi
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$@"
