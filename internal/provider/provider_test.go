package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestMain points terraform-plugin-testing at the terraform on PATH, so an
// acceptance test never downloads Terraform.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		if p, err := exec.LookPath("terraform"); err == nil {
			os.Setenv("TF_ACC_TERRAFORM_PATH", p)
		}
	}
	useOpenTofuRegistryHost()
	// The provider's environment variables of whoever runs the tests would
	// reach every test that leaves the setting out (an organization_id would
	// refuse the sandbox's records); tests that need one set their own.
	for _, env := range []string{envAccessToken, envBaseURL, envOrganization} {
		os.Unsetenv(env)
	}
	// An empty CLI configuration keeps the machine's own out of the tests.
	var cliConfig string
	if os.Getenv("TF_CLI_CONFIG_FILE") == "" {
		if f, err := os.CreateTemp("", "joinit-test-*.tfrc"); err == nil {
			f.Close()
			cliConfig = f.Name()
			os.Setenv("TF_CLI_CONFIG_FILE", cliConfig)
		}
	}
	code := m.Run()
	removeBuiltProvider()
	if cliConfig != "" {
		os.Remove(cliConfig)
	}
	os.Exit(code)
}

// useOpenTofuRegistryHost: OpenTofu resolves the tests' provider "joinit"
// to registry.opentofu.org, so the in-process provider must be attached
// under that host (TF_ACC_PROVIDER_HOST) for OpenTofu to find it.
func useOpenTofuRegistryHost() {
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || bin == "" || os.Getenv("TF_ACC_PROVIDER_HOST") != "" {
		return
	}
	if out, err := exec.Command(bin, "version").Output(); err == nil && strings.HasPrefix(string(out), "OpenTofu") {
		os.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
	}
}

// providerFactories serve the provider in process, through the same
// server as the released binary (testServer).
var providerFactories = factoriesWithEnv(nil)

// factoriesWithEnv serve the provider in process, its settings'
// environment env: a test of the environment variables gives its provider
// an environment of its own instead of setting the process's
// (t.Setenv), and so runs in parallel with the others.
func factoriesWithEnv(env testEnv) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"joinit": func() (tfprotov6.ProviderServer, error) { return testServer(context.Background(), env), nil },
	}
}

// testEnv is the environment a test's provider reads its settings'
// variables from (JOINIT_BASE_URL, ...) in place of the process's; a
// variable it lacks is unset, and nil is an environment without any.
type testEnv map[string]string

func (e testEnv) lookup(name string) (string, bool) {
	v, ok := e[name]
	return v, ok
}

// testProvider is the provider as this package's tests serve it: the
// environment of its settings is env, never the process's, and its client
// waits milliseconds between retries (withTestRetryWaits). Whatever else
// it does is the provider's own. TestProviderReadsTheProcessEnvironment
// holds what the released provider reads instead: the process's.
func testProvider(env testEnv) *joinitProvider {
	p := newProvider("test")
	p.lookupEnv = env.lookup
	p.tuneClient = func(c *client.Config) { *c = withTestRetryWaits(*c) }
	return p
}

// testServer is NewServer's server (the fast path), of testProvider(env).
func testServer(interrupt context.Context, env testEnv) *server {
	s := NewServer(interrupt, "test")().(*server)
	t := testProvider(env)
	s.provider.lookupEnv, s.provider.tuneClient = t.lookupEnv, t.tuneClient
	return s
}

// testFrameworkServer is the framework's own server of testProvider(nil),
// without the fast path.
func testFrameworkServer() tfprotov6.ProviderServer {
	return providerserver.NewProtocol6(testProvider(nil))()
}

// hangLimit is how long a test waits for what must come before calling it
// a hang: a limit on hangs, never a claim about speed (testutil.Eventually's).
const hangLimit = time.Minute

// testClient is how this package's tests build a client: with the retry
// waits of milliseconds the client package's own tests use (its
// newClient), so that a test whose read meets a retry does not sit out the
// production backoff (half a second, doubling). A wait cfg sets wins.
func testClient(t testing.TB, cfg client.Config) *client.Client {
	t.Helper()
	c, err := client.New(withTestRetryWaits(cfg))
	if err != nil {
		t.Fatalf("client.New: %v", err)
	}
	return c
}

// withTestRetryWaits shortens the backoff between retries to 1 to 10 ms,
// unless cfg sets its own. A wait the server names (Retry-After) is still
// waited, and max_retry_wait still bounds it.
func withTestRetryWaits(cfg client.Config) client.Config {
	if cfg.RetryWaitMin == 0 {
		cfg.RetryWaitMin = time.Millisecond
	}
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMax = 10 * time.Millisecond
	}
	return cfg
}

