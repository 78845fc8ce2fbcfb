//go:build tools

// Package goreleaser pins the GoReleaser version that `make release-check`
// builds into .tools/ to check .goreleaser.yml and build a snapshot release.
// It has a module of its own so that GoReleaser's large dependency graph
// cannot raise the versions tfplugindocs builds with (tools/go.mod).
package goreleaser

import (
	_ "github.com/goreleaser/goreleaser/v2"
)
