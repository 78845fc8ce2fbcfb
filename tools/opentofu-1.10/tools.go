//go:build tools

// Package opentofu110 pins the OpenTofu that `make floor-check` builds into
// .tools/ to validate the examples under OpenTofu 1.10, README.md's
// OpenTofu floor (scripts/floor-check.sh). It has a module of its own so
// that OpenTofu's dependencies cannot raise the versions this project
// builds with.
package opentofu110

import (
	_ "github.com/opentofu/opentofu/cmd/tofu"
)
