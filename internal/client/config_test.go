package client

import (
	"context"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestParseBaseURL(t *testing.T) {
	t.Parallel()
	ok := []struct{ in, wantPath string }{
		{"https://api.example.com", ""},
		{"https://api.example.com/", ""},
		{"https://api.example.com/proxy/joinit/", "/proxy/joinit"},
		{"http://127.0.0.1:8080", ""},
		{"http://127.200.3.4", ""},
		{"http://[::1]:9000/x", "/x"},
		{"http://localhost:1234", ""},
		{"http://LOCALHOST", ""},
		{"HTTP://127.0.0.1", ""},
	}
	for _, c := range ok {
		u, err := ParseBaseURL(c.in)
		if err != nil {
			t.Errorf("ParseBaseURL(%q): %v", c.in, err)
			continue
		}
		if u.Path != c.wantPath {
			t.Errorf("ParseBaseURL(%q).Path = %q, want %q", c.in, u.Path, c.wantPath)
		}
	}

	bad := []struct{ in, want string }{
		{"https://app.joinitapi.com\n", "the base URL contains a newline: a trailing newline, as a value read from a file or a CI secret often has? Remove it"},
		{`"https://app.joinitapi.com"`, "the base URL is in quotes, as a .env file or a copied shell line can leave them: remove the quotes"},
		{" https://app.joinitapi.com", "the base URL has white space around it: remove it"},
		{"", "empty"},
		{"   ", "empty"},
		{"api.example.com", "absolute"},
		{"127.0.0.1:8080", "must be absolute, like https://api.example.com"},
		{"localhost:8080/api", "must be absolute, like https://api.example.com"},
		{"/api/v1", "absolute"},
		{"http://api.example.com", "only https"},
		{"http://10.0.0.1:8080", "only https"},
		{"http://0.0.0.0:8080", "only https"},
		{"http://localhost.example.com", "only https"},
		{"http://128.0.0.1", "only https"},
		{"ftp://api.example.com", "use https"},
		{"https://api.example.com/?x=1", "query or fragment"},
		{"https://api.example.com/#frag", "query or fragment"},
		{"https://user:hunter2@api.example.com", "credentials"},
		{"https://api.example.com/%zz", "not a valid URL"},
	}
	for _, c := range bad {
		_, err := ParseBaseURL(c.in)
		if err == nil {
			t.Errorf("ParseBaseURL(%q) succeeded, want an error", c.in)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBaseURL(%q) = %q, want it to mention %q", c.in, err, c.want)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseBaseURL(%q) error repeats the password: %v", c.in, err)
		}
	}
}

// TestPlainHTTPNamesTheHost: http to a host that is not loopback is
// refused naming the host, the mistake when it is a typo of localhost
// (issue 74), with the loopback name it is near; a real remote host is
// told no name; https to any host and http to loopback pass. The path and
// query, which may hold a secret, are never repeated.
func TestPlainHTTPNamesTheHost(t *testing.T) {
	t.Parallel()
	const rule = `: only https is allowed off loopback, so that the token never crosses a network in clear text.`
	for in, want := range map[string]string{
		"http://locahost:8080":    `the base URL http://locahost:8080 uses http on "locahost", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "localhost"?`,
		"http://localhots:8080/x": `the base URL http://localhots:8080 uses http on "localhots", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "localhost"?`,
		"http://lcoalhost:8080":   `the base URL http://lcoalhost:8080 uses http on "lcoalhost", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "localhost"?`,
		"http://LocaHost":         `the base URL http://LocaHost uses http on "LocaHost", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "localhost"?`,
		"http://localhost.:8080":  `the base URL http://localhost.:8080 uses http on "localhost.", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "localhost", without the trailing dot?`,
		"http://127.0.0.l:8080":   `the base URL http://127.0.0.l:8080 uses http on "127.0.0.l", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "127.0.0.1"?`,
		"http://127.0.0.1.:8080":  `the base URL http://127.0.0.1.:8080 uses http on "127.0.0.1.", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule + ` Did you mean "127.0.0.1", without the trailing dot?`,
		// Real hosts: named, no suggestion.
		"http://api.example.com/SEKRET/access_token": `the base URL http://api.example.com uses http on "api.example.com", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule,
		"http://localhost.example.com":               `the base URL http://localhost.example.com uses http on "localhost.example.com", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule,
		"http://128.0.0.1":                           `the base URL http://128.0.0.1 uses http on "128.0.0.1", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule,
		"http://10.0.0.1:8080":                       `the base URL http://10.0.0.1:8080 uses http on "10.0.0.1", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule,
		"http://[fe80::1]:8080":                      `the base URL http://[fe80::1]:8080 uses http on "fe80::1", which is not a loopback host (127.0.0.0/8, ::1, localhost)` + rule,
	} {
		_, err := ParseBaseURL(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseBaseURL(%q):\n got  %v\n want %s", in, err, want)
		}
	}
	for _, in := range []string{"https://locahost:8443", "https://api.example.com", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"} {
		if _, err := ParseBaseURL(in); err != nil {
			t.Errorf("ParseBaseURL(%q): %v", in, err)
		}
	}
	// localhost itself, refused because it resolves off loopback here:
	// no typo to point at, loopback addresses to use instead.
	if got, want := PlainHTTPRefused("localhost", "the token"), `uses http on "localhost", which resolves here to addresses that are not all loopback ones`+rule+` Use 127.0.0.1 or [::1].`; got != want {
		t.Errorf("PlainHTTPRefused(localhost):\n got  %s\n want %s", got, want)
	}
}

