//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestEmailChangeOnKeystone: a member who changes their e-mail address,
// through the sandbox's webhooks (memberships.updated and memberships.all)
// and the relay, on a real Keystone, as the OpenStack Keystone page says:
// changed only in case, the user (named by the address, lower-cased) and
// the group stay as they are; changed to another address, one run renames
// the same user (kept by the member's membership, not by the address), so
// its group membership and a role an operator gave it stay, and the group
// loses and gains no one: all under max_removals 0.
func TestEmailChangeOnKeystone(t *testing.T) {
	const quiet = 2 * time.Second
	w := newWorld(t, worldOptions{seed: 49, memberships: 40, quietPeriod: quiet, maxRemovals: 0})
	ctx := context.Background()

	// a. The first apply, as the schedule runs it.
	took, err := w.sync.run()
	if err != nil {
		t.Fatalf("a. the first apply: %v", err)
	}
	if diff := sameSet(w.group(), w.activeEmails()); diff != "" {
		t.Fatalf("a. after the first apply, the group differs from the active members: %s", diff)
	}
	id, email, raw := w.pickOwnAddress()
	user, err := w.keystone.user(ctx, email)
	if err != nil || user == nil || !user.Enabled || !w.group()[email] || user.MembershipID != id {
		t.Fatalf("a. the member's user %s: %+v, %v; want it enabled, in the group, kept by membership %s", email, user, err, id)
	}
	// What an operator hangs on the user's id, which the module never
	// touches.
	if err := w.keystone.grantRole(ctx, user.ID, "admin", "reader"); err != nil {
		t.Fatalf("a. giving the member's user a role: %v", err)
	}
	w.step("a. first apply: the group holds exactly the %d active members (apply %.1fs); the member is %s, their user %s (given the role reader on the project admin)", len(w.activeEmails()), took.Seconds(), email, user.ID)

	// b. The address changed only in case: one run, which changes nothing.
	before := w.group()
	runsBefore := len(w.sync.runs())
	upper := strings.ToUpper(raw)
	if upper == raw {
		t.Fatalf("b. %q has no letter to change in case", raw)
	}
	at := w.changeEmail(id, upper)
	if got := w.rawEmail(id); got != upper {
		t.Fatalf("b. the sandbox serves %q after the change to %q", got, upper)
	}
	w.waitUntil("b. the relay runs the sync after the change in case", func() bool { return len(w.sync.runs()) > runsBefore })
	w.idle()
	run := w.onlyRunSince(runsBefore, "b")
	if log := w.sync.applyLog(run.n); !strings.Contains(log, "Resources: 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("b. the run after the change in case changed something:\n%s", log)
	}
	if diff := sameSet(w.group(), before); diff != "" {
		t.Fatalf("b. after the change in case, the group changed: %s", diff)
	}
	if u, err := w.keystone.user(ctx, email); err != nil || u == nil || u.ID != user.ID || !u.Enabled {
		t.Fatalf("b. after the change in case, the user %s is %+v (%v); want the same user (%s), enabled", email, u, err, user.ID)
	}
	w.step("b. the address changed only in case (%s): one run %.1fs after, which changed nothing; the same user, in the group", upper, time.Since(at).Seconds())

	// c. Another address: in one run, the same user is renamed; the group
	// holds it under its new name, and nothing else changes.
	const newEmail = "Member.Moved@New-Domain.Example"
	newName := strings.ToLower(newEmail)
	if u, err := w.keystone.user(ctx, newName); err != nil || u != nil {
		t.Fatalf("c. Keystone already has a user %s: %+v, %v", newName, u, err)
	}
	runsBefore = len(w.sync.runs())
	at = w.changeEmail(id, newEmail)
	if got := w.rawEmail(id); got != newEmail {
		t.Fatalf("c. the sandbox serves %q after the change to %q", got, newEmail)
	}
	w.waitUntil("c. the group holds the user under the new address, not the old one", func() bool {
		g := w.group()
		return g[newName] && !g[email]
	})
	moved := time.Since(at)
	w.idle()
	run = w.onlyRunSince(runsBefore, "c")
	if log := w.sync.applyLog(run.n); !strings.Contains(log, "Resources: 0 added, 1 changed, 0 destroyed.") {
		t.Fatalf("c. the run after the new address did more than rename one user:\n%s", log)
	}
	u, err := w.keystone.user(ctx, newName)
	if err != nil || u == nil || u.ID != user.ID || !u.Enabled || u.MembershipID != id {
		t.Fatalf("c. the new address's user: %+v, %v; want the same user (%s), enabled, kept by membership %s", u, err, user.ID, id)
	}
	if old, err := w.keystone.user(ctx, email); err != nil || old != nil {
		t.Fatalf("c. a user is still named by the old address: %+v, %v; want it renamed", old, err)
	}
	if ok, err := w.keystone.hasRole(ctx, user.ID, "admin", "reader"); err != nil || !ok {
		t.Fatalf("c. the renamed user's role reader on the project admin: %v, %v; want it kept", ok, err)
	}
	if diff := sameSet(w.group(), w.activeEmails()); diff != "" {
		t.Fatalf("c. after the new address, the group differs from the active members: %s", diff)
	}
	w.step("c. a new address (%s): the same user renamed, in the group under it %.1fs after, by one run under max_removals 0 that changed that user alone (apply %.1fs); its role kept", newEmail, moved.Seconds(), w.lastApply().Seconds())

	w.checkNoOverlap()
	if code := w.planExitCode(); code != 0 {
		t.Fatalf("terraform plan -detailed-exitcode after the runs: exit %d, want 0 (nothing left to change)", code)
	}
	w.step("no two applies overlapped; terraform plan -detailed-exitcode exits 0")
}

