package transport

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// An error shows what the API said in a JSON body, its "message" or else
// its "error", with the token removed and cut short; any other body,
// nothing of it.
func TestAPIMessage(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		`{"message":"line one\n\tline two ` + testToken + ` end","error":"x"}`: "line one line two [redacted] end",
		`{"error":"bad ` + url.QueryEscape(testToken) + `"}`:                   "bad [redacted]",
		`{"error":{"message":"nested"}}`:                                       "",
		`<html>maintenance ` + testToken + `</html>`:                           "",
		`"a bare string"`: "",
	} {
		if got := apiMessage([]byte(body), testToken); got != want {
			t.Errorf("apiMessage(%s) = %q, want %q", body, got, want)
		}
	}
	long := apiMessage([]byte(`{"message":"`+strings.Repeat("a", 5000)+`"}`), testToken)
	if n := len([]rune(long)); n != apiMessageLimit+1 || !strings.HasSuffix(long, "…") {
		t.Fatalf("a long message is not cut: %d runes", n)
	}
}

// The transport itself never adds the token to a request for another
// origin, whatever asks it to send one.
func TestTokenOnlyForOwnOrigin(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string][]string{} // host -> Authorization headers
	serve := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Host] = append(seen[r.Host], r.Header.Get("Authorization"))
		mu.Unlock()
		_, _ = w.Write([]byte("[]"))
	}
	other := httptest.NewServer(http.HandlerFunc(serve))
	t.Cleanup(other.Close)
	api := httptest.NewServer(http.HandlerFunc(serve))
	t.Cleanup(api.Close)
	base, _ := url.Parse(api.URL)
	tr := newTestTransport(Config{Base: base})
	t.Cleanup(tr.CloseIdle)
	for _, u := range []string{other.URL + "/x", api.URL + "/x"} {
		err := tr.Get(context.Background(), Request{Endpoint: "groups", Page: 1, URL: u, Accept: func(b []byte) error { Recycle(b); return nil }})
		if err != nil {
			t.Fatal(err)
		}
	}
	host := func(u string) string { return strings.TrimPrefix(u, "http://") }
	if a := seen[host(other.URL)]; len(a) != 1 || a[0] != "" {
		t.Fatalf("other origin saw %q", a)
	}
	if a := seen[host(api.URL)]; len(a) != 1 || a[0] != "Bearer "+testToken {
		t.Fatalf("own origin saw %q", a)
	}
}

// A URL shown in an error or a log is redacted as its path decodes: a
// server that redirected may spell every character of the token as an
// escape. Its query is never shown.
func TestShownURLIsRedactedDecoded(t *testing.T) {
	t.Parallel()
	var escaped strings.Builder
	for i := range len(testToken) {
		fmt.Fprintf(&escaped, "%%%02X", testToken[i])
	}
	tr := newTestTransport(Config{})
	for _, raw := range []string{"https://api.example.com/v1/" + escaped.String() + "/x?t=1", "https://api.example.com/v1/" + testToken + "/x"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.shownURL(u); got != "https://api.example.com/v1/[redacted]/x" {
			t.Errorf("shownURL(%s) = %s", raw, got)
		}
	}
}
