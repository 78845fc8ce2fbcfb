package provider

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestAccTraceLogNeverShowsToken runs the real provider binary under the
// real terraform with TF_LOG=TRACE, through a dev_overrides CLI config (no
// registry), once with the right token and once with a refused one (given as TF_VAR_token:
// Terraform itself logs its command line, so -var would leak it), and
// looks for either token in everything Terraform printed or logged.
func TestAccTraceLogNeverShowsToken(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	const token = "tok-SECRET-3b1f9c0e7d"
	const wrongToken = "tok-WRONG-a9d8e7f6c5"
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 31, Memberships: 1200, Token: token, Faults: sandbox.Faults{ServerErrors: 1, OnlyPages: []int{2}}})

	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "dev.tfrc")
	writeFile(t, cliConfig, DevOverridesCLIConfig(builtProviderDir(t)))

	for name, tok := range map[string]string{"accepted": token, "refused": wrongToken} {
		work := filepath.Join(dir, name)
		writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    joinit = { source = "`+RegistryAddress+`" }
  }
}
variable "token" {
  type      = string
  sensitive = true
}
provider "joinit" {
  base_url     = "`+url+`"
  access_token = var.token
}
data "joinit_memberships" "all" {}
output "count" { value = length(data.joinit_memberships.all.ids) }
`)
		logPath := filepath.Join(work, "trace.log")
		// The binary the other acceptance tests run (TestMain sets it), so
		// that an OpenTofu run checks OpenTofu's log too.
		cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "plan", "-input=false", "-no-color")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath, "TF_IN_AUTOMATION=1", "TF_VAR_token="+tok)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if name == "accepted" && err != nil {
			t.Fatalf("plan failed: %v\n%s", err, out.String())
		}
		if name == "refused" && (err == nil || !strings.Contains(out.String(), "token was refused")) {
			t.Fatalf("plan with a refused token should fail saying so: %v\n%s", err, out.String())
		}
		logged, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(logged, []byte("fetched page")) && !bytes.Contains(logged, []byte("API request failed")) {
			t.Fatalf("the trace log does not show the provider's page fetches; the check would prove nothing")
		}
		for _, secret := range []string{token, wrongToken} {
			if strings.Contains(out.String(), secret) || bytes.Contains(logged, []byte(secret)) {
				t.Errorf("%s run: the token %q appears in Terraform's output or trace log", name, secret)
			}
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
