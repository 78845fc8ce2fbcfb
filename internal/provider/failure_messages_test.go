package provider

import (
	"net"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A base_url where nothing listens: the diagnostic says how many attempts
// were made over how long, the last error, and which setting to check.
func TestAccProvider_nothingListensAtBaseURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url     = "` + url + `"
  access_token = "` + sandbox.DefaultToken + `"
  max_retries  = 1
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(`(?s)groups\s+page\s+1:\s+the\s+request\s+failed\s+after\s+2\s+attempts\s+over\s+\S+;\s+the\s+last\s+error:.*connection\s+refused.*check\s+base_url\s+\(or\s+JOINIT_BASE_URL\),\s+now\s+` + regexp.QuoteMeta(url)),
		}},
	})
}

// A 404 shows the URL asked for and names the endpoint_paths attribute.
func TestAccProvider_notFoundNamesEndpointPath(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 27, Payments: 3})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  base_url       = "` + url + `"
  access_token   = "` + sandbox.DefaultToken + `"
  endpoint_paths = { payments = "/api/v1/wrong/payments" }
}
data "joinit_payments" "p" {}
`,
			ExpectError: regexp.MustCompile(`(?s)HTTP\s+404\s+for\s+` + regexp.QuoteMeta(url) + `/api/v1/wrong/payments\?count=\d+&page=1.*endpoint_paths\.payments`),
		}},
	})
}
