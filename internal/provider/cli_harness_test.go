package provider

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Some tests run Terraform as a user does, on configurations with modules,
// which terraform-plugin-testing's harness does not install: they build the
// provider binary once, point a dev_overrides CLI configuration at it, and
// drive the terraform on PATH with terraform-exec.

var built struct {
	once sync.Once
	dir  string
	err  error
}

// builtProviderDir builds the provider into a directory of its own, once
// per test binary; TestMain removes it.
func builtProviderDir(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "joinit-provider-build-"); built.err != nil { //nolint:usetesting // one build for every test of the binary: t.TempDir would go with the first test
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(built.dir, "terraform-provider-joinit"), "../..")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

// A downstream provider whose schema an example module's tests mock, at
// the version its tools module pins (tools/NAME): built from the Go module
// proxy into .tools/NAME (ignored) once per test binary. Cold, the download
// and build of its dependencies take about 30 s (GitHub) or 90 s
// (OpenStack) on 2 cores; 2 s after.
type toolProvider struct {
	name, pkg string // the tools module's directory, the main package it builds
	once      sync.Once
	dir       string
	err       error
}

var (
	gitHubProvider    = &toolProvider{name: "github-provider", pkg: "github.com/integrations/terraform-provider-github/v6"}
	openStackProvider = &toolProvider{name: "openstack-provider", pkg: "github.com/terraform-provider-openstack/terraform-provider-openstack/v3"}
)

// providerDir builds p once and returns the directory of its binary, for
// dev_overrides.
func (p *toolProvider) providerDir(t *testing.T) string {
	t.Helper()
	p.once.Do(func() {
		root, err := filepath.Abs("../..")
		if err != nil {
			p.err = err
			return
		}
		p.dir = filepath.Join(root, ".tools", p.name)
		binary := "terraform-provider-" + strings.TrimSuffix(p.name, "-provider")
		cmd := exec.Command("go", "build", "-o", filepath.Join(p.dir, binary), p.pkg)
		cmd.Dir = filepath.Join(root, "tools", p.name)
		if out, err := cmd.CombinedOutput(); err != nil {
			p.err = fmt.Errorf("building %s (tools/%s): %w\n%s", p.pkg, p.name, err, out)
		}
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.dir
}

// removeBuiltProvider removes the build, for TestMain.
func removeBuiltProvider() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// cliTerraform is a working directory for the real terraform, with the
// built provider installed through dev_overrides.
type cliTerraform struct {
	*tfexec.Terraform
	stdout, stderr bytes.Buffer
}

// newCLITerraform prepares dir for terraform; env is added to the test
// process's environment (less what terraform-exec manages itself).
func newCLITerraform(t *testing.T, dir string, env map[string]string) *cliTerraform {
	return newCLITerraformWith(t, dir, env, nil)
}

// newCLITerraformWith is newCLITerraform with dev_overrides of other
// providers too: their registry addresses and the directories of their
// binaries.
func newCLITerraformWith(t *testing.T, dir string, env, overrides map[string]string) *cliTerraform {
	t.Helper()
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		t.Skip("no terraform: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	return newCLITerraformAt(t, bin, dir, env, overrides)
}

// newCLITerraformAt is newCLITerraformWith with the terraform (or tofu)
// binary bin.
func newCLITerraformAt(t *testing.T, bin, dir string, env, overrides map[string]string) *cliTerraform {
	t.Helper()
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	dirs := map[string]string{RegistryAddress: builtProviderDir(t), openTofuAddress: builtProviderDir(t)}
	maps.Copy(dirs, overrides)
	writeFile(t, rc, devOverridesConfig(dirs))
	tf, err := tfexec.NewTerraform(dir, bin)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	for _, k := range tfexec.ProhibitedEnv(vars) {
		delete(vars, k)
	}
	vars["TF_CLI_CONFIG_FILE"] = rc
	for k, v := range env {
		vars[k] = v
	}
	if err := tf.SetEnv(vars); err != nil {
		t.Fatal(err)
	}
	c := &cliTerraform{Terraform: tf}
	tf.SetStdout(&c.stdout)
	tf.SetStderr(&c.stderr)
	return c
}

// output returns and clears what terraform printed since the last call.
func (c *cliTerraform) output() string {
	out := c.stdout.String() + c.stderr.String()
	c.stdout.Reset()
	c.stderr.Reset()
	return out
}

// copyExample copies a directory of examples/ (modules included) into a
// fresh directory.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}
