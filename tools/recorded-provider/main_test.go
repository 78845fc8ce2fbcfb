package main

import (
	"strings"
	"testing"
)

// The binary's name picks the schema, as dev_overrides and the registry
// name a provider's binary; any other name fails, listing the names.
func TestProviderNameIsTheBinarys(t *testing.T) {
	t.Parallel()
	for arg0, want := range map[string]string{
		"/x/.tools/recorded-provider/okta/terraform-provider-okta": "okta",
		"terraform-provider-azuread_v3.4.0":                        "azuread",
		"terraform-provider-slack.exe":                             "slack",
		"./terraform-provider-googleworkspace_v0.7.0_x5":           "googleworkspace",
	} {
		if got, err := providerName(arg0); err != nil || got != want {
			t.Errorf("providerName(%q) = %q, %v; want %q", arg0, got, err, want)
		}
	}
	for _, arg0 := range []string{"recorded-provider", "/x/terraform-provider-", "/x/okta"} {
		if _, err := providerName(arg0); err == nil || !strings.Contains(err.Error(), "terraform-provider-NAME") {
			t.Errorf("providerName(%q): %v, want an error saying how to name it", arg0, err)
		}
	}
}
