package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The public test API: what a test changes and reads of a running Server,
// and the control route that offers the changes over HTTP.

// ChangeMembership applies change to the membership with that _id, so the
// list endpoints serve it changed from now on, and, with a webhook receiver
// set, sends the change's events to it before returning. ChangeEmail is
// not one of its changes: it takes the new address.
func (s *Server) ChangeMembership(id string, change Change) (ChangeResult, error) {
	if change == ChangeEmail {
		return ChangeResult{}, fmt.Errorf("%q takes the new address: call ChangeEmail", change)
	}
	if _, ok := eventsOf[change]; !ok {
		return ChangeResult{}, fmt.Errorf("%q is not a change (%v)", change, Changes)
	}
	return s.change(id, change, "")
}

// ChangeEmail gives the membership with that _id a new e-mail address, as
// a member who changes theirs in the service: the record's email becomes
// email exactly as given (the service keeps the case the member typed),
// its updated time now, and, with a webhook receiver set, it sends
// memberships.updated and memberships.all (API.md#event-types) before
// returning. An address that is empty (or only spaces) or
// has no @ is refused with an error wrapping ErrBadEmail, and nothing
// changes or is sent.
func (s *Server) ChangeEmail(id, email string) (ChangeResult, error) {
	if err := checkEmail(email); err != nil {
		return ChangeResult{}, err
	}
	return s.change(id, ChangeEmail, email)
}

// change applies a change ChangeMembership or ChangeEmail checked, and
// sends its events.
func (s *Server) change(id string, change Change, email string) (ChangeResult, error) {
	rec, err := s.data.changeMembership(id, change, email, time.Now())
	if err != nil {
		return ChangeResult{}, err
	}
	res := ChangeResult{ID: id, Deliveries: []Delivery{}}
	_ = json.Unmarshal(rec["status"], &res.Status)
	for _, ev := range eventsOf[change] {
		res.Deliveries = append(res.Deliveries, s.hooks.deliver(ev, rec))
	}
	return res, nil
}

// CreateMembership adds an active membership at the end of the list, as a
// member who joins through the service, and, with a webhook receiver set,
// sends memberships.created and memberships.all (API.md#event-types) before
// returning.
func (s *Server) CreateMembership() (ChangeResult, error) {
	rec, err := s.data.createMembership(time.Now())
	if err != nil {
		return ChangeResult{}, err
	}
	res := ChangeResult{Status: 100, Deliveries: []Delivery{}}
	_ = json.Unmarshal(rec["_id"], &res.ID)
	for _, ev := range []string{"memberships.created", "memberships.all"} {
		res.Deliveries = append(res.Deliveries, s.hooks.deliver(ev, rec))
	}
	return res, nil
}

// SetFaults replaces the server's faults. It is safe while serving, and it
// resets the per-page attempt counters and the once-only insert.
func (s *Server) SetFaults(f Faults) { s.flt.set(f) }

// Requests returns how many requests an endpoint received ("memberships",
// "payments", "groups", "org_metrics"), counting every attempt: faulted,
// unauthorized and bad ones too. "" returns the total, unknown paths
// included. A request is counted when it arrives, before any Latency.
func (s *Server) Requests(endpoint string) int {
	c := &s.ctr
	c.mu.Lock()
	defer c.mu.Unlock()
	if endpoint == "" {
		return c.total
	}
	for i, name := range endpointNames {
		if name == endpoint {
			return c.by[i]
		}
	}
	return 0
}

// ResetCounters zeroes the request counts and empties RequestLog. It does not
// touch the fault attempt counters (SetFaults does that).
func (s *Server) ResetCounters() {
	c := &s.ctr
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total, c.by, c.log, c.next = 0, [numEndpoints]int{}, nil, 0
}

// RequestLog returns the completed requests, oldest first; only the latest
// 10,000 are kept. A request is logged when its answer is finished.
func (s *Server) RequestLog() []RequestRecord {
	c := &s.ctr
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]RequestRecord, 0, len(c.log))
	out = append(out, c.log[c.next:]...)
	return append(out, c.log[:c.next]...)
}

