package apispec

import "testing"

func TestWithDefaultsKeepsOverridesAndFillsTheRest(t *testing.T) {
	got := Paths{Groups: "/v2/teams"}.WithDefaults()
	want := DefaultPaths()
	want.Groups = "/v2/teams"
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if (Paths{}).WithDefaults() != DefaultPaths() {
		t.Fatal("an empty Paths should become DefaultPaths")
	}
}
