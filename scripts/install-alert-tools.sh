#!/usr/bin/env bash
# Installs what make alert-check runs, from Debian's (or Ubuntu's) packages:
# prometheus, for promtool (which checks and unit-tests rules files without
# a running Prometheus; the package's service is not started). CI (.ci/run)
# runs it before make alert-check.
set -euo pipefail
if command -v promtool >/dev/null; then
  echo "install-alert-tools.sh: already installed"
  exit 0
fi
# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"
apt_install install-alert-tools.sh prometheus
echo "install-alert-tools.sh: installed prometheus (promtool)"
