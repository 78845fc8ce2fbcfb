package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// A lookup finds memberships by id, e-mail or external id in the list (the
// API has no endpoint for one): every lookup of one query in a run shares
// one read and one index, kept for the run whatever its size (a for_each
// of 200 lookups is one read).

// MembershipKey is what a lookup matches on.
type MembershipKey int

const (
	// ByID matches the membership's _id exactly.
	ByID MembershipKey = iota
	// ByEmail matches its e-mail without regard to case, as mail does, or
	// to white space around it.
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
	Matches []Membership // in API order
	Read    int          // the memberships looked among
}

// LookupMembership returns the memberships q selects whose key equals
// value, whole (q.Fields is ignored), from the read Memberships makes of
// the same query.
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

// membershipIndex is one query's records and, per key, their positions.
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

// normalized is a value as the index compares it.
func normalized(key MembershipKey, v string) string {
	if key == ByEmail {
		return strings.ToLower(strings.TrimSpace(v)) // as typed at sign-up, or pasted
	}
	return v
}
