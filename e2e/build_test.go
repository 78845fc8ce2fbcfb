//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository's top directory (the tests run in e2e/).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// build compiles the provider and joinit-relay into dir/bin, and the
// OpenStack provider at tools/openstack-provider's version into .tools/
// (kept between runs, as make test keeps it), and writes dir/dev.tfrc: a
// CLI configuration whose dev_overrides install all three, so terraform
// needs no registry.
func build(t testing.TB, dir string) (relayBinary, tfrc string) {
	t.Helper()
	root := repoRoot(t)
	bin := filepath.Join(dir, "bin")
	osDir := filepath.Join(root, ".tools", "openstack-provider")
	steps := []struct {
		dir  string
		args []string
	}{
		{root, []string{"build", "-o", filepath.Join(bin, "terraform-provider-joinit"), "."}},
		{root, []string{"build", "-o", filepath.Join(bin, "joinit-relay"), "./cmd/joinit-relay"}},
		{filepath.Join(root, "tools", "openstack-provider"), []string{"build", "-o", filepath.Join(osDir, "terraform-provider-openstack"), "github.com/terraform-provider-openstack/terraform-provider-openstack/v3"}},
	}
	for _, s := range steps {
		cmd := exec.Command("go", s.args...)
		cmd.Dir = s.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(s.args, " "), err, out)
		}
	}
	tfrc = filepath.Join(dir, "dev.tfrc")
	rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/joinit-community/joinit"                = %q
    "registry.terraform.io/terraform-provider-openstack/openstack" = %q
  }
  direct {}
}
`, bin, osDir)
	if err := os.WriteFile(tfrc, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(bin, "joinit-relay"), tfrc
}

// terraformBinary is the terraform the tests run: TF_ACC_TERRAFORM_PATH,
// as in make test, else the one on PATH.
func terraformBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal("no terraform on PATH (or TF_ACC_TERRAFORM_PATH)")
	}
	return p
}
