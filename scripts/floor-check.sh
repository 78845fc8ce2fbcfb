#!/usr/bin/env bash
# make floor-check: run each example under the oldest Terraform it claims
# (its required_version, else README.md's "Terraform X.Y or later") and
# under README.md's OpenTofu floor: TestExamplesUnderTheirFloors
# (internal/provider/floors_test.go) says what it runs.
#
# The releases are Go modules: each tools/terraform-X.Y or
# tools/opentofu-X.Y pins one, built once into .tools/<dir>/ and rebuilt
# only when its pin changes. From nothing, each takes about 7 CPU-minutes
# (13 minutes for the three on 2 cores, downloads included); with the Go
# build cache warm, a relink of about 12 s. The test then takes about 60 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bins=()
for dir in tools/terraform-* tools/opentofu-*; do
  name=$(basename "$dir")
  case $name in
    terraform-*) module=github.com/hashicorp/terraform pkg=$module out=terraform ;;
    opentofu-*) module=github.com/opentofu/opentofu pkg=$module/cmd/tofu out=tofu ;;
  esac
  bin="$root/.tools/$name/$out"
  pinned=$(cd "$dir" && go list -m -f '{{.Version}}' "$module")
  built=$(go version -m "$bin" 2>/dev/null | awk -v m="$module" '($1 == "mod" || $1 == "dep") && $2 == m { print $3 }' || true)
  if [ "$built" != "$pinned" ]; then
    echo "==> building $module $pinned into .tools/$name (once; from nothing, minutes)"
    # version.dev=no: the release's version, without -dev.
    (cd "$dir" && go build -ldflags "-X $module/version.dev=no" -o "$bin" "$pkg")
  fi
  bins+=("$bin")
done

echo "==> examples under their floors: ${bins[*]#"$root/"}"
JOINIT_FLOOR_BINARIES="${bins[*]}" go test ./internal/provider -run '^TestExamplesUnderTheirFloors$' -count=1 -parallel 4 -timeout 20m -v 2>&1 |
  grep -Ev '^=== (RUN|PAUSE|CONT|NAME)'
