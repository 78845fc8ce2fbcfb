package provider

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The provider's settings from its environment variables: the
// provider's own environment (testEnv), so that the test runs beside the
// others; TestProviderReadsTheProcessEnvironment holds that the released
// provider's environment is the process's.
func TestAccProvider_configFromEnvironment(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 21, Memberships: 3})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envBaseURL: url, envAccessToken: sandbox.DefaultToken}),
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

// The released provider reads its settings' variables from the process's
// environment: configured with an empty block, it reads the API that
// JOINIT_BASE_URL names with JOINIT_ACCESS_TOKEN's token, and the guard
// of JOINIT_ORGANIZATION_ID stops it. The other tests give their providers
// an environment of their own (testEnv); the CLI tests' built provider
// reads the process's too. Not parallel: it sets the process's environment.
func TestProviderReadsTheProcessEnvironment(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 21, Memberships: 3})
	t.Setenv(envBaseURL, url)
	t.Setenv(envAccessToken, sandbox.DefaultToken)
	for _, org := range []string{"", "org-from-env"} {
		if org != "" {
			t.Setenv(envOrganization, org)
		}
		s := NewServer(context.Background(), "test")()
		conf, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, nil)})
		if err != nil || len(conf.Diagnostics) > 0 {
			t.Fatalf("configure from the environment: %v %v", err, conf.Diagnostics)
		}
		resp, err := s.ReadDataSource(context.Background(), readRequest(t, membershipsDef, false))
		if err != nil {
			t.Fatal(err)
		}
		if org == "" {
			if resp.State == nil || len(resp.Diagnostics) > 0 || len(stateIDs(t, resp.State)) != 3 {
				t.Errorf("read with the environment's base URL and token: %v, want the sandbox's 3 memberships", resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, `not to "org-from-env"`) {
			t.Errorf("read under the environment's organization id: %v, want the guard to refuse the sandbox's records", resp.Diagnostics)
		}
	}
}

// No token in the block, and JOINIT_ACCESS_TOKEN unset: the provider's
// environment holds no variable.
func TestAccProvider_missingToken(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 22})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(nil),
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

// A token variable that is set but empty (a CI secret never defined) says
// so, rather than that the token is missing.
func TestAccProvider_emptyTokenVariable(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 22})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envAccessToken: ""}),
		Steps: []resource.TestStep{{
			Config:      `provider "joinit" { base_url = "` + url + `" }` + "\n" + `data "joinit_groups" "g" {}`,
			ExpectError: regexp.MustCompile(`(?s)Missing access token.*JOINIT_ACCESS_TOKEN\s+environment\s+variable\s+is\s+set,\s+but\s+empty.*give\s+it\s+a\s+value,\s+or\s+set\s+access_token`),
		}},
	})
}

// A token or an organization id with white space or a control character
// (a CI secret stored with a trailing newline) is refused, naming where it
// came from; the organization id is shown quoted, so the newline shows,
// and the token never is. A step each, each with its provider's
// environment, in one run of Terraform.
func TestAccProvider_valuesWithWhiteSpace(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 22})
	var steps []resource.TestStep
	const org = "5ddf0e00da4dd10500000000"
	for _, tc := range []struct{ env, value, config, want string }{
		// The organization id from the environment.
		{envOrganization, org + "\n", providerBlock(url),
			`(?s)Invalid organization_id.*the\s+JOINIT_ORGANIZATION_ID\s+environment\s+variable\s+\("` + org + `\\n"\)\s+contains\s+a\s+newline:\s+a\s+trailing\s+newline`},
		// The organization id attribute.
		{"", "", strings.Replace(providerBlock(url), "provider \"joinit\" {", "provider \"joinit\" {\n  organization_id = \""+org+"\\t\"", 1),
			`(?s)Invalid organization_id.*organization_id\s+\("` + org + `\\t"\)\s+has\s+white\s+space\s+around\s+it`},
		// The token from the environment.
		{envAccessToken, sandbox.DefaultToken + "\r\n", `provider "joinit" { base_url = "` + url + `" }`,
			`(?s)Invalid access_token.*the\s+JOINIT_ACCESS_TOKEN\s+environment\s+variable\s+contains\s+a\s+newline`},
	} {
		env := testEnv{}
		if tc.env != "" {
			env[tc.env] = tc.value
		}
		steps = append(steps, resource.TestStep{
			ProtoV6ProviderFactories: factoriesWithEnv(env),
			Config:                   tc.config + "\n" + `data "joinit_groups" "g" {}`,
			ExpectError:              regexp.MustCompile(tc.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{Steps: steps})
}

// JOINIT_BASE_URL set but empty (a CI secret never defined) is refused:
// the default host is not what that user chose.
func TestAccProvider_emptyBaseURLEnvironment(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envBaseURL: ""}),
		Steps: []resource.TestStep{{
			Config: `
provider "joinit" {
  access_token = "x"
}
data "joinit_groups" "g" {}
`,
			ExpectError: regexp.MustCompile(`(?s)Invalid base URL.*JOINIT_BASE_URL.*set,\s+but\s+empty.*unset\s+it\s+to\s+read\s+https://app\.joinitapi\.com`),
		}},
	})
}

