package provider

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"Corporate", "Individual", "Student", "Board", "Family", "CORPORATE"}
	for _, tc := range []struct {
		v    string
		want []string
	}{
		{"corporate", []string{"CORPORATE", "Corporate"}}, // case first, both spellings
		{"Corprate", []string{"Corporate"}},               // one letter dropped
		{"Studnet", []string{"Student"}},                  // two letters swapped
		{"Boad", []string{"Board"}},
		{"Platinum", nil}, // nothing near
		{"Student", nil},  // present: nothing to suggest
		{"", nil},         // nothing near an empty value but short names within 2
	} {
		got := closest(tc.v, names)
		if !slices.Equal(got, tc.want) {
			t.Errorf("closest(%q) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := didYouMean("Boad", names); got != ` Did you mean "Board"?` {
		t.Errorf("didYouMean = %q", got)
	}
	if got := didYouMean("corporate", names); got != ` Did you mean "CORPORATE" or "Corporate"?` {
		t.Errorf("didYouMean = %q", got)
	}
}
