//go:build tools

// Package tools pins actionlint, built once into .tools/ by scripts/lint.sh
// (make lint, and CI), which runs it on .github/workflows/ and on the
// workflows shipped under examples/. It is a module of its own, like
// tools/golangci-lint, so that its dependencies never meet the provider's.
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
