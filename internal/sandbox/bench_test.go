package sandbox

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// discardWriter is a ResponseWriter that keeps nothing, so benchmarks
// measure the server, not a recorder's buffer.
type discardWriter struct {
	h http.Header
	n int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

func BenchmarkNew100kMemberships(b *testing.B) {
	for b.Loop() {
		New(Options{Seed: 1, Memberships: 100_000})
	}
}

func BenchmarkServe1000RecordPage(b *testing.B) {
	s := New(Options{Seed: 1, Memberships: 100_000})
	req := httptest.NewRequest(http.MethodGet, DefaultPaths()[EndpointMemberships]+"?count=1000&page=42", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		s.ServeHTTP(w, req)
	}
	b.SetBytes(int64(w.n / max(b.N, 1)))
}

// Serving a page allocates about the page, never the data set (~110 MB).
func TestServingAPageDoesNotCopyTheDataSet(t *testing.T) {
	// Not parallel: other tests' allocations would count.
	s := New(Options{Seed: 1, Memberships: 5000})
	req := httptest.NewRequest(http.MethodGet, DefaultPaths()[EndpointMemberships]+"?count=1000&page=2", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	w := &discardWriter{h: http.Header{}}
	s.ServeHTTP(w, req) // warm up
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		s.ServeHTTP(w, req)
	}
	runtime.ReadMemStats(&after)
	per := int64(after.TotalAlloc-before.TotalAlloc) / runs
	pageBytes := 0
	for _, r := range s.MembershipsJSON(nil)[1000:2000] {
		pageBytes += len(r) + 1
	}
	if per > int64(pageBytes)*2 {
		t.Fatalf("%d bytes allocated per 1000-record page of %d bytes", per, pageBytes)
	}
}
