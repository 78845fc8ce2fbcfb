package sandbox

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestMembershipTypesAreThoseOfTheRecords: the listed types are exactly the
// (membership_type, membership_name) pairs the memberships carry.
func TestMembershipTypesAreThoseOfTheRecords(t *testing.T) {
	for _, seed := range []int64{1, 42} {
		s := New(Options{Seed: seed, Memberships: 400})
		seen := map[MembershipType]bool{}
		for _, raw := range s.MembershipsJSON(nil) {
			var m struct {
				Type string `json:"membership_type"`
				Name string `json:"membership_name"`
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			seen[MembershipType{ID: m.Type, Name: m.Name}] = true
		}
		listed := MembershipTypes(seed)
		for _, mt := range listed {
			if !seen[mt] {
				t.Errorf("seed %d: listed type %+v is on no membership", seed, mt)
			}
			delete(seen, mt)
		}
		for mt := range seen {
			t.Errorf("seed %d: memberships carry type %+v, which MembershipTypes does not list (%+v)", seed, mt, listed)
		}
	}
}

// TestGroupNamesAreThoseOfTheRecords: the listed names are the groups'
// names, in order, past the first round of base names too.
func TestGroupNamesAreThoseOfTheRecords(t *testing.T) {
	const n = 23
	s := New(Options{Seed: 5, Groups: n})
	var got []string
	for _, raw := range s.GroupsJSON() {
		var g struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatal(err)
		}
		got = append(got, g.Name)
	}
	if want := GroupNames(n); !slices.Equal(got, want) {
		t.Errorf("groups are named %q, GroupNames lists %q", got, want)
	}
}
