#!/usr/bin/env bash
# Installs what make unit-check runs, from Debian's (or Ubuntu's) packages:
# systemd, for systemd-analyze (which checks a unit file without systemd
# running). CI (.ci/run) runs it before make unit-check.
set -euo pipefail
if command -v systemd-analyze >/dev/null; then
  echo "install-unit-tools.sh: already installed"
  exit 0
fi
command -v apt-get >/dev/null || { echo "install-unit-tools.sh: no apt-get here; install systemd (for systemd-analyze) by hand" >&2; exit 1; }
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-unit-tools.sh: run it as root (apt-get installs packages)" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends systemd >/dev/null
echo "install-unit-tools.sh: installed systemd"
