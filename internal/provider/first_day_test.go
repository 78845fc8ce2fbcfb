package provider

import (
	"context"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A fraction in a whole-number argument or setting gets the provider's
// message, naming the attribute, never the framework's "an error in the
// provider ... Value 2.5 is not an integer".
func TestAccFirstDay_fractionsInWholeNumbers(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 28, Memberships: 3})
	withSetting := func(setting string) string {
		return strings.Replace(providerBlock(url), "provider \"joinit\" {", "provider \"joinit\" {\n  "+setting, 1)
	}
	steps := []resource.TestStep{}
	for _, tc := range []struct{ config, want string }{
		{providerBlock(url) + `data "joinit_memberships" "m" { page_size = 2.5 }`, `page_size is 2.5, not a whole number: write it without a fraction, such as 2`},
		{providerBlock(url) + `data "joinit_memberships" "m" { status = 100.5 }`, `status = "100.5" is neither a status name nor a whole-number code`},
		{withSetting(`max_concurrent_requests = 2.5`) + `data "joinit_groups" "g" {}`, `max_concurrent_requests is 2.5, not a whole number`},
		{withSetting(`max_retries = 1.5`) + `data "joinit_groups" "g" {}`, `max_retries is 1.5, not a whole number`},
		{providerBlock(url) + `data "joinit_groups" "g" { page_size = 1e30 }`, `page_size is 1e\+30, too large: it must be between 1 and 1000`},
	} {
		steps = append(steps, resource.TestStep{Config: tc.config, ExpectError: regexp.MustCompile(`(?s)` + regexp.QuoteMeta("Invalid ") + `.*` + tc.want)})
	}
	// And whole numbers are taken as before.
	steps = append(steps, resource.TestStep{
		Config: withSetting(`max_retries = 2`) + `data "joinit_memberships" "m" {
  page_size = 2
  status    = 100
}`,
	})
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: providerFactories, Steps: steps})
}

// A status the API does not document warns once per plan, not once per
// validation Terraform makes ("and one more similar warning elsewhere"),
// and says the read was made; under strict_filters it is one error that
// names the setting and says the read failed, with no warning beside it.
func TestAccFirstDay_unknownStatusSaidOnce(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 28, Memberships: 3})
	for _, tc := range []struct {
		name, args string
		fails      bool
		want       []string
	}{
		{"warning", `status = 10`, false, []string{"Warning: Unknown membership status code", "The read was made with 10 all the same"}},
		{"strict", "status = 10\n  strict_filters = true", true, []string{"Error: Unknown membership status code", "the API returned no membership with status 10",
			"strict_filters is on, so the read failed", "If 10 is a code the API has added, set strict_filters = false on this data source"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    joinit = { source = "joinit-community/joinit" }
  }
}
`+providerBlock(url)+"data \"joinit_memberships\" \"m\" {\n  "+tc.args+"\n}\n")
			tf := newCLITerraform(t, dir, nil) // dev_overrides: no init
			_, err := tf.Plan(context.Background())
			out := strings.Join(strings.Fields(tf.output()), " ")
			if (err != nil) != tc.fails {
				t.Fatalf("plan error %v, want failure %v:\n%s", err, tc.fails, out)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the plan's output lacks %q:\n%s", want, out)
				}
			}
			if n := strings.Count(out, "Unknown membership status code"); n != 1 || strings.Contains(out, "similar warning") {
				t.Errorf("said %d times (or folded as similar), want once:\n%s", n, out)
			}
			if tc.fails && strings.Contains(out, "all the same") {
				t.Errorf("the strict error says the read was made:\n%s", out)
			}
			if strings.Contains(out, "membership type") {
				t.Errorf("a status is given the advice of a membership type filter:\n%s", out)
			}
		})
	}
}

// A base URL without its scheme (JOINIT_BASE_URL=127.0.0.1:8080) is told
// it must be absolute, like api.example.com is, not url.Parse's "first
// path segment in URL cannot contain colon".
func TestAccFirstDay_baseURLWithoutScheme(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envBaseURL: "127.0.0.1:8080", envAccessToken: sandbox.DefaultToken}),
		Steps: []resource.TestStep{{
			Config:      `data "joinit_groups" "g" {}`,
			ExpectError: regexp.MustCompile(`(?s)Invalid base URL.*JOINIT_BASE_URL:\s+the\s+base\s+URL\s+must\s+be\s+absolute,\s+like\s+https://api.example.com:\s+it\s+has\s+no\s+scheme`),
		}},
	})
}