func TestIsLoopbackHost(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.255.255.254": true,
		"::1": true, "::ffff:127.0.0.1": true,
		"": false, "0.0.0.0": false, "10.1.2.3": false, "::": false,
		"localhost.": false, "example.com": false, "127.0.0.1.nip.io": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestNewRejectsPlainHTTPToNonLoopback(t *testing.T) {
	t.Parallel()
	c, err := New(Config{BaseURL: "http://api.example.com", Token: testToken})
	if err == nil || c != nil {
		t.Fatalf("New accepted http to a remote host (client %v, err %v)", c, err)
	}
	for _, want := range []string{"https", "loopback"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not explain %q", err, want)
		}
	}
	if strings.Contains(err.Error(), testToken) {
		t.Errorf("error contains the token: %v", err)
	}
}

func TestNewSendsNoRequest(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5})
	if _, err := New(Config{BaseURL: base, Token: sandbox.DefaultToken}); err != nil {
		t.Fatal(err)
	}
	if n := sb.Requests(""); n != 0 {
		t.Fatalf("New sent %d requests, want 0", n)
	}
}

func TestNewRejectsEmptyToken(t *testing.T) {
	t.Parallel()
	_, err := New(Config{BaseURL: "https://api.example.com"})
	if err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("New with no token: err = %v, want an error about the token", err)
	}
}

