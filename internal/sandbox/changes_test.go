package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The e-mail change: the record's address and updated time, the address
// kept as given, and the addresses it refuses. Its webhooks:
// TestEmailChangeSendsUpdatedAndAllWithTheNewAddress (webhooks_test.go).

// startWithReceiverServer is startWithReceiver with the Server too, for the
// Go API.
func startWithReceiverServer(t *testing.T) (*Server, string, *receiver) {
	t.Helper()
	rc := &receiver{}
	hs := httptest.NewServer(rc)
	t.Cleanup(hs.Close)
	s, base := StartForTest(t, Options{Seed: 3, Memberships: 30, Webhooks: WebhookOptions{URL: hs.URL + "/hooks/s3cret", RetryWait: 10 * time.Millisecond}})
	return s, base, rc
}

// postEmail posts body to the control route's e-mail change of id, and
// returns the status and the answer's body.
func postEmail(t *testing.T, base, id, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+ControlPathPrefix+id+"/"+string(ChangeEmail), rd)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// activeWithEmail is the _id and address of the first active membership
// that has an address with a letter in it.
func activeWithEmail(t *testing.T, base string) (id, email string) {
	t.Helper()
	for _, raw := range decodeArray(t, get(t, base, "/api/v1/organizations/me/memberships", q("status", "100", "count", "1000"))) {
		var m struct {
			ID    string  `json:"_id"`
			Email *string `json:"email"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Email != nil && strings.ToUpper(*m.Email) != *m.Email {
			return m.ID, *m.Email
		}
	}
	t.Fatal("no active membership with an address")
	return "", ""
}

// apiTime parses a timestamp as the API writes it.
func apiTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	at, err := time.Parse("2006-01-02T15:04:05.000Z", s)
	if err != nil {
		t.Fatalf("timestamp %v: %v", v, err)
	}
	return at
}

func TestEmailChangeServesTheNewAddress(t *testing.T) {
	t.Parallel()
	_, base, _ := startWithReceiverServer(t)
	id, _ := activeWithEmail(t, base)
	was := served(t, base, id, "")
	before := time.Now().UTC().Truncate(time.Millisecond)
	status, body := postEmail(t, base, id, `{"email": "Ada.New+joinit@Example.ORG"}`)
	if status != http.StatusOK {
		t.Fatalf("POST %s/email: %d %s", id, status, body)
	}
	var res ChangeResult
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.ID != id || res.Status != 100 || len(res.Deliveries) != 2 {
		t.Errorf("result %+v: want the membership's _id, its status (100, unchanged) and two deliveries", res)
	}
	m := served(t, base, id, "100") // still active: the address is all that changed
	if m == nil {
		t.Fatal("the membership is no longer served as active after its e-mail changed")
	}
	if m["email"] != "Ada.New+joinit@Example.ORG" {
		t.Errorf("email served after the change: %v, want the new address as given", m["email"])
	}
	if at := apiTime(t, m["updated"]); at.Before(before) || at.After(time.Now()) {
		t.Errorf("updated %v: want the time of the change (after %s)", m["updated"], before.Format(time.RFC3339Nano))
	}
	// Nothing else changed.
	for k := range maps.Keys(was) {
		if k == "email" || k == "updated" {
			continue
		}
		if a, b := jsonText(t, was[k]), jsonText(t, m[k]); a != b {
			t.Errorf("%s changed with the address: %s to %s", k, a, b)
		}
	}
	if len(m) != len(was) {
		t.Errorf("the record had %d fields, has %d", len(was), len(m))
	}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The service keeps the case the member typed: an address changed only in
// case is stored as given, through the Go API as through the route.
func TestEmailChangeOnlyInCaseIsKeptAsGiven(t *testing.T) {
	t.Parallel()
	s, base, rc := startWithReceiverServer(t)
	id, old := activeWithEmail(t, base)
	upper := strings.ToUpper(old)
	if _, err := s.ChangeEmail(id, upper); err != nil {
		t.Fatal(err)
	}
	if got := served(t, base, id, "")["email"]; got != upper {
		t.Errorf("after ChangeEmail(%q): served %v, want it as given", upper, got)
	}
	if got := rc.got[len(rc.got)-1].body["email"]; got != upper {
		t.Errorf("the webhook carries %v, want %q", got, upper)
	}
	// Back to the first spelling, through the route.
	if status, body := postEmail(t, base, id, `{"email":`+jsonText(t, old)+`}`); status != http.StatusOK {
		t.Fatalf("POST %s/email: %d %s", id, status, body)
	}
	if got := served(t, base, id, "")["email"]; got != old {
		t.Errorf("after the route's change to %q: served %v", old, got)
	}
}

func TestEmailChangeRefusesWhatIsNotAnAddress(t *testing.T) {
	t.Parallel()
	s, base, rc := startWithReceiverServer(t)
	id := activeID(t, base)
	was := s.MembershipsJSON(nil)
	for _, c := range []struct {
		id, body string
		status   int
		says     string // in the answer's message
	}{
		{id, `{"email": ""}`, http.StatusBadRequest, "the new address is empty"},
		{id, `{"email": "   "}`, http.StatusBadRequest, "the new address is empty"},
		{id, `{}`, http.StatusBadRequest, "the new address is empty"},
		{id, `{"email": "ada.example.org"}`, http.StatusBadRequest, `the new address "ada.example.org" has no @`},
		{id, ``, http.StatusBadRequest, `takes the new address as a JSON body, {"email": "ada@example.org"}: EOF`},
		{id, `{"address": "ada@example.org"}`, http.StatusBadRequest, `unknown field "address"`},
		{id, `"ada@example.org"`, http.StatusBadRequest, `takes the new address as a JSON body`},
		{"no-such-id", `{"email": "ada@example.org"}`, http.StatusNotFound, "no membership has that _id"},
	} {
		status, body := postEmail(t, base, c.id, c.body)
		var answer errorBody
		_ = json.Unmarshal(body, &answer)
		if status != c.status || !strings.Contains(answer.Message, c.says) {
			t.Errorf("POST %s/email %s: %d %s; want %d saying %s", c.id, c.body, status, body, c.status, c.says)
		}
	}
	// The Go API refuses the same, and ChangeMembership has no address to give.
	for _, email := range []string{"", " ", "ada.example.org"} {
		if _, err := s.ChangeEmail(id, email); !errors.Is(err, ErrBadEmail) {
			t.Errorf("ChangeEmail(%q): %v, want ErrBadEmail", email, err)
		}
	}
	if _, err := s.ChangeMembership(id, ChangeEmail); err == nil || !strings.Contains(err.Error(), "ChangeEmail") {
		t.Errorf("ChangeMembership(id, ChangeEmail): %v, want an error naming ChangeEmail", err)
	}
	if _, err := s.ChangeEmail("no-such-id", "ada@example.org"); !errors.Is(err, ErrNoSuchMembership) {
		t.Errorf("ChangeEmail of an unknown _id: %v", err)
	}
	if n := len(rc.events()); n != 0 {
		t.Errorf("refused changes sent %d webhooks", n)
	}
	if !equalRecords(was, s.MembershipsJSON(nil)) {
		t.Error("a refused change changed the memberships")
	}
}
