#!/bin/sh
# Runs once, when the postgres volume is created (docker-entrypoint-initdb.d): the roles of the
# ledger (docs/operations.md "Database roles"). The ledger connects as `ledger`: a login role that
# is neither superuser nor BYPASSRLS, owner of the `ledger` database (it runs the migrations). Every
# request transaction of the ledger switches to `ledger_app` (SET LOCAL ROLE), which only has the
# table rights and is under row-level security on every books table.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v ledger_password="${LEDGER_DB_PASSWORD:-ledger}" <<'SQL'
create role ledger_app nologin nosuperuser nobypassrls;
create role ledger login nosuperuser nobypassrls nocreatedb nocreaterole password :'ledger_password';
grant ledger_app to ledger;
alter database ledger owner to ledger;
alter schema public owner to ledger;
SQL
