package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A bad timeouts.read is refused at validation; a read past it fails and
// names the timeout; a read within it echoes the block into state; without
// the block it is null. The slow API's answers wait an hour (they waited
// 3 s, 2 s past the timeout of 1 s): only the timeout can end that read.
func TestAccTimeouts_read(t *testing.T) {
	_, slow := sandbox.StartForTest(t, sandbox.Options{Seed: 81, Groups: 3, Faults: sandbox.Faults{Latency: time.Hour}})
	_, fast := sandbox.StartForTest(t, sandbox.Options{Seed: 81, Groups: 3})
	resource.ParallelTest(t, resource.TestCase{
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
				// The same rule and message as request_timeout and max_retry_wait.
				ExpectError: regexp.MustCompile(`(?s)Invalid timeouts.read.*"soon"\s+is\s+not\s+a\s+duration:\s+write\s+a\s+positive\s+number\s+with\s+a\s+unit,\s+such\s+as\s+"30s"`),
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
