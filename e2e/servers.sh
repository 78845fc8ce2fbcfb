#!/usr/bin/env bash
# The servers of the e2e tests, one command a call, their state kept in
# DIR/servers.env between calls (the Go tests call it; scripts/keystone.sh
# holds how each server is run):
#
#   servers.sh check                  say what to install when a server is missing
#   servers.sh start DIR              PostgreSQL and Keystone on loopback ports in DIR
#   servers.sh stop-keystone DIR      Keystone down (PostgreSQL and the data stay)
#   servers.sh start-keystone DIR     Keystone up again, same port and data
#   servers.sh stop DIR               both down
#
# start prints KEYSTONE_URL=… and KEYSTONE_ADMIN_PASSWORD=… on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/keystone.sh
. "$here/../scripts/keystone.sh"

cmd=${1:-}
dir=${2:-}
state=$dir/servers.env

save() {
  (umask 077 && declare -p PG_PORT KEYSTONE_DB_PASSWORD KEYSTONE_DIR KEYSTONE_PORT KEYSTONE_URL KEYSTONE_PID KEYSTONE_ADMIN_PASSWORD >"$state")
}

case $cmd in
check)
  keystone_missing
  ;;
start)
  keystone_missing
  start_postgres "$dir"
  start_keystone "$dir"
  save
  echo "KEYSTONE_URL=$KEYSTONE_URL"
  echo "KEYSTONE_ADMIN_PASSWORD=$KEYSTONE_ADMIN_PASSWORD"
  ;;
stop-keystone)
  # shellcheck source=/dev/null
  . "$state"
  stop_keystone
  save
  ;;
start-keystone)
  # shellcheck source=/dev/null
  . "$state"
  start_keystone_again
  save
  ;;
stop)
  if [ -f "$state" ]; then
    # shellcheck source=/dev/null
    . "$state"
    stop_keystone
    save
  fi
  stop_postgres "$dir"
  ;;
*)
  echo "usage: servers.sh check | start DIR | stop-keystone DIR | start-keystone DIR | stop DIR" >&2
  exit 2
  ;;
esac
