package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestPastedMistake(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v     string
		token bool
		want  string
	}{
		{"abc", true, ""},
		{"Bearer abc123", true, `starts with "Bearer ": give the token alone`},
		{"bearer abc123", true, `starts with "Bearer "`},
		{"Bearer abc123", false, ""}, // only a token carries a scheme; an id with a space is exactMistake's
		{`"abc123"`, true, "is in quotes"},
		{`'abc123'`, false, "is in quotes"},
		{"abc123\n", false, "contains a newline: a trailing newline"},
		{" ada@example.org ", false, "has white space around it"},
		{"ada lovelace", false, ""},
	} {
		if got := pastedMistake(c.v, c.token); (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("pastedMistake(%q, %v) = %q, want %q…", c.v, c.token, got, c.want)
		}
	}
	if got := exactMistake("abc 123", false); got != "contains white space or control characters: remove them" {
		t.Errorf("exactMistake of an inner space: %q", got)
	}
}

// What a user pasted wrong, each said in its words on real Terraform: the
// quotes of a .env file, a token's scheme, an empty attribute, a newline
// in base_url, spaces around a lookup's e-mail, a zero duration, a nested
// field name. One step each (one run of Terraform for them all), so that
// no message can stand in for another's.
func TestAccMessagesSayWhatWasPasted(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 31, Memberships: 20})
	withToken := func(token string) string {
		return `provider "joinit" {
  base_url     = "` + url + `"
  access_token = ` + token + `
}
data "joinit_groups" "g" {}
`
	}
	steps := []resource.TestStep{
		{Config: withToken(`"Bearer ` + sandbox.DefaultToken + `"`),
			ExpectError: regexp.MustCompile(`(?s)Invalid access_token.*access_token\s+starts\s+with\s+"Bearer\s+":\s+give\s+the\s+token\s+alone`)},
		{Config: withToken(`"\"` + sandbox.DefaultToken + `\""`),
			ExpectError: regexp.MustCompile(`(?s)Invalid access_token.*access_token\s+is\s+in\s+quotes,\s+as\s+a\s+\.env\s+file`)},
		{Config: withToken(`""`),
			ExpectError: regexp.MustCompile(`(?s)Missing access token.*access_token\s+is\s+set\s+in\s+the\s+provider\s+block,\s+but\s+empty`)},
		{Config: strings.Replace(providerBlock(url), `base_url     = "`+url+`"`, `base_url     = "`+url+`\n"`, 1) + `data "joinit_groups" "g" {}`,
			ExpectError: regexp.MustCompile(`(?s)Invalid base_url.*the\s+base\s+URL\s+contains\s+a\s+newline:\s+a\s+trailing\s+newline`)},
		{Config: providerBlock(url) + `data "joinit_membership" "m" { email = "\"ada@example.org\"" }`,
			ExpectError: regexp.MustCompile(`(?s)Invalid email.*email\s+=\s+"\\"ada@example\.org\\""\s+is\s+in\s+quotes`)},
		{Config: strings.Replace(providerBlock(url), "provider \"joinit\" {", "provider \"joinit\" {\n  request_timeout = \"0s\"", 1) + `data "joinit_groups" "g" {}`,
			ExpectError: regexp.MustCompile(`(?s)"0s"\s+is\s+no\s+time\s+at\s+all`)},
		{Config: providerBlock(url) + `data "joinit_memberships" "m" { fields = ["profile.first_name"] }`,
			ExpectError: regexp.MustCompile(`(?s)"profile\.first_name"\s+is\s+inside\s+"profile":\s+fields\s+chooses\s+whole\s+attributes,\s+so\s+choose\s+"profile",\s+and\s+its\s+first_name\s+comes\s+with\s+it`)},
		{Config: providerBlock(url) + `data "joinit_payments" "p" { fields = ["lines.amount"] }`,
			ExpectError: regexp.MustCompile(`(?s)"lines\.amount"\s+is\s+inside\s+"lines"`)},
		// A dot after an attribute that holds nothing is only a wrong name.
		{Config: providerBlock(url) + `data "joinit_memberships" "m" { fields = ["email.domain"] }`,
			ExpectError: regexp.MustCompile(`(?s)"email\.domain"\s+is\s+not\s+an\s+attribute\s+of\s+a\s+membership`)},
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: providerFactories, Steps: steps})
}
