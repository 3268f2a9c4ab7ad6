#!/bin/bash
# The official PostgreSQL image's start-up contract on Debian's package: on an empty PGDATA, initdb with
# POSTGRES_USER and POSTGRES_PASSWORD, create POSTGRES_DB, run /docker-entrypoint-initdb.d once; then the server,
# listening on every interface of the container, password-checked (scram-sha-256) for every network client.
set -Eeuo pipefail

if [[ "${1:-postgres}" == -* ]]; then set -- postgres "$@"; fi
if [[ "${1:-}" != postgres ]]; then exec "$@"; fi

# Started as root (the default): own the data directory, then run as postgres.
if (( EUID == 0 )); then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"

if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  if [[ -z "${POSTGRES_PASSWORD:-}" ]]; then
    echo "postgres: POSTGRES_PASSWORD is not set; the database refuses to start without a password for $user" >&2
    exit 1
  fi
  initdb --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 ${POSTGRES_INITDB_ARGS:-} > /dev/null
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  # A server on the socket only while the database and the init scripts are made, as the official image does.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [[ "$database" != postgres ]]; then
    psql -v ON_ERROR_STOP=1 -X -q --username "$user" --dbname postgres \
      -c "CREATE DATABASE \"${database//\"/\"\"}\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; . "$f" ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 -X -q --username "$user" --dbname "$database" -f "$f" ;;
      *) ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo "PostgreSQL init process complete; ready for start up."
fi

exec "$@"