// raw copies the list of record slices (not the bytes) as json.RawMessage.
func raw(recs [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(recs))
	for i, r := range recs {
		out[i] = json.RawMessage(r)
	}
	return out
}

// MembershipsJSON returns the memberships in server order (after any
// inserts), filtered by status when status is non-nil, exactly as the server
// encodes them. The bytes are shared with the server: do not modify them.
func (s *Server) MembershipsJSON(status *int) []json.RawMessage {
	return raw(s.data.records(epMemberships, status))
}

// MembershipsArrayJSON is MembershipsJSON as one JSON array, as a client
// that read every page would hold it (benchmarks decode it whole).
func (s *Server) MembershipsArrayJSON(status *int) []byte {
	recs := s.data.records(epMemberships, status)
	return appendArray(make([]byte, 0, arrayLen(recs)), recs)
}

// PaymentsJSON returns the payments in server order (after any inserts).
// The bytes are shared with the server: do not modify them.
func (s *Server) PaymentsJSON() []json.RawMessage { return raw(s.data.records(epPayments, nil)) }

// GroupsJSON returns the groups in server order (after any inserts). The
// bytes are shared with the server: do not modify them.
func (s *Server) GroupsJSON() []json.RawMessage { return raw(s.data.records(epGroups, nil)) }

// OrgMetricsJSON returns the org metrics records in server order. The bytes
// are shared with the server: do not modify them.
func (s *Server) OrgMetricsJSON() []json.RawMessage { return raw(s.data.records(epOrgMetrics, nil)) }

// RecordsJSON returns the records of the endpoint of that name (an
// apispec endpoint name) in server order; nil for an unknown name. The
// bytes are shared with the server: do not modify them.
func (s *Server) RecordsJSON(endpoint string) []json.RawMessage {
	for ep, name := range endpointNames {
		if name == endpoint {
			return raw(s.data.records(ep, nil))
		}
	}
	return nil
}

// OrganizationID is the organization_id every generated record carries:
// what a client's organization guard must be set to for this sandbox.
func (s *Server) OrganizationID() string { return s.data.gen.orgID }

// serveControl answers the control route: POST
// ControlPathPrefix{_id}/{change}, or ControlPathPrefix alone to create;
// ControlPathPrefix{_id}/email takes the new address as a JSON body,
// {"email": "<address>"}.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) int {
	rest := strings.TrimPrefix(r.URL.Path, s.prefix+ControlPathPrefix)
	id, change, _ := strings.Cut(rest, "/")
	return s.control(w, r, id, Change(change))
}

// maxControlBody bounds the control route's body: an address is short.
const maxControlBody = 4 << 10

func (s *Server) control(w http.ResponseWriter, r *http.Request, id string, change Change) int {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "only POST changes a membership")
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="joinit-sandbox"`)
		return writeError(w, http.StatusUnauthorized, "unauthorized", "missing or invalid bearer token")
	}
	var res ChangeResult
	var err error
	switch {
	case id == "" && change == "":
		res, err = s.CreateMembership()
	case change == ChangeEmail:
		var body struct {
			Email string `json:"email"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxControlBody))
		dec.DisallowUnknownFields()
		if derr := dec.Decode(&body); derr != nil {
			return writeError(w, http.StatusBadRequest, "bad_request", `the e-mail change takes the new address as a JSON body, {"email": "ada@example.org"}: `+derr.Error())
		}
		res, err = s.ChangeEmail(id, body.Email)
	default:
		res, err = s.ChangeMembership(id, change)
	}
	switch {
	case errors.Is(err, ErrNoSuchMembership):
		return writeError(w, http.StatusNotFound, "not_found", "no membership has that _id")
	case errors.Is(err, ErrBadEmail):
		return writeError(w, http.StatusBadRequest, "bad_request", err.Error())
	case err != nil:
		return writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf(`the change must be one of %v, or %s with the new address as a JSON body, {"email": "ada@example.org"}`, Changes, ChangeEmail))
	}
	b, _ := json.Marshal(res)
	return writeJSON(w, http.StatusOK, b)
}
