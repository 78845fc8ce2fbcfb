//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// groupName is the Keystone group examples/use-cases/keystone-group-sync keeps.
const groupName = "joinit-members"

// world is everything one offboarding test runs: Keystone on PostgreSQL,
// the sandbox sending webhooks to a real relay, the relay's runs applying
// the sync, and a timeline of what Keystone shows.
type world struct {
	t        testing.TB
	servers  *servers
	keystone *keystoneAPI
	sandbox  *sandbox.Server
	url      string // the sandbox's base URL
	relay    *relay
	sync     *syncWork
	began    time.Time
}

// worldOptions size a world.
type worldOptions struct {
	seed        int64
	memberships int
	quietPeriod time.Duration
	maxRemovals int
}

func newWorld(t testing.TB, o worldOptions) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{t: t, began: time.Now()}
	relayBinary, tfrc := build(t, dir)
	w.servers = startServers(t)
	w.keystone = newKeystoneAPI(w.servers.url, w.servers.password)
	if err := w.keystone.login(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.step("Keystone and PostgreSQL started (%s)", w.servers.url)

	env := append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+tfrc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"JOINIT_ACCESS_TOKEN="+sandbox.DefaultToken,
		"OS_AUTH_URL="+w.servers.url, "OS_USERNAME=admin", "OS_PASSWORD="+w.servers.password,
		"OS_PROJECT_NAME=admin", "OS_USER_DOMAIN_NAME=Default", "OS_PROJECT_DOMAIN_NAME=Default",
		"OS_REGION_NAME=RegionOne", "OS_IDENTITY_API_VERSION=3")
	syncDir := filepath.Join(dir, "sync")
	w.relay = newRelay(t, relayBinary, dir, filepath.Join(syncDir, "sync.sh"), o.quietPeriod, env)
	w.sandbox, w.url = sandbox.StartForTest(t, sandbox.Options{Seed: o.seed, Memberships: o.memberships, Webhooks: sandbox.WebhookOptions{URL: w.relay.hookURL()}})
	w.sync = newSyncWork(t, syncDir, terraformBinary(t), w.sandbox.OrganizationID(), o.maxRemovals, env)
	w.sync.useSandbox(w.url)
	w.relay.start()
	w.step("the sandbox (%d memberships) sends its webhooks to joinit-relay (quiet period %s)", o.memberships, o.quietPeriod)
	return w
}

// step prints one line of the timeline: seconds since the world began.
func (w *world) step(format string, args ...any) {
	fmt.Fprintf(os.Stdout, "%7.1fs  %s\n", time.Since(w.began).Seconds(), fmt.Sprintf(format, args...))
}

// member is a sandbox membership as the module sees it: its _id, and its
// address as the module keys it (trimmed, lower-cased; "" when none).
type member struct{ id, email string }

// members are the sandbox's memberships of a status (nil: every status).
func (w *world) members(status *int) []member {
	var out []member
	for _, raw := range w.sandbox.MembershipsJSON(status) {
		var m struct {
			ID    string  `json:"_id"`
			Email *string `json:"email"`
		}
		_ = json.Unmarshal(raw, &m)
		e := ""
		if m.Email != nil {
			e = strings.ToLower(strings.TrimSpace(*m.Email))
		}
		out = append(out, member{m.ID, e})
	}
	return out
}

// activeEmails are the addresses the group must hold: those of the
// sandbox's active memberships.
func (w *world) activeEmails() map[string]bool {
	active := 100
	out := map[string]bool{}
	for _, m := range w.members(&active) {
		if m.email != "" {
			out[m.email] = true
		}
	}
	return out
}

// pickActive is an active membership whose address no other active
// membership shares (so cancelling it removes the address), not in taken.
func (w *world) pickActive(taken map[string]bool) (id, email string) {
	w.t.Helper()
	active := 100
	members := w.members(&active)
	count := map[string]int{}
	for _, m := range members {
		count[m.email]++
	}
	for _, m := range members {
		if m.email != "" && count[m.email] == 1 && !taken[m.email] {
			taken[m.email] = true
			return m.id, m.email
		}
	}
	w.t.Fatal("no active membership left with an address of its own")
	return "", ""
}

// emailOf is the address of a membership, as the module keys it.
func (w *world) emailOf(id string) string {
	for _, m := range w.members(nil) {
		if m.id == id {
			return m.email
		}
	}
	return ""
}

// cancel cancels a membership in the sandbox, which sends its webhooks to
// the relay before returning; each must have been answered 202.
func (w *world) cancel(id string) time.Time {
	w.t.Helper()
	at := time.Now()
	res, err := w.sandbox.ChangeMembership(id, sandbox.ChangeCancel)
	if err != nil {
		w.t.Fatal(err)
	}
	w.checkDelivered(res)
	return at
}

func (w *world) checkDelivered(res sandbox.ChangeResult) {
	w.t.Helper()
	for _, d := range res.Deliveries {
		if d.Status != 202 {
			w.t.Fatalf("webhook %s: %d (%s), want 202 from the relay", d.Event, d.Status, d.Error)
		}
	}
}

// group is the group's members as Keystone lists them.
func (w *world) group() map[string]bool {
	w.t.Helper()
	names, ok, err := w.keystone.groupMembers(context.Background(), groupName)
	if err != nil {
		w.t.Fatal(err)
	}
	if !ok {
		w.t.Fatalf("Keystone has no group %s", groupName)
	}
	return names
}

// waitUntil polls cond until it holds; past within the test fails, with
// the relay's log and last run.
func (w *world) waitUntil(what string, cond func() bool) {
	w.t.Helper()
	began := time.Now()
	for !cond() {
		if time.Since(began) > within {
			w.t.Fatalf("%s: not within %s\nrelay log:\n%s\nlast run:\n%s", what, within, w.relay.log(), w.relay.lastRunOutput())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// inGroup and notInGroup are waitUntil's usual conditions.
func (w *world) inGroup(email string) func() bool { return func() bool { return w.group()[email] } }

func (w *world) notInGroup(email string) func() bool { return func() bool { return !w.group()[email] } }

// within is how long a step may take: the quiet period, a few retries
// and a slow apply.
const within = 3 * time.Minute

// idle waits until the relay owes nothing and starts nothing.
func (w *world) idle() {
	w.t.Helper()
	w.waitUntil("the relay is idle", func() bool {
		h, err := w.relay.health()
		return err == nil && !h.RunOwed && !h.Starting
	})
}

// sameSet says how two sets differ; "" when they do not.
func sameSet(got, want map[string]bool) string {
	var missing, extra []string
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return fmt.Sprintf("missing %v, not wanted %v", missing, extra)
}

// lastApply is how long the last run took.
func (w *world) lastApply() time.Duration {
	runs := w.sync.runs()
	if len(runs) == 0 {
		return 0
	}
	r := runs[len(runs)-1]
	return r.end.Sub(r.start)
}
