package provider

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/docscheck"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// `make floor-check` (scripts/floor-check.sh) builds the Terraform and
// OpenTofu releases pinned in tools/terraform-X.Y and tools/opentofu-X.Y
// and runs TestExamplesUnderTheirFloors with their paths in
// JOINIT_FLOOR_BINARIES. make test skips it.
const floorBinariesEnv = "JOINIT_FLOOR_BINARIES"

// requiredVersion is an example's floor: required_version = ">= X.Y".
var requiredVersion = regexp.MustCompile(`required_version\s*=\s*"([^"]*)"`)

// Each example runs under the oldest version it claims, so a floor set
// below what it uses fails here, named: under its required_version's
// Terraform (the project's floor, README.md's, where it states none),
// `terraform validate`, and `terraform test` of its offline tests/; under
// the project's OpenTofu floor, `tofu validate`. The project's floors also
// plan examples/demo against the sandbox. A floor no pinned release
// matches fails: pin one (tools/terraform-X.Y) or raise the floor.
func TestExamplesUnderTheirFloors(t *testing.T) {
	bins := strings.Fields(os.Getenv(floorBinariesEnv))
	if len(bins) == 0 {
		t.Skip("make floor-check runs this, with the pinned Terraform and OpenTofu releases in " + floorBinariesEnv)
	}
	terraform, tofu := map[string]string{}, map[string]string{}
	for _, bin := range bins {
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatalf("%s version: %v\n%s", bin, err, out)
		}
		m := regexp.MustCompile(`^(Terraform|OpenTofu) v(\d+\.\d+)\.\d+\n`).FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("%s version: %q", bin, out)
		}
		if m[1] == "OpenTofu" {
			tofu[m[2]] = bin
		} else {
			terraform[m[2]] = bin
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	stated := docscheck.StatedFloor.FindStringSubmatch(string(readme))
	if stated == nil {
		t.Fatalf("README.md states no floor (%s)", docscheck.StatedFloor)
	}
	projectFloor, tofuFloor := stated[1], stated[2]
	if terraform[projectFloor] == "" || tofu[tofuFloor] == "" {
		t.Fatalf("README.md's floors are Terraform %s and OpenTofu %s; %s holds %v and %v", projectFloor, tofuFloor, floorBinariesEnv, terraform, tofu)
	}

	for _, dir := range exampleConfigurations(t) {
		floor := projectFloor
		if m := requiredVersion.FindStringSubmatch(readTF(t, filepath.Join("../../examples", dir))); m != nil {
			v, ok := strings.CutPrefix(m[1], ">= ")
			if !regexp.MustCompile(`^\d+\.\d+$`).MatchString(v) || !ok {
				t.Errorf("examples/%s: required_version %q: state a floor, \">= X.Y\"", dir, m[1])
				continue
			}
			floor = v
		}
		if terraform[floor] == "" {
			t.Errorf("examples/%s: required_version >= %s, which the floor check does not run: pin Terraform %s in tools/terraform-%s (scripts/floor-check.sh), or raise the floor to one it runs (%v)", dir, floor, floor, floor, terraform)
			continue
		}
		t.Run(dir+"/terraform-"+floor, func(t *testing.T) {
			t.Parallel()
			underFloor(t, terraform[floor], dir, true)
		})
		t.Run(dir+"/opentofu-"+tofuFloor, func(t *testing.T) {
			t.Parallel()
			underFloor(t, tofu[tofuFloor], dir, false)
		})
	}
	for _, bin := range []string{terraform[projectFloor], tofu[tofuFloor]} {
		t.Run("demo-plan/"+filepath.Base(filepath.Dir(bin)), func(t *testing.T) {
			t.Parallel()
			_, url := sandbox.StartForTest(t, demoData())
			tf := newCLITerraformAt(t, bin, filepath.Join(floorCopy(t), "demo"), map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken}, nil)
			if _, err := tf.Plan(context.Background()); err != nil {
				t.Fatalf("examples/demo: plan against the sandbox: %v\n%s", err, tf.output())
			}
		})
	}
}

// underFloor validates the example dir (a path under examples/) with bin
// and, with tests, runs its offline tests/. Without, its tests/ are left
// out: they are Terraform's (OpenTofu's mocks differ: the testing guide).
func underFloor(t *testing.T, bin, dir string, tests bool) {
	path := filepath.Join(floorCopy(t), dir)
	if !tests {
		if err := os.RemoveAll(filepath.Join(path, "tests")); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(readTF(t, path), "required_providers") {
		// A data source's example, as its page shows it.
		writeFile(t, filepath.Join(path, "zz_floor_check.tf"), "terraform {\n  required_providers {\n    joinit = { source = \"joinit-community/joinit\" }\n  }\n}\n")
	}
	tf := newCLITerraformAt(t, bin, path, map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}, downstreamOverrides(t, path))
	ctx := context.Background()
	if err := tf.Get(ctx); err != nil {
		t.Fatalf("examples/%s: get: %v\n%s", dir, err, tf.output())
	}
	v, err := tf.Validate(ctx)
	if err != nil {
		t.Fatalf("examples/%s: validate: %v\n%s", dir, err, tf.output())
	}
	for _, d := range v.Diagnostics {
		if d.Summary == "Provider development overrides are in effect" {
			continue
		}
		at := ""
		if d.Range != nil {
			at = " (" + d.Range.Filename + ")"
		}
		t.Errorf("examples/%s: validate: %s: %s: %s%s", dir, d.Severity, d.Summary, d.Detail, at)
	}
	if _, err := os.Stat(filepath.Join(path, "tests")); err != nil || !tests {
		return
	}
	want := runBlocks(t, filepath.Join(path, "tests"))
	var out bytes.Buffer
	err = tf.Test(ctx, &out)
	if s := testSummary(t, out.Bytes()); err != nil || s.Status != "pass" || s.Passed != want {
		t.Errorf("examples/%s: test: %v; %+v, want %d runs passed; failed: %s\n%s", dir, err, s, want, strings.Join(failedRuns(out.String()), "; "), out.String())
	}
}

// floorCopy is a copy of examples/, the root configurations calling the
// modules beside them (copyExamples).
func floorCopy(t *testing.T) string {
	t.Helper()
	dir := copyExamples(t)
	entries, err := os.ReadDir("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "modules" && e.Name() != "use-cases" {
			if err := os.CopyFS(filepath.Join(dir, e.Name()), os.DirFS(filepath.Join("../../examples", e.Name()))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// exampleConfigurations are the directories of examples/ holding .tf
// files (a root's local modules included).
func exampleConfigurations(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{"*/*.tf", "*/*/*.tf", "*/*/modules/*/*.tf"} {
		files, _ := filepath.Glob(filepath.Join("../../examples", pattern))
		for _, f := range files {
			dir, _ := filepath.Rel("../../examples", filepath.Dir(f))
			if !slices.Contains(dirs, filepath.ToSlash(dir)) {
				dirs = append(dirs, filepath.ToSlash(dir))
			}
		}
	}
	slices.Sort(dirs)
	return dirs
}

// readTF is the text of the .tf files of dir.
func readTF(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	var b strings.Builder
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(text)
	}
	return b.String()
}
