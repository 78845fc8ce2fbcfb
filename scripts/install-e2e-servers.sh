#!/usr/bin/env bash
# Installs what `make e2e` runs against, from Debian's (or Ubuntu's)
# packages: PostgreSQL, OpenStack Keystone and the uwsgi that serves it. No
# service is started or enabled: make e2e starts its own, on loopback ports,
# in a temporary directory. CI (.ci/run) runs it before make e2e; about a
# minute on a fresh machine.
set -euo pipefail

packages=(keystone postgresql python3-psycopg2 uwsgi-core uwsgi-plugin-python3 curl)

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/keystone.sh
. "$here/keystone.sh"
if keystone_missing 2>/dev/null; then
  echo "install-e2e-servers.sh: already installed"
  exit 0
fi
# shellcheck source=scripts/apt.sh
. "$here/apt.sh"
apt_install install-e2e-servers.sh "${packages[@]}"
keystone_missing
echo "install-e2e-servers.sh: installed ${packages[*]}"
