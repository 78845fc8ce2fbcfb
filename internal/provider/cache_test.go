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

// runCounting applies config against a fresh sandbox of 23 memberships and
// returns how many memberships requests reached it. The configurations ask
// for 5 a page: several pages, few records, so the test is quick.
func runCounting(t *testing.T, config string, checks ...statecheck.StateCheck) int {
	t.Helper()
	sb, url := startSandbox(t, sandbox.Options{Seed: 41, Memberships: 23})
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
data "joinit_memberships" "a" {
  page_size = 5
}
`)
	two := runCounting(t, `
data "joinit_memberships" "a" {
  page_size = 5
}
data "joinit_memberships" "b" {
  page_size = 5
}
`, statecheck.ExpectKnownValue("data.joinit_memberships.b", tfjsonpath.New("ids"), knownvalue.ListSizeExact(23)))
	if two != one {
		t.Errorf("two identical data sources made %d memberships requests, one made %d: the second should be served from the cache", two, one)
	}
	different := runCounting(t, `
data "joinit_memberships" "a" {
  page_size = 5
}
data "joinit_memberships" "b" {
  page_size = 4
}
`)
	// 23 records at 4 a page are 6 pages, each fetched at least once.
	if different-one < 6 {
		t.Errorf("a different page size made %d requests in all, one query %d: its 6 pages must be fetched on their own", different, one)
	}
}
