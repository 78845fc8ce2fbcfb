package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RegistryAddress is where the provider is published. main.go serves under
// it, and a dev_overrides CLI configuration names it to swap in a local
// build.
const RegistryAddress = "registry.terraform.io/joinit-community/joinit"

// openTofuAddress is the address OpenTofu gives the short source
// "joinit-community/joinit": it resolves short sources on its own registry.
const openTofuAddress = "registry.opentofu.org/joinit-community/joinit"

// DevOverridesCLIConfig is a Terraform CLI configuration under which
// Terraform runs the provider binary in binDir instead of installing one,
// so no registry is asked (terraform init is not needed either). The demo,
// the benchmark and the tests that run the built binary all use it. It
// overrides the address under both registries, so a configuration naming
// the short source finds the binary under Terraform and OpenTofu alike.
func DevOverridesCLIConfig(binDir string) string {
	return devOverridesConfig(map[string]string{RegistryAddress: binDir, openTofuAddress: binDir})
}

// devOverridesConfig is a CLI configuration that runs the binary in each
// directory for its provider address (tests add other providers).
func devOverridesConfig(dirs map[string]string) string {
	var b strings.Builder
	b.WriteString("provider_installation {\n  dev_overrides {\n")
	for _, addr := range slices.Sorted(maps.Keys(dirs)) {
		fmt.Fprintf(&b, "    %q = %q\n", addr, dirs[addr])
	}
	b.WriteString("  }\n  direct {}\n}\n")
	return b.String()
}
