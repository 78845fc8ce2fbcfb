package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The module of examples/testing/every-data-source passes its own mock
// test under terraform test on the real terraform, every run of it, with
// the provider mocked: its base URL points at a closed port and it has no
// token, so a read that escaped the mock would fail. The sync modules'
// tests are TestAccModules_tests.
func TestAccExample_everyDataSourceMockTest(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	dir := copyExample(t, "testing/every-data-source")
	want := runBlocks(t, filepath.Join(dir, "tests"))
	tf := newCLITerraformWith(t, dir, map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}, nil)
	var out bytes.Buffer
	err := tf.Test(context.Background(), &out)
	summary := testSummary(t, out.Bytes())
	if err != nil || summary.Status != "pass" || summary.Passed != want {
		t.Fatalf("terraform test: %v; %+v, want %d runs passed\n%s\n%s", err, summary, want, out.String(), tf.output())
	}
}

// startEmailChange starts the sandboxes of an email-change-tests
// directory, three of one seed: "before", as generated; "after_case", where
// one active member's address changed only in case; "after_new", where it
// changed to another address. The member's address is theirs alone (no
// other membership holds it, whatever its case or status), so its change
// moves it in every module, and they answered "GitHub username" with a
// username GitHub accepts, so github-team holds them. It returns the first
// sandbox, its URL, and the terraform.tfvars that tells the tests the other
// two and the addresses, as ChangeEmail gave them.
func startEmailChange(t *testing.T) (*sandbox.Server, string, string) {
	t.Helper()
	opts := sandbox.Options{Seed: 63, Memberships: 60}
	before, beforeURL := sandbox.StartForTest(t, opts)
	afterCase, caseURL := sandbox.StartForTest(t, opts)
	afterNew, newURL := sandbox.StartForTest(t, opts)

	type membership struct {
		ID            string  `json:"_id"`
		Email         *string `json:"email"`
		Status        int     `json:"status"`
		CustomAnswers []struct {
			Question, Answer string
		} `json:"custom_answers"`
	}
	var all []membership
	holders := map[string]int{} // by the address as the modules key it
	for _, raw := range before.MembershipsJSON(nil) {
		var m membership
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		all = append(all, m)
		if m.Email != nil {
			holders[strings.ToLower(strings.TrimSpace(*m.Email))]++
		}
	}
	usable := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	const newEmail = "Member.Moved@New-Domain.Example"
	if holders[strings.ToLower(newEmail)] > 0 {
		t.Fatalf("the sandbox already holds %s", newEmail)
	}
	for _, m := range all {
		if m.Status != 100 || m.Email == nil || holders[strings.ToLower(strings.TrimSpace(*m.Email))] != 1 || strings.ToUpper(*m.Email) == *m.Email {
			continue
		}
		for _, a := range m.CustomAnswers {
			username := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(a.Answer), "@"))
			if a.Question != "GitHub username" || len(username) > 39 || !usable.MatchString(username) {
				continue
			}
			old, caseOnly := *m.Email, strings.ToUpper(*m.Email)
			if _, err := afterCase.ChangeEmail(m.ID, caseOnly); err != nil {
				t.Fatal(err)
			}
			if _, err := afterNew.ChangeEmail(m.ID, newEmail); err != nil {
				t.Fatal(err)
			}
			// What github-team cannot see (it reads no address), the
			// sandboxes must serve.
			for s, want := range map[*sandbox.Server]string{before: old, afterCase: caseOnly, afterNew: newEmail} {
				if got := servedEmail(t, s, m.ID); got != want {
					t.Fatalf("membership %s is served with %q, want %q", m.ID, got, want)
				}
			}
			tfvars := fmt.Sprintf("after_case_url = %q\nafter_new_url  = %q\nold_email      = %q\ncase_email     = %q\nnew_email      = %q\nusername       = %q\n",
				caseURL, newURL, old, caseOnly, newEmail, username)
			t.Logf("membership %s: %s, only in case %s, new %s", m.ID, old, caseOnly, newEmail)
			return before, beforeURL, tfvars
		}
	}
	t.Fatal("no active membership has an address of its own and a usable GitHub username")
	return nil, "", ""
}

// servedEmail is the address a sandbox serves for a membership.
func servedEmail(t *testing.T, s *sandbox.Server, id string) string {
	t.Helper()
	for _, raw := range s.MembershipsJSON(nil) {
		var m struct {
			ID    string `json:"_id"`
			Email string `json:"email"`
		}
		if json.Unmarshal(raw, &m) == nil && m.ID == id {
			return m.Email
		}
	}
	t.Fatalf("no membership %s", id)
	return ""
}

// runBlocks counts the run blocks of the test files in dir.
func runBlocks(t *testing.T, dir string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tftest.hcl"))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += len(regexp.MustCompile(`(?m)^run "`).FindAll(b, -1))
	}
	if n == 0 {
		t.Fatalf("no run blocks in %s", dir)
	}
	return n
}

// terraformTestSummary is the summary line of `terraform test -json`.
type terraformTestSummary struct {
	Status                           string
	Passed, Failed, Errored, Skipped int
}

func testSummary(t *testing.T, out []byte) terraformTestSummary {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type    string               `json:"type"`
			Summary terraformTestSummary `json:"test_summary"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "test_summary" {
			return line.Summary
		}
	}
	return terraformTestSummary{Status: "no summary"}
}

// The mock test of examples/testing/every-data-source fills every list
// and nested object of every data source, so a data source or a nested
// attribute added without it fails here; the acceptance test above shows
// that what it fills arrives.
func TestMockTestFillsEveryDataSource(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../examples/testing/every-data-source/tests/mock.tftest.hcl")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	mocks, _, _ := strings.Cut(string(b), "\nrun \"") // the mock_provider block, before the runs
	for _, part := range strings.Split(mocks, `mock_data "`)[1:] {
		name, body, _ := strings.Cut(part, `"`)
		blocks[name] = body
	}
	for name, d := range registeredDefs {
		body, ok := blocks[name]
		if !ok {
			t.Errorf("no mock_data \"%s\"", name)
			continue
		}
		for _, a := range d.attrs {
			if a.Name() != "timeouts" && len(a.Children()) > 0 { // an object or a list of objects; timeouts is a block
				checkFilled(t, name, body, a)
			}
		}
	}
}

// checkFilled requires a, and each object or list of objects within it,
// to be given a value in body.
func checkFilled(t *testing.T, dataSource, body string, a tfattr.Attr) {
	t.Helper()
	if !regexp.MustCompile(`\b` + a.Name() + `\s*=`).MatchString(body) {
		t.Errorf("mock_data \"%s\" does not fill %s", dataSource, a.Name())
	}
	for _, c := range a.Children() {
		if len(c.Children()) > 0 {
			checkFilled(t, dataSource, body, c)
		}
	}
}

// useTestsDir makes tests, a directory of test files in the copy of an
// example at dir, the one terraform test runs: terraform-exec's Test drops
// its TestsDirectory option (v0.25.1), so the files are put where
// terraform test looks by default.
func useTestsDir(t *testing.T, dir, tests string) {
	t.Helper()
	if tests == "tests" {
		return
	}
	if err := os.RemoveAll(filepath.Join(dir, "tests")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, tests), filepath.Join(dir, "tests")); err != nil {
		t.Fatal(err)
	}
}