// With no base_url and no JOINIT_BASE_URL, a read asks the service's host,
// app.joinitapi.com: shown offline through an HTTPS proxy on loopback that
// records the CONNECT and refuses it. The read runs in a process of its
// own, since net/http reads the proxy variables once a process.
func TestReadWithoutBaseURLAsksTheService(t *testing.T) {
	t.Parallel()
	if os.Getenv("JOINIT_TEST_DEFAULT_HOST") == "1" {
		readGroupsWithoutBaseURL(t)
		return
	}
	proxy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	asked := make(chan string, 16)
	go func() {
		for {
			conn, err := proxy.Accept()
			if err != nil {
				return
			}
			if req, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
				asked <- req.Method + " " + req.Host
			}
			_, _ = conn.Write([]byte("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"))
			conn.Close()
		}
	}()
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !strings.Contains(strings.ToUpper(name), "PROXY") && name != envBaseURL {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadWithoutBaseURLAsksTheService$", "-test.count=1", "-test.v")
	cmd.Env = append(env, "JOINIT_TEST_DEFAULT_HOST=1", "HTTPS_PROXY=http://"+proxy.Addr().String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the read's process: %v\n%s", err, out)
	}
	select {
	case got := <-asked:
		if got != "CONNECT app.joinitapi.com:443" {
			t.Fatalf("the proxy was asked %q, want CONNECT app.joinitapi.com:443\n%s", got, out)
		}
	default:
		t.Fatalf("the proxy was never asked\n%s", out)
	}
}

// readGroupsWithoutBaseURL configures a provider with a token alone and
// reads groups, which fails at the proxy's refusal.
func readGroupsWithoutBaseURL(t *testing.T) {
	s := NewServer(context.Background(), "test")()
	conf, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
		"access_token": tftypes.NewValue(tftypes.String, "tok-0123456789abcdef"),
		"max_retries":  tftypes.NewValue(tftypes.Number, 0),
	})})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
	resp, err := s.ReadDataSource(context.Background(), readRequest(t, groupsDef, false))
	if err != nil || len(resp.Diagnostics) == 0 {
		t.Fatalf("the read passed through a proxy that refuses everything: %v %v", err, resp)
	}
	t.Logf("the read failed as it should: %s", resp.Diagnostics[0].Detail)
}

func TestAccProvider_refusedToken(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 23, Memberships: 5})
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
			ExpectError: regexp.MustCompile(`(?s)Invalid base_url.*http://api.example.com\s+uses\s+http\s+on\s+"api.example.com",\s+which\s+is\s+not\s+a\s+loopback\s+host.*only\s+https\s+is\s+allowed`),
		}},
	})
}

