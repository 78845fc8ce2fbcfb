package client

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// weighByReflection counts what weigh does, by another route: every
// string reachable (pointers, JSON text, the raw JSON, list elements) for
// the text; for a nested object that is there its fields, and for a list
// one value per element plus an element object's fields.
func weighByReflection(v reflect.Value, top bool) (nested, text int64) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 0, 0
		}
		if v.Elem().Kind() == reflect.Struct && !top {
			nested += int64(len(jsonFields(v.Elem().Type())))
		}
		n, t := weighByReflection(v.Elem(), false)
		return nested + n, t
	case reflect.String:
		return 0, int64(v.Len())
	case reflect.Slice:
		for i := range v.Len() {
			e := v.Index(i)
			nested++
			if e.Kind() == reflect.Struct {
				nested += int64(len(jsonFields(e.Type())))
			}
			n, t := weighByReflection(e, false)
			nested, text = nested+n, text+t
		}
	case reflect.Struct:
		for i := range v.NumField() {
			n, t := weighByReflection(v.Field(i), false)
			nested, text = nested+n, text+t
		}
	}
	return nested, text
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// checkWeighs holds weigh equal to the reflective count on every record.
func checkWeighs[T any, PT interface {
	*T
	record
}](t *testing.T, what string, recs []T) {
	t.Helper()
	for i := range recs {
		n, x := PT(&recs[i]).weigh()
		wn, wx := weighByReflection(reflect.ValueOf(&recs[i]), true)
		if n != wn || x != wx {
			t.Fatalf("%s record %d: weigh says %d nested values and %d bytes of text, the fields hold %d and %d", what, i, n, x, wn, wx)
		}
	}
}

// Every record type's hand-written weigh counts every field it has: a
// field added to a record and forgotten there goes red here.
func TestWeighCountsEveryField(t *testing.T) {
	t.Parallel()
	_, u := sandbox.StartForTest(t, sandbox.Options{Seed: 7, Memberships: 300, Payments: 200, Groups: 30, OrgMetrics: 30})
	c := newClient(t, Config{BaseURL: u})
	ctx := context.Background()
	raw := ListOptions{KeepRaw: true}
	ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: raw})
	if err != nil {
		t.Fatal(err)
	}
	checkWeighs[Membership](t, "membership", ms)
	sums, err := c.MembershipSummaries(ctx, MembershipQuery{ListOptions: ListOptions{Fields: []string{"membership_name", "membership_type"}}})
	if err != nil {
		t.Fatal(err)
	}
	checkWeighs[MembershipSummary](t, "summary", sums)
	ps, err := c.Payments(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	checkWeighs[Payment](t, "payment", ps)
	gs, err := c.Groups(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	checkWeighs[Group](t, "group", gs)
	om, err := c.OrgMetrics(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	checkWeighs[OrgMetric](t, "org metric", om.Results)
	if profiles, answers := countNested(ms); profiles == 0 || answers == 0 {
		t.Fatalf("the data set has %d profiles and %d custom answers: the nested counts are not exercised", profiles, answers)
	}
}

func countNested(ms []Membership) (profiles, answers int) {
	for _, m := range ms {
		if m.Profile != nil {
			profiles++
		}
		if m.CustomAnswers != nil {
			answers += len(*m.CustomAnswers)
		}
	}
	return profiles, answers
}

// budgetError reads memberships from a sandbox with faults and returns
// the budget error the read must fail with.
func budgetError(t *testing.T, cfg Config, f sandbox.Faults, q MembershipQuery) *BudgetError {
	t.Helper()
	_, u := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 40, Faults: f})
	cfg.BaseURL = u
	c := newClient(t, cfg)
	ms, err := c.Memberships(context.Background(), q)
	var over *BudgetError
	if !errors.As(err, &over) || ms != nil {
		t.Fatalf("got %d records and %v; want a *BudgetError", len(ms), err)
	}
	if msg := err.Error(); !strings.Contains(msg, "memberships: ") || (over.Over == "values" && !strings.Contains(msg, "raise Config.MaxValues")) {
		t.Fatalf("the message does not say where the read stopped and what to do: %s", msg)
	}
	return over
}

