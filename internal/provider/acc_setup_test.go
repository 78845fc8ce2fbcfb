package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestMain points terraform-plugin-testing at the terraform on PATH, so an
// acceptance test never downloads Terraform.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		if p, err := exec.LookPath("terraform"); err == nil {
			os.Setenv("TF_ACC_TERRAFORM_PATH", p)
		}
	}
	useOpenTofuRegistryHost()
	// The provider's environment variables of whoever runs the tests would
	// reach every test that leaves the setting out (an organization_id would
	// refuse the sandbox's records); tests that need one set their own.
	for _, env := range []string{envAccessToken, envBaseURL, envOrganization} {
		os.Unsetenv(env)
	}
	// An empty CLI configuration keeps the machine's own out of the tests.
	var cliConfig string
	if os.Getenv("TF_CLI_CONFIG_FILE") == "" {
		if f, err := os.CreateTemp("", "joinit-test-*.tfrc"); err == nil {
			f.Close()
			cliConfig = f.Name()
			os.Setenv("TF_CLI_CONFIG_FILE", cliConfig)
		}
	}
	code := m.Run()
	removeBuiltProvider()
	if cliConfig != "" {
		os.Remove(cliConfig)
	}
	os.Exit(code)
}

// useOpenTofuRegistryHost: OpenTofu resolves the tests' provider "joinit"
// to registry.opentofu.org, so the in-process provider must be attached
// under that host (TF_ACC_PROVIDER_HOST) for OpenTofu to find it.
func useOpenTofuRegistryHost() {
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || bin == "" || os.Getenv("TF_ACC_PROVIDER_HOST") != "" {
		return
	}
	if out, err := exec.Command(bin, "version").Output(); err == nil && strings.HasPrefix(string(out), "OpenTofu") {
		os.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
	}
}

// providerFactories serve the provider in process, through the same
// server as the released binary.
var providerFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"joinit": func() (tfprotov6.ProviderServer, error) { return NewServer(context.Background(), "test")(), nil },
}

// startSandbox runs a sandbox for one test.
func startSandbox(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	s := sandbox.New(opts)
	url := s.Start()
	t.Cleanup(s.Close)
	return s, url + opts.PathPrefix
}

// providerBlock configures the provider for a sandbox.
func providerBlock(url string) string {
	return fmt.Sprintf(`
provider "joinit" {
  base_url     = %q
  access_token = %q
}
`, url, sandbox.DefaultToken)
}

// emptyConfig is a data source configuration with every argument null.
func emptyConfig(def *dataSourceDef) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for name, typ := range def.stateType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	return tftypes.NewValue(def.stateType, vals)
}
