#!/usr/bin/env bash
# make unit-check (CI runs it): checks examples/relay-systemd/joinit-relay.service
# with systemd-analyze, which needs no running systemd: `verify` on a
# throwaway root holding the unit, the relay built at its ExecStart path and
# this machine's own units (sysinit.target and the rest), failing on any line
# it prints, since it exits 0 on an unknown key or a value it cannot parse
# ("..., ignoring"); then `security --offline=true`, which prints the unit's
# exposure and fails above 2.0. Needs systemd-analyze (Debian's systemd
# package: scripts/install-unit-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
unit=examples/relay-systemd/joinit-relay.service
command -v systemd-analyze >/dev/null || { echo "unit-check: systemd-analyze is missing; install it with: sudo bash scripts/install-unit-tools.sh" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd" "$root/usr/local/bin"
units=/usr/lib/systemd/system
[ -d "$units" ] || units=/lib/systemd/system
cp -R "$units" "$root/usr/lib/systemd/system"
cp "$unit" "$root/etc/systemd/system/"
exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
[ "$exe" = /usr/local/bin/joinit-relay ] || { echo "unit-check: ExecStart runs '$exe'; this check builds the relay at /usr/local/bin/joinit-relay" >&2; exit 1; }
go build -o "$root$exe" ./cmd/joinit-relay

set +e
out=$(systemd-analyze verify --root="$root" "$root/etc/systemd/system/joinit-relay.service" 2>&1)
rc=$?
set -e
if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
  printf '%s\n' "${out//$root/}" >&2
  echo "unit-check: systemd-analyze verify found a problem in $unit (exit $rc)" >&2
  exit 1
fi
echo "unit-check: systemd-analyze verify: no problem in $unit"

set +e
out=$(systemd-analyze security --offline=true --threshold=20 "$unit" 2>&1)
rc=$?
set -e
exposure=$(grep 'Overall exposure level' <<<"$out" || true)
if [ "$rc" -ne 0 ] || [ -z "$exposure" ]; then
  printf '%s\n' "$out" >&2
  echo "unit-check: systemd-analyze security: the exposure is above 2.0, or could not be read (exit $rc)" >&2
  exit 1
fi
echo "unit-check: systemd-analyze security --offline=true: exposure $(sed -n "s/.*: \([0-9.]* [A-Z]*\).*/\1/p" <<<"$exposure")"
