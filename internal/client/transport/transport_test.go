package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestSanitizeExcerpt(t *testing.T) {
	t.Parallel()
	got := sanitizeExcerpt([]byte("line one\n\n\tline\x00two "+testToken+" \xff end"), testToken)
	if got != "line one line two [redacted] end" {
		t.Fatalf("sanitizeExcerpt = %q", got)
	}
	long := sanitizeExcerpt([]byte(strings.Repeat("a", 5000)), "")
	if n := len([]rune(long)); n > excerptLimit+1 || !strings.HasSuffix(long, "…") {
		t.Fatalf("long excerpt not cut: %d runes", n)
	}
	// A token split by the 800-byte cut is cut with it; nothing of it
	// beyond the cut survives, and a whole one is always removed.
	body := strings.Repeat("x", 10) + testToken + strings.Repeat(" y", 100)
	if s := sanitizeExcerpt([]byte(body), testToken); strings.Contains(s, testToken) {
		t.Fatalf("token survived: %q", s)
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
