package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// A lookup finds memberships by id, e-mail or external id. The API has no
// endpoint for one membership, so a lookup reads the list; what makes it
// cheap is that every lookup of one query in a run shares one read and one
// index of it. The index is kept for the rest of the run whatever the
// list's size (unlike a list result over the cache's retainUpTo): a plan
// with a `for_each` of two hundred lookups asks it two hundred times, and
// reading the list again for each would be two hundred reads. What it
// keeps is the read's records, once, and per key a map from the key to
// their positions, built at the first lookup by that key.

// MembershipKey is what a lookup matches on.
type MembershipKey int

const (
	// ByID matches the membership's _id exactly.
	ByID MembershipKey = iota
	// ByEmail matches its e-mail without regard to case (strings.ToLower
	// of both sides): the API stores an address as it was typed, and mail
	// systems treat Ana@Example.com and ana@example.com as one mailbox.
	ByEmail
	// ByExternalID matches its external_id exactly.
	ByExternalID
)

func (k MembershipKey) String() string {
	switch k {
	case ByID:
		return "id"
	case ByEmail:
		return "email"
	case ByExternalID:
		return "external_id"
	}
	return fmt.Sprintf("MembershipKey(%d)", int(k))
}

// MembershipLookup is the answer to one lookup.
type MembershipLookup struct {
	// Matches are the memberships that match, in API order.
	Matches []Membership
	// Read is how many memberships the query's read returned: the ones
	// looked among.
	Read int
}

// LookupMembership returns the memberships q selects whose key equals
// value. q.Fields is ignored: a lookup returns whole records. The read is
// the one Memberships makes of the same query: a Memberships read that
// overlaps the lookups (as Terraform's concurrent reads of one plan do) or
// comes after the first of them shares it. One that finished before the
// first lookup began is shared only when the cache kept it (retainUpTo);
// otherwise the first lookup reads the list again, once.
func (c *Client) LookupMembership(ctx context.Context, q MembershipQuery, key MembershipKey, value string) (MembershipLookup, error) {
	if key < ByID || key > ByExternalID {
		return MembershipLookup{}, fmt.Errorf("no such lookup key: %v", key)
	}
	q.Fields = nil
	status := "any"
	if q.Status != nil {
		status = fmt.Sprint(*q.Status)
	}
	cacheKey := fmt.Sprintf("membership index|status=%s|size=%d|raw=%t", status, q.PageSize, q.KeepRaw)
	idx, err := get(ctx, c.cache, cacheKey, func(ctx context.Context) (*membershipIndex, error) {
		// The list read is retained too: the index holds its records
		// anyway, and a joinit_memberships of the same query read later
		// then costs nothing.
		recs, err := readMemberships[Membership](ctx, c, listRead[Membership]{kind: "full", retain: true}, q)
		if err != nil {
			return nil, err
		}
		return &membershipIndex{records: recs}, nil
	}, func(*membershipIndex) int { return 0 }) // always kept: see the top of this file
	if err != nil {
		return MembershipLookup{}, err
	}
	at := idx.positions(key)[normalized(key, value)]
	out := MembershipLookup{Read: len(idx.records), Matches: make([]Membership, len(at))}
	for i, p := range at {
		out.Matches[i] = idx.records[p]
	}
	c.cfg.Logger.Debug(ctx, "membership lookup", map[string]any{"key": key.String(), "matches": len(at), "looked_among": len(idx.records)})
	return out, nil
}

// membershipIndex is one query's records and, per key, where each value
// of the key is among them.
type membershipIndex struct {
	records []Membership // shared: never modified
	once    [3]sync.Once
	by      [3]map[string][]int32
}

// positions is the map of key, built at its first use.
func (x *membershipIndex) positions(key MembershipKey) map[string][]int32 {
	x.once[key].Do(func() {
		m := make(map[string][]int32, len(x.records))
		for i := range x.records {
			if v := keyValue(&x.records[i], key); v != nil {
				k := normalized(key, *v)
				m[k] = append(m[k], int32(i)) //nolint:gosec // a list read holds far fewer than 2^31 records (MaxPages × 1,000)
			}
		}
		x.by[key] = m
	})
	return x.by[key]
}

func keyValue(m *Membership, key MembershipKey) *string {
	switch key {
	case ByEmail:
		return m.Email
	case ByExternalID:
		return m.ExternalID
	default:
		return m.ID
	}
}

// normalized is the form of a value the index compares: e-mails in lower
// case, the rest as they are.
func normalized(key MembershipKey, v string) string {
	if key == ByEmail {
		return strings.ToLower(v)
	}
	return v
}
