# shellcheck shell=bash
# Sourced by the install-*.sh scripts: apt_install NAME PACKAGE... installs
# Debian's (or Ubuntu's) packages with apt-get, as root or through sudo,
# and says so as NAME.
apt_install() {
  local name=$1
  shift
  command -v apt-get >/dev/null || { echo "$name: no apt-get here; install these packages (or your system's equivalents) by hand: $*" >&2; exit 1; }
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "$name: run it as root (apt-get installs packages)" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