// pickOwnAddress is an active membership whose address no other
// membership holds, whatever its status or case (so the address's user is
// this membership's alone): its _id, its address as the module keys it,
// and as Join It keeps it.
func (w *world) pickOwnAddress() (id, email, raw string) {
	w.t.Helper()
	holders := map[string]int{}
	for _, m := range w.members(nil) {
		holders[m.email]++
	}
	active := 100
	for _, m := range w.members(&active) {
		if m.email != "" && holders[m.email] == 1 {
			return m.id, m.email, w.rawEmail(m.id)
		}
	}
	w.t.Fatal("no active membership has an address of its own")
	return "", "", ""
}

// rawEmail is a membership's address as Join It keeps it.
func (w *world) rawEmail(id string) string {
	for _, raw := range w.sandbox.MembershipsJSON(nil) {
		var m struct {
			ID    string `json:"_id"`
			Email string `json:"email"`
		}
		if json.Unmarshal(raw, &m) == nil && m.ID == id {
			return m.Email
		}
	}
	w.t.Fatalf("no membership %s", id)
	return ""
}

// changeEmail gives a membership a new address in the sandbox, which sends
// its webhooks to the relay before returning; each must have been answered
// 202.
func (w *world) changeEmail(id, email string) time.Time {
	w.t.Helper()
	at := time.Now()
	res, err := w.sandbox.ChangeEmail(id, email)
	if err != nil {
		w.t.Fatal(err)
	}
	if len(res.Deliveries) != 2 {
		w.t.Fatalf("the e-mail change sent %+v, want memberships.updated and memberships.all", res.Deliveries)
	}
	w.checkDelivered(res)
	return at
}

// onlyRunSince is the one run since the first n, which must have
// succeeded: the relay is idle, so no other is coming for the webhooks
// already answered.
func (w *world) onlyRunSince(n int, step string) syncRun {
	w.t.Helper()
	runs := w.sync.runs()[n:]
	if len(runs) != 1 || runs[0].exit != 0 {
		w.t.Fatalf("%s. runs since the change: %+v, want exactly one, successful\nlast run:\n%s", step, runs, w.relay.lastRunOutput())
	}
	return runs[0]
}
