//go:build e2e

package e2e

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestOffboardingOnKeystone: a cancelled member leaves a real Keystone
// group through the relay, through Keystone being down and a guard
// tripping, and after the relay is killed.
func TestOffboardingOnKeystone(t *testing.T) {
	const quiet = 2 * time.Second
	w := newWorld(t, worldOptions{seed: 48, memberships: 40, quietPeriod: quiet, maxRemovals: 3})
	taken := map[string]bool{}

	// a. The first apply, as the schedule runs it.
	took, err := w.sync.run()
	if err != nil {
		t.Fatalf("a. the first apply: %v", err)
	}
	want := w.activeEmails()
	if diff := sameSet(w.group(), want); diff != "" {
		t.Fatalf("a. after the first apply, the group differs from the active members: %s", diff)
	}
	w.step("a. first apply: the group holds exactly the %d active members with an address (apply %.1fs)", len(want), took.Seconds())

	// b. A cancellation: gone from the group, the user disabled, not deleted.
	id, email := w.pickActive(taken)
	at := w.cancel(id)
	w.waitUntil("b. the cancelled member leaves the group", w.notInGroup(email))
	gone := time.Since(at)
	w.idle() // the same apply disables the user, maybe after the removal
	u, err := w.keystone.user(context.Background(), email)
	if err != nil || u == nil || u.Enabled {
		t.Fatalf("b. the cancelled member's user: %+v, %v; want it kept, disabled", u, err)
	}
	if diff := sameSet(w.group(), w.activeEmails()); diff != "" {
		t.Fatalf("b. after the cancellation, the group differs from the active members: %s", diff)
	}
	w.step("b. cancelled a member: gone from the group %.1fs after the cancellation (quiet period %s, apply %.1fs); their user is disabled, not deleted", gone.Seconds(), quiet, w.lastApply().Seconds())

	// c. A member who joins: added.
	at = time.Now()
	res, err := w.sandbox.CreateMembership()
	if err != nil {
		t.Fatal(err)
	}
	w.checkDelivered(res)
	joined := w.emailOf(res.ID)
	if joined == "" {
		t.Fatalf("c. the created membership %s has no address", res.ID)
	}
	taken[joined] = true
	w.waitUntil("c. the new member joins the group", w.inGroup(joined))
	w.step("c. a member joined: in the group %.1fs after (apply %.1fs)", time.Since(at).Seconds(), w.lastApply().Seconds())

	// d. Keystone down while a run is owed: the run fails, the relay
	// retries, the member goes once Keystone is back.
	w.servers.stopKeystone()
	w.step("d. Keystone stopped")
	failedBefore := w.relay.failedStarts()
	id, email = w.pickActive(taken)
	at = w.cancel(id)
	w.waitUntil("d. the relay's run fails while Keystone is down, twice", func() bool { return w.relay.failedStarts() >= failedBefore+2 })
	if h, err := w.relay.health(); err != nil || h.FailingFor == nil || !h.RunOwed {
		t.Fatalf("d. /healthz while Keystone is down: %+v, %v; want the run owed and failing_for set", h, err)
	}
	w.step("d. a member cancelled: the apply failed %d times, the run stays owed (/healthz failing_for set)", w.relay.failedStarts()-failedBefore)
	w.servers.startKeystone()
	w.step("d. Keystone started again")
	w.waitUntil("d. the member leaves the group once Keystone is back", w.notInGroup(email))
	w.step("d. gone from the group %.1fs after the cancellation", time.Since(at).Seconds())
	w.idle()
	w.checkNoOverlap()
	if code := w.planExitCode(); code != 0 {
		t.Fatalf("d. terraform plan -detailed-exitcode after the runs: exit %d, want 0 (nothing left to change)", code)
	}
	w.step("d. no two applies overlapped; terraform plan -detailed-exitcode exits 0")

	// e. The sandbox answers another organization's records: the guard
	// stops the apply and the group is unchanged.
	other, otherURL := sandbox.StartForTest(t, sandbox.Options{Seed: 4801, Memberships: 40})
	if other.OrganizationID() == w.sandbox.OrganizationID() {
		t.Fatal("e. the other sandbox has the same organization")
	}
	w.sync.useSandbox(otherURL)
	before := w.group()
	failedBefore = w.relay.failedStarts()
	id, email = w.pickActive(taken)
	at = w.cancel(id)
	w.waitUntil("e. the guard fails the run", func() bool { return w.relay.failedStarts() > failedBefore })
	if out := w.relay.lastRunOutput(); !strings.Contains(out, "Memberships of another organization") {
		t.Fatalf("e. the failed run's output does not name the guard:\n%s", out)
	}
	if diff := sameSet(w.group(), before); diff != "" {
		t.Fatalf("e. the guard failed the run, but the group changed: %s", diff)
	}
	if h, err := w.relay.health(); err != nil || h.FailingFor == nil {
		t.Fatalf("e. /healthz after the guard failed the run: %+v, %v; want failing_for set", h, err)
	}
	w.step("e. the token reads another organization: the guard stopped the apply, the group is unchanged, /healthz shows the failure")
	w.sync.useSandbox(w.url)
	w.waitUntil("e. the member leaves the group once the right organization is read", w.notInGroup(email))
	w.step("e. the right organization again: the member cancelled meanwhile is gone %.1fs after the cancellation", time.Since(at).Seconds())
	w.idle()

	// f. The relay killed right after the 202 of a cancellation.
	runsBefore := len(w.sync.runs())
	id, email = w.pickActive(taken)
	at = w.cancel(id)
	w.relay.kill()
	w.step("f. a member cancelled; joinit-relay killed (SIGKILL) right after its 202s")
	w.relay.start()
	w.step("f. joinit-relay started again")
	w.waitUntil("f. the member leaves the group after the restart", w.notInGroup(email))
	w.idle()
	time.Sleep(2 * quiet) // a second run would start within this
	runs := w.sync.runs()[runsBefore:]
	if len(runs) != 1 || runs[0].exit != 0 {
		t.Fatalf("f. after the restart: runs %+v, want exactly one, successful", runs)
	}
	if n := w.removals(w.userKey(email)); n != 1 {
		t.Fatalf("f. the member's group membership was destroyed %d times in all runs, want once", n)
	}
	w.step("f. gone from the group %.1fs after the cancellation, by one run", time.Since(at).Seconds())

	w.checkNoOverlap()
	if diff := sameSet(w.group(), w.activeEmails()); diff != "" {
		t.Fatalf("at the end, the group differs from the active members: %s", diff)
	}
	w.step("the group holds exactly the active members; %d runs, none overlapping", len(w.sync.runs()))
}

