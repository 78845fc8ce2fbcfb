// Command joinit-sandbox runs the in-memory fake of the Join It membership
// API (package internal/sandbox) on a loopback address, for demos, manual
// testing of the Terraform provider and scripted end-to-end checks.
//
// Once listening it prints exactly one line to stdout:
//
//	JOINIT_BASE_URL=http://127.0.0.1:PORT<path-prefix>
//
// and nothing else, so scripts can parse it. Diagnostics go to stderr; with
// -v (make sandbox) they end with the two export lines that point the
// provider here, base URL and token, ready to paste into a shell.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "joinit-sandbox:", err)
		os.Exit(2)
	}
}

// usageText is a format: the endpoints are filled in from apispec's table
// (see endpointUsage).
const usageText = `joinit-sandbox serves a fake, in-memory Join It membership API on a loopback
address. It generates a deterministic data set (%s)
from -seed, answers the paginated list endpoints exactly as the API
specification describes (page/count, page/limit, the status filter,
bearer-token auth), and can inject faults (rate limits, server errors,
connection resets, slow or broken bodies, records inserted mid-read) so the
provider's client can be tried against a bad day without touching real data.

Once listening it prints one line to stdout and nothing else:

    JOINIT_BASE_URL=http://127.0.0.1:PORT<path-prefix>

With -v it also prints to stderr, ready to paste into a shell:

    export JOINIT_BASE_URL=http://127.0.0.1:PORT<path-prefix>
    export JOINIT_ACCESS_TOKEN=<-token>

Endpoints (GET, relative to the base URL; the records of each set by the flag
of its name):

%s
Count-based faults are counted per endpoint and page: -server-errors 2 makes
the first two attempts at EVERY page fail. Combined, they are consumed in the
order connection resets, server errors, rate limits.

With -oauth-client-id and -oauth-client-secret it also plays the service's
OAuth 2.0 authorization-code flow at the same address (the auth URL is the
base URL without -path-prefix): GET /oauth2/authorize approves at once and
redirects to the (loopback) redirect_uri with code and state; POST
/oauth2/token and /oauth/token exchange the code, with credentials as HTTP
Basic or form fields, and the PKCE code_verifier when the authorization
request sent a code_challenge. The access tokens it issues are accepted beside -token.
Try it with joinit-token (go run ./cmd/joinit-token -h).

Requests are answered only when their Host header names the sandbox's own
address (its IP and port, or localhost and its port), so a web page cannot
reach it by DNS rebinding.

With -webhook-url it sends webhooks as the service does (API.md, Webhooks) when
a membership changes through the sandbox's own route (not the API's):

    POST <base URL>/sandbox/memberships/<_id>/<change>   (Authorization: Bearer <token>)

where <change> is cancel (status 350), expire (300), renew (100, expiration a
year on), check-in, or email: a new e-mail address, given as a JSON body
{"email": "<address>"} and kept as given, case included (an empty address, or
one without @, is refused with 400); POST <base URL>/sandbox/memberships/ (no
_id) creates an active membership. The list endpoints serve the change at
once; each of the change's events (cancel and expire: memberships.inactive,
.updated, .all; renew: memberships.renewal, .updated, .all; email:
memberships.updated, .all; check-in: check_ins.created, check_ins.all;
create: memberships.created, .all) is one POST of the flat record with
webhook_object_type and webhook_event_type, one attempt for membership events
and up to three for check_ins.all. The answer lists each delivery's attempts
and status. Try:

    curl -X POST -H 'Authorization: Bearer sandbox-token' \
      "$JOINIT_BASE_URL/sandbox/memberships/<_id>/cancel"
    curl -X POST -H 'Authorization: Bearer sandbox-token' \
      -d '{"email": "Ada.Lovelace@example.org"}' \
      "$JOINIT_BASE_URL/sandbox/memberships/<_id>/email"

Point the provider at that base URL with the -token value as its access token.
It stops cleanly on SIGINT or SIGTERM.

`

// defaultSeed is the default of -seed, which -h describes the data set of.
const defaultSeed = 1