// A sandbox served over TLS with a certificate of its own, as an API
// behind a private CA or a TLS-intercepting proxy is: refused, naming
// ca_cert_file, until ca_cert_file (or JOINIT_CA_CERT_FILE) names a PEM
// file of its authority; a file that holds no certificate is refused.
func TestAccFirstDay_caCertFile(t *testing.T) {
	sb := sandbox.New(sandbox.Options{Seed: 28, Groups: 3})
	srv := httptest.NewTLSServer(sb)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	writeFile(t, caFile, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	notPEM := filepath.Join(dir, "not.pem")
	writeFile(t, notPEM, "hello")
	block := func(extra string) string {
		return fmt.Sprintf("provider \"joinit\" {\n  base_url = %q\n  access_token = %q\n  max_retries = 0\n  %s\n}\ndata \"joinit_groups\" \"g\" {}\n", srv.URL, sandbox.DefaultToken, extra)
	}
	groups := []statecheck.StateCheck{statecheck.ExpectKnownValue("data.joinit_groups.g", tfjsonpath.New("groups"), knownvalue.ListSizeExact(3))}
	unset, fromEnv := factoriesWithEnv(nil), factoriesWithEnv(testEnv{envCACertFile: caFile})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: unset, Config: block(""),
				ExpectError: regexp.MustCompile(`(?s)TLS\s+handshake\s+failed.*trust\s+that\s+authority\s+with\s+ca_cert_file\s+\(or\s+JOINIT_CA_CERT_FILE\)`)},
			{ProtoV6ProviderFactories: unset, Config: block(fmt.Sprintf("ca_cert_file = %q", notPEM)),
				ExpectError: regexp.MustCompile(`(?s)Invalid ca_cert_file.*holds\s+no\s+PEM\s+certificate`)},
			{ProtoV6ProviderFactories: unset, Config: block(fmt.Sprintf("ca_cert_file = %q", caFile)), ConfigStateChecks: groups},
			// The authority from the provider's environment.
			{ProtoV6ProviderFactories: fromEnv, Config: block(""), ConfigStateChecks: groups},
		},
	})
}

// The provider binary says which build it is.
func TestProviderVersionFlag(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(filepath.Join(builtProviderDir(t), "terraform-provider-joinit"), "-version").CombinedOutput()
	if err != nil {
		t.Fatalf("-version: %v: %s", err, out)
	}
	if !strings.HasPrefix(string(out), "terraform-provider-joinit ") || !strings.Contains(string(out), "(go") {
		t.Fatalf("-version printed %q", out)
	}
}

// An https base_url answered in plain HTTP fails the plan saying so and
// naming base_url, at once: no retry could make it work.
func TestAccFirstDay_httpsToPlainHTTP(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	base := strings.Replace(srv.URL, "http://", "https://", 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      fmt.Sprintf("provider \"joinit\" {\n  base_url = %q\n  access_token = %q\n}\ndata \"joinit_groups\" \"g\" {}\n", base, sandbox.DefaultToken),
			ExpectError: regexp.MustCompile(`(?s)groups\s+page\s+1:\s+the\s+request\s+failed:.*the\s+server\s+answered\s+in\s+plain\s+HTTP.*check\s+base_url\s+\(or\s+JOINIT_BASE_URL\)`),
		}},
	})
}

// A server that echoes the access token in a record: the plan fails on
// both read paths (the fast path's steps, then the framework's), naming the
// data source, the record's position and the field, and the token reaches
// no state.
func TestAccTokenInARecordFailsThePlan(t *testing.T) {
	url := fixtureAPI(t, map[string][]string{"memberships": {`{"_id":"m-1"}`, `{"_id":"m-2","display_name":"` + sandbox.DefaultToken + `"}`}})
	var steps []resource.TestStep
	for _, factories := range []map[string]func() (tfprotov6.ProviderServer, error){providerFactories, frameworkFactories} {
		steps = append(steps,
			resource.TestStep{
				ProtoV6ProviderFactories: factories,
				Config:                   providerBlock(url) + `data "joinit_memberships" "all" {}`,
				ExpectError:              wordsMatch("Failed to read joinit_memberships", "memberships: record 2 holds the access token in its display_name"),
			},
			resource.TestStep{
				ProtoV6ProviderFactories: factories,
				Config:                   providerBlock(url) + `data "joinit_membership" "m" { id = "m-1" }`,
				ExpectError:              wordsMatch("Failed to read joinit_membership", "record 2 holds the access token in its display_name"),
			})
	}
	resource.ParallelTest(t, resource.TestCase{Steps: steps})
}
