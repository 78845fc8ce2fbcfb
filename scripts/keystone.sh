# shellcheck shell=bash
# Sourced by scripts that need a real OpenStack Keystone to run against
# (acceptance tests of the Terraform OpenStack provider): a throwaway
# PostgreSQL cluster and a Keystone served by uwsgi, both on free loopback
# ports, with every file (data, keys, config, logs, sockets) under one
# directory the caller gives, so nothing under /etc or /var is touched and
# several can run side by side.
#
# Sourcing it only defines functions. Typical use:
#
#   . scripts/keystone.sh
#   keystone_missing || exit 1
#   dir=$(mktemp -d)
#   trap 'stop_keystone; stop_postgres "$dir"' EXIT
#   start_postgres "$dir"   # sets PG_PORT
#   start_keystone "$dir"   # sets KEYSTONE_URL, KEYSTONE_PORT, KEYSTONE_PID,
#                           # KEYSTONE_ADMIN_PASSWORD (if it was unset)
#   token=$(keystone_token)
#
# stop_keystone / start_keystone_again stop and restart only the uwsgi
# server (same port, same config, same database), to simulate Keystone
# being down for a while.
#
# Everything is safe under `set -euo pipefail`: functions return non-zero
# (after saying why on stderr) instead of exiting, and read unset variables
# only with defaults.
#
# Needs the Debian/Ubuntu packages keystone, postgresql, python3-psycopg2,
# uwsgi-core and uwsgi-plugin-python3 (see keystone_missing).

# The WSGI entry point the keystone package installs; uwsgi loads it as a file.
KEYSTONE_WSGI_FILE=/usr/bin/keystone-wsgi-public
# The system Python: the one keystone-manage (#!/usr/bin/python3) and uwsgi's
# python3 plugin run, so the one that must have psycopg2. A python3 earlier
# on PATH (pyenv, a virtualenv) may well lack it.
KEYSTONE_PYTHON=/usr/bin/python3

