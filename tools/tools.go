//go:build tools

// Package tools pins the versions of the command-line tools used to build
// and document the provider. It is not part of the provider binary.
package tools

import (
	// Documentation generation.
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
)