// endpointUsage is a line of -h for each endpoint of apispec's table: its
// default path and the parameters it takes.
func endpointUsage() string {
	var b strings.Builder
	for _, e := range apispec.Endpoints {
		params := e.Paging.Describe()
		for _, f := range e.Filters {
			params += ", " + f
		}
		fmt.Fprintf(&b, "    %-38s %s\n", e.DefaultPath, params)
	}
	return b.String()
}

// recordFlag is the flag of an endpoint's record count: its name, with
// dashes (org_metrics: -org-metrics).
func recordFlag(endpoint string) string { return strings.ReplaceAll(endpoint, "_", "-") }

// defaultGroups is the default of -groups, whose names -h lists.
func defaultGroups() int {
	n, _ := sandbox.DemoRecords(apispec.EndpointGroups)
	return n
}

// config is the parsed command line.
type config struct {
	addr    string
	urlFile string
	verbose bool
	opts    sandbox.Options
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	o := &c.opts
	f := &o.Faults
	fs := flag.NewFlagSet("joinit-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), usageText, strings.Join(apispec.Names(), ", "), endpointUsage())
		writeSeededData(fs.Output(), defaultSeed, defaultGroups())
		fmt.Fprintf(fs.Output(), "Usage: joinit-sandbox [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}

	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "`host:port` to listen on; must be a loopback address (port 0 picks a free one)")
	fs.StringVar(&c.urlFile, "url-file", "", "also write the base URL to this `file` once listening (written atomically, for scripts)")
	fs.BoolVar(&c.verbose, "v", false, "log every request (method, path, query with tokens redacted, status) to stderr, after the export lines of JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN")

	fs.StringVar(&o.Token, "token", sandbox.DefaultToken, "bearer `token` the sandbox accepts (Authorization: Bearer <token>)")
	fs.Int64Var(&o.Seed, "seed", defaultSeed, "data set seed; the same seed always gives the same records")
	records := map[string]*int{}
	for _, name := range apispec.Names() {
		n, about := sandbox.DemoRecords(name)
		if about != "" {
			about = " (" + about + ")"
		}
		records[name] = fs.Int(recordFlag(name), n, "number of "+name+" records"+about)
	}
	fs.StringVar(&o.PathPrefix, "path-prefix", "", "serve every endpoint under this `prefix`, e.g. /proxy, to test base URLs that carry a path")

	fs.DurationVar(&f.Latency, "latency", 0, "fault: wait this long before answering every request")
	fs.IntVar(&f.RateLimited, "rate-limited", 0, "fault: the first `N` attempts at every page answer 429 Too Many Requests")
	fs.Float64Var(&f.RateLimit, "rate-limit", 0, "fault: allow `N` requests a second across all endpoints (a token bucket); others answer 429 with Retry-After (0: off)")
	fs.IntVar(&f.RateBurst, "rate-burst", 0, "fault: the -rate-limit bucket holds `N` requests (0: the rate, at least 1)")
	fs.StringVar(&f.RetryAfter, "retry-after", "0", "fault: Retry-After header `value` sent with the 429s of -rate-limited (seconds or an HTTP date)")
	fs.IntVar(&f.ServerErrors, "server-errors", 0, "fault: the first `N` attempts at every page answer -server-error-status")
	fs.IntVar(&f.ServerErrorStatus, "server-error-status", http.StatusServiceUnavailable, "fault: HTTP `status` used by -server-errors")
	fs.IntVar(&f.ConnectionResets, "connection-resets", 0, "fault: the first `N` attempts at every page get a TCP reset and no response")
	fs.DurationVar(&f.SlowBody, "slow-body", 0, "fault: send each body in about ten chunks spread over this `duration`")
	fs.IntVar(&f.NonJSONPage, "non-json-page", 0, "fault: this `page` number answers 200 with an HTML body (0: off)")
	fs.IntVar(&f.TruncatedPage, "truncated-page", 0, "fault: this `page` number answers 200 with JSON cut in half (0: off)")
	fs.BoolVar(&f.IgnorePage, "ignore-page", false, "fault: ignore the page parameter and always serve page 1 (a client must not loop forever)")
	fs.IntVar(&f.InsertAfterPage, "insert-after-page", 0, "fault: once this `page` has been served, insert -insert-count records at the front of that list (0: off)")
	fs.IntVar(&f.InsertCount, "insert-count", 0, "fault: how many records -insert-after-page inserts")
	fs.IntVar(&f.RemoveAfterPage, "remove-after-page", 0, "fault: once this `page` has been served, remove -remove-count records from the front of that list (0: off)")
	fs.IntVar(&f.RemoveCount, "remove-count", 0, "fault: how many records -remove-after-page removes")
	fs.StringVar(&o.OAuth.ClientID, "oauth-client-id", "", "OAuth: serve the authorization-code flow for this client `id` (needs -oauth-client-secret)")
	fs.StringVar(&o.OAuth.ClientSecret, "oauth-client-secret", "", "OAuth: the client `secret` the token endpoints expect (a sandbox value, never a real one)")
	fs.BoolVar(&o.OAuth.LegacyTokenPathOnly, "oauth-legacy-path-only", false, "OAuth: serve the token endpoint only at /oauth/token (/oauth2/token answers 404)")
	fs.BoolVar(&o.OAuth.FormCredentialsOnly, "oauth-form-credentials-only", false, "OAuth: ignore HTTP Basic client credentials; accept them only as form fields")
	fs.BoolVar(&o.OAuth.Deny, "oauth-deny", false, "OAuth: the authorize endpoint refuses (redirects with error=access_denied)")
	only := fs.String("only-pages", "", "fault: comma-separated page `numbers` the count-based faults and -slow-body apply to (empty: all pages)")
	fs.IntVar(&f.PageSizeCap, "page-size-cap", 0, "deviation: serve at most `N` records a page, whatever count or limit asks (0: off)")
	ignoreCount := fs.String("ignore-count", "", "deviation: comma-separated `endpoints` ("+strings.Join(apispec.Names(), ", ")+") that ignore count/limit and serve the default page size")
	fs.IntVar(&f.PastEndStatus, "past-end-status", 0, "deviation: a page past the end of a list answers this HTTP `status` (e.g. 404) instead of [] (0: off)")
	fs.IntVar(&f.OutOfOrderInsertPage, "out-of-order-insert-page", 0, "deviation: the first request for this `page` waits until the next page is served, then -insert-count records are inserted at the front (0: off)")
	fs.BoolVar(&f.IgnoreStatusFilter, "ignore-status-filter", false, "deviation: ignore the memberships status filter and serve every status")
	fs.BoolVar(&f.EqualOrgMetrics, "equal-org-metrics", false, "deviation: serve every org metrics record as the same all-null record")
	fs.Uint64Var(&f.Chaos.Seed, "chaos-seed", 0, "chaos: the `seed` of the schedule of what goes wrong (the same seed, the same schedule)")
	fs.Float64Var(&f.Chaos.Share, "chaos-share", 0, "chaos: the `share` (0..1) of first and second attempts at each request that go wrong (0: off)")
	fs.BoolVar(&f.Chaos.Lies, "chaos-lies", false, "chaos: some of what goes wrong is a 200 that lies (an empty page, a page cut short, a maintenance page, an error object, JSON cut off), not only transient faults")
	fs.StringVar(&o.Webhooks.URL, "webhook-url", "", "send webhooks to this loopback `URL` when a membership changes through /sandbox/memberships/<_id>/<change> (empty: none)")
	brokenText := fs.String("broken-text-pages", "", "deviation: comma-separated page `numbers` whose first two records carry an unpaired surrogate and an invalid UTF-8 byte")

	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))
	}
	if o.Token == "" {
		return nil, errors.New("-token must not be empty")
	}
	if (o.OAuth.ClientID == "") != (o.OAuth.ClientSecret == "") {
		return nil, errors.New("-oauth-client-id and -oauth-client-secret go together")
	}
	var err error
	if f.OnlyPages, err = pageList("only-pages", *only); err != nil {
		return nil, err
	}
	if f.BrokenTextPages, err = pageList("broken-text-pages", *brokenText); err != nil {
		return nil, err
	}
	for _, ep := range splitList(*ignoreCount) {
		if !slices.Contains(apispec.Names(), ep) {
			return nil, fmt.Errorf("-ignore-count: %q is not an endpoint (%s)", ep, strings.Join(apispec.Names(), ", "))
		}
		f.IgnoreCount = append(f.IgnoreCount, ep)
	}
	o.Records = map[string]int{}
	for name, n := range records {
		o.Records[name] = *n
	}
	if f.Chaos.Share < 0 || f.Chaos.Share > 1 {
		return nil, fmt.Errorf("-chaos-share: %v is not a share between 0 and 1", f.Chaos.Share)
	}
	if err := checkLoopback(c.addr); err != nil {
		return nil, err
	}
	if err := checkWebhookURL(o.Webhooks.URL); err != nil {
		return nil, err
	}
	return c, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// pageList reads a comma-separated list of page numbers.
