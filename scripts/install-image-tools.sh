#!/usr/bin/env bash
# Installs what make image-check runs, from Debian's (or Ubuntu's) packages:
# podman, and runc (podman's default runtime, crun, fails on some hosts'
# rlimits and hybrid cgroups). CI (.ci/run) runs it before make image-check.
set -euo pipefail
packages=(podman runc curl)
if command -v podman >/dev/null && command -v runc >/dev/null; then
  echo "install-image-tools.sh: already installed"
  exit 0
fi
# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"
apt_install install-image-tools.sh "${packages[@]}"
echo "install-image-tools.sh: installed ${packages[*]}"
