//go:build tools

// Package tools pins golangci-lint, built once into .tools/ by
// scripts/lint.sh (make lint, and CI). It is a module of its own, like
// tools/goreleaser, so that its dependencies never meet the provider's.
package tools

import _ "github.com/golangci/golangci-lint/v2/cmd/golangci-lint"