func pageList(flagName, v string) ([]int, error) {
	var out []int
	for _, p := range splitList(v) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-%s: %q is not a page number", flagName, p)
		}
		out = append(out, n)
	}
	return out, nil
}

// checkLoopback refuses anything but a loopback address: the sandbox accepts
// a well-known token and must never be reachable from the network.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if client.IsLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("-addr %q: refusing a non-loopback address; use 127.0.0.1, [::1] or localhost", addr)
}

// checkWebhookURL refuses a receiver off this machine: the sandbox sends
// only to local addresses.
func checkWebhookURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !client.IsLoopbackHost(u.Hostname()) {
		// Not quoted: a receiver's URL holds its secret.
		return errors.New("-webhook-url must be an http(s) URL on a loopback address (127.0.0.1, [::1] or localhost)")
	}
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := log.New(stderr, "joinit-sandbox: ", log.LstdFlags)
	if c.verbose {
		c.opts.Logf = logger.Printf
	}
	srv := sandbox.New(c.opts)

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	// localhost may resolve to a non-loopback address on odd systems.
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() { //nolint:forcetypeassert // a "tcp" listener's Addr is always a *net.TCPAddr
		ln.Close()
		return fmt.Errorf("-addr %q resolved to non-loopback %s", c.addr, ip)
	}
	prefix := strings.TrimRight(c.opts.PathPrefix, "/")
	if prefix != "" && !strings.HasPrefix(prefix, "/") {
		prefix = "/" + prefix
	}
	baseURL := "http://" + ln.Addr().String() + prefix

	if c.urlFile != "" {
		if err := writeFileAtomic(c.urlFile, baseURL+"\n"); err != nil {
			ln.Close()
			return fmt.Errorf("-url-file: %w", err)
		}
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "JOINIT_BASE_URL=%s\n", baseURL)
	if c.verbose {
		var counts []string
		for _, name := range apispec.Names() {
			counts = append(counts, fmt.Sprintf("%d %s", c.opts.Records[name], name))
		}
		logger.Printf("serving %s records (seed %d)", strings.Join(counts, ", "), c.opts.Seed)
		writeSeededData(stderr, c.opts.Seed, c.opts.Records[apispec.EndpointGroups])
		writeExports(stderr, baseURL, c.opts.Token)
	}

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	// Give in-flight requests a moment, then cut slow ones (latency and
	// slow-body faults can hold a request for as long as asked).
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	return nil
}

// writeExports writes the shell lines that point the provider at the
// sandbox, its base URL and the token it accepts (a sandbox's, never a real
// one), for a person to paste: make sandbox runs with -v.
func writeExports(w io.Writer, baseURL, token string) {
	fmt.Fprintf(w, "To point the provider at this sandbox, paste into your shell:\n\n")
	fmt.Fprintf(w, "export JOINIT_BASE_URL=%s\n", shellWord(baseURL))
	fmt.Fprintf(w, "export JOINIT_ACCESS_TOKEN=%s\n\n", shellWord(token))
}

// shellWord is v as one shell word: as it is when no character of it is
// special to a shell, else in single quotes.
func shellWord(v string) string {
	if plainWord.MatchString(v) {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+,=-]+$`)

// writeFileAtomic writes via a temporary file and rename, so a script polling
// for the file never reads it half-written.
func writeFileAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".joinit-sandbox-url-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
