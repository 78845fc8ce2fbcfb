package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// hostileToken is the token hostile servers echo back.
const hostileToken = "tok/SECRET+9x7q"

// tokenSpellings are the ways the servers below echo it (those
// redact.Spellings lists): every one must be gone from every channel.
var tokenSpellings = map[string]string{
	"raw":                   hostileToken,
	"percent-encoded":       url.QueryEscape(hostileToken),
	"percent-encoded twice": url.QueryEscape(url.QueryEscape(hostileToken)),
	"JSON-escaped":          strings.ReplaceAll(hostileToken, "/", `\/`),
	"base64":                base64.StdEncoding.EncodeToString([]byte(hostileToken)),
	"hex":                   hex.EncodeToString([]byte(hostileToken)),
}

// A hostile server echoes the token in every spelling, on every channel a
// message can leave the provider by: the diagnostic (an error built from
// Go's own quoted error, from an error body), and the DEBUG and TRACE logs
// (the URL of a same-origin redirect whose query holds it, the retries
// after it). On both read paths, the token is in none of them, in any
// spelling; and no URL in them has a query.
func TestHostileServerCannotLeakTheTokenOnAnyChannel(t *testing.T) {
	t.Parallel()
	channels := map[string]func(spelled string) http.HandlerFunc{
		// A same-origin redirect to a URL whose query holds the token,
		// which then fails: the retries log that URL.
		"redirect query, then 503": func(spelled string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("echo") == "" {
					w.Header().Set("Location", r.URL.Path+"?page=1&echo=1&t="+spelled)
					w.WriteHeader(http.StatusFound)
					return
				}
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		},
		// An error page that quotes the token, and a JSON error whose
		// message does.
		"500 HTML body": func(spelled string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprintf(w, "<html><body>bad token %s for %s</body></html>", spelled, spelled)
			}
		},
		"500 JSON message": func(spelled string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprintf(w, `{"message":"bad token %s for %s"}`, spelled, spelled)
			}
		},
		// A Content-Length that is the token: net/http's own error quotes
		// the value, doubling its backslashes.
		"malformed header, Go-quoted": func(spelled string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				conn, buf, err := w.(http.Hijacker).Hijack()
				if err != nil {
					return
				}
				defer conn.Close()
				fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %s\r\n\r\n[]", spelled)
				buf.Flush()
			}
		},
		// A 200 whose body is not a page, echoing the token.
		"not a page": func(spelled string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `<html>maintenance for %s</html>`, spelled)
			}
		},
	}
	for channel, handler := range channels {
		for spelling, spelled := range tokenSpellings {
			t.Run(channel+"/"+spelling, func(t *testing.T) {
				t.Parallel()
				var requests atomic.Int32
				h := handler(spelled)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					requests.Add(1)
					h(w, r)
				}))
				t.Cleanup(srv.Close)
				for path, s := range map[string]tfprotov6.ProviderServer{"fast": testServer(context.Background(), nil), "framework": testFrameworkServer()} {
					var logs bytes.Buffer
					ctx := tflogtest.RootLogger(context.Background(), &logs)
					conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
						"base_url":     tftypes.NewValue(tftypes.String, srv.URL),
						"access_token": tftypes.NewValue(tftypes.String, hostileToken),
						"max_retries":  tftypes.NewValue(tftypes.Number, 1),
					})})
					if err != nil || len(conf.Diagnostics) > 0 {
						t.Fatalf("configure: %v %v", err, conf.Diagnostics)
					}
					resp, err := s.ReadDataSource(ctx, readRequest(t, groupsDef, false))
					if err != nil {
						t.Fatal(err)
					}
					if len(resp.Diagnostics) == 0 {
						t.Fatalf("%s path: the read succeeded; the test proves nothing", path)
					}
					var said strings.Builder
					for _, d := range resp.Diagnostics {
						said.WriteString(d.Summary + "\n" + d.Detail + "\n")
					}
					for where, text := range map[string]string{"the diagnostic": said.String(), "the log": logs.String()} {
						for name, form := range tokenSpellings {
							if strings.Contains(text, form) || strings.Contains(unquoteAll(text), form) {
								t.Errorf("%s path: the token, %s, is in %s:\n%s", path, name, where, text)
							}
						}
						if strings.Contains(text, srv.URL+"/api/v1/organizations/me/groups?") {
							t.Errorf("%s path: %s shows a URL with its query:\n%s", path, where, text)
						}
					}
					if !strings.Contains(logs.String(), `"@level":"debug"`) {
						t.Fatalf("%s path: no DEBUG log was captured; the test proves nothing", path)
					}
				}
				if requests.Load() == 0 {
					t.Fatal("the server was never asked")
				}
			})
		}
	}
}

// unquoteAll undoes one level of Go (and JSON) quoting wherever it occurs,
// as a reader of a quoted log line would.
func unquoteAll(s string) string {
	if u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`); err == nil {
		return u
	}
	return strings.ReplaceAll(s, `\\`, `\`)
}

// The provider's own words are never passed through redaction: a token
// that is one of them (here the setting's own name) leaves the message
// that names the setting whole, on both read paths. Before, a wrong token
// "test-token" made it "the access [redacted] was refused; check
// access_[redacted]".
func TestOwnWordsAreNotRedacted(t *testing.T) {
	t.Parallel()
	const token = "access_token"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	for path, s := range map[string]tfprotov6.ProviderServer{"fast": testServer(context.Background(), nil), "framework": testFrameworkServer()} {
		conf, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
			"base_url":     tftypes.NewValue(tftypes.String, srv.URL),
			"access_token": tftypes.NewValue(tftypes.String, token),
		})})
		if err != nil || len(conf.Diagnostics) > 0 {
			t.Fatalf("configure: %v %v", err, conf.Diagnostics)
		}
		resp, err := s.ReadDataSource(context.Background(), readRequest(t, groupsDef, false))
		if err != nil || len(resp.Diagnostics) == 0 {
			t.Fatalf("%s path: %v, %v: want the 401 to fail the read", path, err, resp.Diagnostics)
		}
		if d := resp.Diagnostics[0].Detail; !strings.Contains(d, "the access token was refused; check access_token (or JOINIT_ACCESS_TOKEN)") {
			t.Errorf("%s path: %s", path, d)
		}
	}
}
