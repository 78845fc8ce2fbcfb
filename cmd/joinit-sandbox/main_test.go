package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

func TestCheckLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:0", true},
		{"127.0.0.2:8080", true},
		{"[::1]:0", true},
		{"localhost:0", true},
		{"0.0.0.0:0", false},
		{":8080", false},
		{"[::]:0", false},
		{"192.168.1.5:0", false},
		{"example.com:80", false},
		{"127.0.0.1", false}, // no port
	}
	for _, tc := range tests {
		if err := checkLoopback(tc.addr); (err == nil) != tc.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", tc.addr, err, tc.ok)
		}
	}
}

func TestFlags(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &stderr); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr.String(), "-insert-after-page") {
		t.Fatalf("-h: %v, %q", err, stderr.String())
	}
	c, err := parseFlags([]string{"-seed", "9", "-server-errors", "2", "-only-pages", "1, 3", "-slow-body", "1s"}, io.Discard)
	if err != nil || c.opts.Seed != 9 || c.opts.Faults.ServerErrors != 2 || len(c.opts.Faults.OnlyPages) != 2 || c.opts.Records[apispec.EndpointMemberships] != 250 {
		t.Fatalf("parsed %+v, %v", c, err)
	}
	c, err = parseFlags([]string{"-rate-limit", "2.5", "-rate-burst", "4"}, io.Discard)
	if err != nil || c.opts.Faults.RateLimit != 2.5 || c.opts.Faults.RateBurst != 4 {
		t.Fatalf("rate limit flags parsed as %+v, %v", c.opts.Faults, err)
	}
	c, err = parseFlags([]string{"-page-size-cap", "250", "-ignore-count", "payments, groups", "-past-end-status", "404",
		"-out-of-order-insert-page", "2", "-insert-count", "7", "-equal-org-metrics", "-broken-text-pages", "1,3", "-ignore-status-filter"}, io.Discard)
	f := c.opts.Faults
	if err != nil || f.PageSizeCap != 250 || strings.Join(f.IgnoreCount, ",") != "payments,groups" || f.PastEndStatus != 404 ||
		f.OutOfOrderInsertPage != 2 || f.InsertCount != 7 || !f.EqualOrgMetrics || fmt.Sprint(f.BrokenTextPages) != "[1 3]" || !f.IgnoreStatusFilter {
		t.Fatalf("deviation flags parsed as %+v, %v", f, err)
	}
	c, err = parseFlags([]string{"-chaos-seed", "7", "-chaos-share", "0.15", "-chaos-lies"}, io.Discard)
	if err != nil || c.opts.Faults.Chaos != (sandbox.Chaos{Seed: 7, Share: 0.15, Lies: true}) {
		t.Fatalf("chaos flags parsed as %+v, %v", c.opts.Faults.Chaos, err)
	}
	for _, bad := range [][]string{{"-addr", "0.0.0.0:0"}, {"-only-pages", "x"}, {"-token", ""}, {"extra"},
		{"-ignore-count", "members"}, {"-broken-text-pages", "0"}, {"-chaos-share", "1.5"}} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRunPrintsURLAndStops(t *testing.T) {
	t.Parallel()
	urlFile := filepath.Join(t.TempDir(), "url")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr testutil.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-path-prefix", "/proxy", "-url-file", urlFile, "-memberships", "3", "-v"}, &stdout, &stderr)
	}()
	testutil.Eventually(t, "a line on stdout", func() bool { return strings.Contains(stdout.String(), "\n") })
	m := regexp.MustCompile(`^JOINIT_BASE_URL=(http://127\.0\.0\.1:\d+/proxy)\n$`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("stdout %q", stdout.String())
	}
	if b, err := os.ReadFile(urlFile); err != nil || strings.TrimSpace(string(b)) != m[1] {
		t.Fatalf("url file %q, %v", b, err)
	}
	req, _ := http.NewRequest(http.MethodGet, m[1]+"/api/v1/organizations/me/memberships", nil)
	req.Header.Set("Authorization", "Bearer sandbox-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	// The request log names no token; the token is on stderr once, in
	// the export line for a person to paste (TestVerbosePrintsExports).
	if !strings.Contains(stderr.String(), "-> 200") || strings.Count(stderr.String(), "sandbox-token") != 1 ||
		!strings.Contains(stderr.String(), "\nexport JOINIT_ACCESS_TOKEN=sandbox-token\n") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if n := strings.Count(stdout.String(), "\n"); n != 1 {
		t.Fatalf("stdout has %d lines", n)
	}
}

