#!/usr/bin/env bash
# make lint: golangci-lint, pinned in tools/golangci-lint, with the project's
# .golangci.yml. It is built once into .tools/ (a few CPU-minutes from the
# module proxy) and rebuilt only when the pinned version changes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
lint="$root/.tools/golangci-lint"
pinned=$(cd tools/golangci-lint && go list -m -f '{{.Version}}' github.com/golangci/golangci-lint/v2)
built=$(go version -m "$lint" 2>/dev/null | awk '($1 == "mod" || $1 == "dep") && $2 == "github.com/golangci/golangci-lint/v2" { print $3 }' || true)
if [ "$built" != "$pinned" ]; then
  echo "==> building golangci-lint $pinned into .tools/ (once; a few minutes)"
  mkdir -p .tools
  (cd tools/golangci-lint && go build -o "$lint" github.com/golangci/golangci-lint/v2/cmd/golangci-lint)
fi
"$lint" run ./...