// A server that never ends its list is stopped by the budget, not by the
// page cap or the timeout. (The default budget stops it the same way,
// after 295 pages: joinit-bench's bounds table.)
func TestServerThatPagesForeverFailsAtTheBudget(t *testing.T) {
	t.Parallel()
	const budget = 500_000
	over := budgetError(t, Config{MaxValues: budget}, sandbox.Faults{EndlessPages: true}, MembershipQuery{})
	width := int64(len(jsonFields(reflect.TypeFor[Membership]())))
	if over.Over != "values" || over.Values != budget/width*width+width || over.Pages != over.Records/1000+1 {
		t.Fatalf("%+v; want the budget of %d values passed by one record of %d", *over, budget, width)
	}
}

// One page of 200,000 records fails as it is kept, before anything is
// handed on; so does one record of a million custom answers (values nested
// in a record count).
func TestHugePageAndBloatedRecordFailAtTheBudget(t *testing.T) {
	t.Parallel()
	width := len(jsonFields(reflect.TypeFor[Membership]()))
	s, u := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 40, Faults: sandbox.Faults{HugePage: 200_000}})
	_, err := newClient(t, Config{BaseURL: u, MaxValues: 1_000_000}).Memberships(context.Background(), MembershipQuery{})
	over, ok := errors.AsType[*BudgetError](err)
	// Decoding stops at the first record the whole budget cannot hold,
	// and the page is not asked again.
	if !ok || over.Over != "page" || over.Pages != 1 || over.Records != 1_000_000/width+2 || s.Requests("memberships") != 1 {
		t.Fatalf("%v; want page 1 refused at record %d, asked once (asked %d times)", err, 1_000_000/width+2, s.Requests("memberships"))
	}
	if msg := err.Error(); msg != fmt.Sprintf("memberships: page 1 alone holds more than %s records, past the budget of 1,000,000 values that bounds what one read holds and hands Terraform; its decoding stopped there. To read more, raise Config.MaxValues", failure.Thousands(int64(1_000_000/width+1))) {
		t.Fatalf("message: %s", msg)
	}
	if over := budgetError(t, Config{}, sandbox.Faults{BloatAnswers: 1_000_000}, MembershipQuery{}); over.Over != "record" || over.Records != 1 || over.RecordValues < 4_000_000 {
		t.Fatalf("%+v; want the first record, holding four million values", *over)
	}
	// A record of 2,000 answers (8,000 values and its fields) is not refused.
	_, u = sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 40, Faults: sandbox.Faults{BloatAnswers: 2_000}})
	if ms, err := newClient(t, Config{BaseURL: u}).Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 40 {
		t.Fatalf("2,000 custom answers: %d records, %v", len(ms), err)
	}
}

// Text counts against the message ceiling (MaxBytes): the raw JSON of
// every record is kept as text.
func TestTextPastMaxBytesFails(t *testing.T) {
	t.Parallel()
	over := budgetError(t, Config{MaxBytes: 20_000}, sandbox.Faults{}, MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
	if over.Over != "bytes" || over.Values+over.Bytes <= 20_000 || over.Records >= 40 {
		t.Fatalf("%+v; want the bytes bound passed before the 40th record", *over)
	}
}

// JSON text nested deeper than MaxJSONTextDepth fails the read, naming
// the field and the record.
func TestDeepJSONTextFails(t *testing.T) {
	t.Parallel()
	s, u := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 40, Faults: sandbox.Faults{BloatDepth: 9000}})
	c := newClient(t, Config{BaseURL: u})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	if err == nil || !strings.Contains(err.Error(), `record 1: field "profile.address": the value nests 9000 levels`) {
		t.Fatalf("got %v; want the read to fail naming record 1's address and its depth", err)
	}
	if n := s.Requests("memberships"); n != 1 {
		t.Fatalf("%d requests; want page 1 asked once (the same answer would be refused again)", n)
	}
	t.Log(err)
	_, u = sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 40, Faults: sandbox.Faults{BloatDepth: MaxJSONTextDepth}})
	if ms, err := newClient(t, Config{BaseURL: u}).Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 40 {
		t.Fatalf("an address %d levels deep: %d records, %v", MaxJSONTextDepth, len(ms), err)
	}
}

// BenchmarkWeighMembership is the budget's cost a record: weigh runs for
// every record of every read.
//
//	go test ./internal/client -run '^$' -bench WeighMembership
func BenchmarkWeighMembership(b *testing.B) {
	_, u := sandbox.StartForTest(b, sandbox.Options{Seed: 7, Memberships: 1000})
	ms, err := newClient(b, Config{BaseURL: u}).Memberships(context.Background(), MembershipQuery{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var n int64
	for i := range b.N {
		v, t := ms[i%len(ms)].weigh()
		n += v + t
	}
	if n == 0 {
		b.Fatal("weighed nothing")
	}
}
