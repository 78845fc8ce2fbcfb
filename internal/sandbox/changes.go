package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Change is what ChangeMembership (or ChangeEmail) does to a membership,
// as a member or an administrator would in the service; each emits the
// webhook events API.md#event-types lists for it.
type Change string

const (
	ChangeCancel  Change = "cancel"   // status 350 (cancelled): inactive, updated, all
	ChangeExpire  Change = "expire"   // status 300 (expired), expiration_date now: inactive, updated, all
	ChangeRenew   Change = "renew"    // status 100, expiration_date a year on: renewal, updated, all
	ChangeCheckIn Change = "check-in" // no change to the record: check_ins.created and check_ins.all
	// ChangeEmail is ChangeEmail's: the address it is given, kept as given
	// (case and all, as the service keeps what the member typed): updated, all.
	ChangeEmail Change = "email"
)

// Changes are the changes ChangeMembership takes, in the order -h lists them.
// ChangeEmail is not among them: it takes the new address (ChangeEmail).
var Changes = []Change{ChangeCancel, ChangeExpire, ChangeRenew, ChangeCheckIn}

// ControlPathPrefix is the sandbox's own route (not the API's) that changes
// a membership: POST /sandbox/memberships/{_id}/{change}, with the bearer
// token; {change} email takes the new address as a JSON body,
// {"email": "<address>"} (ChangeEmail); POST /sandbox/memberships/ (no _id)
// creates one (CreateMembership). It answers 200 with the ChangeResult as
// JSON; a refused address, 400 saying why.
const ControlPathPrefix = "/sandbox/memberships/"

// ErrNoSuchMembership is ChangeMembership's error for an unknown _id.
var ErrNoSuchMembership = errors.New("no membership has that _id")

// ErrBadEmail is ChangeEmail's error for an address it refuses: empty, or
// without an @. The error wrapping it says which.
var ErrBadEmail = errors.New("not an e-mail address")

// checkEmail refuses what no member could type as an address: nothing (or
// only spaces), or text without an @. Anything else is kept as given.
func checkEmail(email string) error {
	switch {
	case strings.TrimSpace(email) == "":
		return fmt.Errorf("%w: the new address is empty", ErrBadEmail)
	case !strings.Contains(email, "@"):
		return fmt.Errorf("%w: the new address %q has no @", ErrBadEmail, email)
	}
	return nil
}

// ChangeResult says what ChangeMembership did and how each webhook went.
type ChangeResult struct {
	ID         string     `json:"_id"`
	Status     int        `json:"status"`
	Deliveries []Delivery `json:"deliveries"` // empty without Options.Webhooks.URL
}

// eventsOf are the events a change emits (API.md#event-types).
var eventsOf = map[Change][]string{
	ChangeCancel:  {"memberships.inactive", "memberships.updated", "memberships.all"},
	ChangeExpire:  {"memberships.inactive", "memberships.updated", "memberships.all"},
	ChangeRenew:   {"memberships.renewal", "memberships.updated", "memberships.all"},
	ChangeCheckIn: {"check_ins.created", "check_ins.all"},
	// The table: memberships.all when a membership's e-mail changes, and
	// memberships.updated when the e-mail changes.
	ChangeEmail: {"memberships.updated", "memberships.all"},
}

// createMembership appends a generated active membership, created now.
// Like an insert, it builds new slices and swaps them in.
func (d *dataset) createMembership(now time.Time) (map[string]json.RawMessage, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.batches++
	r := d.gen.rng(streamInsert | uint64(d.batches)<<8 | uint64(epMemberships))
	m := d.gen.membership(r, d.nextSeq[epMemberships], 100, nil)
	d.nextSeq[epMemberships]++
	m.Created, m.Joined, m.Updated = apiTimestamp(now), apiTimestamp(now), apiTimestamp(now)
	e := newEncoder()
	e.add(&m)
	b := e.records()[0]
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	d.lists[epMemberships] = append(slices.Clip(d.lists[epMemberships]), b)
	d.statuses = append(slices.Clip(d.statuses), 100)
	d.indexStatuses()
	return rec, nil
}

// changeMembership rewrites one membership's record; email is the new
// address of ChangeEmail, unused by the others. Like an insert, it builds
// new slices and swaps them in, so a page being served is never torn.
func (d *dataset) changeMembership(id string, change Change, email string, now time.Time) (map[string]json.RawMessage, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	recs := d.lists[epMemberships]
	i := slices.IndexFunc(recs, func(r []byte) bool { return recordID(r) == id })
	if i < 0 {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchMembership, id)
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(recs[i], &rec); err != nil {
		return nil, err
	}
	status := d.statuses[i]
	set := func(name string, v any) { rec[name], _ = json.Marshal(v) }
	switch change {
	case ChangeCancel:
		status = 350
	case ChangeExpire:
		status = 300
		set("expiration_date", apiTimestamp(now))
	case ChangeRenew:
		status = 100
		set("expiration_date", apiTimestamp(now.AddDate(1, 0, 0)))
	case ChangeEmail:
		set("email", email)
	}
	if change != ChangeCheckIn {
		set("status", status)
		set("updated", apiTimestamp(now))
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	d.lists[epMemberships] = slices.Clone(recs)
	d.lists[epMemberships][i] = b
	d.statuses = slices.Clone(d.statuses)
	d.statuses[i] = status
	d.indexStatuses()
	return rec, nil
}

// recordID is a record's _id; "" when it has none.
func recordID(rec []byte) string {
	var v struct {
		ID string `json:"_id"`
	}
	if !bytes.Contains(rec, []byte(`"_id"`)) || json.Unmarshal(rec, &v) != nil {
		return ""
	}
	return v.ID
}
