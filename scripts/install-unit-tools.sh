#!/usr/bin/env bash
# Installs what make unit-check runs, from Debian's (or Ubuntu's) packages:
# systemd, for systemd-analyze (which checks a unit file without systemd
# running). CI (.ci/run) runs it before make unit-check.
set -euo pipefail
if command -v systemd-analyze >/dev/null; then
  echo "install-unit-tools.sh: already installed"
  exit 0
fi
# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"
apt_install install-unit-tools.sh systemd
echo "install-unit-tools.sh: installed systemd"
