package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The harness of terraform_test.go: the real terraform in a directory of
// its own, the stand-in built with the fixture and installed for it by
// dev_overrides, and terraform's -json output read as events.

// terraformDiagnostic is a diagnostic in terraform's JSON output.
type terraformDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

// errorsOf is the error diagnostics, one a line, for matching and for a
// failure's message.
func errorsOf(diags []terraformDiagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity == "error" {
			fmt.Fprintf(&b, "%s: %s\n", d.Summary, d.Detail)
		}
	}
	return b.String()
}

type testSummary struct {
	Status string `json:"status"`
	Passed int    `json:"passed"`
}

// testEvents reads the machine-readable lines of terraform test or plan
// -json: the test summary and every diagnostic.
func testEvents(t *testing.T, out []byte) (testSummary, []terraformDiagnostic) {
	t.Helper()
	summary := testSummary{Status: "no summary"}
	var diags []terraformDiagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string              `json:"type"`
			Summary    testSummary         `json:"test_summary"`
			Diagnostic terraformDiagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Type {
		case "test_summary":
			summary = line.Summary
		case "diagnostic":
			diags = append(diags, line.Diagnostic)
		}
	}
	return summary, diags
}

// terraform is a working directory for the terraform on PATH (or
// TF_ACC_TERRAFORM_PATH), with the fixture stand-in installed by
// dev_overrides and nothing else to install.
type terraform struct {
	bin, dir string
	env      []string
}

func newTerraform(t *testing.T, files map[string]string) *terraform {
	t.Helper()
	if testing.Short() {
		t.Skip("runs terraform")
	}
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no terraform: put it on PATH or set TF_ACC_TERRAFORM_PATH")
		}
	}
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	config := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", fixtureAddress, fixtureBinaryDir(t))
	if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "CHECKPOINT_") {
			env = append(env, kv)
		}
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return &terraform{bin: bin, dir: dir, env: env}
}

// run runs terraform with args and returns its standard output; a failure
// to start is fatal, an exit status is the caller's to judge.
func (tf *terraform) run(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	// A bound on a hung terraform only: no case waits for anything.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf.bin, args...)
	cmd.Dir, cmd.Env = tf.dir, tf.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	if stderr.Len() > 0 {
		t.Logf("terraform %s, stderr:\n%s", strings.Join(args, " "), stderr.Bytes())
	}
	return stdout.Bytes(), err
}

var fixtureBuild struct {
	once sync.Once
	dir  string
	err  error
}

// fixtureBinaryDir builds the stand-in with the fixture once per test
// binary, named for it, into a directory for dev_overrides.
func fixtureBinaryDir(t *testing.T) string {
	t.Helper()
	fixtureBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "recorded-provider-") //nolint:usetesting // one build for every test: t.TempDir would go with the first
		if err != nil {
			fixtureBuild.err = err
			return
		}
		fixtureBuild.dir = dir
		out, err := exec.Command("go", "build", "-tags", "recordedfixture", "-o", filepath.Join(dir, "terraform-provider-fixture"), ".").CombinedOutput()
		if err != nil {
			fixtureBuild.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if fixtureBuild.err != nil {
		t.Fatal(fixtureBuild.err)
	}
	return fixtureBuild.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureBuild.dir != "" {
		os.RemoveAll(fixtureBuild.dir)
	}
	os.Exit(code)
}
