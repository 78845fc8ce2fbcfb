package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// runCounting applies config against a fresh sandbox and returns how many
// memberships requests reached it.
func runCounting(t *testing.T, config string, checks ...statecheck.StateCheck) int {
	t.Helper()
	sb, url := startSandbox(t, sandbox.Options{Seed: 41, Memberships: 2500})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			// One request at a time: no speculative pages, so counts are exact.
			Config: fmt.Sprintf(`
provider "joinit" {
  base_url                = %q
  access_token            = %q
  max_concurrent_requests = 1
}
`, url, sandbox.DefaultToken) + config,
			ConfigStateChecks: checks,
		}},
	})
	return sb.Requests("memberships")
}

// Two data sources asking the same question in one run cost what one does:
// the client's in-run cache fetches the pages once.
func TestAccCache_identicalDataSourcesFetchOnce(t *testing.T) {
	t.Parallel()
	one := runCounting(t, `
data "joinit_memberships" "a" {}
`)
	two := runCounting(t, `
data "joinit_memberships" "a" {}
data "joinit_memberships" "b" {}
`, statecheck.ExpectKnownValue("data.joinit_memberships.b", tfjsonpath.New("ids"), knownvalue.ListSizeExact(2500)))
	if two != one {
		t.Errorf("two identical data sources made %d memberships requests, one made %d: the second should be served from the cache", two, one)
	}
	different := runCounting(t, `
data "joinit_memberships" "a" {}
data "joinit_memberships" "b" {
  page_size = 999
}
`)
	if different <= one {
		t.Errorf("a different page size made %d requests in all, one query %d: it must be fetched on its own", different, one)
	}
}
