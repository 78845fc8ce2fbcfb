// Command recorded-provider is a stand-in Terraform provider: it serves the
// schema of another project's provider as recorded in schemas/NAME.json
// (scripts/record-schema.sh), so that terraform validate, and terraform test
// with mock_provider, run on our sync modules offline, without that provider.
// It answers only the schema and the Validate calls; every call that would
// reach an API fails, saying it is a stand-in.
//
// The binary serves the schema its own name picks: built or linked as
// terraform-provider-okta it is okta/okta, as terraform-provider-azuread
// hashicorp/azuread, and so on, under the address the file records. A
// test points Terraform at it with dev_overrides.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

func main() {
	name, err := providerName(os.Args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s := newStandIn(name)
	if err := tf6server.Serve(s.address(), func() tfprotov6.ProviderServer { return s }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// providerName is the provider's type name in the name the binary was run
// by: terraform-provider-NAME, as dev_overrides looks for it, or with the
// registry's _vX.Y.Z or a .exe after it. It reads os.Args[0], not
// os.Executable, which would resolve a symbolic link to its target's name.
func providerName(arg0 string) (string, error) {
	base := strings.TrimSuffix(filepath.Base(arg0), ".exe")
	name, ok := strings.CutPrefix(base, "terraform-provider-")
	name, _, _ = strings.Cut(name, "_")
	if !ok || name == "" {
		return "", fmt.Errorf("%s: a stand-in provider serves the schema its name picks: name it terraform-provider-NAME, NAME one of %s",
			base, namesText())
	}
	return name, nil
}