// A base URL of http on a typo of localhost (issue 74) is refused naming
// the host, not the scheme, with the name it is near: in base_url and in
// JOINIT_BASE_URL alike.
func TestAccProvider_baseURLTypoOfLocalhost(t *testing.T) {
	t.Parallel()
	const want = `uses\s+http\s+on\s+"%s",\s+which\s+is\s+not\s+a\s+loopback\s+host\s+\(127\.0\.0\.0/8,\s+::1,\s+localhost\):\s+` +
		`only\s+https\s+is\s+allowed\s+off\s+loopback,\s+so\s+that\s+the\s+token\s+never\s+crosses\s+a\s+network\s+in\s+clear\s+text\.\s+Did\s+you\s+mean\s+"localhost"\?`
	t.Run("base_url", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: providerFactories,
			Steps: []resource.TestStep{{
				Config: `
provider "joinit" {
  base_url     = "http://locahost:8080"
  access_token = "` + sandbox.DefaultToken + `"
}
data "joinit_groups" "g" {}
`,
				ExpectError: regexp.MustCompile(`(?s)Invalid base_url.*http://locahost:8080\s+` + fmt.Sprintf(want, "locahost")),
			}},
		})
	})
	t.Run("JOINIT_BASE_URL", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envBaseURL: "http://lcoalhost:8080", envAccessToken: sandbox.DefaultToken}),
			Steps: []resource.TestStep{{
				Config:      `data "joinit_groups" "g" {}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid base URL.*JOINIT_BASE_URL:\s+the\s+base\s+URL\s+http://lcoalhost:8080\s+` + fmt.Sprintf(want, "lcoalhost")),
			}},
		})
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
			// One duration rule, one message: the value quoted, and examples.
			step(`request_timeout = "soon"`, `(?s)Invalid request_timeout.*"soon"\s+is\s+not\s+a\s+duration:\s+write\s+a\s+positive\s+number\s+with\s+a\s+unit,\s+such\s+as\s+"30s"`),
			step(`request_timeout = "60"`, `(?s)Invalid request_timeout.*"60"\s+is\s+not\s+a\s+duration:\s+write\s+a\s+positive\s+number\s+with\s+a\s+unit,\s+such\s+as\s+"30s"`),
			step(`max_retry_wait = "5 minutes"`, `(?s)Invalid max_retry_wait.*"5 minutes"\s+is\s+not\s+a\s+duration:\s+write\s+a\s+positive\s+number\s+with\s+a\s+unit,\s+such\s+as\s+"30s"`),
			step(`max_retry_wait = " 90s"`, `(?s)Invalid max_retry_wait.*" 90s"\s+is\s+not\s+a\s+duration`),
			step(`max_concurrent_requests = 17`, `(?s)max_concurrent_requests.*between\s+1\s+and\s+16,\s+got:\s+17`),
			step(`endpoint_paths = { groups = "groups?x=1" }`, `(?s)Invalid endpoint_paths.groups.*the\s+groups\s+endpoint\s+path\s+"groups\?x=1"\s+must\s+start\s+with\s+/`),
			// A key that names no endpoint is refused, not dropped (an object
			// type would drop it before the provider saw it).
			step(`endpoint_paths = { group = "/x" }`, `(?s)Invalid endpoint_paths key.*endpoint_paths\s+has\s+no\s+endpoint\s+"group":\s+the\s+endpoints\s+are\s+"memberships",\s+"payments",\s+"groups",\s+"org_metrics"\s+and\s+"membership_types".\s+Did\s+you\s+mean\s+"groups"\?`),
			// The rule the client applies, at validation: a URL is refused there too.
			step(`endpoint_paths = { payments = "/https://evil.example/payments" }`, `(?s)Invalid endpoint_paths.payments.*must\s+be\s+a\s+path,\s+not\s+a\s+URL`),
		},
	})
}

func TestAccProvider_garbageFromAPI(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 24, Memberships: 1500, Faults: sandbox.Faults{NonJSONPage: 2}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "m" {}`,
			ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_memberships.*memberships page 2.*is\s+a\s+web\s+page\s+\(text/html\),\s+not\s+the\s+API's\s+JSON.*check\s+that\s+base_url.*names\s+the\s+API`),
		}},
	})
}

