#!/usr/bin/env bash
# make lint: shellcheck on the project's shell scripts (scripts/*.sh,
# e2e/*.sh, .ci/run); actionlint, pinned in tools/actionlint, on the
# project's GitHub Actions workflows (.github/workflows/) and on those it
# ships (examples/use-cases/ci-plan/*.yml), with shellcheck on their run:
# scripts; then the order of each package's files (internal/fileorder:
# DESIGN.md's rule, that a package's files use each other in one direction
# and in the order its doc lists them); then golangci-lint, pinned in
# tools/golangci-lint, with the project's .golangci.yml. Both linters are
# built once into .tools/ (golangci-lint
# a few CPU-minutes from the module proxy, actionlint under one) and rebuilt
# only when the pinned version changes. shellcheck is Debian's package (bash
# scripts/install-lint-tools.sh, which CI runs): without it the scripts and
# the workflows' run: scripts are not checked, which fails the lint under
# CI=true and is said loudly otherwise. An argument runs one part: lint.sh
# shell, lint.sh actions or lint.sh go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
only=${1:-}
case $only in
"" | shell | actions | go) ;;
*) echo "usage: lint.sh [shell|actions|go]" >&2; exit 2 ;;
esac
failed=0

scripts=(scripts/*.sh e2e/*.sh .ci/run)
if [ "$only" = go ] || [ "$only" = actions ]; then
  :
elif command -v shellcheck >/dev/null; then
  echo "==> shellcheck $(shellcheck --version | sed -n 's/^version: //p'): ${#scripts[@]} scripts"
  # -x follows the files they source (each names it: # shellcheck source=...).
  shellcheck -x "${scripts[@]}" || failed=1
  # A finding silenced must say why: a disable directive carries its reason
  # after it on its line, or on the comment line before it.
  awk '
    FNR == 1 { prevreason = 0 }
    /^[[:space:]]*#[[:space:]]*shellcheck[[:space:]]+disable=/ {
      rest = $0
      sub(/^[[:space:]]*#[[:space:]]*shellcheck[[:space:]]+disable=[^[:space:]]*[[:space:]]*/, "", rest)
      if (rest !~ /^#[[:space:]]*[^[:space:]]/ && !prevreason) {
        printf "%s:%d: a shellcheck disable directive without its reason (on its line after a #, or on the comment line before it)\n", FILENAME, FNR
        bad = 1
      }
    }
    { prevreason = ($0 ~ /^[[:space:]]*#[[:space:]]*[^[:space:]!]/ && $0 !~ /^[[:space:]]*#[[:space:]]*shellcheck[[:space:]]+[a-z-]+=/) }
    END { exit bad }
  ' "${scripts[@]}" || failed=1
else
  echo "lint: shellcheck is not installed, so the shell scripts were NOT checked; install it with: bash scripts/install-lint-tools.sh (Debian's shellcheck package)" >&2
  [ "${CI:-}" != true ] || failed=1
fi

[ "$only" != shell ] || exit "$failed"

# pinned_build TOOL MODULE PACKAGE builds PACKAGE into .tools/TOOL with the
# version of MODULE that tools/TOOL/go.mod pins, unless the binary there was
# built from that version already.
pinned_build() {
  local tool=$1 module=$2 package=$3 pinned built
  pinned=$(cd "tools/$tool" && go list -m -f '{{.Version}}' "$module")
  built=$(go version -m ".tools/$tool" 2>/dev/null | awk -v m="$module" '($1 == "mod" || $1 == "dep") && $2 == m { print $3 }' || true)
  if [ "$built" != "$pinned" ]; then
    echo "==> building $tool $pinned into .tools/ (once)"
    mkdir -p .tools
    (cd "tools/$tool" && go build -o "$root/.tools/$tool" "$package")
  fi
  echo "==> $tool $pinned"
}

if [ "$only" != go ]; then
  # The repository's workflows and the ones it ships for users to copy:
  # those are not under .github/workflows/, so they are named here.
  workflows=(.github/workflows/*.yml examples/use-cases/ci-plan/*.yml)
  pinned_build actionlint github.com/rhysd/actionlint github.com/rhysd/actionlint/cmd/actionlint
  if ! command -v shellcheck >/dev/null; then
    echo "lint: shellcheck is not installed, so the workflows' run: scripts were NOT checked (actionlint skips them); install it with: bash scripts/install-lint-tools.sh" >&2
    [ "${CI:-}" != true ] || failed=1
  fi
  .tools/actionlint "${workflows[@]}" || failed=1
fi

[ "$only" != actions ] || exit "$failed"

echo "==> the order of each package's files (internal/fileorder)"
go run ./internal/fileorder ./... || failed=1

pinned_build golangci-lint github.com/golangci/golangci-lint/v2 github.com/golangci/golangci-lint/v2/cmd/golangci-lint
.tools/golangci-lint run ./... || failed=1
exit "$failed"
