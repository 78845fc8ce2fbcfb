//go:build tools

// Package terraform17 pins the Terraform that `make floor-check` builds into
// .tools/ to run the examples whose floor is Terraform 1.7
// (scripts/floor-check.sh). It has a module of its own so that Terraform's
// dependencies cannot raise the versions this project builds with.
package terraform17

import (
	_ "github.com/hashicorp/terraform"
)
