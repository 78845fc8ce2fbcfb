package sandbox

import "strconv"

// What a seeded data set holds, for users writing filters against the
// sandbox (joinit-sandbox -h and -v, CONTRIBUTING.md) without calling the API.

// MembershipType is one of the membership types every data set uses.
type MembershipType struct {
	ID   string // the records' membership_type; it depends on the seed
	Name string // the records' membership_name
}

// MembershipTypes lists the membership types of the data set of this seed,
// in the order of their shares of the memberships (50, 20, 20 and 10%).
func MembershipTypes(seed int64) []MembershipType {
	g := newGenerator(seed)
	out := make([]MembershipType, len(membershipTypes))
	for i, t := range membershipTypes {
		out[i] = MembershipType{ID: g.typeIDs[i], Name: t.name}
	}
	return out
}

// GroupNames lists the names of a data set's first n groups, whatever the
// seed: the base names in turn, then again with " 2", " 3", ...
func GroupNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = groupName(uint32(i))
	}
	return out
}

func groupName(seq uint32) string {
	name := groupNames[int(seq)%len(groupNames)]
	if n := int(seq) / len(groupNames); n > 0 {
		name += " " + strconv.Itoa(n+1)
	}
	return name
}
