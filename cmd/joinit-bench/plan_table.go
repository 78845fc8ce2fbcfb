package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// planRun is one measured terraform plan.
type planRun struct {
	wall        time.Duration
	terraformKB int64 // peak RSS of terraform
	providerKB  int64 // peak RSS of the provider process (0: none ran)
}

// planCase is one configuration measured against the anchor.
type planCase struct{ name, short, config string }

// planCases are the measured reads, by their -cases names.
var planCases = []planCase{
	{"full records", "full", "data \"joinit_memberships\" \"all\" {}\noutput \"n\" { value = length(data.joinit_memberships.all.memberships) }\n"},
	{"lean read", "lean", "data \"joinit_memberships\" \"all\" {\n  include_records = false\n}\noutput \"n\" { value = length(data.joinit_memberships.all.ids) }\n"},
	{"fields: email, membership_name, status", "fields", "data \"joinit_memberships\" \"all\" {\n  fields = [\"email\", \"membership_name\", \"status\"]\n}\noutput \"n\" { value = length(data.joinit_memberships.all.records) }\n"},
}

// selectCases picks planCases by short name; "all" is every one.
func selectCases(names string) ([]planCase, error) {
	if names == "all" {
		return planCases, nil
	}
	var out []planCase
	for _, n := range strings.Split(names, ",") {
		found := false
		for _, c := range planCases {
			if c.short == strings.TrimSpace(n) {
				out, found = append(out, c), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown case %q (full, lean, fields)", n)
		}
	}
	return out, nil
}

// planTable times terraform plan of the cases at each N, against the
// anchor (Terraform decoding the same records from a file) when withAnchor.
// Without it (sizes where the anchor alone would take minutes and
// gigabytes) the ratio columns are "-".
func planTable(out io.Writer, title string, ns []int, cases []planCase, withAnchor bool) error {
	tmp, cliConfig, err := buildProvider()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	fmt.Fprintln(out, "## "+title)
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "N\tcase\twall\tterraform peak RSS\tprovider peak RSS\twall/anchor\tRSS/anchor\t")
	for _, n := range ns {
		sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n})
		url := sb.Start()
		var anchor *planRun
		if withAnchor {
			anchorDir := filepath.Join(tmp, fmt.Sprintf("anchor-%d", n))
			if err := writeAnchor(anchorDir, sb); err != nil {
				sb.Close()
				return err
			}
			a, err := plan(anchorDir, cliConfig, url)
			if err != nil {
				sb.Close()
				return fmt.Errorf("anchor plan, N=%d: %w", n, err)
			}
			anchor = &a
			row(w, n, "anchor: jsondecode(file)", a, anchor)
		}
		for _, c := range cases {
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", c.short, n))
			if err := writeConfig(dir, providerHeader()+c.config); err != nil {
				sb.Close()
				return err
			}
			r, err := plan(dir, cliConfig, url)
			if err != nil {
				sb.Close()
				return fmt.Errorf("%s plan, N=%d: %w", c.name, n, err)
			}
			row(w, n, c.name, r, anchor)
		}
		sb.Close()
		w.Flush()
	}
	w.Flush()
	fmt.Fprintln(out)
	return nil
}

// buildProvider builds the provider into a temporary directory, with a
// CLI configuration whose dev_overrides point at it; the caller removes tmp.
func buildProvider() (tmp, cliConfig string, err error) {
	if tmp, err = os.MkdirTemp("", "joinit-bench-"); err != nil {
		return "", "", err
	}
	binDir := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(binDir, "terraform-provider-joinit"), ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(tmp)
		return "", "", fmt.Errorf("building the provider (run from the repository root): %w", err)
	}
	cliConfig = filepath.Join(tmp, "dev.tfrc")
	if err := os.WriteFile(cliConfig, []byte(provider.DevOverridesCLIConfig(binDir)), 0o644); err != nil {
		os.RemoveAll(tmp)
		return "", "", err
	}
	return tmp, cliConfig, nil
}

func row(w io.Writer, n int, name string, r planRun, anchor *planRun) {
	wallRatio, rssRatio := "-", "-"
	if anchor != nil {
		wallRatio = fmt.Sprintf("%.3f", float64(r.wall)/float64(anchor.wall))
		rssRatio = fmt.Sprintf("%.2f", float64(max(r.terraformKB, r.providerKB))/float64(anchor.terraformKB))
	}
	fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", n, name, round(r.wall), mb(r.terraformKB), mb(r.providerKB), wallRatio, rssRatio)
}

func mb(kb int64) string {
	if kb == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(kb)/1024)
}

func providerHeader() string {
	return fmt.Sprintf("terraform {\n  required_providers {\n    joinit = { source = %q }\n  }\n}\nprovider \"joinit\" {}\n", provider.RegistryAddress)
}

func writeConfig(dir, config string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644)
}

// writeAnchor writes the sandbox's memberships as one JSON array and a
// configuration that only decodes and counts them.
func writeAnchor(dir string, sb *sandbox.Server) error {
	if err := writeConfig(dir, "output \"n\" { value = length(jsondecode(file(\"memberships.json\"))) }\n"); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "memberships.json"), sb.MembershipsArrayJSON(nil), 0o644)
}

// plan runs terraform plan in dir and measures it.
func plan(dir, cliConfig, baseURL string) (planRun, error) {
	r, output, err := planOutcome(dir, cliConfig, baseURL)
	if err != nil {
		return planRun{}, fmt.Errorf("%w\n%s", err, output)
	}
	return r, nil
}

// planOutcome runs terraform plan in dir and measures it, whether it
// succeeds or fails; output is what terraform printed.
func planOutcome(dir, cliConfig, baseURL string) (planRun, string, error) {
	cmd := exec.Command("terraform", "plan", "-input=false", "-no-color", "-refresh=true")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1",
		"JOINIT_BASE_URL="+baseURL, "JOINIT_ACCESS_TOKEN="+sandbox.DefaultToken)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return planRun{}, "", err
	}
	peaks := watchPeaks(cmd.Process.Pid)
	err := cmd.Wait()
	wall := time.Since(start)
	tfKB, provKB := peaks.stop()
	return planRun{wall: wall, terraformKB: tfKB, providerKB: provKB}, output.String(), err
}
