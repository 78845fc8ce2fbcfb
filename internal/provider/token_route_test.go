package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// What the docs say of the token's routes holds on the real terraform: set
// as JOINIT_ACCESS_TOKEN it is in no saved plan; set through a Terraform
// variable, `terraform show -json` of the saved plan prints it (which is
// why the docs recommend the environment variable in CI), unless the
// variable is ephemeral (Terraform 1.10 and later, OpenTofu 1.11 and later:
// older ones refuse the argument, and this case is left out there).
func TestAccTokenRoutesAndSavedPlans(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	const token = "tok-ROUTE-5d2c8e1f"
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 32, Groups: 2, Token: token})
	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "dev.tfrc")
	writeFile(t, cliConfig, DevOverridesCLIConfig(builtProviderDir(t)))
	configs := map[string]struct {
		provider string
		env      string
		inPlan   bool
	}{
		"environment": {`provider "joinit" {}`, "JOINIT_ACCESS_TOKEN=" + token, false},
		"variable": {`variable "token" {
  type      = string
  sensitive = true
}
provider "joinit" {
  access_token = var.token
}`, "TF_VAR_token=" + token, true},
	}
	if ephemeralVariables(t) {
		configs["ephemeral variable"] = struct {
			provider string
			env      string
			inPlan   bool
		}{`variable "token" {
  type      = string
  sensitive = true
  ephemeral = true
}
provider "joinit" {
  access_token = var.token
}`, "TF_VAR_token=" + token, false}
	}
	for name, c := range configs {
		work := filepath.Join(dir, name)
		writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    joinit = { source = "`+RegistryAddress+`" }
  }
}
`+c.provider+`
data "joinit_groups" "all" {}
output "groups" { value = length(data.joinit_groups.all.groups) }
`)
		run := func(args ...string) []byte {
			cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), args...)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "JOINIT_BASE_URL="+url, c.env)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: terraform %v: %v\n%s", name, args, err, out)
			}
			return out
		}
		run("plan", "-input=false", "-no-color", "-out=saved.plan")
		shown := run("show", "-json", "saved.plan")
		if got := bytes.Contains(shown, []byte(token)); got != c.inPlan {
			t.Errorf("%s: the token is in `terraform show -json` of the saved plan: %v, the docs say %v", name, got, c.inPlan)
		}
	}
}

// ephemeralVariables reports whether the terraform under test takes
// ephemeral input variables: Terraform 1.10 and later, OpenTofu 1.11 and
// later.
func ephemeralVariables(t *testing.T) bool {
	t.Helper()
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		t.Fatalf("terraform version: %v", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("terraform version -json: %v: %s", err, out)
	}
	var major, minor int
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &major, &minor); err != nil {
		t.Fatalf("terraform version %q: %v", v.Version, err)
	}
	floor := 10
	if strings.Contains(filepath.Base(os.Getenv("TF_ACC_TERRAFORM_PATH")), "tofu") {
		floor = 11
	}
	return major > 1 || (major == 1 && minor >= floor)
}