# _keystone_pg_bin prints the bin directory of the newest PostgreSQL
# installed. Debian keeps initdb and pg_ctl there, off PATH.
_keystone_pg_bin() {
  local d best=
  for d in /usr/lib/postgresql/*/bin; do
    if [ ! -x "$d/initdb" ] || [ ! -x "$d/pg_ctl" ]; then continue; fi
    # Versions are plain integers (15, 16, ...): compare them as numbers.
    if [ -z "$best" ] || [ "$(basename "$(dirname "$d")")" -gt "$(basename "$(dirname "$best")")" ]; then
      best=$d
    fi
  done
  [ -n "$best" ] || return 1
  printf '%s\n' "$best"
}

# keystone_missing prints nothing and returns 0 when all that the functions
# below run is installed; otherwise it says on stderr what is missing and
# how to install it, and returns 1.
keystone_missing() {
  local missing=()
  _keystone_pg_bin >/dev/null || missing+=("PostgreSQL server (initdb, pg_ctl in /usr/lib/postgresql/*/bin)")
  command -v keystone-manage >/dev/null 2>&1 || missing+=("keystone-manage")
  [ -r "$KEYSTONE_WSGI_FILE" ] || missing+=("$KEYSTONE_WSGI_FILE")
  command -v uwsgi >/dev/null 2>&1 || missing+=("uwsgi")
  # The python3 plugin is a separate package; without it `--plugin python3`
  # fails only once uwsgi starts, so look for it now.
  if command -v uwsgi >/dev/null 2>&1 && ! ls /usr/lib/uwsgi/plugins/python3*_plugin.so >/dev/null 2>&1; then
    missing+=("uwsgi python3 plugin")
  fi
  if ! "$KEYSTONE_PYTHON" -c 'import psycopg2' >/dev/null 2>&1; then missing+=("psycopg2 for $KEYSTONE_PYTHON"); fi
  command -v curl >/dev/null 2>&1 || missing+=("curl")
  [ ${#missing[@]} -eq 0 ] && return 0
  {
    echo "Keystone test environment: missing:"
    printf '  - %s\n' "${missing[@]}"
    echo "On Debian or Ubuntu, install them (about a minute) with:"
    echo "  sudo bash scripts/install-e2e-servers.sh"
    echo "which runs: apt-get install --no-install-recommends keystone postgresql python3-psycopg2 uwsgi-core uwsgi-plugin-python3 curl"
  } >&2
  return 1
}

# _keystone_free_port prints a TCP port on 127.0.0.1 that is free now (the
# kernel picks it). Another process could take it before we bind it; on one
# test machine that is unlikely enough.
_keystone_free_port() {
  "$KEYSTONE_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# _keystone_random prints a random hex secret: hex needs no quoting in a
# database URL, JSON or SQL.
_keystone_random() {
  "$KEYSTONE_PYTHON" -c 'import secrets; print(secrets.token_hex(16))'
}

# _keystone_as_pg runs a command as the owner of the PostgreSQL cluster:
# postgres refuses to run as root, so as root that is the `postgres` system
# user (runuser needs no password); otherwise it is us. It runs from / so
# that a cwd the postgres user cannot read (/root) does not make
# initdb/pg_ctl fail or warn.
_keystone_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

# start_postgres DIR initdbs a fresh cluster in DIR/pg and starts it,
# listening on 127.0.0.1:PG_PORT (a free port) and on a unix socket in
# DIR/pg-socket, with a role `keystone` (password KEYSTONE_DB_PASSWORD,
# generated) owning a database `keystone`. Its log is DIR/pg.log.
start_postgres() {
  local dir=${1:-}
  [ -n "$dir" ] || { echo "usage: start_postgres DIR" >&2; return 2; }
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  PG_BIN=$(_keystone_pg_bin) || { echo "start_postgres: no PostgreSQL server installed (see keystone_missing)" >&2; return 1; }
  if [ -e "$dir/pg" ]; then
    echo "start_postgres: $dir/pg already exists; give a fresh directory" >&2
    return 1
  fi
  PG_SOCKET_DIR=$dir/pg-socket
  mkdir -m 0700 "$dir/pg" "$PG_SOCKET_DIR"
  : >"$dir/pg.log"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir/pg" "$PG_SOCKET_DIR" "$dir/pg.log"
    # The postgres user must be able to reach DIR (mktemp -d makes it 0700).
    # Only search permission is added, not read: DIR's listing stays private.
    if ! runuser -u postgres -- test -x "$dir/pg"; then
      chmod o+x "$dir"
      runuser -u postgres -- test -x "$dir/pg" || {
        echo "start_postgres: the postgres user cannot reach $dir (a parent directory is closed to it); use a directory under /tmp" >&2
        return 1
      }
    fi
  fi

  # --no-sync and the settings below trade durability for speed: the cluster
  # is thrown away after the run. Local (socket) logins are checked by OS
  # user (peer), TCP logins by password.
  if ! _keystone_as_pg "$PG_BIN/initdb" -D "$dir/pg" --no-sync --encoding=UTF8 --no-locale \
    --auth-local=peer --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    echo "start_postgres: initdb failed" >&2
    return 1
  fi
  PG_PORT=$(_keystone_free_port)
  # postgresql.conf takes the last value of a setting, so appending overrides
  # initdb's defaults (appending keeps the file's owner).
  cat >>"$dir/pg/postgresql.conf" <<EOF

# Set by scripts/keystone.sh: loopback only, private socket, no fsync.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_SOCKET_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  if ! _keystone_as_pg "$PG_BIN/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w -t 60 start >/dev/null; then
    cat "$dir/pg.log" >&2
    echo "start_postgres: PostgreSQL did not start" >&2
    return 1
  fi

  KEYSTONE_DB_PASSWORD=$(_keystone_random)
  # psql reads the script on stdin so that :'pw' quotes the password.
  if ! _keystone_as_pg "$PG_BIN/psql" -h "$PG_SOCKET_DIR" -p "$PG_PORT" -d postgres -X -q \
    -v ON_ERROR_STOP=1 -v pw="$KEYSTONE_DB_PASSWORD" <<'SQL'
CREATE ROLE keystone LOGIN PASSWORD :'pw';
CREATE DATABASE keystone OWNER keystone;
SQL
  then
    echo "start_postgres: could not create the keystone role and database" >&2
    return 1
  fi
}

# stop_postgres DIR stops the cluster in DIR/pg if it runs (and waits for it
# to be gone). The data stays in DIR.
stop_postgres() {
  local dir=${1:-}
  [ -n "$dir" ] || { echo "usage: stop_postgres DIR" >&2; return 2; }
  local bin
  [ -f "$dir/pg/postmaster.pid" ] || return 0
  bin=${PG_BIN:-$(_keystone_pg_bin)} || return 1
  # fast: disconnect clients (a running keystone) instead of waiting on them.
  _keystone_as_pg "$bin/pg_ctl" -D "$dir/pg" -m fast -w -t 60 stop >/dev/null
}

# _keystone_manage SUBCOMMAND ARGS... runs keystone-manage on our config.
# keystone-manage 22 prints an AttributeError from eventlet while the
# interpreter exits, yet exits 0: only the exit status tells failure, and
# its output is shown only then (otherwise it goes to keystone-manage.log).
_keystone_manage() {
  local out
  if ! out=$(keystone-manage --config-file "$KEYSTONE_DIR/keystone.conf" "$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "start_keystone: keystone-manage $1 failed" >&2
    return 1
  fi
  printf '== keystone-manage %s\n%s\n' "$1" "$out" >>"$KEYSTONE_DIR/keystone-manage.log"
}

# start_keystone DIR configures Keystone in DIR (keystone.conf, fernet and
# credential keys, keystone.log) against the PostgreSQL of start_postgres,
# creates its schema and the admin user/project/role and catalog entry, and
# serves it with uwsgi on a free port (log DIR/uwsgi.log) until it answers.
# Sets KEYSTONE_DIR, KEYSTONE_PORT, KEYSTONE_URL, KEYSTONE_PID, and
# KEYSTONE_ADMIN_PASSWORD when it was unset.
start_keystone() {
  local dir=${1:-}
  [ -n "$dir" ] || { echo "usage: start_keystone DIR" >&2; return 2; }
  if [ -z "${PG_PORT:-}" ] || [ -z "${KEYSTONE_DB_PASSWORD:-}" ]; then
    echo "start_keystone: run start_postgres first (PG_PORT, KEYSTONE_DB_PASSWORD unset)" >&2
    return 1
  fi
  mkdir -p "$dir"
  KEYSTONE_DIR=$(cd "$dir" && pwd)
  KEYSTONE_ADMIN_PASSWORD=${KEYSTONE_ADMIN_PASSWORD:-$(_keystone_random)}
  KEYSTONE_PORT=$(_keystone_free_port)
  KEYSTONE_URL=http://127.0.0.1:$KEYSTONE_PORT/v3
  mkdir -p "$KEYSTONE_DIR/fernet-keys" "$KEYSTONE_DIR/credential-keys"
  chmod 0700 "$KEYSTONE_DIR/fernet-keys" "$KEYSTONE_DIR/credential-keys"

  # Every path the defaults would put under /etc/keystone or /var/log is set
  # here. Receipts (MFA) share the token keys: never used, but keystone
  # would otherwise look in /etc/keystone/fernet-keys for them.
  cat >"$KEYSTONE_DIR/keystone.conf" <<EOF
[DEFAULT]
log_dir = $KEYSTONE_DIR
log_file = keystone.log
use_stderr = false

[database]
connection = postgresql+psycopg2://keystone:$KEYSTONE_DB_PASSWORD@127.0.0.1:$PG_PORT/keystone

[token]
provider = fernet

[fernet_tokens]
key_repository = $KEYSTONE_DIR/fernet-keys

[fernet_receipts]
key_repository = $KEYSTONE_DIR/fernet-keys

[credential]
key_repository = $KEYSTONE_DIR/credential-keys

# Keystone's documentation asks for caching in any deployment: without it
# every request rebuilds the token's roles and catalog from the database
# (about 60 ms of CPU a request here; 15 ms with it). In memory, which is
# coherent only within one process: hence one uwsgi process (below).
[cache]
enabled = true
backend = dogpile.cache.memory
EOF
  chmod 0600 "$KEYSTONE_DIR/keystone.conf" # it holds the database password

  local user group
  user=$(id -un)
  group=$(id -gn)
  _keystone_manage db_sync || return 1
  _keystone_manage fernet_setup --keystone-user "$user" --keystone-group "$group" || return 1
  _keystone_manage credential_setup --keystone-user "$user" --keystone-group "$group" || return 1
  # The password goes through the environment (keystone-manage reads
  # OS_BOOTSTRAP_PASSWORD), not the command line that ps shows. The same URL
  # for all three interfaces, so any interface a client asks for resolves.
  OS_BOOTSTRAP_PASSWORD=$KEYSTONE_ADMIN_PASSWORD _keystone_manage bootstrap \
    --bootstrap-username admin \
    --bootstrap-project-name admin \
    --bootstrap-role-name admin \
    --bootstrap-service-name keystone \
    --bootstrap-region-id RegionOne \
    --bootstrap-public-url "$KEYSTONE_URL" \
    --bootstrap-internal-url "$KEYSTONE_URL" \
    --bootstrap-admin-url "$KEYSTONE_URL" || return 1

  _keystone_serve
}

# _keystone_serve starts uwsgi on KEYSTONE_PORT with KEYSTONE_DIR's config,
# sets KEYSTONE_PID, and waits until GET KEYSTONE_URL answers 200.
_keystone_serve() {
  # keystone-wsgi-public reads its config files from OS_KEYSTONE_CONFIG_FILES
  # (keystone/server/flask/core.py, _get_config_files); unset, it would read
  # /etc/keystone/keystone.conf.
  #
  # uwsgi options, and why:
  #   --http-socket          uwsgi speaks HTTP itself, no router process.
  #   --add-header 'Connection: close'
  #                          --http-socket closes the connection after each
  #                          response but says HTTP/1.1 without
  #                          `Connection: close`, so a keep-alive client
  #                          (Go's net/http) reuses the dead connection and
  #                          gets a reset or EOF; with the header it does not
  #                          reuse it (devstack sets the same).
  #   --master --die-on-term SIGTERM stops uwsgi (in uwsgi 2.0 it would
  #                          otherwise reload it) and the master reaps its
  #                          workers; --no-orphans: workers die with it.
  #   --skip-atexit-teardown exiting workers skip Py_Finalize, where
  #                          greenlet (loaded by keystone via eventlet)
  #                          segfaults and fills uwsgi.log with backtraces.
  #   --processes 1 --threads 1
  #                          one process, so one in-memory cache ([cache]
  #                          above): a user disabled through one process
  #                          is never still enabled in another's cache.
  #                          One thread: with 8, Keystone (eventlet loaded,
  #                          its request context thread-local) refused one
  #                          admin's create_user with 403 now and then, in 2
  #                          of about 20 runs of make e2e; Python's GIL left
  #                          the threads little to overlap but the database.
  #   --lazy-apps            each worker loads keystone itself, so no
  #                          database connection is shared across fork.
  #   --need-app             give up when keystone cannot be loaded rather
  #                          than serve 500s forever.
  #   --buffer-size          request headers larger than uwsgi's 4 KiB
  #                          default (tokens) would be refused.
  OS_KEYSTONE_CONFIG_FILES=$KEYSTONE_DIR/keystone.conf uwsgi \
    --plugin python3 \
    --http-socket "127.0.0.1:$KEYSTONE_PORT" \
    --wsgi-file "$KEYSTONE_WSGI_FILE" \
    --add-header 'Connection: close' \
    --master --die-on-term --no-orphans --skip-atexit-teardown \
    --processes 1 --threads 1 \
    --lazy-apps --need-app \
    --buffer-size 65535 \
    --chdir "$KEYSTONE_DIR" \
    </dev/null >>"$KEYSTONE_DIR/uwsgi.log" 2>&1 &
  KEYSTONE_PID=$!

  local code='' deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$KEYSTONE_URL" || true)
    [ "$code" = 200 ] && return 0
    if ! kill -0 "$KEYSTONE_PID" 2>/dev/null; then
      tail -n 40 "$KEYSTONE_DIR/uwsgi.log" >&2
      echo "start_keystone: uwsgi exited (see $KEYSTONE_DIR/uwsgi.log and keystone.log)" >&2
      return 1
    fi
    sleep 0.1
  done
  tail -n 40 "$KEYSTONE_DIR/uwsgi.log" >&2
  echo "start_keystone: $KEYSTONE_URL did not answer 200 in 60s (last: $code)" >&2
  stop_keystone
  return 1
}

# stop_keystone stops the uwsgi server of start_keystone (if it runs) and
# waits until it and its workers are gone. Database and keys stay.
stop_keystone() {
  local pid=${KEYSTONE_PID:-}
  [ -n "$pid" ] || return 0
  KEYSTONE_PID=
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 150); do
    # A child of this shell that exited stays a zombie (kill -0 still works
    # on it) until `wait` reaps it.
    if ! kill -0 "$pid" 2>/dev/null || [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = Z ]; then
      wait "$pid" 2>/dev/null || true
      return 0
    fi
    sleep 0.1
  done
  echo "stop_keystone: uwsgi ($pid) ignored SIGTERM for 15s; killing it" >&2
  pkill -KILL -P "$pid" 2>/dev/null || true
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# start_keystone_again serves the Keystone of the last start_keystone again
# (after stop_keystone), on the same port and config, without bootstrapping.
start_keystone_again() {
  if [ -z "${KEYSTONE_DIR:-}" ] || [ -z "${KEYSTONE_PORT:-}" ]; then
    echo "start_keystone_again: run start_keystone first" >&2
    return 1
  fi
  if [ -n "${KEYSTONE_PID:-}" ] && kill -0 "$KEYSTONE_PID" 2>/dev/null; then
    echo "start_keystone_again: keystone still runs (pid $KEYSTONE_PID); stop_keystone first" >&2
    return 1
  fi
  _keystone_serve
}

# keystone_token prints a token for admin, scoped to project admin.
keystone_token() {
  if [ -z "${KEYSTONE_URL:-}" ] || [ -z "${KEYSTONE_ADMIN_PASSWORD:-}" ]; then
    echo "keystone_token: run start_keystone first" >&2
    return 1
  fi
  local body headers token
  # Python builds the JSON so that any password (set by the caller) is
  # quoted right.
  body=$(KEYSTONE_ADMIN_PASSWORD=$KEYSTONE_ADMIN_PASSWORD "$KEYSTONE_PYTHON" -c '
import json, os
print(json.dumps({"auth": {
    "identity": {"methods": ["password"], "password": {"user": {
        "name": "admin", "domain": {"id": "default"},
        "password": os.environ["KEYSTONE_ADMIN_PASSWORD"]}}},
    "scope": {"project": {"name": "admin", "domain": {"id": "default"}}}}}))') || return 1
  # The token comes in the X-Subject-Token response header; the body is the
  # token's description, not needed here.
  headers=$(curl -sS --fail -o /dev/null -D - -H 'Content-Type: application/json' \
    --data-binary "$body" "$KEYSTONE_URL/auth/tokens") || {
    echo "keystone_token: POST $KEYSTONE_URL/auth/tokens failed" >&2
    return 1
  }
  token=$(printf '%s\n' "$headers" | tr -d '\r' | awk 'tolower($1) == "x-subject-token:" { print $2 }')
  [ -n "$token" ] || {
    echo "keystone_token: no X-Subject-Token in the answer" >&2
    return 1
  }
  printf '%s\n' "$token"
}
