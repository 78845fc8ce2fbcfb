package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The chaos campaign (`make chaos`; not part of `make test`): every data
// source read at once in one real `terraform apply`, against a sandbox whose
// first and second attempts of each request go wrong on a seeded schedule
// (sandbox.Chaos): transient faults alone, then with 200s that lie. List
// sizes cycle through empty, short of a page, exact multiples of the page
// size and a short last page. Each run is judged against the sandbox's own
// records: exact (every list equal, in order), loud (the apply failed) or
// wrong (any other list). Goals: transient faults alone, every run exact;
// with lies, none wrong and at least 90% exact.
//
//	JOINIT_CHAOS_RUNS=200 go test ./internal/provider -run '^TestChaosCampaign$' -v -timeout 60m

// chaosConfig reads every data source in pages of 10 and outputs, for each,
// the ids (or metric keys) it returned, in order.
const chaosConfig = `
terraform {
  required_providers {
    joinit = {
      source = "joinit-community/joinit"
    }
  }
}
data "joinit_memberships" "all" {
  page_size = 10
}
data "joinit_memberships" "active" {
  status    = 100
  page_size = 10
}
data "joinit_memberships" "lean" {
  include_records = false
  page_size       = 10
}
data "joinit_memberships" "fields" {
  fields    = ["id", "email"]
  page_size = 10
}
data "joinit_payments" "all" {
  page_size = 10
}
data "joinit_groups" "all" {
  page_size = 10
}
data "joinit_org_metrics" "all" {
  page_size = 10
}
output "memberships" { value = [for m in data.joinit_memberships.all.memberships : m.id] }
output "active_memberships" { value = [for m in data.joinit_memberships.active.memberships : m.id] }
output "lean_memberships" { value = data.joinit_memberships.lean.ids }
output "fields_memberships" { value = [for r in data.joinit_memberships.fields.records : r.id] }
output "payments" { value = [for p in data.joinit_payments.all.payments : p.id] }
output "groups" { value = [for g in data.joinit_groups.all.groups : g.id] }
output "org_metrics" { value = [for r in data.joinit_org_metrics.all.results : tostring(r.metric_period_key)] }
`

// campaignSizes are the list sizes runs cycle through, in pages of 10.
var campaignSizes = []int{0, 7, 10, 30, 37, 41}

type campaignOutcome int

const (
	campaignExact campaignOutcome = iota
	campaignLoud
	campaignWrong
)

func TestChaosCampaign(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("JOINIT_CHAOS_RUNS"))
	if runs <= 0 {
		t.Skip("the chaos campaign runs with `make chaos` (JOINIT_CHAOS_RUNS=N)")
	}
	for _, lies := range []bool{false, true} {
		var mu sync.Mutex
		var counts [3]int
		start := time.Now()
		sem := make(chan struct{}, 3) // terraform processes at once, on 2 cores
		var wg sync.WaitGroup
		for seed := 1; seed <= runs; seed++ {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				outcome, why := campaignRun(t, uint64(seed), lies)
				mu.Lock()
				defer mu.Unlock()
				counts[outcome]++
				if outcome != campaignExact {
					t.Logf("lies=%v seed %d: %s", lies, seed, why)
				}
				if outcome == campaignWrong {
					t.Errorf("lies=%v seed %d: a wrong list: %s", lies, seed, why)
				}
			}()
		}
		wg.Wait()
		t.Logf("chaos campaign, lies=%v: %d runs in %s: %d exact, %d loud, %d wrong", lies, runs, time.Since(start).Round(time.Second),
			counts[campaignExact], counts[campaignLoud], counts[campaignWrong])
		fmt.Printf("chaos campaign, lies=%v: %d runs: %d exact, %d loud, %d wrong\n", lies, runs, counts[campaignExact], counts[campaignLoud], counts[campaignWrong])
		if !lies && counts[campaignExact] != runs {
			t.Errorf("transient faults alone: %d of %d runs exact, want all", counts[campaignExact], runs)
		}
		if lies && counts[campaignExact]*10 < runs*9 {
			t.Errorf("with lies: %d of %d runs exact, want at least 90%%", counts[campaignExact], runs)
		}
	}
}

// campaignRun applies chaosConfig once against a chaos sandbox of seed and
// judges the outputs.
func campaignRun(t *testing.T, seed uint64, lies bool) (campaignOutcome, string) {
	size := func(k int) int { return campaignSizes[(int(seed)+k)%len(campaignSizes)] }
	sb := sandbox.New(sandbox.Options{Seed: int64(seed), Memberships: size(0), Payments: size(1), Groups: size(2), OrgMetrics: size(3),
		Faults: sandbox.Faults{Chaos: sandbox.Chaos{Seed: seed, Share: 0.15, Lies: lies}}})
	url := sb.Start()
	defer sb.Close()

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(chaosConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := newCLITerraform(t, dir, map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := tf.Apply(ctx); err != nil {
		return campaignLoud, firstLine(tf.output())
	}
	outputs, err := tf.Output(ctx)
	if err != nil {
		t.Fatalf("seed %d: terraform output: %v", seed, err)
	}
	status := 100
	want := map[string][]string{
		"memberships":        campaignIDs(t, sb.MembershipsJSON(nil), "_id"),
		"active_memberships": campaignIDs(t, sb.MembershipsJSON(&status), "_id"),
		"lean_memberships":   campaignIDs(t, sb.MembershipsJSON(nil), "_id"),
		"fields_memberships": campaignIDs(t, sb.MembershipsJSON(nil), "_id"),
		"payments":           campaignIDs(t, sb.RecordsJSON(sandbox.EndpointPayments), "_id"),
		"groups":             campaignIDs(t, sb.RecordsJSON(sandbox.EndpointGroups), "_id"),
		"org_metrics":        campaignIDs(t, sb.RecordsJSON(sandbox.EndpointOrgMetrics), "metric_period_key"),
	}
	for name, ids := range want {
		var got []string
		if o, ok := outputs[name]; ok {
			if err := json.Unmarshal(o.Value, &got); err != nil {
				t.Fatalf("seed %d: output %s: %v", seed, name, err)
			}
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			return campaignWrong, fmt.Sprintf("%s: %d records, want %d", name, len(got), len(ids))
		}
	}
	return campaignExact, ""
}

// campaignIDs is the value of member in each sandbox record, as text.
func campaignIDs(t *testing.T, raws []json.RawMessage, member string) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		var v map[string]json.RawMessage
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatal(err)
		}
		out[i] = strings.Trim(string(v[member]), `"`)
	}
	return out
}

// firstLine is the first line of terraform's output that says what failed.
func firstLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(strings.Trim(l, "│╷╵ ")); strings.HasPrefix(l, "Error:") {
			return l
		}
	}
	return strings.TrimSpace(out)[:min(200, len(strings.TrimSpace(out)))]
}
