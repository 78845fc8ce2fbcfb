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

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// fixtureAPI serves records, by endpoint name, at the default endpoint
// paths of the registered data sources, paged as each endpoint pages
// (dsTest.page); an endpoint given no records serves none.
func fixtureAPI(t *testing.T, records map[string][]string) string {
	t.Helper()
	paths := client.DefaultPaths()
	byPath := map[string]dsTest{}
	for _, d := range registeredTests() {
		byPath[paths[d.def.name]] = d
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := byPath[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		page := d.page
		if page == nil {
			page = pageOfList
		}
		fmt.Fprint(w, page(r.URL.Query(), records[d.def.name]))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// pageOfList is the specification's list paging: page and count, a JSON
// array.
func pageOfList(q url.Values, recs []string) string {
	return "[" + pageOf(recs, atLeastOne(q.Get("page"), 1), atLeastOne(q.Get("count"), 50)) + "]"
}

// edgeRecords are every data source's edge records, by endpoint name.
func edgeRecords() map[string][]string {
	out := map[string][]string{}
	for _, d := range registeredTests() {
		out[d.def.name] = d.edge
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