func TestAccProvider_apiNeverAdvances(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 25, Memberships: 2500, Faults: sandbox.Faults{IgnorePage: true}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "m" {}`,
			ExpectError: regexp.MustCompile(`(?s)memberships page 2.*identical\s+to\s+page\s+1.*not\s+advancing`),
		}},
	})
}

func TestAccProvider_endpointPathOverride(t *testing.T) {
	paths := sandbox.Paths{apispec.EndpointGroups: "/v2/teams"}
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 26, Groups: 4, PathPrefix: "/proxy", Paths: paths})
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
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 27, Memberships: 2})
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

// guardedConfig reads every registered data source, in each of its
// coverageVariants (the lean and masked reads among them), under the
// organization guard.
func guardedConfig(url, org string) string {
	config := `
provider "joinit" {
  base_url        = "` + url + `"
  access_token    = "` + sandbox.DefaultToken + `"
  organization_id = "` + org + `"
}
`
	for _, d := range registeredTests() {
		for name, args := range coverageVariants(d) {
			config += variantBlock(d.def, variantLabel(name), args, "")
		}
	}
	return config
}

func TestAccProvider_organizationGuardPasses(t *testing.T) {
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 41, Memberships: 20, Payments: 5, Groups: 3, OrgMetrics: 4})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: guardedConfig(url, s.OrganizationID()),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.fields", tfjsonpath.New("ids"), knownvalue.ListSizeExact(20)),
				statecheck.ExpectKnownValue("data.joinit_groups.defaults", tfjsonpath.New("groups"), knownvalue.ListSizeExact(3)),
			},
		}},
	})
}

func TestAccProvider_organizationGuardStopsAnotherOrganization(t *testing.T) {
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 42, Memberships: 20, Payments: 5, Groups: 3, OrgMetrics: 4})
	actual := regexp.QuoteMeta(s.OrganizationID())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      guardedConfig(url, "org-production"),
			ExpectError: regexp.MustCompile(`(?s)belongs to organization\s+"` + actual + `",\s+not to\s+"org-production".*may\s+belong\s+to\s+another\s+organization`),
		}},
	})
}

func TestAccProvider_organizationFromEnvironment(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 43, Memberships: 4})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envOrganization: "org-from-env"}),
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "all" {}`,
			ExpectError: regexp.MustCompile(`(?s)not to\s+"org-from-env"`),
		}},
	})
}

// An empty or blank JOINIT_ORGANIZATION_ID (a CI variable never defined)
// is an error naming the variable, the value quoted: the guard is never
// turned off without a word. So is a blank organization_id.
func TestAccProvider_blankOrganizationIsAnError(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 44, Memberships: 4})
	var steps []resource.TestStep
	for _, blank := range []string{"", " "} {
		steps = append(steps, resource.TestStep{
			ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envOrganization: blank}),
			Config:                   providerBlock(url) + `data "joinit_memberships" "all" {}`,
			ExpectError:              regexp.MustCompile(`(?s)Blank JOINIT_ORGANIZATION_ID.*JOINIT_ORGANIZATION_ID\s+environment\s+variable\s+is\s+set\s+to\s+` + regexp.QuoteMeta(fmt.Sprintf("%q", blank)) + `.*or\s+unset\s+it`),
		})
	}
	// The attribute, beside a variable it overrides.
	steps = append(steps, resource.TestStep{
		ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envOrganization: "ignored-when-the-attribute-is-set"}),
		Config: strings.Replace(providerBlock(url), "provider \"joinit\" {", "provider \"joinit\" {\n  organization_id = \"  \"", 1) +
			`data "joinit_memberships" "all" {}`,
		ExpectError: regexp.MustCompile(`(?s)Blank organization_id.*organization_id\s+is\s+"  "`),
	})
	resource.ParallelTest(t, resource.TestCase{Steps: steps})
}

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
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 27, Payments: 3})
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
			// The URL asked for, without its query: the path is what to fix.
			ExpectError: regexp.MustCompile(`(?s)HTTP\s+404\s+for\s+` + regexp.QuoteMeta(url) + `/api/v1/wrong/payments:.*endpoint_paths\.payments`),
		}},
	})
}

