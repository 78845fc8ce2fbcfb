package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a webhook receiver that answers each event's attempts with
// statuses in turn (the last one from then on) and keeps what it got.
type receiver struct {
	mu       sync.Mutex
	statuses map[string][]int
	got      []receivedHook
}

type receivedHook struct {
	contentType string
	headers     http.Header
	body        map[string]any
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.got = append(rc.got, receivedHook{contentType: r.Header.Get("Content-Type"), headers: r.Header.Clone(), body: body})
	event, _ := body["webhook_event_type"].(string)
	status := http.StatusAccepted
	if st := rc.statuses[event]; len(st) > 0 {
		status = st[0]
		if len(st) > 1 {
			rc.statuses[event] = st[1:]
		}
	}
	w.WriteHeader(status)
}

func (rc *receiver) events() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []string
	for _, h := range rc.got {
		out = append(out, h.body["webhook_event_type"].(string)+"/"+h.body["webhook_object_type"].(string))
	}
	return out
}

func startWithReceiver(t *testing.T, statuses map[string][]int) (string, *receiver) {
	rc := &receiver{statuses: statuses}
	hs := httptest.NewServer(rc)
	t.Cleanup(hs.Close)
	_, base := StartForTest(t, Options{Seed: 3, Memberships: 30, Webhooks: WebhookOptions{URL: hs.URL + "/hooks/s3cret", RetryWait: 10 * time.Millisecond}})
	return base, rc
}

// changeOver posts to the control route and decodes its answer.
func changeOver(t *testing.T, base, id string, change Change) ChangeResult {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+ControlPathPrefix+id+"/"+string(change), nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", change, id, resp.StatusCode, b)
	}
	var res ChangeResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// activeID is the _id of the first active membership.
func activeID(t *testing.T, base string) string {
	t.Helper()
	recs := decodeArray(t, get(t, base, "/api/v1/organizations/me/memberships", q("status", "100")))
	var m struct {
		ID string `json:"_id"`
	}
	if len(recs) == 0 || json.Unmarshal(recs[0], &m) != nil {
		t.Fatal("no active membership")
	}
	return m.ID
}

// served is the membership with that _id as the list serves it now.
func served(t *testing.T, base, id string, status string) map[string]any {
	t.Helper()
	qv := q("count", "1000")
	if status != "" {
		qv.Set("status", status)
	}
	for _, raw := range decodeArray(t, get(t, base, "/api/v1/organizations/me/memberships", qv)) {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		if m["_id"] == id {
			return m
		}
	}
	return nil
}

func TestCancelServesTheChangeAndSendsItsEventsOnce(t *testing.T) {
	t.Parallel()
	// The receiver fails every membership event: each still gets one attempt.
	base, rc := startWithReceiver(t, map[string][]int{"memberships.inactive": {500}, "memberships.updated": {500}, "memberships.all": {500}})
	id := activeID(t, base)
	res := changeOver(t, base, id, ChangeCancel)
	if res.Status != 350 || len(res.Deliveries) != 3 {
		t.Fatalf("result %+v", res)
	}
	for _, d := range res.Deliveries {
		if d.Attempts != 1 || d.Status != 500 {
			t.Errorf("%s: %d attempts, last %d; want one attempt (membership events are not retried)", d.Event, d.Attempts, d.Status)
		}
	}
	want := "memberships.inactive/memberships memberships.updated/memberships memberships.all/memberships"
	if got := strings.Join(rc.events(), " "); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if m := served(t, base, id, "100"); m != nil {
		t.Errorf("the cancelled membership is still served as active")
	}
	m := served(t, base, id, "")
	if m == nil || m["status"] != float64(350) {
		t.Fatalf("served after cancel: %v", m)
	}
	hook := rc.got[0]
	if hook.contentType != "application/json" || hook.body["_id"] != id || hook.body["email"] != m["email"] || hook.body["updated"] != m["updated"] {
		t.Errorf("the webhook is not the flat record: %s %v", hook.contentType, hook.body)
	}
	for name := range hook.headers {
		if name != "Content-Type" && name != "Content-Length" && name != "User-Agent" && name != "Accept-Encoding" {
			t.Errorf("the webhook carries header %s; the service adds none of its own", name)
		}
	}
}

func TestRenewAndExpireSetStatusAndExpiration(t *testing.T) {
	t.Parallel()
	base, rc := startWithReceiver(t, nil)
	id := activeID(t, base)
	before := time.Now().UTC()
	changeOver(t, base, id, ChangeExpire)
	m := served(t, base, id, "300")
	if m == nil {
		t.Fatal("the expired membership is not served with status 300")
	}
	exp, err := time.Parse("2006-01-02T15:04:05.000Z", m["expiration_date"].(string))
	if err != nil || exp.Before(before.Truncate(time.Millisecond)) || exp.After(time.Now()) {
		t.Errorf("expiration_date after expire: %v (%v)", m["expiration_date"], err)
	}
	changeOver(t, base, id, ChangeRenew)
	m = served(t, base, id, "100")
	if m == nil {
		t.Fatal("the renewed membership is not served as active")
	}
	if exp, _ := time.Parse("2006-01-02T15:04:05.000Z", m["expiration_date"].(string)); exp.Before(before.AddDate(1, 0, -1)) {
		t.Errorf("expiration_date after renew: %v, want a year on", m["expiration_date"])
	}
	if got := rc.events()[3:]; strings.Join(got, " ") != "memberships.renewal/memberships memberships.updated/memberships memberships.all/memberships" {
		t.Errorf("renew sent %v", got)
	}
}

