package provider

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The limits a read runs under: its timeout and the size of its result.

// A bad timeouts.read is refused at validation; a read past it fails and
// names the timeout; a read within it echoes the block into state; without
// the block it is null.
func TestAccTimeouts_read(t *testing.T) {
	t.Parallel()
	_, slow := startSandbox(t, sandbox.Options{Seed: 81, Groups: 3, Faults: sandbox.Faults{Latency: 3 * time.Second}})
	_, fast := startSandbox(t, sandbox.Options{Seed: 81, Groups: 3})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(fast) + `
data "joinit_groups" "g" {
  timeouts {
    read = "soon"
  }
}
`,
				ExpectError: regexp.MustCompile(`(?s)data.joinit_groups.g.*read = "soon".*"soon" must be a string containing a sequence of decimal numbers`),
			},
			{
				Config: providerBlock(slow) + `
data "joinit_groups" "g" {
  timeouts {
    read = "1s"
  }
}
`,
				ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_groups.*did not finish within its read\s+timeout of 1s`),
			},
			{
				Config: providerBlock(fast) + `
data "joinit_groups" "g" {
  timeouts {
    read = "5m"
  }
}
data "joinit_groups" "none" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.joinit_groups.g", tfjsonpath.New("timeouts").AtMapKey("read"), knownvalue.StringExact("5m")),
					statecheck.ExpectKnownValue("data.joinit_groups.g", tfjsonpath.New("groups"), knownvalue.ListSizeExact(3)),
					statecheck.ExpectKnownValue("data.joinit_groups.none", tfjsonpath.New("timeouts"), knownvalue.Null()),
				},
			},
		},
	})
}

// withResultLimit serves the provider with a small result ceiling, through
// the provider's own server or the framework's alone.
func withResultLimit(limit int64, frameworkOnly bool) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"joinit": func() (tfprotov6.ProviderServer, error) {
			if frameworkOnly {
				p := newProvider("test")
				p.resultLimit = limit
				return providerserver.NewProtocol6WithError(p)()
			}
			s := NewServer(context.Background(), "test")().(*server) //nolint:forcetypeassert // NewServer builds a *server
			s.provider.resultLimit = limit
			return s, nil
		},
	}
}

// A result over the ceiling fails before it is sent, with its size, the
// limit and what to read instead, on both read paths; the lean read of the
// same memberships fits.
func TestAccResultCeiling(t *testing.T) {
	t.Parallel()
	_, url := startSandbox(t, sandbox.Options{Seed: 82, Memberships: 300})
	for _, frameworkOnly := range []bool{false, true} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: withResultLimit(64<<10, frameworkOnly),
			Steps: []resource.TestStep{
				{
					Config: providerBlock(url) + `
data "joinit_memberships" "all" {}
`,
					ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_memberships.*the result is [0-9.]+ MB \(\d+ bytes\) when encoded, over the 0.1 MB\s+\(65536\s+bytes\).*include_records = false`),
				},
				{
					Config: providerBlock(url) + `
data "joinit_memberships" "all" {
  include_records = false
}
`,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(300)),
					},
				},
			},
		})
	}
}