// Twenty data sources of one provider, as a for_each or count makes them,
// read at once against a server that limits the rate: they share the
// provider's one limit on requests in flight and the rate limit, and every
// one comes back whole; none fails with its retries used up. Status and
// page size vary, so that no two of them share a fetch.
//
// The limit is met by design, not by the machine's speed: the server holds
// the first requests until the provider's four places are all in flight,
// then lets them on together at a bucket of one token refilled once a
// second, so at least one is refused unless the four take three seconds to
// be let on. (Twenty requests a second, bursts of twenty, met only a fast
// machine's burst, and cost 10 s in Retry-After pauses.) Once four
// requests have been answered, the limit is lifted.
func TestAccMemberships_twentyDataSourcesUnderOneRateLimit(t *testing.T) {
	const places = 4 // max_concurrent_requests below
	sb := sandbox.New(sandbox.Options{Seed: 28, Memberships: 30, Faults: sandbox.Faults{RateLimit: 1, RateBurst: 1}})
	url, answered := startBurstHeld(t, sb, places, func() { sb.SetFaults(sandbox.Faults{}) })
	statuses := []int{50, 75, 100, 300, 350}
	sizes := []int{20, 21, 22, 23}
	// Each data source's ids and records, counted, against the sandbox's
	// count of that status. (count, not for_each: the testing framework's
	// state shim refuses for_each's string keys; Terraform reads both alike.)
	var want []knownvalue.Check
	for _, st := range statuses {
		n := len(sb.MembershipsJSON(&st))
		if n == 0 {
			t.Fatalf("the sandbox has no memberships of status %d: the test would prove nothing for it", st)
		}
		for range sizes {
			want = append(want, knownvalue.Int64Exact(int64(n)))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			// max_retries = 2: each data source is refused now and then;
			// the refusals must not use up its retries while the others
			// get through. (The client's TestTwentyReadsShareOneRateLimit
			// and TestRateLimitRetriesNotChargedWhileOthersProgress hold
			// the limit on requests in flight and the retry rule themselves.)
			Config: `
provider "joinit" {
  base_url                = "` + url + `"
  access_token            = "` + sandbox.DefaultToken + `"
  max_retries             = 2
  max_concurrent_requests = ` + strconv.Itoa(places) + `
}
locals {
  reads = setproduct([50, 75, 100, 300, 350], [20, 21, 22, 23])
}
data "joinit_memberships" "m" {
  count     = length(local.reads)
  status    = local.reads[count.index][0]
  page_size = local.reads[count.index][1]
}
output "ids" {
  value = [for d in data.joinit_memberships.m : length(d.ids)]
}
output "records" {
  value = [for d in data.joinit_memberships.m : length(d.memberships)]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("ids", knownvalue.ListExact(want)),
				statecheck.ExpectKnownOutputValue("records", knownvalue.ListExact(want)),
			},
		}},
	})
	limited := 0
	for _, r := range sb.RequestLog() {
		if r.Status == 429 {
			limited++
		}
	}
	refused := 0
	for _, status := range answered()[:places] {
		if status == http.StatusTooManyRequests {
			refused++
		}
	}
	t.Logf("%d requests, %d answered 429, %d of the first %d; the most refusals of one request: %d", sb.Requests(""), limited, refused, places, mostRefusals(sb.RequestLog()))
	if refused == 0 {
		t.Fatalf("none of the first %d requests, let on at once at a bucket of one token, met the rate limit", places)
	}
	if limited == 0 {
		t.Fatal("no request met the rate limit: the test proves nothing of sharing it")
	}
}

// startBurstHeld serves sb (its data and answers), holding the first n
// requests until all n have arrived and then letting them on together, and
// calls then once n requests have been answered 200. statuses returns the
// status of each request by arrival, once then has been called.
func startBurstHeld(t *testing.T, sb *sandbox.Server, n int, then func()) (url string, statuses func() []int) {
	t.Helper()
	arrived := make(chan struct{})
	var mu sync.Mutex
	var answers []int // by arrival
	ok := 0
	switched := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := len(answers)
		answers = append(answers, 0)
		if i == n-1 {
			close(arrived)
		}
		mu.Unlock()
		if i < n {
			select {
			case <-arrived:
			case <-r.Context().Done():
			}
		}
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		mu.Lock()
		defer mu.Unlock()
		answers[i] = rec.Code
		if rec.Code == http.StatusOK {
			if ok++; ok == n {
				then()
				close(switched)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []int {
		select {
		case <-switched:
		case <-time.After(hangLimit):
			t.Fatalf("%d requests were not answered 200 within %s", n, hangLimit)
		}
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(answers)
	}
}

// mostRefusals is the most 429s one request (its endpoint and query) met.
func mostRefusals(log []sandbox.RequestRecord) int {
	refusals, most := map[string]int{}, 0
	for _, r := range log {
		if r.Status == http.StatusTooManyRequests {
			key := r.Endpoint + "?" + r.Query.Encode()
			refusals[key]++
			most = max(most, refusals[key])
		}
	}
	return most
}
