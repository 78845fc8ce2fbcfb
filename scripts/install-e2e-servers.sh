#!/usr/bin/env bash
# Installs what `make e2e` runs against, from Debian's (or Ubuntu's)
# packages: PostgreSQL, OpenStack Keystone and the uwsgi that serves it. No
# service is started or enabled: make e2e starts its own, on loopback ports,
# in a temporary directory. CI (.ci/run) runs it before make e2e; about a
# minute on a fresh machine.
set -euo pipefail

packages=(keystone postgresql python3-psycopg2 uwsgi-core uwsgi-plugin-python3 curl)

if ! command -v apt-get >/dev/null; then
  echo "install-e2e-servers.sh: no apt-get here; install these packages (or your system's equivalents) by hand: ${packages[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "install-e2e-servers.sh: run it as root (apt-get installs packages)" >&2
    exit 1
  }
  sudo=(sudo)
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/keystone.sh
. "$here/keystone.sh"
if keystone_missing 2>/dev/null; then
  echo "install-e2e-servers.sh: already installed"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
# A package's own service must not start here (policy-rc.d 101, where no
# policy exists yet): the tests start their own.
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
keystone_missing
echo "install-e2e-servers.sh: installed ${packages[*]}"
