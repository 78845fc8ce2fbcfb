package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The chaos campaign (`make chaos`; not part of `make test`): every data
// source read at once, in each of its coverageVariants, in one real
// `terraform apply`, against a sandbox whose
// first and second attempts of each request go wrong on a seeded schedule
// (sandbox.Chaos): transient faults alone, then with 200s that lie. List
// sizes cycle through empty, short of a page, exact multiples of the page
// size and a short last page. Each run is judged against the same reads of
// the same data served without faults: exact (every data source's whole
// state equal), loud (the apply failed) or wrong (any other state). Goals: transient faults alone, every run exact;
// with lies, told once or again on the next two attempts, none wrong and at least 90% exact.
//
//	JOINIT_CHAOS_RUNS=200 go test ./internal/provider -run '^TestChaosCampaign$' -v -timeout 60m
//
// A run's seed is its number, from 1 (JOINIT_CHAOS_SEED=N starts there: a
// run that was not exact, whose seed the log names, is run again with
// JOINIT_CHAOS_SEED=N alone).

// chaosPageSize is the page size of every read of the campaign: lists of a
// few dozen records then take several pages.
const chaosPageSize = 10

// chaosReads are the campaign's reads, by output name: every registered
// data source in each of its coverageVariants, in pages of chaosPageSize.
func chaosReads() map[string]chaosRead {
	out := map[string]chaosRead{}
	for _, d := range registeredTests() {
		for name, args := range coverageVariants(d) {
			args = maps.Clone(args)
			args["page_size"] = tftypes.NewValue(tftypes.Number, chaosPageSize)
			out[d.def.name+"_"+variantLabel(name)] = chaosRead{def: d.def, args: args}
		}
	}
	return out
}

type chaosRead struct {
	def  *dataSourceDef
	args map[string]tftypes.Value
}

// chaosConfig reads chaosReads and outputs each whole.
func chaosConfig(reads map[string]chaosRead) string {
	config := `
terraform {
  required_providers {
    joinit = {
      source = "joinit-community/joinit"
    }
  }
}
`
	for _, label := range slices.Sorted(maps.Keys(reads)) {
		r := reads[label]
		config += variantBlock(r.def, label, r.args, "")
		config += fmt.Sprintf("output %q { value = data.joinit_%s.%s }\n", label, r.def.name, label)
	}
	return config
}

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
	first, _ := strconv.Atoi(os.Getenv("JOINIT_CHAOS_SEED"))
	if first > 0 && runs <= 0 {
		runs = 1
	}
	if runs <= 0 {
		t.Skip("the chaos campaign runs with `make chaos` (JOINIT_CHAOS_RUNS=N, or JOINIT_CHAOS_SEED=N for one run)")
	}
	first = max(first, 1)
	t.Logf("seeds %d to %d", first, first+runs-1)
	for _, mode := range campaignModes() {
		var mu sync.Mutex
		var counts [3]int
		start := time.Now()
		sem := make(chan struct{}, 3) // terraform processes at once, on 2 cores
		var wg sync.WaitGroup
		for seed := first; seed < first+runs; seed++ {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				// A subtest a run, so that its sandboxes and directory go
				// when it ends; one that failed (t.Fatal) has no outcome.
				var outcome campaignOutcome
				var why string
				if !t.Run(fmt.Sprintf("%s/seed_%d", mode.name, seed), func(t *testing.T) {
					outcome, why = campaignRun(t, uint64(seed), mode.chaos)
				}) {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				counts[outcome]++
				if outcome != campaignExact {
					t.Logf("%s seed %d: %s", mode.name, seed, why)
				}
				if outcome == campaignWrong {
					t.Errorf("%s seed %d: a wrong list: %s", mode.name, seed, why)
				}
			}()
		}
		wg.Wait()
		t.Logf("chaos campaign, %s: %d runs in %s: %d exact, %d loud, %d wrong", mode.name, runs, time.Since(start).Round(time.Second),
			counts[campaignExact], counts[campaignLoud], counts[campaignWrong])
		fmt.Printf("chaos campaign, %s: %d runs: %d exact, %d loud, %d wrong\n", mode.name, runs, counts[campaignExact], counts[campaignLoud], counts[campaignWrong])
		if !mode.chaos.Lies && counts[campaignExact] != runs {
			t.Errorf("%s: %d of %d runs exact, want all", mode.name, counts[campaignExact], runs)
		}
		if mode.chaos.Lies && counts[campaignExact]*10 < runs*9 {
			t.Errorf("%s: %d of %d runs exact, want at least 90%%", mode.name, counts[campaignExact], runs)
		}
	}
}

// campaignMode is one kind of schedule the campaign runs: its chaos,
// whose Seed each run sets.
type campaignMode struct {
	name  string
	chaos sandbox.Chaos
}

// campaignModes are the schedules: transient faults alone, with 200s that
// lie once, and with plausible lies told again on the next two attempts
// (a cache keyed by URL). JOINIT_CHAOS_MODES=transient,lies,repeated
// picks some.
func campaignModes() []campaignMode {
	all := []campaignMode{
		{"transient", sandbox.Chaos{Share: 0.15}},
		{"lies", sandbox.Chaos{Share: 0.15, Lies: true}},
		{"repeated", sandbox.Chaos{Share: 0.15, Lies: true, Tellings: 3}},
	}
	want := os.Getenv("JOINIT_CHAOS_MODES")
	if want == "" {
		return all
	}
	var out []campaignMode
	for _, m := range all {
		if slices.Contains(strings.Split(want, ","), m.name) {
			out = append(out, m)
		}
	}
	return out
}

// campaignRun applies chaosConfig once against a chaos sandbox of seed and
// judges the outputs.
func campaignRun(t *testing.T, seed uint64, chaos sandbox.Chaos) (campaignOutcome, string) {
	chaos.Seed = seed
	records := map[string]int{}
	for i, e := range apispec.Endpoints {
		records[e.Name] = campaignSizes[(int(seed)+i)%len(campaignSizes)]
	}
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: int64(seed), Records: records,
		Faults: sandbox.Faults{Chaos: chaos}})

	reads := chaosReads()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(chaosConfig(reads)), 0o600); err != nil {
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
	// The truth: the same reads of the same data, served without faults.
	_, cleanURL := sandbox.StartForTest(t, sandbox.Options{Seed: int64(seed), Records: records})
	c := testClient(t, client.Config{BaseURL: cleanURL, Token: sandbox.DefaultToken})
	for label, r := range reads {
		state, _, err := r.def.readChecked(ctx, c, configOf(r.def, r.args), maxResultBytes)
		if err != nil {
			t.Fatalf("seed %d: %s without faults: %v", seed, label, err)
		}
		want := stateJSON(tfattr.ReferenceValue(r.def.attrs, state))
		var got any
		if o, ok := outputs[label]; ok {
			dec := json.NewDecoder(bytes.NewReader(o.Value))
			dec.UseNumber()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("seed %d: output %s: %v", seed, label, err)
			}
		}
		if !reflect.DeepEqual(got, want) {
			return campaignWrong, fmt.Sprintf("%s differs from the read without faults", label)
		}
	}
	return campaignExact, ""
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
