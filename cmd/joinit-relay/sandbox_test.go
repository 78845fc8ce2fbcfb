package main

import (
	"encoding/json"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The whole loop offline: the sandbox cancels a member and sends the
// service's three webhooks for it; the relay owes and starts one run.
func TestSandboxCancellationStartsOneRun(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "200ms", "-run-command", appendRun)
	s, _ := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 20, Webhooks: sandbox.WebhookOptions{URL: r.hookURL}})
	var m struct {
		ID    string `json:"_id"`
		Email string `json:"email"`
	}
	active := 100
	if err := json.Unmarshal(s.MembershipsJSON(&active)[0], &m); err != nil {
		t.Fatal(err)
	}
	res, err := s.ChangeMembership(m.ID, sandbox.ChangeCancel)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Deliveries {
		if d.Status != 202 || d.Attempts != 1 {
			t.Errorf("%s: %d after %d attempts, want 202 after 1", d.Event, d.Status, d.Attempts)
		}
	}
	testutil.Eventually(t, "the run starts", func() bool { return r.runCount() == 1 })
	r.waitIdle()
	if n := r.runCount(); n != 1 {
		t.Errorf("one cancellation (three webhooks) started %d runs, want 1", n)
	}
	r.secrets = append(r.secrets, m.Email) // the member's own address must not be logged either
}