func TestCreateServesANewActiveMembershipAndSendsItsEvents(t *testing.T) {
	t.Parallel()
	base, rc := startWithReceiver(t, nil)
	before := len(decodeArray(t, get(t, base, "/api/v1/organizations/me/memberships", q("count", "1000"))))
	res := changeOver(t, base, "", "")
	if res.ID == "" || res.Status != 100 || len(res.Deliveries) != 2 {
		t.Fatalf("result %+v", res)
	}
	m := served(t, base, res.ID, "100")
	if m == nil {
		t.Fatalf("the created membership %s is not served as active", res.ID)
	}
	if after := len(decodeArray(t, get(t, base, "/api/v1/organizations/me/memberships", q("count", "1000")))); after != before+1 {
		t.Errorf("%d memberships after the create, want %d", after, before+1)
	}
	if created, _ := time.Parse("2006-01-02T15:04:05.000Z", m["created"].(string)); time.Since(created) > time.Minute {
		t.Errorf("created %v: want now", m["created"])
	}
	if got := strings.Join(rc.events(), " "); got != "memberships.created/memberships memberships.all/memberships" {
		t.Errorf("create sent %s", got)
	}
	if rc.got[0].body["_id"] != res.ID || rc.got[0].body["email"] != m["email"] {
		t.Errorf("the webhook is not the new record: %v", rc.got[0].body)
	}
	// A second one is another membership.
	if again := changeOver(t, base, "", ""); again.ID == res.ID {
		t.Errorf("two creates gave the same _id %s", res.ID)
	}
}

// An e-mail change sends memberships.updated and memberships.all
// (API.md#event-types), once each, and each carries the
// record with its new address and updated time.
func TestEmailChangeSendsUpdatedAndAllWithTheNewAddress(t *testing.T) {
	t.Parallel()
	// The receiver fails both: each still gets one attempt.
	base, rc := startWithReceiver(t, map[string][]int{"memberships.updated": {500}, "memberships.all": {500}})
	id, old := activeWithEmail(t, base)
	status, body := postEmail(t, base, id, `{"email": "Grace.Hopper@Example.NET"}`)
	if status != http.StatusOK {
		t.Fatalf("POST %s/email: %d %s", id, status, body)
	}
	var res ChangeResult
	_ = json.Unmarshal(body, &res)
	for _, d := range res.Deliveries {
		if d.Attempts != 1 || d.Status != 500 {
			t.Errorf("%s: %d attempts, last %d; want one attempt (membership events are not retried)", d.Event, d.Attempts, d.Status)
		}
	}
	want := "memberships.updated/memberships memberships.all/memberships"
	if got := strings.Join(rc.events(), " "); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	m := served(t, base, id, "")
	for _, hook := range rc.got {
		if hook.body["_id"] != id || hook.body["email"] != "Grace.Hopper@Example.NET" || hook.body["updated"] != m["updated"] || hook.body["status"] != m["status"] {
			t.Errorf("%s carries _id %v, email %v (was %s), updated %v, status %v; want %s, Grace.Hopper@Example.NET, %v, %v",
				hook.body["webhook_event_type"], hook.body["_id"], hook.body["email"], old, hook.body["updated"], hook.body["status"], id, m["updated"], m["status"])
		}
	}
}

func TestCheckInRetriesTheCheckInFamilyUpToThreeTimes(t *testing.T) {
	t.Parallel()
	base, rc := startWithReceiver(t, map[string][]int{"check_ins.created": {503}, "check_ins.all": {503, 500, 500, 200}})
	res := changeOver(t, base, activeID(t, base), ChangeCheckIn)
	got := map[string]Delivery{}
	for _, d := range res.Deliveries {
		got[d.Event] = d
	}
	if d := got["check_ins.created"]; d.Attempts != 1 {
		t.Errorf("check_ins.created: %d attempts, want 1 (Check-ins Created is tried once)", d.Attempts)
	}
	if d := got["check_ins.all"]; d.Attempts != 3 || d.Status != 500 {
		t.Errorf("check_ins.all: %d attempts, last %d; want 3 and the last 500", d.Attempts, d.Status)
	}
	// The payload of both is the membership (API.md#event-types: check_ins.created's _id is the membership's).
	if got := strings.Join(rc.events(), " "); got != "check_ins.created/memberships check_ins.all/memberships check_ins.all/memberships check_ins.all/memberships" {
		t.Errorf("the receiver got %s", got)
	}
}

func TestControlRouteRefusals(t *testing.T) {
	t.Parallel()
	base, rc := startWithReceiver(t, nil)
	id := activeID(t, base)
	for _, c := range []struct {
		method, path, token string
		want                int
	}{
		{http.MethodPost, id + "/cancel", "", http.StatusUnauthorized},
		{http.MethodGet, id + "/cancel", DefaultToken, http.StatusMethodNotAllowed},
		{http.MethodPost, "no-such-id/cancel", DefaultToken, http.StatusNotFound},
		{http.MethodPost, id + "/delete", DefaultToken, http.StatusBadRequest},
	} {
		req, _ := http.NewRequestWithContext(context.Background(), c.method, base+ControlPathPrefix+c.path, nil)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.want)
		}
	}
	if n := len(rc.events()); n != 0 {
		t.Errorf("refused changes sent %d webhooks", n)
	}
	if m := served(t, base, id, "100"); m == nil {
		t.Errorf("a refused change changed the membership")
	}
}