// TestVerbosePrintsExports: with -v (make sandbox) stderr ends with the two
// export lines, base URL and token, and pasted into a shell they set both
// to what the sandbox serves and accepts, a token with quotes and spaces
// included; stdout keeps its one line.
func TestVerbosePrintsExports(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to paste into")
	}
	for _, token := range []string{sandbox.DefaultToken, `it's a "sandbox" $token`} {
		ctx, cancel := context.WithCancel(t.Context())
		var stdout, stderr testutil.SyncBuffer
		done := make(chan error, 1)
		args := []string{"-v", "-memberships", "3"}
		if token != sandbox.DefaultToken {
			args = append(args, "-token", token)
		}
		go func() { done <- run(ctx, args, &stdout, &stderr) }()
		testutil.Eventually(t, "the export lines", func() bool { return strings.Contains(stderr.String(), "export JOINIT_ACCESS_TOKEN=") })
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("run: %v", err)
		}
		base := strings.TrimPrefix(strings.TrimSpace(stdout.String()), "JOINIT_BASE_URL=")
		if strings.Count(stdout.String(), "\n") != 1 || !strings.HasPrefix(base, "http://127.0.0.1:") {
			t.Fatalf("stdout %q", stdout.String())
		}
		if token == sandbox.DefaultToken {
			want := "\n\nexport JOINIT_BASE_URL=" + base + "\nexport JOINIT_ACCESS_TOKEN=" + sandbox.DefaultToken + "\n\n"
			if !strings.HasSuffix(stderr.String(), want) {
				t.Fatalf("stderr does not end with %q:\n%s", want, stderr.String())
			}
		}
		var exports []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(line, "export ") {
				exports = append(exports, line)
			}
		}
		out, err := exec.Command(sh, "-c", strings.Join(exports, "\n")+"\nprintf '%s|%s' \"$JOINIT_BASE_URL\" \"$JOINIT_ACCESS_TOKEN\"").Output()
		if want := base + "|" + token; err != nil || string(out) != want {
			t.Errorf("pasted %q: %q, %v; want %q", exports, out, err, want)
		}
	}
}

// The command's endpoint flags follow apispec's table: a record count flag
// per endpoint, every endpoint accepted by -ignore-count, and -h naming
// each endpoint's path and paging.
func TestEveryEndpointHasItsFlags(t *testing.T) {
	t.Parallel()
	var help bytes.Buffer
	_, _ = parseFlags([]string{"-h"}, &help)
	for i, e := range apispec.Endpoints {
		c, err := parseFlags([]string{"-" + recordFlag(e.Name), fmt.Sprint(7 + i), "-ignore-count", e.Name}, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if c.opts.Records[e.Name] != 7+i || !slices.Equal(c.opts.Faults.IgnoreCount, []string{e.Name}) {
			t.Errorf("%s: records %v, ignore-count %v", e.Name, c.opts.Records, c.opts.Faults.IgnoreCount)
		}
		if !strings.Contains(help.String(), e.DefaultPath+" ") || !strings.Contains(help.String(), e.Paging.Describe()) {
			t.Errorf("-h does not describe %s", e.Name)
		}
	}
}

// -h names every change of the control route, the e-mail change with its
// body, and the events each sends.
func TestHelpListsEveryChange(t *testing.T) {
	t.Parallel()
	var help bytes.Buffer
	_, _ = parseFlags([]string{"-h"}, &help)
	h := strings.Join(strings.Fields(help.String()), " ") // its lines wrapped anywhere
	for _, c := range sandbox.Changes {
		if !strings.Contains(h, string(c)) {
			t.Errorf("-h does not name the change %s", c)
		}
	}
	for _, want := range []string{
		`or email: a new e-mail address, given as a JSON body {"email": "<address>"}`,
		"email: memberships.updated, .all;",
		`-d '{"email": "Ada.Lovelace@example.org"}' \ "$JOINIT_BASE_URL/sandbox/memberships/<_id>/email"`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("-h does not say %s", want)
		}
	}
}

func TestWebhookURLMustBeLoopback(t *testing.T) {
	t.Parallel()
	for v, ok := range map[string]bool{
		"": true, "http://127.0.0.1:8080/hooks/x": true, "http://localhost:1/h": true, "https://[::1]:9/h": true,
		"http://192.168.1.5/hooks/x": false, "https://relay.example.com/hooks/x": false, "ftp://127.0.0.1/x": false, "127.0.0.1:8080": false,
	} {
		if _, err := parseFlags([]string{"-webhook-url", v}, io.Discard); (err == nil) != ok {
			t.Errorf("-webhook-url %q: %v, want ok=%v", v, err, ok)
		}
	}
}
