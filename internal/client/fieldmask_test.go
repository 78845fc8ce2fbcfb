package client

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A masked decode fills exactly the masked fields (and _id), and fills
// them as the full decoder does.
func TestMaskedDecodeEqualsFullDecodeOnMaskedFields(t *testing.T) {
	t.Parallel()
	page := sandbox.New(sandbox.Options{Seed: 5, Memberships: 40}).MembershipsArrayJSON(nil)
	full, err := pagejson.DecodeArray[Membership](page, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[Membership]()
	for name, index := range pagejson.FieldIndex(typ) {
		only, err := pagejson.NewMask[Membership]([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		masked, err := pagejson.DecodeArray[Membership](page, false, only)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		set := 0
		for i := range full {
			want := reflect.New(typ).Elem()
			want.Field(index).Set(reflect.ValueOf(full[i].Rec).Field(index))
			want.FieldByName("ID").Set(reflect.ValueOf(full[i].Rec.ID))
			if got := reflect.ValueOf(masked[i].Rec); !reflect.DeepEqual(got.Interface(), want.Interface()) {
				t.Fatalf("mask %q, record %d:\n got %+v\nwant %+v", name, i, got.Interface(), want.Interface())
			}
			if !want.Field(index).IsNil() {
				set++
			}
		}
		if set == 0 {
			t.Errorf("mask %q: no record of the sample has the field, so the check proves nothing", name)
		}
	}
}

// The lean decoder skips what it does not return, however large or deeply
// nested, without allocating it, and still reads names spelled with escapes.
// Not parallel: it measures the process's allocations.
func TestLeanDecodeSkipsUnknownAndHugeFields(t *testing.T) {
	huge := strings.Repeat("x", 4<<20)
	nested := strings.Repeat(`{"a":[`, 200) + `"deep"` + strings.Repeat(`]}`, 200)
	page := []byte(fmt.Sprintf(`[
	  {"display_name":%q,"x_blob":{"blob":%q,"list":[1,2,{"k":null}]},"_id":"a","email":"a@example.com","x_nested":%s},
	  {"_id":"b","profile":{"first_name":"B","address":{"unknown_nested":{"x":[1,{"y":2}]}}},"\u0065mail":"b@example.com","custom_answers":[{"answer":%q}]},
	  {"_id":"c","email":null,"status":"not a number in a skipped field"},
	  {"email":"d@example.com","_id":"d","email":"d2@example.com"}
	]`, huge, huge, nested, huge))
	only, err := pagejson.NewMask[Membership]([]string{"email"})
	if err != nil {
		t.Fatal(err)
	}
	var recs []pagejson.Record[Membership]
	allocated := allocatedBy(func() { recs, err = pagejson.DecodeArray[Membership](page, false, only) })
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, email string }{{"a", "a@example.com"}, {"b", "b@example.com"}, {"c", ""}, {"d", "d2@example.com"}}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i].Rec
		if deref(r.ID) != w.id || deref(r.Email) != w.email || (w.email == "") != (r.Email == nil) {
			t.Errorf("record %d: id %v email %v, want %q %q", i, r.ID, r.Email, w.id, w.email)
		}
		r.ID, r.Email = nil, nil
		if !reflect.DeepEqual(r, Membership{}) {
			t.Errorf("record %d: a field that was not asked for was decoded: %+v", i, r)
		}
	}
	// Three 4 MiB strings are skipped, not allocated.
	if allocated > 1<<20 {
		t.Errorf("the lean decode allocated %d bytes; the skipped fields should cost nothing", allocated)
	}
	// Without the mask the same page allocates the huge fields: the
	// measure above can see them.
	if full := allocatedBy(func() { _, _ = pagejson.DecodeArray[Membership](page, false, nil) }); full < 4<<20 {
		t.Errorf("the full decode allocated only %d bytes; the allocation check cannot tell", full)
	}
}

func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A masked field with the wrong type fails as the full decoder does; a
// skipped one is not read, but the page must still be JSON.
func TestMaskedDecodeErrors(t *testing.T) {
	t.Parallel()
	only, _ := pagejson.NewMask[Membership]([]string{"email"})
	cases := []struct {
		page, want string
	}{
		{`[{"_id":"a","email":5}]`, `record 1: field "email": got a number, want a string`},
		{`[{"_id":"a","profile":{"x":[1,}}]`, "malformed JSON"},
		{`[{"_id":"a","email":"x"`, "truncated"},
	}
	for _, tc := range cases {
		_, err := pagejson.DecodeArray[Membership]([]byte(tc.page), false, only)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.page, err, tc.want)
		}
	}
	if _, err := pagejson.NewMask[Membership]([]string{"membership_id"}); err == nil || !strings.Contains(err.Error(), `"membership_id"`) {
		t.Errorf("an unknown field name: error %v", err)
	}
}

// Reads with different masks hold different records: the in-run cache
// must not answer a full read with a lean one's records.
func TestMaskedReadsAreCachedApart(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 9, Memberships: 30, Payments: 10})
	c := newClient(t, Config{BaseURL: url, Token: sandbox.DefaultToken})
	ctx := context.Background()
	lean, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{Fields: []string{"email"}}})
	if err != nil {
		t.Fatal(err)
	}
	full, err := c.Memberships(ctx, MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lean) != 30 || len(full) != 30 || lean[0].Created != nil || full[0].Created == nil || full[0].Email == nil {
		t.Fatalf("lean and full reads mixed up: lean created %v, full created %v", lean[0].Created, full[0].Created)
	}
	pays, err := c.Payments(ctx, ListOptions{Fields: []string{"total"}})
	if err != nil || len(pays) == 0 || pays[0].Total == nil || pays[0].Currency != nil || pays[0].ID == nil {
		t.Fatalf("payments with fields [total]: %v, %+v", err, pays)
	}
}

// Summaries are the lean read: ids and e-mails, and the type fields only
// when asked for; they agree with the full read.
func TestMembershipSummaries(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 10, Memberships: 45})
	c := newClient(t, Config{BaseURL: url, Token: sandbox.DefaultToken})
	ctx := context.Background()
	full, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	lean, err := c.MembershipSummaries(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	typed, err := c.MembershipSummaries(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10, Fields: []string{"membership_name"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(lean) != len(full) || len(typed) != len(full) {
		t.Fatalf("%d and %d summaries of %d memberships", len(lean), len(typed), len(full))
	}
	for i, m := range full {
		want := MembershipSummary{ID: m.ID, Email: m.Email}
		if !reflect.DeepEqual(lean[i], want) {
			t.Fatalf("summary %d: %+v, want %+v", i, lean[i], want)
		}
		want.MembershipName = m.MembershipName
		if !reflect.DeepEqual(typed[i], want) {
			t.Fatalf("summary %d with membership_name: %+v, want %+v", i, typed[i], want)
		}
	}
}
