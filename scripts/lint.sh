#!/usr/bin/env bash
# make lint: shellcheck on the project's shell scripts (scripts/*.sh,
# e2e/*.sh, .ci/run), then golangci-lint, pinned in tools/golangci-lint,
# with the project's .golangci.yml. golangci-lint is built once into .tools/
# (a few CPU-minutes from the module proxy) and rebuilt only when the pinned
# version changes. shellcheck is Debian's package (bash
# scripts/install-lint-tools.sh, which CI runs): without it the scripts are
# not checked, which fails the lint under CI=true and is said loudly
# otherwise. An argument runs one half: lint.sh shell, or lint.sh go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
only=${1:-}
case $only in
"" | shell | go) ;;
*) echo "usage: lint.sh [shell|go]" >&2; exit 2 ;;
esac
failed=0

scripts=(scripts/*.sh e2e/*.sh .ci/run)
if [ "$only" = go ]; then
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

lint="$root/.tools/golangci-lint"
pinned=$(cd tools/golangci-lint && go list -m -f '{{.Version}}' github.com/golangci/golangci-lint/v2)
built=$(go version -m "$lint" 2>/dev/null | awk '($1 == "mod" || $1 == "dep") && $2 == "github.com/golangci/golangci-lint/v2" { print $3 }' || true)
if [ "$built" != "$pinned" ]; then
  echo "==> building golangci-lint $pinned into .tools/ (once; a few minutes)"
  mkdir -p .tools
  (cd tools/golangci-lint && go build -o "$lint" github.com/golangci/golangci-lint/v2/cmd/golangci-lint)
fi
echo "==> golangci-lint $pinned"
"$lint" run ./... || failed=1
exit "$failed"
