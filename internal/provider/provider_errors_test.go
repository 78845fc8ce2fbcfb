package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// Tests that set environment variables cannot run in parallel.

func TestAccProvider_configFromEnvironment(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 21, Memberships: 3})
	t.Setenv(envBaseURL, url)
	t.Setenv(envAccessToken, sandbox.DefaultToken)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {}
data "joinit_memberships" "all" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(3)),
			},
		}},
	})
}

func TestAccProvider_missingToken(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 22})
	t.Setenv(envAccessToken, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url = "` + url + `"
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(`(?s)Missing access token.*access_token.*JOINIT_ACCESS_TOKEN`),
		}},
	})
}

func TestAccProvider_missingBaseURL(t *testing.T) {
	t.Setenv(envBaseURL, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  access_token = "x"
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(`(?s)Missing base URL.*JOINIT_BASE_URL`),
		}},
	})
}

func TestAccProvider_refusedToken(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 23, Memberships: 5})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url     = "` + url + `"
  access_token = "not-the-token"
}
data "joinit_memberships" "m" {}
`,
			ExpectError: regexp.MustCompile(`(?s)memberships page 1.*HTTP\s+401.*token\s+was\s+refused`),
		}},
	})
}

func TestAccProvider_insecureBaseURL(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url     = "http://api.example.com"
  access_token = "x"
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(`(?s)Invalid base_url.*only\s+https\s+is\s+allowed`),
		}},
	})
}

// Each invalid setting is refused with its own message; one step each, so
// that no message can stand in for another's.
func TestAccProvider_invalidSettings(t *testing.T) {
	step := func(setting, want string) resource.TestStep {
		return resource.TestStep{
			Config: `
provider "joinit" {
  base_url     = "https://api.example.com"
  access_token = "x"
  ` + setting + `
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(want),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			step(`request_timeout = "soon"`, `(?s)Invalid request_timeout.*invalid\s+duration\s+"soon"`),
			step(`request_timeout = "60"`, `(?s)Invalid request_timeout.*"60"\s+has\s+no\s+unit:\s+use\s+a\s+unit,\s+such\s+as\s+"60s"`),
			step(`max_retry_wait = "90"`, `(?s)Invalid max_retry_wait.*"90"\s+has\s+no\s+unit:\s+use\s+a\s+unit,\s+such\s+as\s+"60s"`),
			step(`max_concurrent_requests = 17`, `(?s)max_concurrent_requests.*between\s+1\s+and\s+16,\s+got:\s+17`),
			step(`endpoint_paths = { groups = "groups?x=1" }`, `(?s)Invalid endpoint_paths.groups.*the\s+groups\s+endpoint\s+path\s+"groups\?x=1"\s+must\s+start\s+with\s+/`),
			// The rule the client applies, at validation: a URL is refused there too.
			step(`endpoint_paths = { payments = "/https://evil.example/payments" }`, `(?s)Invalid endpoint_paths.payments.*must\s+be\s+a\s+path,\s+not\s+a\s+URL`),
		},
	})
}

func TestAccProvider_garbageFromAPI(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 24, Memberships: 1500, Faults: sandbox.Faults{NonJSONPage: 2}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "m" {}`,
			ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_memberships.*memberships page 2.*not\s+JSON`),
		}},
	})
}

func TestAccProvider_apiNeverAdvances(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 25, Memberships: 2500, Faults: sandbox.Faults{IgnorePage: true}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "m" {}`,
			ExpectError: regexp.MustCompile(`(?s)memberships page 2.*identical\s+to\s+page\s+1.*not\s+advancing`),
		}},
	})
}

func TestAccProvider_endpointPathOverride(t *testing.T) {
	paths := sandbox.Paths{Groups: "/v2/teams"}
	_, url := startSandbox(t, sandbox.Options{Seed: 26, Groups: 4, PathPrefix: "/proxy", Paths: paths})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url     = "` + url + `"
  access_token = "` + sandbox.DefaultToken + `"
  endpoint_paths = {
    groups = "/v2/teams"
  }
}
data "joinit_groups" "g" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_groups.g", tfjsonpath.New("groups"), knownvalue.ListSizeExact(4)),
			},
		}},
	})
}

// A token that is unknown at plan time (from a resource not created yet)
// must not crash the provider: the data source says why it cannot read.
func TestAccProvider_unknownTokenAtPlan(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 27, Memberships: 2})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "token" {
  input = "` + sandbox.DefaultToken + `"
}
provider "joinit" {
  base_url     = "` + url + `"
  access_token = terraform_data.token.output
}
data "joinit_memberships" "m" {}
`,
			ExpectError: regexp.MustCompile(`(?s)not\s+known\s+until\s+apply`),
		}},
	})
}
