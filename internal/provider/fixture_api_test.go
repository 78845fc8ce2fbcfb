package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// fixtureAPI serves records, by endpoint name, at the default endpoint
// paths of the registered data sources, paged as apispec says each endpoint
// pages; an endpoint given no records serves none.
func fixtureAPI(t *testing.T, records map[string][]string) string {
	t.Helper()
	paths := apispec.DefaultPaths()
	byPath := map[string]dsTest{}
	for _, d := range registeredTests() {
		byPath[paths[d.def.endpoint]] = d
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := byPath[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, pageOfEndpoint(apispec.Lookup(d.def.endpoint).Paging, r.URL.Query(), records[d.def.endpoint]))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// pageOfEndpoint is one page of recs as an endpoint of that paging answers
// it: a JSON array, or results with totalPages.
func pageOfEndpoint(p apispec.Paging, q url.Values, recs []string) string {
	page, size := atLeastOne(q.Get("page"), 1), min(atLeastOne(q.Get(p.SizeParam), p.DefaultSize), p.MaxSize)
	if !p.Metadata {
		return "[" + pageOf(recs, page, size) + "]"
	}
	total := (len(recs) + size - 1) / size
	return fmt.Sprintf(`{"results":[%s],"page":%d,"limit":%d,"totalPages":%d}`, pageOf(recs, page, size), page, size, total)
}

// edgeRecords are every data source's edge records, by endpoint name.
func edgeRecords() map[string][]string {
	out := map[string][]string{}
	for _, d := range registeredTests() {
		out[d.def.endpoint] = d.edge
	}
	return out
}

func atLeastOne(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil && n >= 1 {
		return n
	}
	return def
}

func pageOf(recs []string, page, size int) string {
	from := min((page-1)*size, len(recs))
	return strings.Join(recs[from:min(from+size, len(recs))], ",")
}

func recordTexts(recs []json.RawMessage) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = string(r)
	}
	return out
}

func asBytes(recs []string) [][]byte {
	out := make([][]byte, len(recs))
	for i, r := range recs {
		out[i] = []byte(r)
	}
	return out
}
