package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The whole loop offline: the sandbox cancels a member and sends the
// service's three webhooks for it; the relay owes and starts one run.
// Sent within a quarter of the quiet period they leave it no pause to
// start another (pauses); sent over longer (a loaded machine), each may
// start its own.
func TestSandboxCancellationStartsOneRun(t *testing.T) {
	t.Parallel()
	const quiet = time.Second // the sandbox takes tens of milliseconds a webhook
	r := startRelay(t, relayOptions{}, "-quiet-period", quiet.String(), "-run-command", appendRun)
	// An attempt that times out is a failed delivery: the hang limit, not
	// the service's 10 s, which a loaded machine's fsync could reach.
	s, _ := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 20, Webhooks: sandbox.WebhookOptions{URL: r.hookURL, Timeout: hang}})
	var m struct {
		ID    string `json:"_id"`
		Email string `json:"email"`
	}
	active := 100
	if err := json.Unmarshal(s.MembershipsJSON(&active)[0], &m); err != nil {
		t.Fatal(err)
	}
	r.secrets = append(r.secrets, m.Email) // the member's own address must not be logged either
	sent := time.Now()
	res, err := s.ChangeMembership(m.ID, sandbox.ChangeCancel)
	if err != nil {
		t.Fatal(err)
	}
	all := hookTiming{sent, time.Now()} // the three, each sent and answered within it
	for _, d := range res.Deliveries {
		if d.Status != 202 || d.Attempts != 1 {
			t.Errorf("%s: %d after %d attempts, want 202 after 1", d.Event, d.Status, d.Attempts)
		}
	}
	testutil.Eventually(t, "the run starts", func() bool { return r.runCount() >= 1 })
	r.waitIdle()
	most := 1
	if pauses([]hookTiming{all}, quiet) > 0 {
		most = len(res.Deliveries)
	}
	if n := r.runCount(); n < 1 || n > most {
		t.Errorf("one cancellation (three webhooks, sent over %s) started %d runs, want 1 (to %d)", all.latency().Round(time.Millisecond), n, most)
	}
}
