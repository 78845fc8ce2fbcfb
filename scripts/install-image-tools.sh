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
command -v apt-get >/dev/null || { echo "install-image-tools.sh: no apt-get here; install ${packages[*]} by hand" >&2; exit 1; }
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-image-tools.sh: run it as root (apt-get installs packages)" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
echo "install-image-tools.sh: installed ${packages[*]}"
