#!/usr/bin/env bash
# Installs what make lint runs besides golangci-lint and actionlint (which it
# builds itself), from Debian's (or Ubuntu's) packages: shellcheck, which
# checks every script in scripts/, e2e/servers.sh and .ci/run, and, through
# actionlint, the workflows' run: scripts. CI (.ci/run) runs it before make
# lint.
set -euo pipefail
if command -v shellcheck >/dev/null; then
  echo "install-lint-tools.sh: already installed"
  exit 0
fi
# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"
apt_install install-lint-tools.sh shellcheck
echo "install-lint-tools.sh: installed shellcheck"
