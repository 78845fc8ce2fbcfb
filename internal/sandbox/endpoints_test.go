package sandbox

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// The indexes named for their behaviour are the endpoints' positions in
// apispec.Endpoints, and every endpoint there has its records.
func TestEndpointTable(t *testing.T) {
	for ep, name := range map[int]string{epMemberships: EndpointMemberships, epPayments: EndpointPayments,
		epGroups: EndpointGroups, epOrgMetrics: EndpointOrgMetrics} {
		if apispec.Endpoints[ep].Name != name {
			t.Errorf("index %d is %s in apispec.Endpoints, named %s here", ep, apispec.Endpoints[ep].Name, name)
		}
	}
	for _, e := range apispec.Endpoints {
		if recordMakers[e.Name].generate == nil {
			t.Errorf("%s: no registerRecords", e.Name)
		}
	}
	if len(recordMakers) != numEndpoints {
		t.Errorf("%d record makers for %d endpoints", len(recordMakers), numEndpoints)
	}
}

// Records counts an endpoint by name; its own field, when set, wins.
func TestRecordsByName(t *testing.T) {
	s := New(Options{Seed: 3, Groups: 2, Records: map[string]int{EndpointPayments: 5, EndpointGroups: 9, EndpointOrgMetrics: -1}})
	for name, want := range map[string]int{EndpointMemberships: 0, EndpointPayments: 5, EndpointGroups: 2, EndpointOrgMetrics: 0} {
		if got := len(s.RecordsJSON(name)); got != want {
			t.Errorf("%s: %d records, want %d", name, got, want)
		}
	}
	if !slices.EqualFunc(s.RecordsJSON(EndpointPayments), s.PaymentsJSON(), func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
		t.Error("RecordsJSON(payments) differs from PaymentsJSON")
	}
	if s.RecordsJSON("nope") != nil {
		t.Error("an unknown endpoint has records")
	}
}
