package provider

import "fmt"

// RegistryAddress is where the provider is published. main.go serves under
// it, and a dev_overrides CLI configuration names it to swap in a local
// build.
const RegistryAddress = "registry.terraform.io/joinit-community/joinit"

// DevOverridesCLIConfig is a Terraform CLI configuration under which
// Terraform runs the provider binary in binDir instead of installing one,
// so no registry is asked (terraform init is not needed either). The demo,
// the benchmark and the trace-log test all run the built binary this way.
func DevOverridesCLIConfig(binDir string) string {
	return fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", RegistryAddress, binDir)
}