func TestNewRejectsBadPaths(t *testing.T) {
	t.Parallel()
	cases := []struct {
		paths Paths
		want  string
	}{
		{Paths{apispec.EndpointMemberships: "members"}, "memberships endpoint path"},
		{Paths{apispec.EndpointPayments: "/payments?page=2"}, "payments endpoint path"},
		{Paths{apispec.EndpointGroups: "/groups#x"}, "groups endpoint path"},
		{Paths{apispec.EndpointOrgMetrics: "/https://evil.example.com/m"}, "org_metrics endpoint path"},
	}
	for _, c := range cases {
		_, err := New(Config{BaseURL: "https://api.example.com", Token: testToken, Paths: c.paths})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New with paths %+v: err = %v, want it to mention %q", c.paths, err, c.want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c, err := New(Config{BaseURL: "https://api.example.com", Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if c.cfg.MaxConcurrency != DefaultMaxConcurrency || c.cfg.MaxRetries != DefaultMaxRetries ||
		c.cfg.Timeout != DefaultTimeout || c.cfg.MaxPages != DefaultMaxPages ||
		c.cfg.MaxBodyBytes != DefaultMaxBodyBytes || !maps.Equal(c.cfg.Paths, apispec.DefaultPaths()) {
		t.Fatalf("defaults not applied: %+v", c.cfg)
	}
	c, err = New(Config{BaseURL: "https://api.example.com", Token: testToken, MaxRetries: NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	if c.cfg.MaxRetries != 0 {
		t.Fatalf("NoRetries gave MaxRetries %d, want 0", c.cfg.MaxRetries)
	}
}

func TestBaseURLWithPathPrefix(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 30, Payments: 7, Groups: 3, OrgMetrics: 4, PathPrefix: "/proxy/joinit"})
	c := newClient(t, Config{BaseURL: base + "/"})
	ctx := context.Background()
	ms, err := c.Memberships(ctx, MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
	ps, err := c.Payments(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
	gs, err := c.Groups(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))
	om, err := c.OrgMetrics(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(om.Results) != 4 {
		t.Fatalf("org metrics: %d results, want 4", len(om.Results))
	}

	// Without the prefix the same server has no such endpoint.
	c2 := newClient(t, Config{BaseURL: strings.TrimSuffix(base, "/proxy/joinit")})
	_, err = c2.Memberships(ctx, MembershipQuery{})
	ae := requireAPIError(t, err, http.StatusNotFound)
	if !strings.Contains(ae.Error(), "no such endpoint") {
		t.Fatalf("404 message does not point at the paths: %v", ae)
	}
}

func TestEndpointPathOverrides(t *testing.T) {
	t.Parallel()
	paths := sandbox.Paths{apispec.EndpointMemberships: "/v9/members", apispec.EndpointPayments: "/v9/pay", apispec.EndpointGroups: "/v9/teams", apispec.EndpointOrgMetrics: "/reports/metrics"}
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 12, Payments: 5, Groups: 2, OrgMetrics: 3, Paths: paths})
	c := newClient(t, Config{BaseURL: base, Paths: paths})
	ctx := context.Background()
	ms, err := c.Memberships(ctx, MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
	ps, err := c.Payments(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
	gs, err := c.Groups(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))
	om, err := c.OrgMetrics(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(om.Results) != 3 {
		t.Fatalf("org metrics: %d results, want 3", len(om.Results))
	}
	// A short page, its empty confirmation and that end's other question;
	// org metrics end at totalPages, and page 1, the only page, is put to
	// another question.
	for ep, want := range map[string]int{"memberships": 3, "payments": 3, "groups": 3, "org_metrics": 2} {
		if sb.Requests(ep) != want {
			t.Errorf("%s: %d requests, want %d", ep, sb.Requests(ep), want)
		}
	}

	// Only one path overridden: the others keep their defaults, which this
	// server does not serve.
	c2 := newClient(t, Config{BaseURL: base, Paths: Paths{apispec.EndpointMemberships: paths[apispec.EndpointMemberships]}})
	if _, err := c2.Memberships(ctx, MembershipQuery{}); err != nil {
		t.Fatalf("memberships at the overridden path: %v", err)
	}
	_, err = c2.Payments(ctx, ListOptions{})
	requireAPIError(t, err, http.StatusNotFound)
}

// Two endpoints configured with the same path must not share a cache entry
// of another record type.
func TestSamePathForTwoEndpoints(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveList(syntheticIDs(3)))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, Paths: Paths{apispec.EndpointMemberships: "/list", apispec.EndpointPayments: "/list", apispec.EndpointGroups: "/list"}})
	ctx := context.Background()
	ms, err := c.Memberships(ctx, MembershipQuery{})
	if err != nil || len(ms) != 3 {
		t.Fatalf("memberships: %d, %v", len(ms), err)
	}
	ps, err := c.Payments(ctx, ListOptions{})
	if err != nil || len(ps) != 3 {
		t.Fatalf("payments: %d, %v", len(ps), err)
	}
	gs, err := c.Groups(ctx, ListOptions{})
	if err != nil || len(gs) != 3 {
		t.Fatalf("groups: %d, %v", len(gs), err)
	}
}

func TestPageSizeOutOfRange(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 3})
	c := newClient(t, Config{BaseURL: base})
	ctx := context.Background()
	for _, size := range []int{-1, apispec.CountPaging.MaxSize + 1, 5000} {
		if _, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: size}}); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("memberships page size %d: err = %v", size, err)
		}
		if _, err := c.Payments(ctx, ListOptions{PageSize: size}); err == nil || !strings.Contains(err.Error(), "payments") {
			t.Errorf("payments page size %d: err = %v", size, err)
		}
		if _, err := c.Groups(ctx, ListOptions{PageSize: size}); err == nil {
			t.Errorf("groups page size %d: no error", size)
		}
	}
	for _, size := range []int{-3, apispec.LimitPaging.MaxSize + 1} {
		if _, err := c.OrgMetrics(ctx, ListOptions{PageSize: size}); err == nil || !strings.Contains(err.Error(), "org_metrics") {
			t.Errorf("org_metrics page size %d: err = %v", size, err)
		}
	}
	if n := sb.Requests(""); n != 0 {
		t.Fatalf("invalid page sizes sent %d requests", n)
	}
	// The bounds themselves are valid.
	if _, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.OrgMetrics(ctx, ListOptions{PageSize: apispec.LimitPaging.MaxSize}); err != nil {
		t.Fatal(err)
	}
}

func TestNewRefusesTokenWithWhiteSpace(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"abc\n", " abc", "a b", "abc\x00"} {
		_, err := New(Config{BaseURL: "https://api.example.com", Token: tok})
		if err == nil || !strings.Contains(err.Error(), "white space or control characters") {
			t.Errorf("token %q: err = %v, want a white space error", tok, err)
		}
		if err != nil && strings.Contains(err.Error(), tok) {
			t.Errorf("the error repeats the token: %v", err)
		}
	}
}
