package client

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// benchPage is a page of the sandbox's first n memberships.
func benchPage(n int) []byte {
	return sandbox.New(sandbox.Options{Seed: 1, Memberships: n}).MembershipsArrayJSON(nil)
}

// BenchmarkDecodeMembershipPage decodes one full page of 1000 memberships.
func BenchmarkDecodeMembershipPage(b *testing.B) {
	body := benchPage(1000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pagejson.DecodeArray[Membership](body, false, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeMembershipPageLean decodes the same page as the lean read
// does: summaries, _id and email only.
func BenchmarkDecodeMembershipPageLean(b *testing.B) {
	body := benchPage(1000)
	only, err := pagejson.NewMask[MembershipSummary]([]string{"email"})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pagejson.DecodeArray[MembershipSummary](body, false, only); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadMemberships reads 100,000 memberships from the sandbox with
// no latency: the client's CPU cost of a large read.
func BenchmarkReadMemberships100k(b *testing.B) {
	_, url := sandbox.StartForTest(b, sandbox.Options{Seed: 1, Memberships: 100_000})
	b.ReportAllocs()
	for b.Loop() {
		c, err := New(Config{BaseURL: url, Token: sandbox.DefaultToken})
		if err != nil {
			b.Fatal(err)
		}
		got, err := c.Memberships(context.Background(), MembershipQuery{})
		if err != nil || len(got) != 100_000 {
			b.Fatalf("read %d records: %v", len(got), err)
		}
	}
}

// BenchmarkReadMembershipSummaries100k is the lean read of 100,000
// memberships, with and without the organization guard, which decodes
// organization_id of every record and compares it: the guard's cost.
func BenchmarkReadMembershipSummaries100k(b *testing.B) {
	sb, url := sandbox.StartForTest(b, sandbox.Options{Seed: 1, Memberships: 100_000})
	var first struct {
		Org string `json:"organization_id"`
	}
	if err := json.Unmarshal(sb.MembershipsJSON(nil)[0], &first); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, org string }{{"unguarded", ""}, {"guarded", first.Org}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := New(Config{BaseURL: url, Token: sandbox.DefaultToken, OrganizationID: bc.org})
				if err != nil {
					b.Fatal(err)
				}
				got, err := c.MembershipSummaries(context.Background(), MembershipQuery{})
				if err != nil || len(got) != 100_000 {
					b.Fatalf("read %d records: %v", len(got), err)
				}
			}
		})
	}
}
