package apispec

import (
	"maps"
	"testing"
)

func TestWithDefaultsKeepsOverridesAndFillsTheRest(t *testing.T) {
	got := Paths{EndpointGroups: "/v2/teams", EndpointPayments: ""}.WithDefaults()
	want := DefaultPaths()
	want[EndpointGroups] = "/v2/teams"
	if !maps.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if !maps.Equal(Paths(nil).WithDefaults(), DefaultPaths()) {
		t.Fatal("no Paths should become DefaultPaths")
	}
	if len(DefaultPaths()) != len(Endpoints) {
		t.Fatal("every endpoint has a default path, under a name of its own")
	}
}
