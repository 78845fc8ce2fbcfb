package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// The sandbox's generated records hold nulls, an absent field and unicode,
// but no integer at the int64 edges, no null or string profile or address,
// no non-string answer and no group without _id. These hand-written records
// hold them; fixtureAPI serves them with the specification's paging.

var edgeMemberships = []string{
	`{"_id":"e1","organization_id":"o","external_id":"x","email":"zoë@example.com","display_name":"Zoë 東京 🚀","membership_type":"t","membership_name":"Gold","status":100,"joined":"2024-01-02T00:00:00.000Z","expiration_date":"2025-01-02T00:00:00.000Z","rebilling_date":"2024-12-02T00:00:00.000Z","created":"2023-12-31T00:00:00.000Z","updated":"2024-02-03T00:00:00.000Z","customer_id":"cus","subscription_id":"sub","profile":{"first_name":"Zoë","last_name":"Ünal","company":"Ac&me <b>","phone":"+1 555","job_title":"CTO","birthday":"1990-05-06T00:00:00.000Z","gender":"f","facebook":"fb","twitter":"tw","linkedin":"li","address":{"city":"東京","line1":null}},"custom_answers":[{"question_id":"q1","question":"Why?","answer":"Because \"quoted\" \\ and \n newline"},{"question_id":"q2","question":null,"answer":["a",1,true]},{"question_id":"q3","question":"n","answer":{ "k" : 2 }}],"x_future":{"deep":[1,2,3]}}`,
	`{"_id":"e2","email":null,"status":999,"profile":null,"custom_answers":[],"expiration_date":null}`,
	`{"_id":null,"status":-9223372036854775808,"custom_answers":null}`,
	`{"_id":"e4","email":"zoë@example.com","status":9223372036854775807,"profile":{"address":"1 Main St"},"membership_name":""}`,
	`{}`,
	`{"_id":"e6","email":"a@example.com","status":0,"profile":{"address":42},"custom_answers":[{"answer":null},{}]}`,
}

var edgePayments = []string{
	`{"_id":"p1","organization_id":"o","member_id":"acc","membership_ids":["m1",null,"ü"],"channel":"stripe","status":100,"currency":"EUR","subtotal":-9223372036854775808,"total":9223372036854775807,"payment_date":"2024-01-01T00:00:00.000Z","created":"2024-01-02T00:00:00.000Z","updated":"2024-01-03T00:00:00.000Z"}`,
	`{"_id":"p2","membership_ids":null,"status":null,"subtotal":0,"total":-1}`,
	`{"membership_ids":[],"member_email":"not@modelled"}`,
	`{}`,
}

var edgeGroups = []string{
	`{"_id":"g1","id":"alt","organization_id":"o","name":"Ünïcode 🚀"}`,
	`{"id":"g2","name":null}`,
	`{"_id":null,"id":null}`,
	`{}`,
}

var edgeOrgMetrics = []string{
	`{"organization_id":"o","metric_period_key":202401,"active_memberships":9223372036854775807}`,
	`{"organization_id":null,"metric_period_key":-9223372036854775808,"active_memberships":0}`,
	`{"metric_period_key":null}`,
	`{}`,
}

// fixtureAPI serves records at the default endpoint paths: page and count
// for the lists, page and limit with totalPages for org metrics.
func fixtureAPI(t *testing.T, memberships, payments, groups, orgMetrics []string) string {
	t.Helper()
	paths := client.DefaultPaths()
	lists := map[string][]string{paths[apispec.EndpointMemberships]: memberships, paths[apispec.EndpointPayments]: payments, paths[apispec.EndpointGroups]: groups}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page := atLeastOne(q.Get("page"), 1)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == paths[apispec.EndpointOrgMetrics] {
			limit := atLeastOne(q.Get("limit"), 25)
			total := (len(orgMetrics) + limit - 1) / limit
			fmt.Fprintf(w, `{"results":[%s],"page":%d,"limit":%d,"totalPages":%d}`, pageOf(orgMetrics, page, limit), page, limit, total)
			return
		}
		recs, ok := lists[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "[%s]", pageOf(recs, page, atLeastOne(q.Get("count"), 50)))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
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