// providerBlock configures the provider for a sandbox.
func providerBlock(url string) string {
	return fmt.Sprintf(`
provider "joinit" {
  base_url     = %q
  access_token = %q
}
`, url, sandbox.DefaultToken)
}

// emptyConfig is a data source configuration with every argument null.
func emptyConfig(def *dataSourceDef) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for name, typ := range def.stateType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	return tftypes.NewValue(def.stateType, vals)
}

// Each call of a test factory must be a provider of its own: acceptance
// tests run in parallel, and a provider shared by two of them would read
// from whichever API was configured last. Two providers of one factory are
// configured for two APIs serving different records, then the first
// reads: it must see its own API's records.
func TestEachFactoryCallIsAProviderOfItsOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, factories := range map[string]map[string]func() (tfprotov6.ProviderServer, error){
		"fast path": providerFactories, "framework": frameworkFactories,
	} {
		first, second := mustServe(t, factories), mustServe(t, factories)
		sbA, urlA := sandbox.StartForTest(t, sandbox.Options{Seed: 101, Memberships: 3})
		_, urlB := sandbox.StartForTest(t, sandbox.Options{Seed: 202, Memberships: 5})
		configureFor(t, first, urlA)
		configureFor(t, second, urlB)
		resp, err := first.ReadDataSource(ctx, readRequest(t, membershipsDef, false))
		if err != nil || resp.State == nil {
			t.Fatalf("%s: read: %v %v", name, err, resp.Diagnostics)
		}
		if got, want := stateIDs(t, resp.State), sandboxIDs(t, sbA); !slices.Equal(got, want) {
			t.Errorf("%s: the first provider read %v, want its own API's %v: providers share a client", name, got, want)
		}
	}
}

func mustServe(t *testing.T, factories map[string]func() (tfprotov6.ProviderServer, error)) tfprotov6.ProviderServer {
	t.Helper()
	s, err := factories["joinit"]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func configureFor(t *testing.T, s tfprotov6.ProviderServer, url string) {
	t.Helper()
	ctx := context.Background()
	// The framework serves a data source only after GetProviderSchema.
	if _, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
		"base_url":     tftypes.NewValue(tftypes.String, url),
		"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
	})})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
}

// stateIDs are the ids of a joinit_memberships state.
func stateIDs(t *testing.T, state *tfprotov6.DynamicValue) []string {
	t.Helper()
	v, err := state.Unmarshal(membershipsDef.stateType)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	var ids []tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if err := attrs["ids"].As(&ids); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		if err := id.As(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sandboxIDs are the ids of a sandbox's memberships, in order.
func sandboxIDs(t *testing.T, s *sandbox.Server) []string {
	t.Helper()
	var out []string
	for _, raw := range s.MembershipsJSON(nil) {
		var rec struct {
			ID string `json:"_id"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec.ID)
	}
	return out
}

// runCounting applies config against a fresh sandbox of 23 memberships and
// returns how many memberships requests reached it. The configurations ask
// for 5 a page: several pages, few records, so the test is quick.
func runCounting(t *testing.T, config string, checks ...statecheck.StateCheck) int {
	t.Helper()
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 41, Memberships: 23})
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
// the client's in-run cache fetches the pages once. The three runs one
// after the other (the test runs beside the others), each against a
// sandbox of its own.
func TestAccCache_identicalDataSourcesFetchOnce(t *testing.T) {
	if !acceptance() {
		// resource.Test skips its runs without TF_ACC, and the counts
		// after them would then be of nothing.
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	runs := map[string]struct {
		config string
		checks []statecheck.StateCheck
	}{
		"one": {config: `
data "joinit_memberships" "a" {
  page_size = 5
}
`},
		"two": {config: `
data "joinit_memberships" "a" {
  page_size = 5
}
data "joinit_memberships" "b" {
  page_size = 5
}
`, checks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.joinit_memberships.b", tfjsonpath.New("ids"), knownvalue.ListSizeExact(23))}},
		"different": {config: `
data "joinit_memberships" "a" {
  page_size = 5
}
data "joinit_memberships" "b" {
  page_size = 4
}
`},
	}
	got := map[string]int{}
	for _, name := range []string{"one", "two", "different"} {
		t.Run(name, func(t *testing.T) {
			got[name] = runCounting(t, runs[name].config, runs[name].checks...)
		})
	}
	if t.Failed() {
		return
	}
	one, two, different := got["one"], got["two"], got["different"]
	if two != one {
		t.Errorf("two identical data sources made %d memberships requests, one made %d: the second should be served from the cache", two, one)
	}
	// 23 records at 4 a page are 6 pages, each fetched at least once.
	if different-one < 6 {
		t.Errorf("a different page size made %d requests in all, one query %d: its 6 pages must be fetched on their own", different, one)
	}
}