// removals counts the applies that destroyed the group membership of the
// user of that key.
func (w *world) removals(key string) int {
	n := 0
	destroying := `module.group.openstack_identity_user_membership_v3.member["` + key + `"]: Destroying...`
	for _, r := range w.sync.runs() {
		n += strings.Count(w.sync.applyLog(r.n), destroying)
	}
	return n
}

// userKey is the module's key of the address's user (it keeps users by
// the id of the oldest membership of their address), as Keystone holds it.
func (w *world) userKey(email string) string {
	w.t.Helper()
	u, err := w.keystone.user(context.Background(), email)
	if err != nil || u == nil || u.MembershipID == "" {
		w.t.Fatalf("the user of %s: %+v, %v; want one, with its membership id", email, u, err)
	}
	return u.MembershipID
}

// checkNoOverlap fails when a run found another still running, or two
// runs' times overlap.
func (w *world) checkNoOverlap() {
	w.t.Helper()
	if o := w.sync.overlaps(); o != "" {
		w.t.Fatalf("a run started while another ran: %s", o)
	}
	runs := w.sync.runs()
	for i := 1; i < len(runs); i++ {
		if runs[i].start.Before(runs[i-1].end) {
			w.t.Fatalf("run %d started before run %d ended", runs[i].n, runs[i-1].n)
		}
	}
}

// planExitCode is terraform plan -detailed-exitcode's status: 0 no
// changes, 2 changes.
func (w *world) planExitCode() int {
	w.t.Helper()
	cmd := w.sync.terraformCmd("plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", "organization_id="+w.sandbox.OrganizationID())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		w.t.Logf("terraform plan:\n%s", out)
		return 2
	default:
		w.t.Fatalf("terraform plan: %v\n%s", err, out)
		return 1
	}
}
